// disk-full: the broker store refuses writes. Client side: SERVICE_NOT_AVAILABLE (code 14) `service
// not available now. It may be caused by one of the following reasons: the broker's disk is full
// [CL: 0.96 CQ: 0.96 INDEX: 0.96], ...` (the CL figure is the commit-log disk usage ratio). Broker
// side: `physic disk maybe full soon 0.92, so mark disk full` (store.log), the logics variant, and
// the "not writable"/"not writeable" store lines (DefaultMessageStore.CleanCommitLogService, putMessage).
//
// Levels (DefaultMessageStore.CleanCommitLogService): above diskMaxUsedSpaceRatio (75 %) the broker
// deletes expired commit-log files at any hour, not only at deleteWhen; above
// diskSpaceCleanForciblyRatio (0.85) it deletes files even before they expire; above
// diskSpaceWarningLevelRatio (0.90) it marks the disk full and refuses writes.
//
// Decision: one finding per broker (replies grouped by the broker named in the same record, store
// lines by host, merged when the host can be tied to the broker). Copies of one reply in two files
// of a host count once.

import type { RmqEvent } from '../parse/types.js';
import type { MetricValue, Rule, Subject } from './types.js';
import { addressBook, BOOK_EVENTS } from './routing.js';
import { AttemptIndex, BrokerHosts, CrossLogDedup, brokerLabel, clientVersions, num, str } from './send-path.js';
import { plural } from '../util/text.js';

interface Hit {
  ev: RmqEvent;
  host: string;
  ratio: number | null;
  code: number | null;
  name: string | null;
}

interface Group {
  name: string | null;
  host: string | null;
  replies: number;
  /** Replies that reached an asynchronous send's SendCallback (no retry: see report). */
  asyncReplies: number;
  marks: number;
  notWritable: number;
  maxRatio: number | null;
  maxRatioEv: RmqEvent | null;
  clients: Set<string>;
  first: number | null;
  last: number | null;
  firstEv: RmqEvent | null;
  firstMark: RmqEvent | null;
}

const newGroup = (): Group => ({ name: null, host: null, replies: 0, asyncReplies: 0, marks: 0, notWritable: 0, maxRatio: null, maxRatioEv: null, clients: new Set(), first: null, last: null, firstEv: null, firstMark: null });

const note = (g: Group, e: RmqEvent, ratio: number | null) => {
  if (ratio !== null && (g.maxRatio === null || ratio > g.maxRatio)) (g.maxRatio = ratio), (g.maxRatioEv = e);
  if (e.ts !== null) {
    if (g.first === null || e.ts < g.first) g.first = e.ts;
    if (g.last === null || e.ts > g.last) g.last = e.ts;
  }
  g.firstEv ??= e;
};

const pct = (r: number) => `${Math.round(r * 1000) / 10}%`;

