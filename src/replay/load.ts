// The two ways into a replay: logs (a timeline is built, read once, and a scenario inferred from it)
// or a scenario file. Also tells a scenario file from log inputs.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, resolve, sep } from 'node:path';
import { commonDir } from '../util/paths.js';
import { buildTimeline, type BuildOptions, type Timeline } from '../timeline/build.js';
import { collect } from '../diagnosis/collect.js';
import { consumerCollector, consumerFigures } from '../diagnosis/consumers.js';
import { DEFAULT_MAX_SPAN_MS, looksLikeScenario, MAX_SCENARIO_FILE_BYTES, readScenarioFile, runSizeProblem, ScenarioError, SharedIpError, validateScenario } from './file.js';
import { spanText } from '../util/durations.js';

export { DEFAULT_MAX_SPAN_MS };
import { inferScenario, LEAD_MS, MARGIN_MS } from '../diagnosis/infer.js';
import { RuleRunner } from '../rules/engine.js';
import { sourcesOf } from '../rules/analyze.js';
import consumerBacklog from '../rules/consumer-backlog.js';
import networkPartition from '../rules/network-partition.js';
import type { RmqEvent } from '../parse/types.js';

/**
 * The rules a replay from logs runs beside its reading: inference asks their findings
 * (InferOptions.findings): a blocked listener (consumer-backlog), a network partition.
 */
const INFERENCE_RULES = [consumerBacklog, networkPartition];
import type { ReplayInput } from '../diagnosis/types.js';

interface FromLogs {
  input: ReplayInput;
  /** Accounting and issues of the timeline (it is closed already). */
  timeline: Pick<Timeline, 'accounting' | 'issues' | 'sources' | 'files' | 'first' | 'last' | 'defaultZone'>;
}

/**
 * Builds the timeline, infers the scenario, and closes the timeline. `zone` is the output zone (null:
 * the inputs'). Only the logs' first `maxSpanMs` are read (a run lasts no longer, see fitRun): time
 * and memory stay those of that stretch however long the logs are.
 */
export async function inferFromLogs(opts: BuildOptions, zoneOut: (t: Timeline) => string, source: string, maxSpanMs = DEFAULT_MAX_SPAN_MS): Promise<FromLogs> {
  const timeline = await buildTimeline({ ...opts, keepOther: 'inference', types: null });
  try {
    const base = commonDir(timeline.accounting.map((a) => a.path));
    const hosts = new Set(timeline.accounting.map((a) => a.host));
    const first = timeline.first;
    // The last line a run of maxSpanMs covers (inferScenario starts LEAD_MS before the first line and ends MARGIN_MS after the last).
    const cut = first === null ? null : Math.floor(first / 1000) * 1000 - LEAD_MS + maxSpanMs - MARGIN_MS;
    const last = cut !== null && timeline.last !== null && timeline.last > cut ? cut : timeline.last;
    // The rules whose findings inference asks, over the same reading.
    const runner = new RuleRunner({ rules: INFERENCE_RULES, settings: {}, sources: sourcesOf(timeline) });
    const wanted = runner.wanted;
    // The consumer groups' figures the verdict compares (analyze's consumers' impact).
    const consumers = consumerCollector();
    function* read(events: Iterable<RmqEvent>): Iterable<RmqEvent> {
      for (const e of events) {
        if (wanted.has(e.type)) runner.visit(e);
        if (consumers.types.has(e.type) && (last === null || e.ts === null || e.ts <= last)) consumers.visit(e);
        yield e;
      }
    }
    const c = collect(read(timeline.events()), timeline.accounting, base, first, last, { otherRead: timeline.keepOther === 'inference' });
    const impacts = consumers.finish();
    const input = inferScenario(c, {
      zone: timeline.defaultZone.name,
      source: `${source}: ${timeline.accounting.length} files from ${hosts.size} hosts`,
      findings: runner.finish(),
      consumers: impacts,
    });
    input.zone = zoneOut(timeline);
    const groups = consumerFigures(impacts);
    if (input.observed && groups.length) input.observed.consumers = groups;
    if (last !== timeline.last && first !== null && timeline.last !== null) {
      input.notes.push(
        `the logs span ${spanText(timeline.last - first)} (to ${new Date(timeline.last).toISOString().slice(0, 10)}), longer than a run may last: read and replayed for their first ${spanText(maxSpanMs)} (--max-span to raise it)`,
      );
    }
    return { input, timeline };
  } finally {
    timeline.close();
  }
}

/**
 * Two recordings of one cluster given together (`replay crash/ restart/`): one host's file of one name
 * under two of the inputs. Their lines would merge into one timeline of two incidents (both faults in
 * one run). Inputs that are globs or stdin are left out of the check.
 */
