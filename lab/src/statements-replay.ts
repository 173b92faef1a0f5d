// The statements a replay report makes, checked against the lab's truth: the settings it ran each
// client with, the consumer groups it inferred and what their run gave, the faults it inferred, and
// its simulated milestones where lab.json has the time.
import { checkDown, checkFaultClaim, type FaultClaim } from './statements.js';
import { say, type Statement } from './statements-core.js';
import { DOWN_KINDS, effectiveClient, ms, TOLERANCE, Truth, type EffectiveClient } from './score-truth.js';

type Report = any;

/**
 * A client setting of the replay's scenario and the lab setting it stands for. The value is the
 * scenario's, else the one the replay's `defaults` says it took (its leading word).
 */
const SETTINGS: Array<{ model: string; lab: keyof EffectiveClient }> = [
  { model: 'sendMsgTimeoutMs', lab: 'sendMsgTimeout' },
  { model: 'retryTimesWhenSendFailed', lab: 'retryTimesWhenSendFailed' },
  { model: 'sendLatencyFaultEnable', lab: 'sendLatencyFaultEnable' },
  { model: 'clientCloseSocketIfTimeout', lab: 'closeSocketIfTimeout' },
];

const ASYNC_RETRIES: (typeof SETTINGS)[number] = { model: 'retryTimesWhenSendAsyncFailed', lab: 'retryTimesWhenSendAsyncFailed' };

function settingOf(report: Report, i: number, key: string): { value: string; defaulted: boolean } | null {
  const given = report.scenario.clients[i].settings?.[key];
  const d = report.defaults?.[`scenario.clients[${i}].settings.${key}`];
  // A value the scenario runs with that replay lists among its defaults all the same (an inference
  // whose premise is itself assumed) is an assumption too.
  if (given !== undefined) return { value: String(given), defaulted: typeof d === 'string' };
  return typeof d === 'string' ? { value: d.split(/\s/)[0], defaulted: true } : null;
}

