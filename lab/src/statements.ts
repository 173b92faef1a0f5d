// The statements an analyze report makes, each checked against the lab's truth: the causes of each
// incident, each client's impact, each finding's claim about a process, the premise of each piece of
// advice. A statement the truth cannot decide is `unknown` with the reason, never `true`.
import { adviceStatements, type Scope } from './statements-advice.js';
import { say, type Statement, type StatementClass } from './statements-core.js';
import { consumerStatements } from './statements-consumer.js';
import { DOWN_KINDS, effectiveClient, keptApart, KIND_WORDS, labKinds, ms, TOLERANCE, Truth, UNANSWERING_KINDS, type TruthFault } from './score-truth.js';

const t = (iso: string | null): number | null => (iso === null ? null : ms(iso));

/** A stated fault (a cause, an inferred fault): on a host, of a kind, over a window. */
export interface FaultClaim {
  kind: string;
  host: string;
  start: number;
  end: number | null;
  /** Words of the report that add to the kind (an overload's pauses). */
  detail?: string | null;
  /** A pause the report places inside an overload it also states: held to lie within the fault, not to match its ends. */
  inside?: boolean;
  /** Its start and end are the bounds of stats minutes: held to have begun within them, not to match its ends. */
  minuteBounds?: boolean;
}

/** The lab kinds a stated kind names. */
export function claimKinds(c: FaultClaim): readonly string[] {
  const own = KIND_WORDS[c.kind] ?? [];
  return c.kind === 'overload' && /pause/.test(c.detail ?? '') ? [...own, 'stall'] : own;
}

/** The lab faults a claim names: on its host, overlapping in time, of a kind it names. */
export function namedFaults(truth: Truth, c: FaultClaim): TruthFault[] {
  const kinds = claimKinds(c);
  return truth.faultsOn(c.host, c.start, c.end ?? c.start, TOLERANCE.faultMs).filter((f) => labKinds(f).some((k) => kinds.includes(k)));
}

/**
 * Three statements about a stated fault: a fault on its host then, of its kind, over its window. A
 * claim on a host that had no fault then is one false statement (its kind and window are not asked).
 */