export function twoIncidents(inputs: readonly string[], accounting: ReadonlyArray<{ path: string; host: string }>): string | null {
  // Paths as resolved (the timeline may name a file relative to the working folder, the input not).
  const roots = inputs.filter((i) => i !== '-').map((i) => ({ given: i.replace(/\/+$/, ''), at: resolve(i) }));
  const rootOf = (p0: string) => {
    const p = resolve(p0);
    return roots.find((r) => p === r.at || p.startsWith(r.at + sep))?.given;
  };
  const seen = new Map<string, string>();
  for (const a of accounting) {
    const root = rootOf(a.path);
    if (root === undefined) continue;
    const key = `${a.host}\0${basename(a.path)}`;
    const prev = seen.get(key);
    if (prev !== undefined && prev !== root) {
      return `${prev} and ${root} both hold ${basename(a.path)} of host ${a.host}: they are two recordings or incidents; replay one incident at a time`;
    }
    if (prev === undefined) seen.set(key, root);
  }
  return null;
}

/**
 * Checks that an inferred scenario can run; the message says what the logs lacked. With `logs` (the
 * inputs as given and the timeline's accounting), also that they hold one incident (twoIncidents).
 */
export function checkInferred(input: ReplayInput, logs?: { inputs: readonly string[]; accounting: ReadonlyArray<{ path: string; host: string }> }): string | null {
  const two = logs ? twoIncidents(logs.inputs, logs.accounting) : null;
  if (two) return two;
  const sc = input.scenario;
  if (!sc.clients.length) return 'no producer client in the logs (a replay needs the rocketmq_client.log of at least one client)';
  if (!sc.nameServers.length) return 'no NameServer address in the logs';
  if (!sc.brokers.length) return 'no broker in the logs (no route, broker boot line or heartbeat names one)';
  try {
    validateScenario(sc);
  } catch (e) {
    // Two hosts of the logs on one IP: two clusters' logs given together (two recordings, two
    // incidents), or one machine's logs under two host names. A replay is of one incident, and the
    // model's network gives each host its own address.
    if (e instanceof SharedIpError) {
      return `the logs hold two hosts with the IP ${e.ip} (${e.hosts[0]} and ${e.hosts[1]}): replay one incident at a time (the logs of one cluster), and name one machine's folders as one host (--set-host GLOB=NAME)`;
    }
    if (e instanceof ScenarioError) return `the inferred scenario is not runnable: ${e.message}`;
    throw e;
  }
  return null;
}


/**
 * Fits the run within the limits. An inferred run (as long as the logs) longer than `maxSpanMs` is
 * cut to it, with a note; a length the user gave (`given`: `--until ...`, or a scenario file's
 * `untilMs`) past it is refused, and so is a run that would send too much (ScenarioError, one line
 * naming the field).
 */
export function fitRun(input: ReplayInput, maxSpanMs: number, given: string | null): void {
  if (given === null && input.untilMs > maxSpanMs) {
    const end = input.observed ? ` (to ${new Date(input.observed.window.last).toISOString().slice(0, 10)})` : '';
    input.notes.push(`the logs span ${spanText(input.untilMs)}${end}, longer than a run may last: replayed for their first ${spanText(maxSpanMs)} (--max-span to raise it, --until to choose the end)`);
    input.untilMs = maxSpanMs;
  }
  const problem = runSizeProblem(input.scenario, input.untilMs, maxSpanMs, given ?? 'untilMs');
  if (problem) throw new ScenarioError(problem);
}

/** When the only input is a `.json` file that holds a scenario: its parsed content; otherwise null. */
export function scenarioArg(paths: string[]): { path: string; json: unknown } | null {
  const jsons = paths.filter((p) => /\.json$/i.test(p) && existsSync(p) && statSync(p).isFile());
  if (!jsons.length) return null;
  for (const p of jsons) {
    let json: unknown;
    const size = statSync(p).size;
    if (size > MAX_SCENARIO_FILE_BYTES) {
      throw new ScenarioError(`${p}: ${size.toLocaleString('en-US')} bytes is past the limit of ${MAX_SCENARIO_FILE_BYTES / 1024 / 1024} MB for a scenario file`);
    }
    try {
      json = JSON.parse(readFileSync(p, 'utf8'));
    } catch (e) {
      throw new ScenarioError(`${p}: not valid JSON (${(e as Error).message})`);
    }
    if (!looksLikeScenario(json)) continue;
    if (paths.length > 1) throw new ScenarioError(`${p} is a scenario file: give it alone, not with other inputs`);
    return { path: p, json };
  }
  return null;
}

export function loadScenarioFile(path: string, json: unknown): ReplayInput {
  try {
    return readScenarioFile(json, path);
  } catch (e) {
    if (e instanceof ScenarioError) throw new ScenarioError(`${path}: ${e.message}`);
    throw e;
  }
}