function clientStatements(truth: Truth, report: Report): Statement[] {
  const out: Statement[] = [];
  (report.scenario.clients ?? []).forEach((sc: any, i: number) => {
    const where = `scenario.clients[${i}] ${sc.host}`;
    const s = (claim: string) => say('replay', 'replay-setting', where, claim);
    const c = truth.client(sc.host);
    if (!c) {
      const consumer = truth.consumers().find((x) => x.host === sc.host);
      out.push(s(`a producer on ${sc.host}`).is(false, '', consumer ? `the lab ran a consumer (${consumer.group}), no producer, on ${sc.host}` : `the lab ran no producer on ${sc.host}`));
      return;
    }
    const e = effectiveClient(c);
    // A value replay lists in its defaults is one no line gave: an assumption, said so, not a claim.
    const assumed = (key: string) => report.defaults?.[`scenario.clients[${i}].${key}`] !== undefined;
    const a = (claim: string) => say('replay', 'replay-assumed', where, claim);
    out.push(s(`${sc.host} runs client ${sc.version}`).is(sc.version === c.version, `client ${c.version}`, `it ran client ${c.version}`));
    // The retries of the sends replay runs asynchronously are retryTimesWhenSendAsyncFailed's (MQClientAPIImpl.onExceptionImpl); retryTimesWhenSendFailed does not apply to them.
    const settings = sc.async === true ? SETTINGS.map((x) => (x.lab === 'retryTimesWhenSendFailed' ? ASYNC_RETRIES : x)) : SETTINGS;
    for (const { model, lab } of settings) {
      const got = settingOf(report, i, model);
      const claim = `${sc.host} ${model}=${got?.value ?? '?'}${got?.defaulted ? ' (a default)' : ''}`;
      if (!got) out.push(s(claim).unknown('the replay does not say which value it ran'));
      else out.push((got.defaulted ? a : s)(claim).is(got.value === String(e[lab]), `it ran ${lab}=${e[lab]}`, `it ran ${lab}=${e[lab]}${c.settings && lab in c.settings ? ' (set by the scenario)' : ' (the default)'}`));
    }
    if (sc.async === true) out.push(s(`${sc.host} sends asynchronously`).is(!!c.async, 'the application sent async, with a SendCallback', 'the application sent synchronously'));
    else out.push((assumed('async') ? a : s)(`${sc.host} sends synchronously${assumed('async') ? ' (a default)' : ''}`).is(!c.async, 'sync sends', 'the application sent async, with a SendCallback'));
    if (Array.isArray(sc.sendTimesMs)) {
      const n = sc.sendTimesMs.length;
      const ok = n <= c.sends.total * TOLERANCE.rateFactor && n >= c.sends.total / TOLERANCE.rateFactor;
      out.push(s(`${sc.host} sent ${n} times (its logged sends)`).is(ok, `the application made ${c.sends.total} sends`, `the application made ${c.sends.total} sends (factor ${TOLERANCE.rateFactor})`));
    } else if (typeof sc.sendRatePerSec === 'number') {
      const r = sc.sendRatePerSec;
      // A producer whose scenario changed its traffic (clients[].schedule) sent at each of its rates
      // in turn: one rate anywhere between the lowest and the highest is a fair summary.
      const rates = [c.rate, ...(c.schedule ?? []).map((x) => x.rate)];
      const [lo, hi] = [Math.min(...rates), Math.max(...rates)];
      const said = lo === hi ? `${c.rate}/s` : `${lo}/s to ${hi}/s (its schedule)`;
      const ok = r <= hi * TOLERANCE.rateFactor && r >= lo / TOLERANCE.rateFactor;
      // A share of its topic's stored rate (replay's defaults say so): the topic's sum is the claim (topicRateStatements).
      const shared = assumed('sendRatePerSec');
      out.push((shared ? a : s)(`${sc.host} sends ${r}/s${shared ? ' (an equal share)' : ''}`).is(ok, `it sent ${said}`, `it sent ${said} (factor ${TOLERANCE.rateFactor})`));
    }
    if (typeof sc.sendThreads === 'number') {
      // The application's sending threads: LabProducer's publisher pool (threads, and its schedule's).
      const pools = [c.threads, ...(c.schedule ?? []).map((x) => x.threads)].filter((x): x is number => typeof x === 'number');
      const thr = assumed('sendThreads');
      out.push((thr ? a : s)(`${sc.host} sends from ${sc.sendThreads} application threads${thr ? ' (assumed)' : ''}`).is(pools.includes(sc.sendThreads), `its publisher pool had ${pools.join(', then ')}`, `its publisher pool had ${pools.join(', then ')}`));
    }
    if (c.boundNamesrv && sc.namesrv && sc.namesrv !== 'random')
      out.push(s(`${sc.host} bound to NameServer ${sc.namesrv}`).is(sc.namesrv === c.boundNamesrv, `bound to ${c.boundNamesrv}`, `it was bound to ${c.boundNamesrv}`));
  });
  return out;
}

/**
 * The rate replay shared equally among a topic's producers (no line splits a topic's stored
 * messages by producer): what it claims is their sum, against the sum of the lab's rates (each
 * producer's lowest to highest where its scenario changed its traffic).
 */
function topicRateStatements(truth: Truth, report: Report): Statement[] {
  const byTopic = new Map<string, Array<{ host: string; rate: number }>>();
  (report.scenario.clients ?? []).forEach((sc: any, i: number) => {
    // A share: assumed (in the defaults) but read from the logs as the topic's (in the provenance); a rate no line gave is only assumed.
    const path = `scenario.clients[${i}].sendRatePerSec`;
    if (report.defaults?.[path] === undefined || report.provenance?.[path] === undefined || typeof sc.sendRatePerSec !== 'number' || Array.isArray(sc.sendTimesMs)) return;
    byTopic.set(sc.topic, [...(byTopic.get(sc.topic) ?? []), { host: sc.host, rate: sc.sendRatePerSec }]);
  });
  const out: Statement[] = [];
  for (const [topic, shares] of byTopic) {
    const sum = Math.round(shares.reduce((x, y) => x + y.rate, 0) * 100) / 100;
    const claim = say('replay', 'replay-setting', `scenario.clients ${topic}`, `the ${shares.length} producers of ${topic} (${shares.map((x) => x.host).join(', ')}) send ${sum}/s together`);
    const lab = shares.map((x) => truth.client(x.host));
    if (lab.some((c) => !c)) {
      out.push(claim.unknown(`the lab ran no producer on ${shares.filter((_, k) => !lab[k]).map((x) => x.host).join(', ')}`));
      continue;
    }
    const range = (c: NonNullable<(typeof lab)[number]>) => [c.rate, ...(c.schedule ?? []).map((x) => x.rate)];
    const lo = lab.reduce((x, c) => x + Math.min(...range(c!)), 0);
    const hi = lab.reduce((x, c) => x + Math.max(...range(c!)), 0);
    const said = lo === hi ? `${lo}/s` : `${lo}/s to ${hi}/s (their schedules)`;
    out.push(claim.is(sum <= hi * TOLERANCE.rateFactor && sum >= lo / TOLERANCE.rateFactor, `they sent ${said}`, `they sent ${said} (factor ${TOLERANCE.rateFactor})`));
  }
  return out;
}

