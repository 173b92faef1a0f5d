// `rmq-diag events` once its arguments are read: the timeline, then the events and the accounting.
// Loaded by the command's handler only (src/cli/events.ts).
import type { ArgumentsCamelCase } from 'yargs';
import { hostsNamedBelow } from '../ingest/sources.js';
import type { Zone } from '../parse/time.js';
import type { EventType } from '../parse/types.js';
import { paletteFor } from '../report/escape.js';
import { statsText, writeEvents } from '../report/events.js';
import { accountingLine, hiddenNote, hostsBelowNote } from '../report/notes.js';
import { wrapIndented } from '../report/text-layout.js';
import { buildTimeline, type BuildOptions } from '../timeline/build.js';
import { eventMatcher, isEventFiltered, isNoise, listMatcher, type EventFilter } from '../timeline/event-filter.js';
import { dominantZone } from '../timeline/zone-out.js';
import { type InputArgs, sayInputs, timeRange, type TimeOption } from './common.js';
import { checkOutputs } from './output.js';
import { progressOn } from './progress.js';
import { widthOf, type CliIo } from './result.js';

export interface EventsArgs extends InputArgs {
  type: string[];
  level?: string;
  grep?: string;
  'ignore-case': boolean;
  since?: string;
  until?: string;
  json: boolean;
  format?: 'table' | 'json' | 'events';
  all: boolean;
  stats: boolean;
}

interface EventsChoices {
  opts: BuildOptions;
  types: EventType[] | null;
  filter: EventFilter;
  tzOut: Zone | null;
  sinceArg: TimeOption | null;
  untilArg: TimeOption | null;
}

/**
 * Whether the table leaves out noise (the TUI's isNoise: idle watermark rows, 70-90 % of a broker's
 * events): unless --all, or a --type that names watermark (`--type watermark`, `--type 'water*'`).
 * JSON keeps every event: it is an input of analyze and replay (docs/json.md), whose rules read
 * the queue sizes and the heartbeat of a broker in those rows.
 */
function hidesNoise(args: EventsArgs, json: boolean): boolean {
  if (json || args.all) return false;
  const named = args.type.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v && !v.startsWith('!'));
  return !(named.length > 0 && listMatcher(named)('watermark'));
}

/** The run; returns the exit code. */
export async function runEvents(args: ArgumentsCamelCase<EventsArgs>, io: CliIo, c: EventsChoices): Promise<number> {
  const { opts, types, filter, tzOut, sinceArg, untilArg } = c;
  const progress = progressOn(io.stderr, args.progress);
  const forInput = args.format === 'events';
  const json = args.json || args.format === 'json' || forInput;
  const timeline = await buildTimeline({
    ...opts,
    types,
    // For an input of analyze, replay or tui: the records their inference reads too.
    keepOther: args.all || (types?.includes('other') ?? false) || (forInput ? 'inference' : false),
    // Made safe to show where it is parsed, on every core (the output would do it on one).
    asJson: json ? 'safe' : false,
    onProgress: (d, t) => progress.update(d, t),
  });
  try {
    progress.clear();
    if (sayInputs(timeline, io, args.paths, args.verbose) === 2) return 2;
    checkOutputs(args, [], timeline.files, io);
    if (forInput) for (const b of hostsNamedBelow(timeline.sources)) io.stderr.write(`${hostsBelowNote(b.folder, b.hosts)}\n`);
    const zone = tzOut ?? dominantZone(timeline.accounting, timeline.defaultZone);
    const { since, until } = timeRange(sinceArg, untilArg, zone, timeline);
    const out = io.stdout;
    const width = widthOf(out, io.env);
    const shown = await writeEvents(timeline, out, {
      json,
      forInput,
      zone,
      since,
      until,
      width,
      palette: paletteFor(out, io.env, io.color),
      keep: isEventFiltered(filter) ? eventMatcher(filter) : null,
      hide: hidesNoise(args, json) ? (e) => isNoise(e.type, e.fields) : null,
    });
    if (args.stats) io.stderr.write(statsText(timeline, widthOf(io.stderr, io.env)));
    else if (!json) io.stderr.write(`${wrapIndented(accountingLine(timeline, shown), widthOf(io.stderr, io.env))}\n`);
    const hidden = hiddenNote(shown);
    if (hidden) io.stderr.write(`${hidden}\n`);
  } finally {
    timeline.close();
  }
  return 0;
}