const rule: Rule = {
  meta: {
    id: 'disk-full',
    title: 'Broker disk full: writes refused',
    severity: 'error',
    description:
      'Finds SERVICE_NOT_AVAILABLE (code 14) send replies that name a full disk, and broker store lines that mark the disk full or the store not writable; compares the usage ratio with diskMaxUsedSpaceRatio and the clean-forcibly / warning levels.',
    versions: 'All 4.x and 5.x brokers (CleanCommitLogService); the reply text changed in older 4.x and 3.x.',
    settings: {
      diskMaxUsedSpaceRatio: { default: 75, description: 'Broker setting: disk usage (%) above which expired commit-log files are deleted at any hour', unit: '%' },
      diskSpaceCleanForciblyRatio: { default: 0.85, description: 'Broker system property rocketmq.broker.diskSpaceCleanForciblyRatio: usage above which files are deleted before they expire' },
      diskSpaceWarningLevelRatio: { default: 0.9, description: 'Broker system property rocketmq.broker.diskSpaceWarningLevelRatio: usage above which the disk is marked full and writes are refused' },
    },
    events: [...new Set([...BOOK_EVENTS, 'disk-full', 'send-attempt-failed', 'startup'] as const)],
  },

  create(ctx) {
    const maxUsed = Number(ctx.settings.diskMaxUsedSpaceRatio) / 100;
    const forcibly = Number(ctx.settings.diskSpaceCleanForciblyRatio);
    const warning = Number(ctx.settings.diskSpaceWarningLevelRatio);
    const attempts = new AttemptIndex();
    const book = addressBook(ctx);
    const hosts = new BrokerHosts(ctx.sources);
    const replyGroups = new Map<string, Group>();
    const storeGroups = new Map<string, Group>();

    const record = (h: Hit) => {
      const key = h.name ?? '?';
      let g = replyGroups.get(key);
      if (!g) replyGroups.set(key, (g = newGroup()));
      g.name ??= h.name;
      g.replies++;
      if (h.ev.sendPath === 'async') g.asyncReplies++;
      g.clients.add(h.host);
      note(g, h.ev, h.ratio);
    };
    const dedup = new CrossLogDedup<Hit>(record);

    const report = (g: Group) => {
      const failures = g.replies + g.marks + g.notWritable;
      const who = brokerLabel(g.name, null, g.host ? `The broker on ${g.host}` : 'A broker (not named in the logs)');
      const subject: Subject = {};
      if (g.name) subject.broker = g.name;
      const addrs = book.brokerAddrsOf(g.name);
      if (addrs.length === 1) subject.brokerAddr = addrs[0];
      if (g.host) subject.host = g.host;
      const r = g.maxRatio;
      const level =
        r === null ? null : r > warning ? 'full' : r > forcibly ? 'forcibly' : r > maxUsed ? 'over-max' : 'below';
      const ex: string[] = [];
      const parts: string[] = [];
      if (g.replies) parts.push(`refused ${plural(g.replies, 'send')} with SERVICE_NOT_AVAILABLE (code 14)`);
      if (g.marks) parts.push(`marked its disk full ${plural(g.marks, 'time')} ("disk maybe full soon")`);
      if (g.notWritable) parts.push(`logged ${plural(g.notWritable, 'time')} that the message store is not writable`);
      ex.push(`${who} ${parts.join(', ')}${r !== null ? `; disk usage up to ${r.toFixed(2)} (${pct(r)})` : ''}.`);
      ex.push(
        `The broker checks the commit-log disk regularly: above diskMaxUsedSpaceRatio (${pct(maxUsed)}) it deletes expired commit-log files at any hour instead of only at deleteWhen; above ${forcibly} (diskSpaceCleanForciblyRatio) it deletes files even before their retention expires; above ${warning} (diskSpaceWarningLevelRatio) it marks the disk full, and every send gets SERVICE_NOT_AVAILABLE until usage drops again.`,
      );
      if (level === 'full') ex.push(`At ${r!.toFixed(2)} the disk was over the ${warning} level: writes stop, and forced deletion is already running, so messages are being removed before their retention time.`);
      else if (level === 'forcibly') ex.push(`At ${r!.toFixed(2)} the disk was over the clean-forcibly level (${forcibly}): files are deleted before they expire, and writes stop at ${warning}.`);
      else if (level === 'over-max') ex.push(`At ${r!.toFixed(2)} the disk was over diskMaxUsedSpaceRatio: expired files are being deleted; writes stop at ${warning}.`);
      else if (level === 'below' && g.replies && !g.marks) {
        ex.push(`The reported ratio (${r!.toFixed(2)}) is below every level, so the disk is probably not the cause: the same SERVICE_NOT_AVAILABLE reply is given when the message reached a slave or the store has been shut down.`);
      }
      const seen = g.clients.size ? `; seen by ${plural(g.clients.size, 'client host')}` : '';
      if (g.replies && !g.asyncReplies) ex.push(`Clients retry code 14 (it is in retryResponseCodes) on another broker, so a send fails only when the other brokers refuse too or the retries run out${seen}.`);
      else if (g.replies > g.asyncReplies) ex.push('A synchronous send retries code 14 (it is in retryResponseCodes) on another broker, so it fails only when the other brokers refuse too or the retries run out.');
      // MQClientAPIImpl.sendMessageAsync (4.x, 5.x): a reply processSendResponse throws on goes to
      // onExceptionImpl with needRetry=false, so the SendCallback gets it; only a request that got
      // no reply is retried (retryTimesWhenSendAsyncFailed).
      if (g.asyncReplies) ex.push(`An asynchronous send is not retried on a broker's reply: ${g.asyncReplies === g.replies ? (g.replies === 1 ? 'this one' : `these ${g.replies}`) : `${g.asyncReplies} of these`} went straight to the application's SendCallback${seen}.`);

      const adv: string[] = [];
      if (level !== 'below') {
        adv.push('Free or add disk space on the broker store path (commit log, consume queues, index): remove files that do not belong there, move the store to a larger disk.');
        adv.push('Shorten fileReservedTime (hours of commit log kept) or add brokers so each keeps less; check for consumers far behind, whose messages must be kept.');
        adv.push(`Do not just raise the levels: above ${warning} the broker has little headroom left before the disk is really full.`);
      } else adv.push('Check the broker role (a send to a slave) and whether its store was shutting down at that time.');
      adv.push('Alert on disk usage before it reaches diskMaxUsedSpaceRatio.');

      const evidence: RmqEvent[] = [];
      for (const e of [g.maxRatioEv, g.firstMark, g.firstEv]) if (e && !evidence.includes(e)) evidence.push(e);
      const metrics: Record<string, MetricValue> = {
        failures,
        rejectedSends: g.replies,
        diskFullMarks: g.marks,
        notWritable: g.notWritable,
        maxRatio: r,
        diskMaxUsedSpaceRatio: maxUsed,
        cleanForciblyRatio: forcibly,
        warningLevelRatio: warning,
        clientVersion: g.replies ? clientVersions(ctx, g.clients) : null,
      };
      ctx.report({
        title: `${who}: ${level === 'below' ? 'store refused writes (SERVICE_NOT_AVAILABLE)' : 'disk full'}, ${plural(failures, 'failure')}${r !== null ? `, usage up to ${r.toFixed(2)} (writes stop above ${warning})` : ''}`,
        start: g.first,
        end: g.last,
        subject,
        metrics,
        evidence,
        explanation: ex.join(' '),
        advice: adv,
      });
    };

    return {
      'send-attempt-failed': (e) => {
        dedup.tick(e.ts);
        attempts.add(e);
      },
      'disk-full': (e) => {
        dedup.tick(e.ts);
        const ratio = num(e, 'ratio');
        const entry = e.entry ?? '';
        if (e.kind === 'client' || e.kind === 'app' || entry.startsWith('disk-full/service-not-available')) {
          const own = attempts.sameRecord(e);
          // The reply's ` BROKER: addr` names the broker where the attempt line prints `%s` (5.1.0-5.2.0).
          const hit: Hit = { ev: e, host: e.host, ratio, code: num(e, 'code'), name: (own ? str(own, 'brokerName') : null) ?? book.brokerNameOf(str(e, 'brokerAddr')) };
          dedup.add(`${e.host}|${ratio}|${num(e, 'code')}`, e.ts, e.file, hit, (kept, dup) => {
            kept.name ??= dup.name;
          });
          return;
        }
        let g = storeGroups.get(e.host);
        if (!g) storeGroups.set(e.host, (g = newGroup()));
        g.host = e.host;
        if (entry === 'disk-full/physic' || entry === 'disk-full/logics' || ratio !== null) {
          g.marks++;
          g.firstMark ??= e;
        } else g.notWritable++;
        note(g, e, ratio);
      },
      startup: (e) => hosts.startup(e),
      end() {
        dedup.flush();
        const all = [...replyGroups.values()];
        for (const g of all) {
          const where = hosts.resolve(g.name, null, all.length === 1);
          if (where) g.host = where.host;
        }
        for (const [host, s] of storeGroups) {
          const g = all.find((x) => x.host === host);
          if (!g) {
            all.push(s);
            continue;
          }
          g.marks += s.marks;
          g.notWritable += s.notWritable;
          g.firstMark ??= s.firstMark;
          if (s.maxRatio !== null && (g.maxRatio === null || s.maxRatio > g.maxRatio)) (g.maxRatio = s.maxRatio), (g.maxRatioEv = s.maxRatioEv);
          if (s.first !== null && (g.first === null || s.first < g.first)) g.first = s.first;
          if (s.last !== null && (g.last === null || s.last > g.last)) g.last = s.last;
        }
        for (const g of all) report(g);
      },
    };
  },
};

export default rule;
