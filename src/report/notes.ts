// What every command says about its inputs on stderr: one note per input problem, and, when the
// inputs hold nothing to diagnose, one line saying so plainly (the command then exits 2 and prints
// no report: an empty report would look like a healthy cluster).

import type { InputIssue } from '../ingest/sources.js';
import type { SourceAccounting } from '../parse/types.js';
import { escapeText } from './escape.js';
import { totalsOf } from './summary.js';
import { counted } from '../util/text.js';
import type { EventsShown } from './events.js';

/** `note: FILE:LINE: MESSAGE`, escaped (file names and messages can hold anything). */
export function noteLine(i: InputIssue): string {
  return `note: ${escapeText(i.file)}${i.line !== null ? `:${i.line}` : ''}: ${escapeText(i.message)}`;
}

/**
 * The note of `events --format events` over an input folder whose first folders below named hosts
 * (ingest/sources.ts, hostsNamedBelow): events files are merged by host name, and one machine's log
 * folder names its applications' folders as hosts, the same on every machine.
 */
export function hostsBelowNote(folder: string, hosts: readonly string[]): string {
  return noteLine({
    file: folder,
    line: null,
    message: `hosts named from the folders below it (${hosts.join(', ')}); events files are merged by host name: if the folder is one machine's, give its parse --set-host '**=NAME'`,
  });
}

interface ReadInputs {
  sources: readonly unknown[];
  accounting: readonly SourceAccounting[];
}

const num = (n: number) => n.toLocaleString('en-US');

/**
 * Why the inputs hold nothing to diagnose, or null when they do. Nothing is there when no line
 * makes a record of a known layout and no RocketMQ event was found in the lines outside records
 * (a headerless paste of one RocketMQ message still counts). `inputs` are the arguments as given.
 */
export function nothingToDiagnose(t: ReadInputs, inputs: readonly string[]): string | null {
  const { lines, records, events } = totalsOf(t.accounting);
  if (records > 0 || events > 0) return null;
  const where = escapeText(inputs.join(' '));
  if (t.sources.length === 0) return `nothing could be read from ${where}`;
  const files = counted(t.sources.length, 'file');
  if (lines === 0) return `nothing could be read from ${where}: ${files}, 0 lines`;
  return `no RocketMQ log found in ${where}: ${files}, ${counted(lines, 'line')}, 0 records of a known layout`;
}

/** A note when records were read but none is a RocketMQ message (an application's own log, say). */
export function noRocketmqEvent(t: ReadInputs, inputs: readonly string[]): string | null {
  const { records, events } = totalsOf(t.accounting);
  if (records === 0 || events > 0) return null;
  return `note: no RocketMQ event in ${escapeText(inputs.join(' '))}: ${counted(t.sources.length, 'file')}, ${counted(records, 'record')} of a known layout, none of them a RocketMQ message`;
}

/**
 * The events accounting in one line (stderr, after the events): `15,329 lines in 14 files
 * (0 unknown, 0 unreadable); 133 of 10,037 events`, and `, 1,501 other records` when records that
 * are no event were shown (--all, --type other: the accounting's events do not count them);
 * `--stats` gives the table.
 */
export function accountingLine(t: Pick<ReadInputs, 'accounting'>, shown: EventsShown): string {
  const x = totalsOf(t.accounting);
  const other = shown.other > 0 ? `, ${counted(shown.other, 'other record')}` : '';
  return `${num(x.lines)} lines in ${counted(x.files, 'file')} (${num(x.unknown)} unknown, ${num(x.unreadable)} unreadable); ${num(shown.events)} of ${num(x.events)} events${other}`;
}
