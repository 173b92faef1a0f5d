// Options and argument helpers shared by the commands (the command modules never import each
// other), and the mapping from parsed options to the timeline builder's options. No logic beyond
// argument shapes lives here.

import type { Argv } from 'yargs';
import { parseOverride } from '../ingest/sources.js';
import { PatternError, patternArg } from '../parse/pattern.js';
import { ZoneError, parseZone } from '../parse/time.js';
import { EVENT_TYPES, type EventType } from '../parse/types.js';
import { SOURCE_KINDS } from '../ingest/kinds.js';
import { parseSettings, SettingError } from '../rules/engine.js';
import type { Rule, SettingValue } from '../rules/types.js';
import { noRocketmqEvent, nothingToDiagnose, noteLines, NOTES_OF_A_KIND } from '../report/notes.js';
import type { BuildOptions, Timeline } from '../timeline/build.js';
import { listMatcher, unknownType } from '../timeline/event-filter.js';
import { parseShift } from '../timeline/shift.js';
import { parseTimeSpec, resolveTime, TimeArgError, type TimeSpec, type TimeWindow } from '../timeline/time-args.js';
import type { Zone } from '../parse/time.js';
import { UsageError } from '../util/errors.js';
import { STDIN_ARG, type CliIo } from './result.js';

export interface InputArgs {
  paths: string[];
  kind: string[];
  host: string[];
  'set-kind': string[];
  'set-host': string[];
  tz: string[];
  shift: string[];
  pattern: string[];
  'tz-out'?: string;
  progress: boolean;
  jobs?: number;
  verbose: boolean;
}

/** `rulesThread`: the command runs the rules, which --jobs also gives a thread of their own (analyze, tui). */
export function withInputOptions<T>(y: Argv<T>, o: { rulesThread?: boolean } = {}) {
  return y
    .positional('paths', {
      describe: 'log files, folders (read recursively), globs, or - for stdin',
      type: 'string',
      array: true,
      default: [] as string[],
    })
    .option('set-kind', {
      describe: `set the kind of matching files: GLOB=KIND (${SOURCE_KINDS.join(', ')}); also --kind GLOB=KIND`,
      type: 'string',
      array: true,
      nargs: 1,
      default: [] as string[],
      requiresArg: true,
    })
    .option('set-host', {
      describe: 'set the host of matching files: GLOB=NAME (default: the first folder below the input folder); also --host GLOB=NAME',
      type: 'string',
      array: true,
      nargs: 1,
      default: [] as string[],
      requiresArg: true,
    })
    .option('kind', {
      describe: 'events: only events from files of this kind (glob, !KIND excludes); GLOB=KIND: as --set-kind',
      type: 'string',
      array: true,
      nargs: 1,
      default: [] as string[],
      requiresArg: true,
    })
    .option('host', {
      describe: 'events: only events from this host (glob, !NAME excludes); GLOB=NAME: as --set-host',
      type: 'string',
      array: true,
      nargs: 1,
      default: [] as string[],
      requiresArg: true,
    })
    .option('tz', {
      describe: 'zone of sources whose layout does not fix one (ZONE), or force the zone of matching files (GLOB=ZONE); default +08:00',
      type: 'string',
      array: true,
      nargs: 1,
      default: [] as string[],
      requiresArg: true,
    })
    .option('shift', {
      describe: "move a host's times, its clock being off: HOST=±DURATION (+3.2s, -8h, -1500ms; HOST may be a glob); a whole-hours error is a zone: --tz GLOB=ZONE",
      type: 'string',
      array: true,
      nargs: 1,
      default: [] as string[],
      requiresArg: true,
    })
    .option('pattern', {
      describe: "your application's log layout: a logback/log4j2 pattern ('%d [%thread] %-5level %logger - %msg%n'), a logback.xml/log4j2.xml, or GLOB=either (docs/events.md)",
      type: 'string',
      array: true,
      nargs: 1,
      default: [] as string[],
      requiresArg: true,
    })
    .option('tz-out', {
      describe: 'zone for times in the output (default: the zone of the inputs)',
      type: 'string',
      requiresArg: true,
    })
    .option('verbose', {
      alias: 'v',
      describe: `every note on the inputs (default: the first ${NOTES_OF_A_KIND} of a kind, the rest counted)`,
      type: 'boolean',
      default: false,
    })
    .option('progress', {
      describe: 'show progress on stderr (only when it is a terminal)',
      type: 'boolean',
      default: true,
    })
    .option('jobs', {
      describe: o.rulesThread
        ? 'worker threads for parsing, and one for the rules (default: for large inputs, one per core; 0 = none)'
        : 'worker threads for parsing (default: for large inputs, one per core; 0 = none)',
      type: 'number',
      requiresArg: true,
    });
}

