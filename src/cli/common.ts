// Options shared by the commands that read logs, and the mapping from parsed options to the
// timeline builder's options. No logic beyond argument shapes lives here.

import type { Argv } from 'yargs';
import { UsageError, parseOverride } from '../ingest/sources.js';
import { PatternError, patternArg } from '../parse/pattern.js';
import { ZoneError, parseZone } from '../parse/time.js';
import { EVENT_TYPES, SOURCE_KINDS, type EventType } from '../parse/types.js';
import type { BuildOptions } from '../timeline/build.js';
import { STDIN_ARG } from './result.js';

export interface InputArgs {
  paths: string[];
  kind: string[];
  host: string[];
  tz: string[];
  pattern: string[];
  'tz-out'?: string;
  progress: boolean;
  jobs?: number;
}

export function withInputOptions<T>(y: Argv<T>) {
  return y
    .positional('paths', {
      describe: 'log files, folders (read recursively), globs, or - for stdin',
      type: 'string',
      array: true,
      default: [] as string[],
    })
    .option('kind', {
      describe: `set the kind of matching files: GLOB=KIND (${SOURCE_KINDS.join(', ')})`,
      type: 'string',
      array: true,
      default: [] as string[],
      requiresArg: true,
    })
    .option('host', {
      describe: 'set the host of matching files: GLOB=NAME (default: the first folder below the input folder)',
      type: 'string',
      array: true,
      default: [] as string[],
      requiresArg: true,
    })
    .option('tz', {
      describe: 'zone of sources whose layout does not fix one (ZONE), or force the zone of matching files (GLOB=ZONE); default +08:00',
      type: 'string',
      array: true,
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
    .option('progress', {
      describe: 'show progress on stderr (only when it is a terminal)',
      type: 'boolean',
      default: true,
    })
    .option('jobs', {
      describe: 'worker threads for parsing (default: one per core for large inputs; 0 = none)',
      type: 'number',
      requiresArg: true,
    });
}

export function buildOptionsFrom(a: InputArgs): BuildOptions {
  if (!a.paths.length) throw new UsageError('no input: give log files, folders, globs, or - for stdin');
  const inputs = a.paths.map((p) => (p === STDIN_ARG ? '-' : p));
  const kind = a.kind.map((s) => {
    const [g, value] = parseOverride(s);
    const glob = g === STDIN_ARG ? '-' : g;
    if (!(SOURCE_KINDS as readonly string[]).includes(value)) {
      throw new UsageError(`--kind ${s}: unknown kind "${value}" (one of ${SOURCE_KINDS.join(', ')})`);
    }
    return [glob, value] as [string, string];
  });
  const host = a.host.map((s) => parseOverride(s));
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
  return { inputs, kind, host, tzDefault, tzRules, workers: a.jobs, patterns };
}

export function zoneArg(value: string, flag: string) {
  try {
    return parseZone(value);
  } catch (e) {
    if (e instanceof ZoneError) throw new UsageError(`${flag} ${value}: ${e.message}`);
    throw e;
  }
}

export function typesArg(values: string[]): EventType[] | null {
  const list = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  if (!list.length) return null;
  for (const t of list) {
    if (!(EVENT_TYPES as readonly string[]).includes(t)) {
      throw new UsageError(`--type ${t}: unknown event type (one of ${EVENT_TYPES.join(', ')})`);
    }
  }
  return list as EventType[];
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