export function checkFaultClaim(truth: Truth, c: FaultClaim, source: Statement['source'], cls: StatementClass, where: string): Statement[] {
  const when = `${truth.time(c.start)}-${c.end === null ? '?' : truth.time(c.end)}`;
  const near = truth.faultsOn(c.host, c.start, c.end ?? c.start, TOLERANCE.faultMs);
  const out: Statement[] = [];
  // An overload or a stall the broker's own busy replies bear out: it was busy then, fault injected
  // or not (a cold JVM on a loaded machine answers [TIMEOUT_CLEAN_QUEUE] too, and a lone reply with
  // nothing queued behind it says its send threads stood still for its wait).
  const busy = !near.length && (c.kind === 'overload' || c.kind === 'stall') ? truth.busyRepliesOn(c.host, c.start, c.end ?? c.start) : [];
  if (busy.length) {
    const why = `a broker on ${c.host} answered busy ${busy.length} time${busy.length === 1 ? '' : 's'} then (first at ${truth.time(busy[0])}), with no fault injected`;
    out.push(say(source, cls, where, `${c.kind} on ${c.host} at ${when}`).is(true, why, why));
    return out;
  }
  out.push(
    say(source, cls, where, `a fault on ${c.host} at ${when}`).is(
      near.length > 0,
      near.map((f) => f.text).join('; '),
      `no fault on ${c.host} within ${TOLERANCE.faultMs / 1000} s of ${when}; the lab's faults: ${truth.allFaults()}`,
    ),
  );
  if (!near.length) return out;
  if (!KIND_WORDS[c.kind]) {
    out.push(say(source, cls, where, `${c.host}: ${c.kind}`).unknown(`the scorer has no lab kind for "${c.kind}"`));
    return out;
  }
  const named = namedFaults(truth, c);
  out.push(
    say(source, cls, where, `${c.host}: ${c.kind}${c.detail ? ` (${c.detail})` : ''}`).is(
      named.length > 0,
      named.map((f) => f.text).join('; '),
      `the fault on ${c.host} then was ${near.map((f) => f.text).join('; ')}, which "${c.kind}" does not name (it names ${claimKinds(c).join(', ')})`,
    ),
  );
  if (!named.length) return out;
  const tol = named.every((f) => f.kind === 'partition') ? TOLERANCE.partitionMs : TOLERANCE.faultMs;
  const seen = (f: TruthFault) => `${f.text}, seen by peers ${truth.time(f.seenStart)}-${truth.time(f.seenEnd)}`;
  if (c.inside) {
    const holds = named.filter((f) => c.start >= f.seenStart - tol && (c.end ?? c.start) <= f.seenEnd + tol);
    out.push(say(source, cls, where, `${c.kind} on ${c.host} over ${when}, inside the overload`).is(holds.length > 0, holds.map(seen).join('; '), `${named.map(seen).join('; ')}: it lies outside, beyond ${tol / 1000} s`));
    return out;
  }
  if (c.minuteBounds) {
    // A listener made to fail is seen failing from its first failed delivery.
    const began = (f: TruthFault) => f.firstEffect ?? f.seenStart;
    const holds = named.filter((f) => began(f) >= c.start - tol && began(f) <= (c.end ?? c.start) + tol);
    const first = (f: TruthFault) => `${f.text}, first seen ${truth.time(began(f))}`;
    out.push(say(source, cls, where, `${c.kind} on ${c.host} began within ${when}`).is(holds.length > 0, holds.map(first).join('; '), `${named.map(first).join('; ')}: outside, beyond ${tol / 1000} s`));
    return out;
  }
  // A reboot may be stated from its power-off (peers' calls start to hang), from its link coming
  // back (the first reset), or, after a hang of its host, from when the host stopped answering (a
  // frozen host that was reset): each is its start.
  const startOf = (f: TruthFault) => {
    // A listener made to fail is seen failing from its first failed delivery (none before one reached it).
    if (f.firstEffect !== null && f.firstEffect > f.seenStart) return Math.abs(c.start - f.firstEffect) < Math.abs(c.start - f.seenStart) ? f.firstEffect : f.seenStart;
    if (f.kind !== 'reboot') return f.seenStart;
    const starts = [f.seenStart, f.start, ...(f.darkStart !== null ? [f.darkStart] : [])];
    return starts.reduce((a, b) => (Math.abs(c.start - b) < Math.abs(c.start - a) ? b : a));
  };
  // A host stated unreachable (replay's whole host `hung`) before a reboot is so until its link comes up.
  // A host whose servers booted at different times is back when either is: each boot is its end.
  const endOf = (f: TruthFault) => {
    if (c.kind === 'unreachable' && f.kind === 'reboot') return f.seenStart;
    const ends = [f.seenEnd, f.backAt.broker, f.backAt.namesrv].filter((x): x is number => x !== null);
    return c.end === null ? f.seenEnd : ends.reduce((a, b) => (Math.abs(c.end! - b) < Math.abs(c.end! - a) ? b : a));
  };
  const fit = (f: TruthFault) => ({ f, dStart: c.start - startOf(f), dEnd: c.end === null ? null : c.end - endOf(f) });
  const fits = named.map(fit);
  const within = (x: ReturnType<typeof fit>) => Math.abs(x.dStart) <= tol && (x.dEnd === null || Math.abs(x.dEnd) <= tol);
  const best = fits.find(within) ?? fits.reduce((a, b) => (Math.abs(b.dStart) < Math.abs(a.dStart) ? b : a));
  // A busy broker's pauses stated from its busy replies: each end inside the fault or at a busy reply
  // of that broker (a starved broker still answered busy seconds after its CPU quota was lifted).
  if (!within(best) && (c.kind === 'overload' || c.kind === 'stall')) {
    const borne = (t: number) => named.some((f) => t >= f.seenStart - tol && t <= f.seenEnd + tol) || truth.busyRepliesOn(c.host, t, t, 1000).length > 0;
    if (borne(c.start) && borne(c.end ?? c.start)) {
      const why = `${named.map(seen).join('; ')}; each end of ${when} lies within it or at a busy reply of a broker on ${c.host}`;
      out.push(say(source, cls, where, `${c.kind} on ${c.host} over ${when}`).is(true, why, why));
      return out;
    }
  }
  const delta = `start ${(best.dStart / 1000).toFixed(1)} s${best.dEnd === null ? ', no end stated' : `, end ${(best.dEnd / 1000).toFixed(1)} s`}`;
  out.push(say(source, cls, where, `${c.kind} on ${c.host} over ${when}`).is(within(best), `${seen(best.f)}: ${delta}`, `${seen(best.f)}: ${delta}, beyond ${tol / 1000} s`));
  return out;
}

