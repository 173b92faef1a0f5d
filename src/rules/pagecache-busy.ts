// pagecache-busy: the broker's page cache was "busy": one put held the CommitLog lock longer than
// osPageCacheBusyTimeOutMills (1000 ms). Sends are then refused with one of three texts, which
// differ only by where the request was caught (SendMessageProcessor, DefaultMessageStore.isOSPageCacheBusy, BrokerFastFailure): `[REJECTREQUEST]` at admission
// (before it was queued), `[PCBUSY_CLEAN_QUEUE]` while it sat in the send queue (BrokerFastFailure
// drains the queue whatever the age), `[PC_SYNCHRONIZED]` when it reached the store. On the broker
// the stall shows in store.log as `[NOTIFYME]putMessage in lock cost time(ms)=...` above 1000 ms.
//
// Decision: one finding per broker. Replies are grouped by the broker they name (BROKER: suffix, or
// the brokerName of the failed attempt of the same record); store.log lines by their host, merged
// into a broker's finding when the host can be tied to it (boot line, host name, or the only broker
// host given). A broker seen only through store.log (no rejected send in the logs given) is reported
// as a warning: the lock was held long enough to refuse sends, but no refusal was seen.

import type { RmqEvent } from '../parse/types.js';
import type { MetricValue, Rule, Subject } from './types.js';
import { AttemptIndex, BrokerHosts, CrossLogDedup, brokerLabel, clientVersions, num, serverVersion, str } from './send-path.js';
import { plural } from '../util/text.js';
import { factIn, versionSide } from '../rocketmq/versions.js';
import { CLIENT } from '../rocketmq/facts.js';

const REASONS = ['PCBUSY_CLEAN_QUEUE', 'PC_SYNCHRONIZED', 'REJECTREQUEST'] as const;
type Reason = (typeof REASONS)[number];

interface Hit {
  ev: RmqEvent;
  host: string;
  reason: Reason;
  code: number | null;
  name: string | null;
  addr: string | null;
}

interface Group {
  name: string | null;
  addr: string | null;
  host: string | null;
  byReason: Record<Reason, number>;
  codes: Set<number>;
  clients: Set<string>;
  first: number | null;
  last: number | null;
  firstEv: Partial<Record<Reason, RmqEvent>>;
  slowLocks: number;
  maxInLock: number | null;
  maxInLockEv: RmqEvent | null;
}

const newGroup = (): Group => ({
  name: null,
  addr: null,
  host: null,
  byReason: { PCBUSY_CLEAN_QUEUE: 0, PC_SYNCHRONIZED: 0, REJECTREQUEST: 0 },
  codes: new Set(),
  clients: new Set(),
  first: null,
  last: null,
  firstEv: {},
  slowLocks: 0,
  maxInLock: null,
  maxInLockEv: null,
});

const span = (g: Group, ts: number | null) => {
  if (ts === null) return;
  if (g.first === null || ts < g.first) g.first = ts;
  if (g.last === null || ts > g.last) g.last = ts;
};