/** `--host` and `--kind` values: GLOB=VALUE sets (like --set-host, --set-kind), a bare value filters. */
export function hostKindFilters(a: InputArgs): { hosts: string[]; kinds: string[] } {
  const bare = (values: string[]) => values.flatMap((v) => (v.includes('=') ? [] : v.split(',').map((x) => x.trim()).filter(Boolean)));
  return { hosts: bare(a.host), kinds: bare(a.kind) };
}

/**
 * The timeline builder's options. `filters`: the command filters events by host and kind (`events`);
 * elsewhere a bare `--host NAME` or `--kind KIND` is a usage error that says what is meant.
 */
export function buildOptionsFrom(a: InputArgs, o: { filters?: boolean } = {}): BuildOptions {
  if (!o.filters) {
    const bad = [...a.host.map((v) => ['--host', v, '--set-host GLOB=NAME']), ...a.kind.map((v) => ['--kind', v, '--set-kind GLOB=KIND'])].find(([, v]) => !v.includes('='));
    if (bad) throw new UsageError(`${bad[0]} ${bad[1]}: only events filters by ${bad[0].slice(2)}; to set it for matching files give ${bad[2]}`);
  }
  if (!a.paths.length) throw new UsageError('no input: give log files, folders, globs, or - for stdin');
  const inputs = a.paths.map((p) => (p === STDIN_ARG ? '-' : p));
  const setKind = [...(a['set-kind'] ?? []), ...a.kind.filter((v) => v.includes('='))];
  const setHost = [...(a['set-host'] ?? []), ...a.host.filter((v) => v.includes('='))];
  const kind = setKind.map((s) => {
    const [g, value] = parseOverride(s);
    const glob = g === STDIN_ARG ? '-' : g;
    if (!(SOURCE_KINDS as readonly string[]).includes(value)) {
      throw new UsageError(`--set-kind ${s}: unknown kind "${value}" (one of ${SOURCE_KINDS.join(', ')})`);
    }
    return [glob, value] as [string, string];
  });
  const host = setHost.map((s) => parseOverride(s));
  let tzDefault: string | undefined;
  const tzRules: Array<[string, string]> = [];
  for (const s of a.tz) {
    const eq = s.lastIndexOf('=');
    try {
      if (eq < 0) {
        tzDefault = parseZone(s).name;
      } else {
        const [glob, zone] = parseOverride(s);
        tzRules.push([glob, parseZone(zone).name]);
      }
    } catch (e) {
      if (e instanceof ZoneError) throw new UsageError(`--tz ${s}: ${e.message}`);
      throw e;
    }
  }
  if (a['tz-out'] !== undefined) zoneArg(a['tz-out'], '--tz-out');
  if (a.jobs !== undefined && (!Number.isInteger(a.jobs) || a.jobs < 0)) throw new UsageError('--jobs must be a whole number >= 0');
  const patterns = (a.pattern ?? []).map((s) => {
    try {
      return patternArg(s);
    } catch (e) {
      if (e instanceof PatternError) throw new UsageError(e.message);
      throw e;
    }
  });
  const shifts = (a.shift ?? []).map(parseShift);
  return { inputs, kind, host, tzDefault, tzRules, workers: a.jobs, patterns, shifts };
}

export function zoneArg(value: string, flag: string) {
  try {
    return parseZone(value);
  } catch (e) {
    if (e instanceof ZoneError) throw new UsageError(`${flag} ${value}: ${e.message}`);
    throw e;
  }
}

/**
 * `--type` values (comma-separated or repeated; globs; `!TYPE` excludes) as the concrete types to keep,
 * or null for all. `other` (records that are no RocketMQ event) is kept only when `all` is set.
 */
export function typesArg(values: string[], all = false): EventType[] | null {
  const list = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  if (!list.length) return null;
  const unknown = unknownType(list);
  if (unknown !== null) throw new UsageError(`--type ${unknown}: unknown event type (one of ${EVENT_TYPES.join(', ')})`);
  const keep = listMatcher(list);
  return EVENT_TYPES.filter((t) => keep(t) && (t !== 'other' || all || list.includes('other')));
}

/** Options choosing and tuning rules, shared by `analyze` and `tui`. */
export function withRuleOptions<T>(y: Argv<T>) {
  return y
    .option('rule', {
      describe: 'run only these rules (ids, comma-separated or repeated; see rmq-diag rules)',
      type: 'string',
      array: true,
      // One value per flag, so that paths may follow: `--no-rule a incident/`.
      nargs: 1,
      default: [] as string[],
      requiresArg: true,
    })
    .option('skip-rule', {
      describe: 'do not run these rules (also spelled --no-rule)',
      type: 'string',
      array: true,
      nargs: 1,
      default: [] as string[],
      requiresArg: true,
    })
    .option('set', {
      describe: 'a rule setting you know better than the default: NAME=VALUE (repeatable; see rmq-diag rules)',
      type: 'string',
      array: true,
      nargs: 1,
      default: [] as string[],
      requiresArg: true,
    });
}