/** The scenario's faults as stated faults: a host's state until its next state, a broker's episode for its duration. */
export function replayFaultClaims(report: Report): Array<FaultClaim & { index: number }> {
  const sc = report.scenario;
  const at = (f: any) => sc.startEpochMs + f.atMs;
  const faults: any[] = sc.faults ?? [];
  const hostOfBroker = (name: string) => sc.brokers.find((b: any) => b.name === name)?.host ?? name;
  const out: Array<FaultClaim & { index: number }> = [];
  faults.forEach((f, index) => {
    if ('state' in f) {
      if (f.state === 'up') return;
      const next = faults.slice(index + 1).find((x) => 'state' in x && x.host === f.host);
      const end = f.state === 'reboot' ? at(f) + Math.max(f.boot?.namesrvMs ?? 0, f.boot?.brokerMs ?? 0) : next ? at(next) : null;
      // A whole host `hung` (its OS too: no connection completes) is what a host without power shows.
      const kind = f.state === 'hung' && !f.processesOnly ? 'unreachable' : f.state;
      out.push({ index, kind, host: f.host, start: at(f), end });
    } else if ('stall' in f) out.push({ index, kind: 'stall', host: hostOfBroker(f.broker), start: at(f), end: at(f) + f.stall.durationMs });
    else if ('overload' in f) out.push({ index, kind: 'overload', host: hostOfBroker(f.broker), start: at(f), end: at(f) + f.overload.durationMs });
    else if ('diskFull' in f) out.push({ index, kind: 'disk-full', host: hostOfBroker(f.broker), start: at(f), end: at(f) + f.diskFull.durationMs });
    else if ('slowPut' in f) out.push({ index, kind: 'slow-put', host: hostOfBroker(f.broker), start: at(f), end: at(f) + f.slowPut.durationMs });
    else if ('partition' in f) {
      const heal = faults.slice(index + 1).find((x) => 'heal' in x && x.heal.every((h: string) => f.partition.includes(h)));
      out.push({ index, kind: 'partition', host: f.partition[0], start: at(f), end: f.durationMs ? at(f) + f.durationMs : heal ? at(heal) : null });
    }
  });
  // A stall inside an overload the replay also runs is one of its pauses (a JVM held by a CPU quota).
  for (const c of out) {
    if (c.kind === 'stall') c.inside = out.some((o) => o.kind === 'overload' && o.host === c.host && c.start >= o.start && c.start <= (o.end ?? Infinity));
  }
  return out;
}