/** A claim that a process on `host` was gone or did not answer over [from, to]. */
export function checkDown(
  truth: Truth,
  s: ReturnType<typeof say>,
  host: string | undefined,
  what: string,
  from: number,
  to: number,
  kinds: readonly string[] = DOWN_KINDS,
  seenFrom?: string,
): Statement {
  if (!host) return s.unknown(`the lab does not know ${what}`);
  // A broker's or a NameServer's claim: that server was gone until it booted again (a host's NameServer is often back first).
  const process = what.startsWith('broker ') ? 'broker' : what.startsWith('NameServer ') ? 'namesrv' : undefined;
  const near = truth.faultsOn(host, from, to, TOLERANCE.claimMs, process);
  // A busy claim the logs bear out: the broker answered busy then, fault or not.
  const said = kinds.includes('overload') && !near.length ? truth.busyRepliesIn(from, to) : [];
  if (said.length) {
    const why = `the client logs hold ${said.length} busy repl${said.length === 1 ? 'y' : 'ies'} then (first at ${truth.time(said[0])}), with no fault injected`;
    return s.is(true, why, why);
  }
  // A claim that `seenFrom` (a NameServer) saw it gone: a partition answers it only if it cut the two apart.
  const fit = near.filter((f) => labKinds(f).some((k) => kinds.includes(k)) && (!seenFrom || keptApart(f, host, seenFrom)));
  const when = `${truth.time(from)}-${truth.time(to)}`;
  return s.is(
    fit.length > 0,
    fit.map((f) => f.text).join('; '),
    near.length
      ? `${what} (${host}) had only ${near.map((f) => f.text).join('; ')} then, no ${kinds.join('/')}`
      : `${what} (${host}) had no fault within ${TOLERANCE.claimMs / 1000} s of ${when}; the lab's faults: ${truth.allFaults()}`,
  );
}

type Report = any;

/** Causes of every incident. */
function causeStatements(truth: Truth, report: Report): Statement[] {
  return (report.incidents ?? []).flatMap((inc: any) =>
    (inc.causes ?? []).map((c: any, i: number) => [
      ...checkFaultClaim(truth, { kind: c.kind, host: c.host, start: ms(c.start), end: t(c.end), detail: c.detail, minuteBounds: c.minuteBounds === true }, 'analyze', 'cause', `${inc.id} cause ${i + 1}`),
      ...(c.group ? [consumerGroupClaim(truth, c.host, c.group, `${inc.id} cause ${i + 1}`)] : []),
    ]),
  ).flat();
}

/** A consumer fault's cause names the group whose instance runs on its host. */
function consumerGroupClaim(truth: Truth, host: string, group: string, where: string): Statement {
  const c = truth.consumers().find((x) => x.host === host);
  return say('analyze', 'cause', where, `${host} runs an instance of consumer group ${group}`).is(
    c?.group === group,
    `its consumer is of ${group}`,
    c ? `its consumer is of ${c.group}` : `the lab ran no consumer on ${host}`,
  );
}

