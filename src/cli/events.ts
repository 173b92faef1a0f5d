// `rmq-diag events`: wires options to the timeline builder and the events report.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { UsageError } from '../util/errors.js';
import { SOURCE_KINDS } from '../ingest/kinds.js';
import { grepOf, levelOfWord, unknownKind, type EventFilter } from '../timeline/event-filter.js';
import { buildOptionsFrom, examples, hostKindFilters, timeOption, typesArg, withInputOptions, zoneArg } from './common.js';
import { checkOutputs } from './output.js';
import { exitWith, type CliIo, type CommandResult } from './result.js';
import type { EventsArgs } from './events-run.js';

/** `--host`, `--kind`, `--level`, `--grep`: checked before any input is read. */
function eventFilterFrom(args: EventsArgs): EventFilter {
  const { hosts, kinds } = hostKindFilters(args);
  const unknown = unknownKind(kinds);
  if (unknown !== null) throw new UsageError(`--kind ${unknown}: unknown kind (one of ${SOURCE_KINDS.join(', ')})`);
  let minLevel: number | null = null;
  if (args.level !== undefined) {
    minLevel = levelOfWord(args.level);
    if (minLevel === null) throw new UsageError(`--level ${args.level}: unknown level (trace, debug, info, warn, error, fatal)`);
  }
  let grep: RegExp | null = null;
  if (args.grep !== undefined) {
    const re = grepOf(args.grep, args['ignore-case']);
    if (typeof re === 'string') throw new UsageError(`--grep ${args.grep}: ${re}`);
    grep = re;
  }
  return { types: [], hosts, kinds, minLevel, grep };
}

export function eventsCommand(result: CommandResult, io: CliIo): CommandModule<object, EventsArgs> {
  return {
    command: 'events [paths..]',
    describe: 'print the merged event timeline of RocketMQ logs, and account for every line read',
    builder: (y: Argv) =>
      withInputOptions(y)
        .option('level', { describe: 'only events at this level or worse: trace, debug, info, warn, error, fatal (no level: info)', type: 'string', requiresArg: true })
        .option('grep', { describe: "only events whose text matches this regular expression (JavaScript syntax)", type: 'string', requiresArg: true })
        .option('ignore-case', { alias: 'i', describe: '--grep ignores case', type: 'boolean', default: false })
        .option('stats', { describe: 'the per-file accounting table on stderr (default: one line)', type: 'boolean', default: false })
        .option('type', {
          describe: 'only these event types (comma-separated or repeated; globs; !TYPE excludes)',
          type: 'string',
          array: true,
          nargs: 1,
          default: [] as string[],
          requiresArg: true,
        })
        .option('since', { describe: 'only events at or after this time: 14:40, 2020-12-22T14:40:00+08:00, +5m (from the start), -10m (before the end)', type: 'string', requiresArg: true })
        .option('until', { describe: 'only events at or before this time (same forms as --since)', type: 'string', requiresArg: true })
        .option('json', { describe: 'NDJSON: one event per line, then one summary line (docs/json.md)', type: 'boolean', default: false })
        .option('format', {
          describe: "table (default), json (as --json), or events: --json's lines with all that analyze, replay and tui read, to give them as an input instead of the logs (docs/json.md)",
          choices: ['table', 'json', 'events'] as const,
          requiresArg: true,
        })
        .option('all', { describe: "also print the watermark rows of idle queues (hidden by default) and records that match no RocketMQ message (type 'other')", type: 'boolean', default: false })
        .epilogue(
          examples([
            ['$0 events incident/', 'every event from every host under incident/'],
            ['$0 events incident/ --type busy-reply,rpc-timeout --since 14:40', 'two event types from 14:40 on'],
            ['$0 events incident/ --type watermark', 'every watermark row, those of idle queues too (hidden by default)'],
            ["$0 events incident/ --type '!watermark' --level warn --host 'app-*'", 'warnings and worse on the app hosts, no watermark rows'],
            ["$0 events incident/ --grep 'TIMEOUT_CLEAN_QUEUE' --since -10m", 'a regular expression, in the last 10 minutes'],
            ["$0 events 'incident/**/rocketmq_client.log*' --json | jq .fields", 'NDJSON for scripts'],
            ['$0 events incident/mq-node-100 --format events > node-100.events', 'parse where the logs are, ship the events (`$0 analyze *.events`)'],
            ['zcat broker.log.gz | $0 events - --set-kind -=broker', 'read stdin'],
          ]),
        ) as unknown as Argv<EventsArgs>,
    handler: async (args: ArgumentsCamelCase<EventsArgs>) => {
      const opts = buildOptionsFrom(args, { filters: true });
      const types = typesArg(args.type, args.all);
      const filter = eventFilterFrom(args);
      const tzOut = args['tz-out'] !== undefined ? zoneArg(args['tz-out'], '--tz-out') : null;
      const sinceArg = timeOption('--since', args.since);
      const untilArg = timeOption('--until', args.until);
      // The events go to stdout: never appended to a log they are read from (`>> F`).
      checkOutputs(args, [], [], io);
      // The pipeline is loaded only now: `--help` and a bad option need none of it.
      const { runEvents } = await import('./events-run.js');
      exitWith(result, await runEvents(args, io, { opts, types, filter, tzOut, sinceArg, untilArg }));
    },
  };
}