/** Simulated milestones whose time lab.json knows: a client's first and last failed send; a broker dropped because it was gone. */
function milestoneStatements(truth: Truth, report: Report): Statement[] {
  const out: Statement[] = [];
  for (const m of report.milestones ?? []) {
    if (!m.simulated || m.name === 'fault-start') continue; // the faults are checked as faults
    const sim = ms(m.simulated);
    const where = `milestone ${m.name} ${m.subject}`;
    const s = (claim: string) => say('replay', 'replay-milestone', where, claim);
    if (m.name === 'first-failure' || m.name === 'outage-end') {
      const c = truth.client(m.subject);
      const lab = m.name === 'first-failure' ? c?.sends.firstFailure : c?.sends.lastFailure;
      const claim = `${m.subject}: ${m.name === 'first-failure' ? 'first' : 'last'} failed send at ${truth.time(sim)}`;
      const faultsFrom = truth.lab.window?.faultsFrom ? ms(truth.lab.window.faultsFrom) : null;
      if (!c) out.push(s(claim).unknown(`the lab ran no application on ${m.subject}`));
      else if (!lab) out.push(s(claim).is(false, '', 'the application lost no send'));
      else if (m.name === 'first-failure' && faultsFrom !== null && ms(lab) < faultsFrom && Math.abs(sim - ms(lab)) > TOLERANCE.faultMs) {
        // A send the application lost while it started, before the lab injected anything (an
        // asynchronous producer's first sends timing out as its channels come up): no incident's.
        // The replay's first failed send is the incident's, and lab.json keeps only the first of all:
        // a claim far from that one is neither borne out nor contradicted.
        out.push(s(claim).unknown(`the application's first failure (${truth.time(ms(lab))}) came before the lab injected any fault; lab.json does not give the incident's first`));
      } else {
        const d = sim - ms(lab);
        out.push(s(claim).is(Math.abs(d) <= TOLERANCE.faultMs, `the application's at ${truth.time(ms(lab))} (${(d / 1000).toFixed(1)} s)`, `the application's at ${truth.time(ms(lab))}: ${(d / 1000).toFixed(1)} s off, beyond ${TOLERANCE.faultMs / 1000} s`));
      }
      continue;
    }
    const removal = /removes (\S+)/.exec(m.subject);
    const dropped = m.name === 'route-lost' ? /drops (\S+)/.exec(m.simulatedDetail ?? m.observedDetail ?? '') : null;
    const broker = removal?.[1] ?? dropped?.[1];
    if (broker) {
      // A NameServer's removal: gone as that NameServer saw it (a partition that left the two connected is no reason).
      const ns = removal ? /^(\d+\.\d+\.\d+\.\d+:\d+) removes/.exec(m.subject) : null;
      const nsHost = ns ? truth.namesrvHost(ns[1]) : undefined;
      out.push(checkDown(truth, s(`${broker} was gone when ${m.subject}${dropped ? ` dropped it` : ''} at ${truth.time(sim)}`), truth.brokerHost(broker), `broker ${broker}`, sim, sim, DOWN_KINDS, nsHost));
      continue;
    }
    out.push(s(`${m.name} ${m.subject} at ${truth.time(sim)}`).unknown(`lab.json does not record when a ${m.name} happened`));
  }
  return out;
}

/** The sends each simulated client lost, against what its application lost. */
function outageStatements(truth: Truth, report: Report): Statement[] {
  return (report.outages ?? []).map((o: any) => {
    const s = say('replay', 'replay-impact', `outages ${o.client}`, `${o.client} loses ${o.simulatedFailedSends ?? 0} sends in the replay`);
    const c = truth.client(o.client);
    if (!c) return s.unknown(`the lab ran no application on ${o.client}`);
    const lost = o.simulatedFailedSends ?? 0;
    const failed = c.sends.failed;
    // None where the application lost none (an outage that did not happen); else within the factors,
    // or as many sends either way as analyze's count may be off (lostAbs): the model's sends are a
    // Poisson process, so a count of a few lost sends varies by about its square root from run to run.
    const ok = failed === 0 ? lost === 0 : (lost >= failed * TOLERANCE.replayLostMin && lost <= failed * TOLERANCE.replayLostMax) || Math.abs(lost - failed) <= TOLERANCE.lostAbs;
    return s.is(ok, `the application lost ${failed}`, `the application lost ${failed} (bounds ${TOLERANCE.replayLostMin}-${TOLERANCE.replayLostMax}x or ${TOLERANCE.lostAbs} sends)`);
  });
}

/** The tolerances docs/replay.md states for a consumer recording's replay ("Calibration"). */
const CONSUMER_REPLAY = { lagShare: 0.25, lagAbs: 3, countShare: 0.2, countAbs: 2 };
const within = (got: number, truth: number, share: number, abs: number) => Math.abs(got - truth) <= Math.max(share * truth, abs);

/**
 * A consumer setting of the replay's scenario and the lab's (null there: the client's default,
 * DefaultMQPushConsumer's: 20 threads, 1000 messages, 16 retries).
 */
const CONSUMER_SETTINGS: Array<{ key: 'consumeThreadMin' | 'pullThresholdForQueue' | 'maxReconsumeTimes'; dflt: number }> = [
  { key: 'consumeThreadMin', dflt: 20 },
  { key: 'pullThresholdForQueue', dflt: 1000 },
  { key: 'maxReconsumeTimes', dflt: 16 },
];