/** Each client's impact, summed over the incidents (lab.json counts a client's failures over the whole recording). */
function impactStatements(truth: Truth, report: Report): Statement[] {
  const out: Statement[] = [];
  type Why = { id: string; text: string; start: number; end: number };
  const byClient = new Map<string, { sends: number; start: number; end: number; ids: string[]; version: string | null; why: Why[] }>();
  for (const inc of report.incidents ?? []) {
    for (const x of inc.impact ?? []) {
      const cur = byClient.get(x.client) ?? { sends: 0, start: Infinity, end: -Infinity, ids: [] as string[], version: (x.clientVersion as string | null) ?? null, why: [] as Why[] };
      // What it lost before the first cause (impact.before) is claimed as its loss too.
      const b = x.before as { failedSends: number; start: string; end: string } | null | undefined;
      cur.sends += (x.failedSends ?? 0) + (b?.failedSends ?? 0);
      cur.start = Math.min(cur.start, ms(x.start), b ? ms(b.start) : Infinity);
      cur.end = Math.max(cur.end, ms(x.end), b ? ms(b.end) : -Infinity);
      cur.ids.push(inc.id);
      // An impact with no window (no send lost) is explained over its incident's window.
      const [ws, we] = x.start ? [ms(x.start), ms(x.end)] : [ms(inc.start), inc.end ? ms(inc.end) : ms(inc.start)];
      if (x.lastedBecause) cur.why.push({ id: inc.id, text: x.lastedBecause, start: ws, end: we });
      byClient.set(x.client, cur);
    }
  }
  for (const [client, x] of byClient) {
    const where = `${x.ids.join('+')} impact ${client}`;
    const s = (claim: string) => say('analyze', 'impact', where, claim);
    const c = truth.client(client);
    if (!c) {
      // A consumer application sends no message of its own: "no send lost" is true of it, and
      // its calls that timed out (heartbeats, rebalances, route polls) are no lost send.
      const consumer = truth.consumers().find((k) => k.host === client);
      if (consumer && x.sends === 0) out.push(s(`${client} lost no send`).is(true, `the lab ran a consumer (${consumer.group}) on ${client}, which sends none`, ''));
      else out.push(s(`${client} lost sends`).is(false, '', consumer ? `the lab ran a consumer (${consumer.group}), no producer, on ${client}` : `the lab ran no application on ${client}`));
      continue;
    }
    const f = c.sends;
    if (x.sends === 0) {
      // An impact of no lost send (calls that timed out, a retry that went through) claims just that.
      out.push(s(`${client} lost no send`).is(f.failed === 0, `the application lost none (${f.ok} of ${f.total} ok)`, `the application lost ${f.failed}`));
      for (const w of x.why) out.push(...whyStatements(truth, w, client, `${w.id} impact ${client}`));
      continue;
    }
    out.push(s(`${client} lost sends`).is(f.failed > 0, `the application lost ${f.failed} sends`, `the application lost no send (${f.ok} of ${f.total} ok)`));
    if (f.failed > 0) {
      const tol = Math.max(TOLERANCE.lostAbs, Math.round(f.failed * TOLERANCE.lostShare));
      out.push(s(`${client} lost ${x.sends} sends`).is(Math.abs(x.sends - f.failed) <= tol, `the application lost ${f.failed}`, `the application lost ${f.failed} (tolerance ${tol})`));
      if (!Number.isFinite(x.start) || !Number.isFinite(x.end)) {
        out.push(s(`${client} failed from ${truth.time(x.start)} to ${truth.time(x.end)}`).unknown('the impact gives no start or end'));
        continue;
      }
      const d1 = x.start - ms(f.firstFailure!);
      const d2 = x.end - ms(f.lastFailure!);
      const faultsFrom = truth.lab.window?.faultsFrom ? ms(truth.lab.window.faultsFrom) : null;
      if (faultsFrom !== null && ms(f.firstFailure!) < faultsFrom && Math.abs(d1) > TOLERANCE.failureMs && Math.abs(d2) <= TOLERANCE.failureMs) {
        // A send lost while the application started, before the lab injected anything, is no
        // incident's; lab.json keeps only the first of all, so a later start is not decided (as
        // the replay milestone's first failure).
        out.push(s(`${client} failed from ${truth.time(x.start)} to ${truth.time(x.end)}`).unknown(`the application's first failure (${truth.time(ms(f.firstFailure!))}) came before the lab injected any fault; its last (${truth.time(ms(f.lastFailure!))}) is within ${TOLERANCE.failureMs / 1000} s`));
      } else
        out.push(
          s(`${client} failed from ${truth.time(x.start)} to ${truth.time(x.end)}`).is(
            Math.abs(d1) <= TOLERANCE.failureMs && Math.abs(d2) <= TOLERANCE.failureMs,
            `the application's first and last failures ${truth.time(ms(f.firstFailure!))}, ${truth.time(ms(f.lastFailure!))}`,
            `the application's first and last failures ${truth.time(ms(f.firstFailure!))}, ${truth.time(ms(f.lastFailure!))} (${(d1 / 1000).toFixed(1)} s, ${(d2 / 1000).toFixed(1)} s off; tolerance ${TOLERANCE.failureMs / 1000} s)`,
          ),
        );
    }
    if (x.version) out.push(s(`${client} runs client ${x.version}`).is(x.version === c.version, `client ${c.version}`, `it ran client ${c.version}`));
    for (const w of x.why) out.push(...whyStatements(truth, w, client, `${w.id} impact ${client}`));
  }
  return out;
}

