// From a built timeline to what the TUI shows, in one pass over the merged stream: every event goes
// into the compact store, and the events the enabled rules read are decoded and fed to the rule
// engine on the way (the same findings `analyze` reports). The pass yields to the event loop every
// few milliseconds, so the loading screen keeps drawing and `q` still quits. A large timeline's
// rules read the stream in a thread of their own meanwhile (src/rules/rules-thread.ts).

import type { LineRecord } from '../parse/event-binary.js';
import type { EncodedHeader } from '../parse/event-codec.js';
import type { EventType, RmqEvent } from '../parse/types.js';
import { sourcesOf } from '../rules/analyze.js';
import { RuleRunner } from '../rules/engine.js';
import { rulesThreadFor, startRulesThread, type RulesRun } from '../rules/rules-thread.js';
import type { Finding, Rule, SettingValue } from '../rules/types.js';
import type { Timeline } from '../timeline/build.js';
import { ColumnsBuilder, SpillSink, MemorySink, type EventStore, type RawSink } from './store.js';

interface LoadOptions {
  rules: readonly Rule[];
  /** Also fed every event of its types in the same pass (the incidents' inference). */
  observer?: { readonly types: ReadonlySet<EventType>; visit(e: RmqEvent): void };
  /** Records of type `other` go into the store (shown dimmed) only when asked; else only the observer sees them. */
  otherInStore?: boolean;
  settings?: Record<string, SettingValue>;
  /** Events decoded so far, and an estimate of the total (records read). */
  onProgress?: (events: number, estimate: number) => void;
  /** Stop early (the user quit while loading): the partial store is closed and null returned. */
  signal?: { aborted: boolean };
  /** Keep the JSON in memory instead of a spill file (tests). */
  inMemory?: boolean;
  /** Milliseconds of work between yields to the event loop. */
  sliceMs?: number;
  /** The rules in a thread of their own, or not (--jobs); by default for a large timeline (rules-thread.ts, rulesThreadFor). */
  rulesThread?: boolean;
}

export interface Loaded {
  store: EventStore;
  findings: Finding[];
}

export async function loadTimeline(t: Timeline, o: LoadOptions): Promise<Loaded | null> {
  // A large timeline's rules read the stream in their own thread while this one fills the store.
  const thread = rulesThreadFor(t, o.rules, o.rulesThread) ? startRulesThread(t.streams, o.rules, o.settings ?? {}, sourcesOf(t)) : null;
  try {
    return await load(t, o, thread === null ? new RuleRunner({ rules: o.rules, settings: o.settings, sources: sourcesOf(t) }) : null, thread);
  } finally {
    thread?.stop();
  }
}

/** The pass: the store, the observer, and the rules (runner) unless their thread reads them. */
async function load(t: Timeline, o: LoadOptions, runner: RuleRunner | null, thread: RulesRun | null): Promise<Loaded | null> {
  const wanted: ReadonlySet<EventType> = runner?.wanted ?? new Set();
  const sink: RawSink = o.inMemory ? new MemorySink() : new SpillSink();
  const builder = new ColumnsBuilder(
    t.sources.map((s) => ({ file: s.display, host: s.host, path: s.path })),
    sink,
  );
  const estimate = t.accounting.reduce((n, a) => n + a.records, 0);
  const slice = o.sliceMs ?? 30;
  let deadline = performance.now() + slice;
  try {
    const observed = o.observer?.types ?? new Set<EventType>();
    const otherInStore = o.otherInStore ?? true;
    const header: EncodedHeader = { kind: '', line: 0, level: null, type: 'other' };
    const line: LineRecord = { thread: null, logger: null, byteAt: 0, length: 0 };
    for (const m of t.encoded()) {
      const type = m.type;
      const r = m.binary();
      if (r.isLine) {
        // A record kept as the place of its line (the timeline's otherLines): one that neither the
        // rules nor inference read, so it goes to the store alone.
        if (otherInStore) {
          r.header(header);
          builder.addLine(m.ts, header, r.line(line), m.source);
        }
      } else {
        // The store keeps each event's JSON (its pages are read back from it), taken as the bytes it
        // travelled in when it can be, with the header the binary form holds.
        if (otherInStore || type !== 'other') {
          if (r.header(header) && r.jsonSpan()) builder.addBytes(m.ts, header, r.spanBytes, r.spanStart, r.spanEnd, m.source);
          else builder.add(m.ts, m.json(), m.source);
        }
        const forRules = wanted.has(type);
        if (forRules || observed.has(type)) {
          const e = m.event();
          if (forRules) runner!.visit(e);
          if (observed.has(type)) o.observer!.visit(e);
        }
      }
      if ((builder.count & 1023) === 0 && performance.now() >= deadline) {
        o.onProgress?.(builder.count, estimate);
        await new Promise((r) => setImmediate(r));
        if (o.signal?.aborted) {
          builder.finish().close();
          return null;
        }
        deadline = performance.now() + slice;
      }
    }
  } catch (err) {
    builder.finish().close();
    throw err;
  }
  o.onProgress?.(builder.count, Math.max(estimate, builder.count));
  const findings = thread ? (await thread.finished()).findings : runner!.finish();
  return { store: builder.finish(), findings };
}