/** The consumer groups the replay inferred: their instances and settings, and what its run gave against the lab's group. */
function consumerStatements(truth: Truth, report: Report): Statement[] {
  const out: Statement[] = [];
  (report.scenario.consumerGroups ?? []).forEach((g: any, i: number) => {
    const where = `scenario.consumerGroups[${i}] ${g.group}`;
    const s = (claim: string) => say('replay', 'replay-setting', where, claim);
    const a = (claim: string) => say('replay', 'replay-assumed', where, claim);
    for (const host of [...new Set((g.instances ?? []).map((x: any) => String(x.host)))] as string[]) {
      const c = truth.consumers().find((x) => x.host === host);
      out.push(s(`a consumer of ${g.group} on ${host}`).is(c?.group === g.group, c ? `the lab ran ${c.group} there` : '', c ? `the lab ran ${c.group} there` : `the lab ran no consumer on ${host}`));
    }
    const lab = truth.consumers().filter((x) => x.group === g.group);
    if (lab.length === 0) return;
    for (const { key, dflt } of CONSUMER_SETTINGS) {
      const stated = g[key];
      if (typeof stated !== 'number') continue;
      const assumed = report.defaults?.[`scenario.consumerGroups[${i}].${key}`] !== undefined;
      const ran = [...new Set(lab.map((x: any) => (x.settings?.[key] ?? dflt) as number))];
      out.push((assumed ? a : s)(`${g.group} ${key}=${stated}${assumed ? ' (assumed)' : ''}`).is(ran.length === 1 && ran[0] === stated, `it ran ${key}=${ran.join('/')}`, `it ran ${key}=${ran.join('/')}`));
    }
    // A SimpleConsumer group's invisible time (no log prints it): the lab's receives' (LabGrpcConsumer: 15 s unless set).
    if (typeof g.invisibleMs === 'number') {
      const assumed = report.defaults?.[`scenario.consumerGroups[${i}].invisibleMs`] !== undefined;
      const ran = [...new Set(lab.map((x: any) => (x.mode === 'grpcSimple' ? ((x.settings?.invisibleSeconds ?? 15) as number) * 1000 : null)))];
      const claim = (assumed ? a : s)(`${g.group} invisibleMs=${g.invisibleMs}${assumed ? ' (assumed)' : ''}`);
      out.push(
        ran.includes(null)
          ? claim.is(false, '', `the lab ran ${lab.filter((x: any) => x.mode !== 'grpcSimple').map((x: any) => x.host).join(', ')} as no SimpleConsumer`)
          : claim.is(ran.length === 1 && ran[0] === g.invisibleMs, `it received with ${ran.join('/')} ms`, `it received with ${ran.join('/')} ms`),
      );
    }
  });
  for (const v of report.baseline?.consumers ?? []) {
    const t = truth.consumerGroups().find((x) => x.group === v.group);
    const imp = (claim: string) => say('replay', 'replay-impact', `consumers ${v.group}`, claim);
    if (!t) {
      out.push(imp(`${v.group}'s largest lag is ${v.maxLag} in the replay`).unknown(`the lab ran no group ${v.group}`));
      continue;
    }
    const dlq = t.dlq?.byDeliveries;
    const lag = t.maxLag?.total;
    if (typeof lag === 'number') out.push(imp(`${v.group}'s largest lag is ${v.maxLag} in the replay`).is(within(v.maxLag, lag, CONSUMER_REPLAY.lagShare, CONSUMER_REPLAY.lagAbs), `the lab's was ${lag}`, `the lab's was ${lag}`));
    if (typeof dlq === 'number') out.push(imp(`${v.group} sends ${v.dlq} messages to the DLQ in the replay`).is(within(v.dlq, dlq, CONSUMER_REPLAY.countShare, CONSUMER_REPLAY.countAbs), `the lab's group sent ${dlq}`, `the lab's group sent ${dlq}`));
    if (typeof t.duplicates === 'number') out.push(imp(`${v.group} consumes ${v.duplicates} messages twice in the replay`).is(within(v.duplicates, t.duplicates, CONSUMER_REPLAY.countShare, CONSUMER_REPLAY.countAbs), `the lab's group consumed ${t.duplicates} twice`, `the lab's group consumed ${t.duplicates} twice`));
  }
  return out;
}

/** Every statement of a replay report. */
export function replayStatements(truth: Truth, report: Report): Statement[] {
  const faults = replayFaultClaims(report).flatMap((c) => checkFaultClaim(truth, c, 'replay', 'replay-fault', `scenario.faults[${c.index}]`));
  return [...clientStatements(truth, report), ...topicRateStatements(truth, report), ...consumerStatements(truth, report), ...faults, ...milestoneStatements(truth, report), ...outageStatements(truth, report)];
}