/** The report formats of `analyze` (and of `rules`). */
export const FORMATS = ['text', 'json', 'markdown', 'html'] as const;
export type Format = (typeof FORMATS)[number];

/** `--json` is `--format json`; both given and different is a usage error. */
export function formatArg(json: boolean, format: string | undefined): Format {
  if (format !== undefined && !(FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format ${format}: unknown format (one of ${FORMATS.join(', ')})`);
  }
  if (json && format !== undefined && format !== 'json') throw new UsageError(`--json and --format ${format} disagree`);
  return json ? 'json' : ((format ?? 'text') as Format);
}

function idList(values: string[]): string[] {
  return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

/** The rules `--rule` and `--skip-rule` leave enabled; unknown ids are usage errors. */
export function selectRules(all: readonly Rule[], only: string[], skip: string[]): Rule[] {
  const known = new Set(all.map((r) => r.meta.id));
  const onlyIds = idList(only);
  const skipIds = idList(skip);
  for (const [flag, ids] of [
    ['--rule', onlyIds],
    ['--no-rule', skipIds],
  ] as const) {
    for (const id of ids) {
      if (!known.has(id)) {
        const list = known.size ? [...known].join(', ') : 'none are registered';
        throw new UsageError(`${flag} ${id}: unknown rule (rules: ${list}; see rmq-diag rules)`);
      }
    }
  }
  return all.filter((r) => (onlyIds.length === 0 || onlyIds.includes(r.meta.id)) && !skipIds.includes(r.meta.id));
}

/** The `--set` values, checked against the enabled rules' settings; a bad one is a usage error. */
export function ruleSettings(enabled: readonly Rule[], set: string[]): Record<string, SettingValue> {
  try {
    return parseSettings(enabled, set);
  } catch (e) {
    if (e instanceof SettingError) throw new UsageError(e.message);
    throw e;
  }
}

/**
 * The input notes, on stderr (the first of each kind, or all with `verbose`); then, when the inputs
 * hold nothing to diagnose, one line saying so. Returns 2 in that case (the command prints no
 * report), else 0.
 */
export function sayInputs(t: Pick<Timeline, 'sources' | 'accounting' | 'issues'>, io: CliIo, inputs: readonly string[], verbose = false): number {
  for (const line of noteLines(t.issues, verbose)) io.stderr.write(`${line}\n`);
  const named = inputs.map((p) => (p === STDIN_ARG ? '-' : p));
  const nothing = nothingToDiagnose(t, named);
  if (nothing === null) {
    const none = noRocketmqEvent(t, named);
    if (none) io.stderr.write(`${none}\n`);
    return 0;
  }
  io.stderr.write(`rmq-diag: ${nothing}\n`);
  return 2;
}

/** A `--since`/`--until` value, read (and checked) when the command line is, before any input. */
export interface TimeOption {
  flag: string;
  value: string;
  spec: TimeSpec;
}

export function timeOption(flag: string, value: string | undefined): TimeOption | null {
  if (value === undefined) return null;
  try {
    return { flag, value, spec: parseTimeSpec(value) };
  } catch (e) {
    if (e instanceof TimeArgError) throw new UsageError(`${flag} ${value}: ${e.message}`);
    throw e;
  }
}

export function resolveTimeOption(t: TimeOption, zone: Zone, w: TimeWindow): number {
  try {
    return resolveTime(t.spec, t.value, zone, w);
  } catch (e) {
    if (e instanceof TimeArgError) throw new UsageError(`${t.flag} ${t.value}: ${e.message}`);
    throw e;
  }
}

/** `--since` and `--until` against the window; a reversed pair is a usage error. */
export function timeRange(since: TimeOption | null, until: TimeOption | null, zone: Zone, w: TimeWindow): { since: number | null; until: number | null } {
  const from = since ? resolveTimeOption(since, zone, w) : null;
  const to = until ? resolveTimeOption(until, zone, w) : null;
  if (from !== null && to !== null && from > to) {
    throw new UsageError(`--since ${since!.value} is after --until ${until!.value}: nothing can be between them`);
  }
  return { since: from, until: to };
}

/**
 * Help examples as an epilogue: each command on a line of its own under a `#` line that says what it
 * does, never wrapped inside (yargs' two-column examples break long commands), ready to copy.
 * `$0` is the program's name.
 */
export function examples(list: ReadonlyArray<readonly [command: string, what: string]>): string {
  return ['Examples:', ...list.flatMap(([cmd, what]) => [`  # ${what}`, `  ${cmd.replace(/\$0/g, 'rmq-diag')}`])].join('\n');
}