/** The mechanisms an impact's `lastedBecause` names, each held to the faults and the client. */
function whyStatements(truth: Truth, w: { text: string; start: number; end: number }, client: string, where: string): Statement[] {
  const out: Statement[] = [];
  const s = (claim: string) => say('analyze', 'impact', where, claim);
  const ns = /kept asking NameServer (\S+), which did not answer/.exec(w.text);
  if (ns) out.push(checkDown(truth, s(`NameServer ${ns[1]} did not answer ${client}`), truth.namesrvHost(ns[1]), `NameServer ${ns[1]}`, w.start, w.end, UNANSWERING_KINDS));
  const ver = /\(client (\d+\.\d+\.\d+)/.exec(w.text);
  const c = truth.client(client);
  if (ver && c) out.push(s(`${client} runs client ${ver[1]}`).is(ver[1] === c.version, `client ${c.version}`, `it ran client ${c.version}`));
  if (/a hung broker keeps its connections open/.test(w.text)) {
    const brokerHosts = truth.lab.hosts.filter((h) => h.roles.some((r) => r.startsWith('broker'))).map((h) => h.name);
    const hangs = brokerHosts.flatMap((h) => truth.faultsOn(h, w.start, w.end, TOLERANCE.claimMs)).filter((f) => f.kind === 'hang');
    out.push(s('a broker hung (its connections open)').is(hangs.length > 0, hangs.map((f) => f.text).join('; '), `no broker host hung then; the lab's faults: ${truth.allFaults()}`));
  }
  const busy = /while (\S+) was busy/.exec(w.text);
  if (busy) out.push(checkDown(truth, s(`${busy[1]} was busy`), truth.brokerHost(busy[1]), busy[1], w.start, w.end, ['overload', 'stall']));
  if (/sent to the failed broker until its route dropped it/.test(w.text)) {
    const brokerHosts = truth.lab.hosts.filter((h) => h.roles.includes('broker-master')).map((h) => h.name);
    const down = brokerHosts.flatMap((h) => truth.faultsOn(h, w.start, w.end, TOLERANCE.claimMs)).filter((f) => (DOWN_KINDS as readonly string[]).includes(f.kind));
    out.push(s('a broker failed').is(down.length > 0, down.map((f) => f.text).join('; '), `no master's host failed then; the lab's faults: ${truth.allFaults()}`));
  }
  if (!out.length) out.push(s(w.text).unknown('no mechanism the scorer reads in this explanation'));
  return out;
}

/** What a finding claims about processes: who was down or silent, who ran what. */
function findingStatements(truth: Truth, f: Report): Statement[] {
  const where = `${f.id} ${f.rule}`;
  const sub = f.subject ?? {};
  const m = f.metrics ?? {};
  const from = ms(f.start);
  const to = f.end ? ms(f.end) : from;
  const down = (claim: string) => say('analyze', 'went-down', where, claim);
  const proc = (claim: string) => say('analyze', 'process', where, claim);
  const broker = sub.broker ?? sub.brokerAddr;
  const bHost = truth.brokerHost(sub.broker, sub.brokerAddr);
  const out: Statement[] = [];
  const version = (client: string | undefined) => {
    const c = client ? truth.client(client) : undefined;
    if (c && typeof m.clientVersion === 'string' && /^\d+\.\d+\.\d+$/.test(m.clientVersion))
      out.push(proc(`${client} runs client ${m.clientVersion}`).is(m.clientVersion === c.version, `client ${c.version}`, `it ran client ${c.version}`));
  };
  switch (f.rule) {
    case 'stale-route': {
      out.push(checkDown(truth, down(`broker ${broker} stopped answering ${sub.client}`), bHost, `broker ${broker}`, from, to, UNANSWERING_KINDS));
      const c = truth.client(sub.client);
      if (c && (m.failedSends ?? 0) > 0) {
        const lost = c.sends.failed > 0 && ms(c.sends.firstFailure!) <= to + TOLERANCE.failureMs && ms(c.sends.lastFailure!) >= from - TOLERANCE.failureMs;
        out.push(proc(`${sub.client} lost sends from ${truth.time(from)} to ${truth.time(to)}`).is(lost, `the application lost ${c.sends.failed}`, c.sends.failed ? `its failures were ${c.sends.firstFailure}-${c.sends.lastFailure}` : 'the application lost no send'));
      }
      break;
    }
    case 'namesrv-stuck': {
      out.push(checkDown(truth, down(`NameServer ${sub.namesrvAddr} timed out for ${sub.client}`), truth.namesrvHost(sub.namesrvAddr), `NameServer ${sub.namesrvAddr}`, from, to, UNANSWERING_KINDS));
      version(sub.client);
      const c = truth.client(sub.client);
      if (c?.boundNamesrv) {
        const s = proc(`${sub.client} asked NameServer ${sub.namesrvAddr}`);
        // The lab knows the NameServer a client was bound to at its start, not where it went after.
        out.push(c.boundNamesrv === sub.namesrvAddr ? s.is(true, `bound to it from its start`, '') : s.unknown(`bound to ${c.boundNamesrv} at its start; the lab does not record a later switch`));
      }
      if (c && typeof m.closeSocketIfTimeout === 'boolean') {
        const e = effectiveClient(c);
        out.push(proc(`${sub.client} closeSocketIfTimeout=${m.closeSocketIfTimeout}`).is(e.closeSocketIfTimeout === m.closeSocketIfTimeout, `client ${c.version}`, `client ${c.version} ran with closeSocketIfTimeout=${e.closeSocketIfTimeout}`));
      }
      break;
    }
    case 'broker-down-detection': {
      if (m.brokerAlive === true) {
        // The finding says the broker kept running (its own log shows it): the claim is that no fault took it down.
        // Its process ran through the window: a fault contradicts it only when it covers some of that
        // window (within the logs' one-second resolution), not when it begins a few seconds later
        // (gen-710: a slave restarted 5 s after a NameServer's resume dropped its channel).
        const claim = down(`broker ${broker} kept running while NameServer ${sub.namesrvAddr} removed it at ${truth.time(to)}`);
        if (!bHost) {
          out.push(claim.unknown(`the lab does not know broker ${broker}`));
          break;
        }
        // A partition leaves the process running (and the finding names the network as one way its
        // registrations were lost): only a fault that stops or freezes the process contradicts it.
        const stopped = DOWN_KINDS.filter((k) => k !== 'partition') as readonly string[];
        const downThen = truth.faultsOn(bHost, from, to, 1000).filter((f) => labKinds(f).some((k) => stopped.includes(k)));
        out.push(claim.is(downThen.length === 0, `no fault took it down from ${truth.time(from)} to ${truth.time(to)}`, `it was down: ${downThen.map((f) => f.text).join('; ')}`));
        break;
      }
      // brokerAlive null: the finding says the removal does not tell (a NameServer's own stall before it).
      if (m.brokerAlive === null) {
        out.push(down(`NameServer ${sub.namesrvAddr ?? sub.host} removed broker ${broker} at ${truth.time(to)} without telling whether it went away`).unknown('the finding makes no claim about the broker'));
        break;
      }
      const nsHost = sub.namesrvAddr ? truth.namesrvHost(sub.namesrvAddr) : undefined;
      out.push(checkDown(truth, down(`broker ${broker} was gone when NameServer ${sub.namesrvAddr} removed it at ${truth.time(to)}`), bHost, `broker ${broker}`, from, to, DOWN_KINDS, nsHost));
      const how: Record<string, readonly string[]> = { expired: ['hang', 'reboot', 'partition'], destroyed: ['crash', 'reboot'], unregistered: ['restart'] };
      const kinds = how[m.detection as string];
      if (kinds) out.push(checkDown(truth, proc(`broker ${broker} ${m.detection === 'expired' ? 'went silent with its connections open' : m.detection === 'destroyed' ? 'closed its connections (died)' : 'unregistered (shut down)'}`), bHost, `broker ${broker}`, from, to, kinds, nsHost));
      break;
    }
    case 'pull-refused': {
      // "<host> booted at T, just before its first refusal": the lab restarted, crashed or rebooted
      // that host's broker, which booted again before the finding's first refusal.
      const before = typeof m.before === 'string' ? m.before : null;
      if (before?.endsWith(' boot')) {
        const host = before.slice(0, -' boot'.length);
        // The refusals with 24 lie somewhere in the finding's window (its start may be another code's).
        // The broker's own boot line then, the cluster's first start or one after a fault of the lab.
        const claim = proc(`${host}'s broker booted just before refusing pulls (in ${truth.time(from)}-${truth.time(to)})`);
        const near = (at: number) => at <= to + TOLERANCE.failureMs && at >= from - 2 * 30000 - TOLERANCE.failureMs;
        const booted = truth.boots.filter((b) => b.host === host && b.process !== 'namesrv' && near(b.at));
        const restarted = truth.faults.filter((x) => x.host === host && x.backAt.broker !== null && near(x.backAt.broker));
        const said = booted.length ? `its boot line at ${truth.time(booted[0].at)}` : restarted.map((x) => x.text).join('; ');
        out.push(claim.is(booted.length + restarted.length > 0, said, `no boot of ${host}'s broker then (${truth.allFaults()})`));
      }
      break;
    }
    case 'colocated-namesrv': {
      const h = truth.lab.hosts.find((x) => x.name === sub.host);
      const both = !!h && h.roles.includes('namesrv') && h.roles.some((r) => r.startsWith('broker'));
      out.push(proc(`${sub.host} runs a NameServer and a broker`).is(both, `roles ${h?.roles.join(', ')}`, h ? `its roles are ${h.roles.join(', ')}` : `no host ${sub.host}`));
      out.push(checkDown(truth, down(`${sub.host} failed (NameServer and broker together)`), sub.host, sub.host, from, to, UNANSWERING_KINDS));
      break;
    }
    case 'send-timeout-budget': {
      for (const b of (m.brokers as string[] | undefined) ?? [broker]) {
        const claim = down(`broker ${b} did not answer ${sub.host} within the send budget`);
        // A producer's first seconds (sinceStartMs): the finding says its first sends ran out of a short budget with no fault anywhere.
        if (typeof m.sinceStartMs === 'number') out.push(claim.unknown(`a cold start (${m.sinceStartMs} ms after the producer started): the finding claims no fault of the broker`));
        else out.push(checkDown(truth, claim, truth.brokerHost(b, b.includes(':') ? b : undefined), `broker ${b}`, from, to, UNANSWERING_KINDS));
      }
      const c = truth.client(sub.host);
      if (c && typeof m.sendMsgTimeoutMs === 'number') {
        const e = effectiveClient(c);
        out.push(proc(`${sub.host} sendMsgTimeout=${m.sendMsgTimeoutMs}`).is(e.sendMsgTimeout === m.sendMsgTimeoutMs, `it ran ${e.sendMsgTimeout} ms`, `it ran ${e.sendMsgTimeout} ms`));
      }
      version(sub.host);
      break;
    }
    case 'send-no-retry': {
      const c = truth.client(sub.host);
      if (m.shape === 'selector' && c) out.push(proc(`${sub.host} sends through a MessageQueueSelector`).is(c.selectorQueue !== null, `selectorQueue ${c.selectorQueue}`, 'it sends without a selector'));
      // The finding says the sends were synchronous only when the logs showed it (syncSends: refusals on the sendDefaultImpl path).
      if (m.shape === 'not-retried-code' && c && (typeof m.syncSends !== 'number' || m.syncSends > 0)) {
        out.push(proc(`${sub.host} sends synchronously (a busy reply ends the send)`).is(!c.async, 'sync sends', 'it sends async (SendCallback)'));
      }
      for (const b of (m.brokers as string[] | undefined) ?? []) {
        if (b.includes(':') && (m.brokers as string[]).some((x) => !x.includes(':'))) continue;
        // A broker with a full disk refuses every write (SERVICE_NOT_AVAILABLE): 'refused' names it too.
        const kinds = m.shape === 'not-retried-code' ? ['overload', 'stall'] : [...UNANSWERING_KINDS, 'disk-full'];
        out.push(checkDown(truth, down(`broker ${b} refused or failed ${sub.host}'s sends`), truth.brokerHost(b, b.includes(':') ? b : undefined), `broker ${b}`, from, to, kinds));
      }
      version(sub.host);
      break;
    }
    case 'broker-register-failed':
      out.push(checkDown(truth, down(`NameServer ${sub.namesrvAddr} did not take ${broker}'s registrations`), truth.namesrvHost(sub.namesrvAddr), `NameServer ${sub.namesrvAddr}`, from, to, UNANSWERING_KINDS));
      break;
    case 'broker-busy': {
      // A broker said to be busy when a busy reply of it was logged is so, fault injected or not (a
      // broker on the loaded lab machine answers [TIMEOUT_CLEAN_QUEUE] too: gen-20270114's broker-a, once, 261 ms).
      const replies = bHost ? truth.busyRepliesOn(bHost, from, to) : [];
      if (replies.length) {
        const why = `a broker on ${bHost} answered busy ${replies.length} time${replies.length === 1 ? '' : 's'} then (first at ${truth.time(replies[0])})`;
        out.push(proc(`broker ${broker} was busy`).is(true, why, why));
      } else out.push(checkDown(truth, proc(`broker ${broker} was busy`), bHost, `broker ${broker}`, from, to, ['overload', 'stall']));
      break;
    }
    case 'disk-full':
      out.push(checkDown(truth, proc(`broker ${broker}'s disk was full`), bHost, `broker ${broker}`, from, to, ['disk-full']));
      break;
    case 'store-sync': {
      // HA trouble needs a master or a slave of the broker that failed: a slave that cannot reach its master at boot is no trouble.
      const name = sub.broker as string;
      const hosts = truth.lab.servers.brokers.filter((b) => b.brokerName === name).map((b) => b.host);
      const fs = hosts.flatMap((h) => truth.faultsOn(h, from, to, TOLERANCE.claimMs));
      out.push(
        proc(`the master/slave connection of ${name} had trouble ${truth.time(from)}-${truth.time(to)}`).is(
          fs.length > 0,
          fs.map((x) => x.text).join('; '),
          `no fault on ${name}'s hosts (${hosts.join(', ')}) within ${TOLERANCE.claimMs / 1000} s; the lab's faults: ${truth.allFaults()}`,
        ),
      );
      break;
    }
    case 'server-stopped': {
      // What a host's own logs show: a boot with no shutdown before it (killed, crashed, reset), a
      // restart after a shutdown, a silence that resumed (it stood still), or one whose boot lines were
      // not read; a silence of the broker's scheduler thread alone is a stop or a wait on a peer.
      const host = sub.host as string;
      const when = `${truth.time(from)}-${truth.time(to)}`;
      if (m.stop === 'scheduler') {
        const near = truth.lab.hosts.flatMap((h) => truth.faultsOn(h.name, from, to, TOLERANCE.claimMs));
        out.push(
          down(`${host}'s broker scheduler stood still or waited on a server that did not answer, ${when}`).is(
            near.length > 0,
            near.map((x) => x.text).join('; '),
            `no fault on ${host} or any other host within ${TOLERANCE.claimMs / 1000} s of ${when}; the lab's faults: ${truth.allFaults()}`,
          ),
        );
        break;
      }
      const claims: Record<string, [string, readonly string[]]> = {
        unclean: [`${host} ended with no shutdown (killed, crashed or reset) before booting at ${truth.time(to)}`, ['crash', 'reboot', 'hang']],
        restart: [`${host} was shut down and booted again, ${when}`, ['restart']],
        resumed: [`${host} stood still and resumed, ${when}`, ['hang', 'stall', 'overload']],
        silent: [`${host} stood still or was restarted, ${when}`, ['hang', 'stall', 'overload', 'crash', 'reboot', 'restart']],
      };
      const [claim, kinds] = claims[m.stop as string] ?? [f.title, DOWN_KINDS];
      out.push(checkDown(truth, down(claim), host, host, from, to, kinds));
      break;
    }
    case 'consume-failed': {
      // The messages a 5.x broker logged as stored in the group's DLQ (`send msg to DLQ`): at most
      // those in %DLQ%group at the end (a 4.x broker logs none: nothing to hold then).
      const group = /^Group (\S+?):/.exec(String(f.title ?? ''))?.[1];
      const g = group ? truth.consumerGroups().find((x) => x.group === group) : undefined;
      const n = m.sentToDlq;
      if (!g || typeof n !== 'number' || n === 0) {
        out.push(proc(f.title).unknown(`lab.json records nothing ${f.rule}'s claim can be held to`));
        break;
      }
      const inDlq = g.dlq?.byAdminTool ?? null;
      out.push(
        proc(`the broker stored ${n} messages of ${group} in %DLQ%${group}`).is(
          inDlq !== null && n <= inDlq,
          `mqadmin topicStatus counted ${inDlq} in %DLQ%${group} at the end`,
          inDlq === null ? `%DLQ%${group} did not exist at the end` : `mqadmin topicStatus counted only ${inDlq} in %DLQ%${group} at the end`,
        ),
      );
      break;
    }
    default:
      out.push(proc(f.title).unknown(`lab.json records nothing ${f.rule}'s claim can be held to`));
  }
  return out;
}

function scopeOfIncident(truth: Truth, inc: Report): Scope {
  return {
    start: ms(inc.start),
    end: inc.end ? ms(inc.end) : truth.windowEnd,
    clients: (inc.impact ?? []).map((x: any) => x.client),
    hosts: (inc.causes ?? []).map((c: any) => c.host),
    brokers: [...new Set<string>((inc.causes ?? []).flatMap((c: any) => (c.brokers ?? []).map((b: any) => b.name)))],
  };
}

function scopeOfFinding(truth: Truth, f: Report): Scope {
  const sub = f.subject ?? {};
  const client = sub.client ?? (truth.client(sub.host) ? sub.host : undefined);
  // A subject's broker address names the process (a slave has its own host), its name only the master.
  const byAddr = sub.brokerAddr ? truth.brokerHost(undefined, sub.brokerAddr) : undefined;
  return {
    start: ms(f.start),
    end: f.end ? ms(f.end) : ms(f.start),
    clients: client ? [client] : [],
    hosts: [...(sub.host && !client ? [sub.host] : []), ...(byAddr ? [byAddr] : [])],
    brokers: [...new Set([byAddr ? undefined : sub.broker, ...((f.metrics?.brokers as string[] | undefined) ?? []).filter((b) => !b.includes(':'))].filter(Boolean))],
    namesrvAddr: sub.namesrvAddr,
  };
}

/** Every statement of an analyze report. */
/** The statements once each: one claim may come from two places of the same item (an impact's version and its explanation's). */
export function once(statements: Statement[]): Statement[] {
  const seen = new Set<string>();
  return statements.filter((s) => {
    const key = `${s.source}\u0000${s.where}\u0000${s.claim}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

export function analyzeStatements(truth: Truth, report: Report): Statement[] {
  const out = [...causeStatements(truth, report), ...impactStatements(truth, report), ...consumerStatements(truth, report)];
  for (const f of report.findings ?? []) out.push(...findingStatements(truth, f));
  for (const inc of report.incidents ?? []) {
    (inc.advice ?? []).forEach((a: string, i: number) => out.push(adviceStatements(truth, a, scopeOfIncident(truth, inc), `${inc.id} advice ${i + 1}`)));
  }
  for (const f of report.findings ?? []) {
    (f.advice ?? []).forEach((a: string, i: number) => out.push(adviceStatements(truth, a, scopeOfFinding(truth, f), `${f.id} advice ${i + 1}`)));
  }
  return once(out);
}
