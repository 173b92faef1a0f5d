// What every command says about its inputs on stderr: one note per input problem, and, when the
// inputs hold nothing to diagnose, one line saying so plainly (the command then exits 2 and prints
// no report: an empty report would look like a healthy cluster).

import type { InputIssue } from '../ingest/sources.js';
import type { SourceAccounting } from '../parse/types.js';
import { escapeText } from './escape.js';
import { totalsOf } from './summary.js';
import { counted } from '../util/text.js';
import type { EventsShown } from './events.js';
import { LAYOUTS } from '../parse/layouts.js';

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

/** Notes of one kind shown before the rest are counted in one line (--verbose shows them all). */
export const NOTES_OF_A_KIND = 3;

/**
 * The input notes as stderr lines. Notes of one kind (the same message but for its numbers: `no
 * known log layout in the first lines`, `binary data`) are shown NOTES_OF_A_KIND times, the rest
 * counted in one line after them: a folder like /etc yields hundreds of the same note, and the
 * one line that matters would scroll away. `verbose`: every note.
 */
export function noteLines(issues: readonly InputIssue[], verbose = false): string[] {
  if (verbose) return issues.map(noteLine);
  const shown: string[] = [];
  const hidden = new Map<string, { first: string; notes: number; files: Set<string> }>();
  const seen = new Map<string, number>();
  for (const i of issues) {
    const kind = i.message.replace(/\d[\d,]*/g, '#');
    const n = (seen.get(kind) ?? 0) + 1;
    seen.set(kind, n);
    if (n <= NOTES_OF_A_KIND) {
      shown.push(noteLine(i));
      continue;
    }
    const h = hidden.get(kind) ?? { first: kind, notes: 0, files: new Set<string>() };
    h.notes++;
    h.files.add(i.file);
    hidden.set(kind, h);
  }
  for (const h of hidden.values()) {
    const what = h.first.split(/: | \(/)[0].replace(/#/g, 'N');
    shown.push(`note: ${counted(h.notes, 'more note')} like "${escapeText(what)}" (${counted(h.files.size, 'file')}); --verbose lists them`);
  }
  return shown;
}

/**
 * The layouts of RocketMQ's own logs and clients (every layout but an application's): a record in
 * one is a RocketMQ log even on a day with no message rmq-diag knows.
 */
const ROCKETMQ_LAYOUTS: ReadonlySet<string> = new Set(LAYOUTS.filter((l) => l.impliesKind !== 'app').map((l) => l.id));

/** Records read in RocketMQ's layouts (a source's layout is `primary+other+...`). */
function rocketmqRecords(acc: readonly SourceAccounting[]): number {
  let n = 0;
  for (const a of acc) if (a.records > 0 && a.layout.split('+').some((l) => ROCKETMQ_LAYOUTS.has(l))) n += a.records;
  return n;
}

/**
 * Why the inputs hold nothing to diagnose, or null when they do. Nothing is there when no RocketMQ
 * event was found (in records or in the lines outside them: a headerless paste of one RocketMQ
 * message counts) and no record is in a layout of RocketMQ's (a quiet broker.log counts): records of
 * an application's layout alone (/var/log's dated lines, an application log with no RocketMQ
 * message) are no RocketMQ log. `inputs` are the arguments as given.
 */
export function nothingToDiagnose(t: ReadInputs, inputs: readonly string[]): string | null {
  const { lines, records, events } = totalsOf(t.accounting);
  if (events > 0 || rocketmqRecords(t.accounting) > 0) return null;
  const where = escapeText(inputs.join(' '));
  if (t.sources.length === 0) return `nothing could be read from ${where}`;
  const files = counted(t.sources.length, 'file');
  if (lines === 0) return `nothing could be read from ${where}: ${files}, 0 lines`;
  if (records === 0) return `no RocketMQ log found in ${where}: ${files}, ${counted(lines, 'line')}, 0 records of a known layout`;
  return `no RocketMQ log found in ${where}: ${files}, ${counted(lines, 'line')}, 0 RocketMQ events, ${counted(records, 'record')} of other layouts (none of RocketMQ's)`;
}

/** A note when RocketMQ's records were read but none is a message rmq-diag knows (a quiet broker.log). */
export function noRocketmqEvent(t: ReadInputs, inputs: readonly string[]): string | null {
  const { records, events } = totalsOf(t.accounting);
  if (records === 0 || events > 0) return null;
  return `note: no RocketMQ event in ${escapeText(inputs.join(' '))}: ${counted(t.sources.length, 'file')}, ${counted(records, 'record')} of a known layout, none of them a RocketMQ message rmq-diag knows`;
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

/**
 * The note of `events` when its table left out noise (isNoise of src/timeline/event-filter.ts, the
 * TUI's: watermark rows of a queue whose head has not waited, printed every second per queue).
 */
export function hiddenNote(shown: EventsShown): string | null {
  if (shown.hidden === 0) return null;
  return `note: ${counted(shown.hidden, 'watermark event')} of an idle queue hidden (SlowTimeMills 0, printed every second); --all or --type watermark shows them`;
}