const rule: Rule = {
  meta: {
    id: 'pagecache-busy',
    title: 'Page cache busy: sends refused while the CommitLog lock was held too long',
    severity: 'error',
    description:
      'Finds sends refused with [PCBUSY_CLEAN_QUEUE], [PC_SYNCHRONIZED] or [REJECTREQUEST] (page cache busy: one put held the CommitLog lock longer than osPageCacheBusyTimeOutMills), and store.log puts that held the lock that long.',
    versions: 'All 4.x and 5.x brokers; [PC_SYNCHRONIZED] is code 1 up to broker 5.2.0 and code 2 from 5.3.0; 5.x brokers also answer [REJECTREQUEST] to sends that reach a slave; clients retry code 2 only from 5.3.0.',
    settings: {
      osPageCacheBusyTimeOutMills: { default: 1000, description: 'Broker setting: a put holding the CommitLog lock longer than this makes the page cache "busy"', unit: 'ms' },
    },
    events: ['busy-reply', 'send-attempt-failed', 'store-slow', 'startup'],
  },

  create(ctx) {
    const limit = Number(ctx.settings.osPageCacheBusyTimeOutMills);
    const attempts = new AttemptIndex();
    const hosts = new BrokerHosts(ctx.sources);
    const groups = new Map<string, Group>();
    const storeHosts = new Map<string, Group>();

    const record = (h: Hit) => {
      hosts.learn(h.name, h.addr);
      const key = hosts.key(h.name, h.addr);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = newGroup()));
      g.name ??= h.name;
      g.addr ??= h.addr ?? (h.name ? hosts.alias.get(h.name) ?? null : null);
      g.byReason[h.reason]++;
      if (h.code !== null) g.codes.add(h.code);
      g.clients.add(h.host);
      span(g, h.ev.ts);
      g.firstEv[h.reason] ??= h.ev;
    };
    const dedup = new CrossLogDedup<Hit>(record);

    const report = (g: Group) => {
      const rejections = g.byReason.PCBUSY_CLEAN_QUEUE + g.byReason.PC_SYNCHRONIZED + g.byReason.REJECTREQUEST;
      const cv = clientVersions(ctx, g.clients);
      const bv = g.host ? serverVersion(g.host, ctx.sources) : 'unknown';
      const who = brokerLabel(g.name, g.addr, g.host ? `The broker on ${g.host}` : 'A broker (not named in the logs)');
      const subject: Subject = {};
      if (g.name) subject.broker = g.name;
      if (g.addr) subject.brokerAddr = g.addr;
      if (g.host) subject.host = g.host;

      const reasons = REASONS.filter((r) => g.byReason[r] > 0).map((r) => `${g.byReason[r]} [${r}]`);
      const ex: string[] = [];
      if (rejections) ex.push(`${who} refused ${plural(rejections, 'send')} because its page cache was busy: ${reasons.join(', ')}.`);
      else ex.push(`${who} held the CommitLog put lock for more than ${limit} ms ${plural(g.slowLocks, 'time')} (up to ${g.maxInLock} ms); no refused send is in the logs given, but sends that arrived meanwhile were refused.`);
      if (g.host && versionSide(bv, '4.4.0') === 'below') ex.push(`(This broker's logs look older than 4.4.0; the threshold and replies described here are those of 4.x and 5.x.)`);
      ex.push(
        `"Page cache busy" means one put has held the CommitLog lock for more than osPageCacheBusyTimeOutMills (${limit} ms): writing into the mapped commit log stalled on the page cache or the disk. ` +
          'The three replies differ only by where the request was caught: [REJECTREQUEST] at admission, before it was queued; [PCBUSY_CLEAN_QUEUE] while it waited in the send queue (BrokerFastFailure drains the queue whatever the age); [PC_SYNCHRONIZED] when it reached the store.',
      );
      if (g.slowLocks && rejections) ex.push(`store.log shows ${plural(g.slowLocks, 'put')} holding the lock longer than ${limit} ms (up to ${g.maxInLock} ms).`);
      if (g.byReason.REJECTREQUEST && !g.byReason.PCBUSY_CLEAN_QUEUE && !g.byReason.PC_SYNCHRONIZED && !g.slowLocks) {
        ex.push('[REJECTREQUEST] alone can have other causes: the transient store pool ran out of buffers (transientStorePoolEnable=true), or, on 5.x brokers, the send reached a slave.');
      }
      const notRetried = factIn(CLIENT.retriesSystemBusy, cv) === false;
      if (rejections) {
        ex.push(
          notRetried
            ? `The clients (${cv}) retry code 1 (SYSTEM_ERROR, [PC_SYNCHRONIZED] from brokers up to 5.2.0) on another broker but not code 2 (SYSTEM_BUSY), which goes straight to the application.`
            : 'Clients before 5.3.0 retry code 1 (SYSTEM_ERROR, [PC_SYNCHRONIZED] from brokers up to 5.2.0) on another broker but not code 2 (SYSTEM_BUSY); 5.3.0+ retries both.',
        );
      }

      const adv = [
        'Look at the broker disk at those times: latency and utilisation (iostat), other I/O on the same device (reads of old messages that miss the page cache, backups, log shipping), and whether the host is short of free memory for the page cache or swapping.',
        'Consider transientStorePoolEnable=true (with ASYNC_FLUSH on a master): puts then write into a pool of off-heap buffers that a background thread commits to the file, so the put lock no longer waits on the page cache.',
        'Give the commit log a faster or dedicated disk, and keep other heavy I/O off it.',
        `Raising osPageCacheBusyTimeOutMills only lets a stalled put hold the lock longer before sends are refused; it does not make the disk faster.`,
      ];
      if (rejections && factIn(CLIENT.retriesSystemBusy, cv) !== true) adv.push('Handle MQBrokerException code 2 in the application (retry later or on another broker), or move the producers to client 5.3.0+, which retries SYSTEM_BUSY.');

      const evidence: RmqEvent[] = [];
      if (g.maxInLockEv) evidence.push(g.maxInLockEv);
      for (const r of REASONS) if (g.firstEv[r]) evidence.push(g.firstEv[r]!);

      const metrics: Record<string, MetricValue> = {
        rejections,
        rejectionsPcbusyCleanQueue: g.byReason.PCBUSY_CLEAN_QUEUE,
        rejectionsPcSynchronized: g.byReason.PC_SYNCHRONIZED,
        rejectionsRejectRequest: g.byReason.REJECTREQUEST,
        codes: [...g.codes].sort((a, b) => a - b).map(String),
        slowLockPuts: g.slowLocks,
        maxStoreCostMs: g.maxInLock,
        thresholdMs: limit,
        clients: g.clients.size,
        clientVersion: rejections ? cv : null,
        brokerVersion: g.host ? bv : null,
      };
      const headline = rejections
        ? `${who} refused ${plural(rejections, 'send')}: page cache busy (${reasons.join(', ')})`
        : `${who}: a put held the CommitLog lock ${g.maxInLock} ms (page cache busy above ${limit} ms), ${plural(g.slowLocks, 'time')}`;
      ctx.report({
        severity: rejections ? 'error' : 'warning',
        title: headline,
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
      'busy-reply': (e) => {
        dedup.tick(e.ts);
        const reason = str(e, 'reason');
        if (!reason || !(REASONS as readonly string[]).includes(reason)) return;
        const addr = str(e, 'brokerAddr');
        const own = attempts.sameRecord(e);
        const name = own ? str(own, 'brokerName') : null;
        const wait = num(e, 'waitMs');
        const size = num(e, 'queueSize');
        const hit: Hit = { ev: e, host: e.host, reason: reason as Reason, code: num(e, 'code'), name, addr };
        dedup.add(`${e.host}|${reason}|${wait}|${size}`, e.ts, e.file, hit, (kept, dup) => {
          kept.name ??= dup.name;
          kept.addr ??= dup.addr;
        });
      },
      'store-slow': (e) => {
        dedup.tick(e.ts);
        const cost = num(e, 'costMs');
        if (str(e, 'what') !== 'in-lock' || cost === null || cost <= limit) return;
        let g = storeHosts.get(e.host);
        if (!g) storeHosts.set(e.host, (g = newGroup()));
        g.host = e.host;
        g.slowLocks++;
        span(g, e.ts);
        if (g.maxInLock === null || cost > g.maxInLock) (g.maxInLock = cost), (g.maxInLockEv = e);
      },
      startup: (e) => hosts.startup(e),
      end() {
        dedup.flush();
        const all = [...groups.values()];
        // Tie store.log hosts to the brokers of the replies.
        for (const g of all) {
          const where = hosts.resolve(g.name, g.addr, all.length === 1);
          if (where) g.host = where.host;
        }
        for (const [host, s] of storeHosts) {
          const g = all.find((x) => x.host === host);
          if (!g) {
            all.push(s);
            continue;
          }
          g.slowLocks += s.slowLocks;
          if (s.maxInLock !== null && (g.maxInLock === null || s.maxInLock > g.maxInLock)) (g.maxInLock = s.maxInLock), (g.maxInLockEv = s.maxInLockEv);
          span(g, s.first);
          span(g, s.last);
        }
        for (const g of all) report(g);
      },
    };
  },
};

export default rule;
