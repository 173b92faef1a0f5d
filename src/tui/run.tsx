// `rmq-diag tui`: reads the logs, runs the rules and opens the full-screen TUI on the alternate
// screen, then puts the terminal back and prints the input notes. The command line (src/cli/open-tui.ts)
// checks for a terminal and hands over here; nothing in this folder knows about yargs.

import { render } from 'ink';
import type { Timeline } from '../timeline/build.js';
import { incidentPass } from '../diagnosis/diagnose.js';
import { rulesThreadOfJobs } from '../rules/rules-thread.js';
import { buildTimeline, type BuildOptions } from '../timeline/build.js';
import { dominantZone } from '../timeline/zone-out.js';
import type { Zone } from '../parse/time.js';
import { zoneNote } from '../report/events.js';
import { nothingToDiagnose, noteLines } from '../report/notes.js';
import type { EventType } from '../parse/types.js';
import type { Rule, SettingValue } from '../rules/types.js';
import type { LoadPhase } from './components/Loading.js';
import { Root, type LoadTask, type Ready } from './components/Root.js';
import type { HeaderInfo } from './format.js';
import { loadTimeline } from './load.js';
import { TuiModel } from './view-model.js';
import { startReplay, type ReplayTask } from './replay-run.js';
import type { EventStore } from './store.js';

interface RunTuiOptions {
  build: BuildOptions;
  rules: readonly Rule[];
  settings: Record<string, SettingValue>;
  /** `--tz-out`; default: the zone most inputs were read in. */
  zoneOut: Zone | null;
  /** Also records that are no RocketMQ event (type `other`, dimmed). */
  other: boolean;
  color: boolean;
  /** `--verbose`: every input note when the TUI closes (default: the first of a kind, the rest counted). */
  verbose: boolean;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

const ENTER_ALT = '\u001b[?1049h\u001b[H\u001b[2J';
const LEAVE_ALT = '\u001b[?1049l';
const CLEAR = '\u001b[H\u001b[2J';

/** The header of a loaded timeline. */
export function headerOf(t: Timeline, model: TuiModel, zone: Zone): HeaderInfo {
  return {
    hosts: model.store.hosts,
    files: t.sources.length,
    events: model.store.length,
    first: t.first,
    last: t.last,
    zone,
    zoneNote: zoneNote(t, zone),
    findings: model.findings,
    notes: t.issues.length,
  };
}

/** Reads and loads in the background; the TUI shows its phases. */
function startLoad(o: RunTuiOptions, session: Session): LoadTask {
  const listeners = new Set<(p: LoadPhase) => void>();
  const signal = { aborted: false };
  const task: LoadTask = {
    phase: { kind: 'reading', done: 0, total: 0 },
    onPhase(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    abort() {
      signal.aborted = true;
    },
    promise: Promise.resolve(null),
  };
  const emit = (p: LoadPhase) => {
    task.phase = p;
    for (const fn of listeners) fn(p);
  };
  task.promise = (async (): Promise<Ready | null> => {
    // The records the incidents' inference reads come too (as analyze reads them); the store keeps them only with --other.
    // The store keeps each event's JSON: the parse makes it, on every core, beside the binary form
    // the rules and the incident pass decode (asJson 'both'); with --other, the records nothing
    // else reads come as the places of their lines, which the store reads again from the logs.
    const t = await buildTimeline({
      ...o.build,
      keepOther: o.other ? true : 'inference',
      otherLines: o.other === true,
      asJson: 'both',
      onProgress: (done, total) => emit({ kind: 'reading', done, total }),
    });
    session.timeline = t;
    if (signal.aborted) return null;
    const nothing = nothingToDiagnose(t, o.build.inputs);
    if (nothing !== null) {
      session.failure = nothing;
      return null;
    }
    const pass = incidentPass(t);
    const loaded = await loadTimeline(t, {
      rules: o.rules,
      settings: o.settings,
      observer: pass,
      otherInStore: o.other === true,
      signal,
      onProgress: (events, estimate) => emit({ kind: 'merging', events, estimate }),
      rulesThread: rulesThreadOfJobs(o.build.workers),
    });
    // The store has its own copy of the events: the timeline's spill files can go, in the
    // background (removing a few hundred MB took about a second here before the first screen).
    t.close('background');
    if (!loaded) return null;
    session.store = loaded.store;
    const zone = o.zoneOut ?? dominantZone(t.accounting, t.defaultZone);
    const ruleEvents = new Map<string, readonly EventType[]>(o.rules.map((r) => [r.meta.id, r.meta.events]));
    const model = new TuiModel({ store: loaded.store, findings: loaded.findings, incidents: pass.finish(loaded.findings), zone, ruleEvents });
    // The replay tab: the same inputs inferred, run and compared, off the screen's thread.
    session.replay = startReplay(o.build, zone.name);
    return { model, header: headerOf(t, model, zone), replay: session.replay.promise };
  })();
  return task;
}

interface Session {
  timeline: Timeline | null;
  store: EventStore | null;
  failure: string | null;
  replay: ReplayTask | null;
}

/** Runs the TUI until the user quits; returns the exit code (0, or 2 when nothing could be read). */
export async function runTui(o: RunTuiOptions): Promise<number> {
  const { stdout, stderr } = o;
  const session: Session = { timeline: null, store: null, failure: null, replay: null };
  let onScreen = true;
  const leave = () => {
    if (!onScreen) return;
    onScreen = false;
    stdout.write(LEAVE_ALT);
  };
  // A signal that ends the process must still give the terminal back and remove the spill file.
  const onExit = () => {
    leave();
    session.store?.close();
    session.timeline?.close();
  };
  process.on('exit', onExit);
  // Registered before ink's own listener: the screen is cleared, then ink draws at the new size.
  const onResize = () => stdout.write(CLEAR);
  stdout.on('resize', onResize);
  stdout.write(ENTER_ALT);
  const task = startLoad(o, session);
  let error: unknown = null;
  try {
    const ink = render(<Root task={task} color={o.color} />, {
      stdin: o.stdin,
      stdout,
      stderr,
      exitOnCtrlC: true,
      patchConsole: true,
      maxFps: 60,
    });
    await ink.waitUntilExit();
  } catch (err) {
    error = err;
  } finally {
    stdout.off('resize', onResize);
    leave();
  }
  task.abort();
  session.replay?.cancel();
  try {
    await task.promise;
  } catch (err) {
    error ??= err;
  } finally {
    session.store?.close();
    session.timeline?.close();
    process.off('exit', onExit);
  }
  const t = session.timeline as Timeline | null;
  for (const line of noteLines(t?.issues ?? [], o.verbose)) stderr.write(`${line}\n`);
  if (error) throw error;
  if (session.failure) {
    stderr.write(`rmq-diag tui: ${session.failure}\n`);
    return 2;
  }
  return 0;
}

