// A layout both reads and writes its header: every render template, rendered and parsed back.
import { describe, expect, it } from 'vitest';
import { LAYOUTS } from '../../src/parse/layouts.js';
import { SourceParser } from '../../src/parse/parser.js';
import { HeaderRenderer } from '../../src/parse/render.js';
import { parseZone } from '../../src/parse/time.js';
import { compileTimestamp } from '../../src/parse/timestamp.js';
import type { RmqEvent } from '../../src/parse/types.js';

// Layouts of other ecosystems' clients (Go, C++, Node.js), the catch-all dated fallbacks and the
// location-only header: rmq-diag reads them and never writes them.
const READ_ONLY = new Set([
  'rocketmq-client-cpp',
  'rocketmq-clients-cpp',
  'rocketmq-clients-cpp-zone',
  'rocketmq-client-cpp-iso',
  'rocketmq-client-cpp-spdlog',
  'go-logrus-text',
  'go-logrus-tty-full',
  'go-logrus-tty',
  'go-zap-json',
  'go-zap-console',
  'ali-ons-node',
  'rust-tracing',
  'bracket-iso-level-logger',
  'log4j-location',
  'rocksdb-info-log',
  'dated-line',
  'dated-bracket',
]);

const LEVELS = ['INFO', 'WARN', 'ERROR', 'DEBUG'];
const zone = parseZone('+08:00');
// 2026-12-01 19:11:40.126 +08:00, then steps that cross seconds, minutes, a day and a month.
const T0 = Date.parse('2026-12-01T19:11:40.126+08:00');
const TIMES = [T0, T0 + 874, T0 + 59_999, T0 + 3_600_000 * 5 + 7, T0 + 86_400_000 * 31 + 1];

describe('layouts render and parse back', () => {
  it('every layout has a render template, or is one rmq-diag only reads', () => {
    for (const l of LAYOUTS) expect(l.render !== undefined || READ_ONLY.has(l.id), `${l.id}: render template or READ_ONLY`).toBe(true);
    for (const id of READ_ONLY) expect(LAYOUTS.find((l) => l.id === id)?.render, id).toBeUndefined();
  });

  for (const layout of LAYOUTS.filter((l) => l.render)) {
    it(`${layout.id}: header groups and time read back what was written`, () => {
      const r = new HeaderRenderer(layout.id, (ms) => zone.offsetAt(ms));
      const reader = compileTimestamp(layout.ts!);
      TIMES.forEach((epochMs, i) => {
        const h = { epochMs, level: LEVELS[i % LEVELS.length], thread: `NettyClientWorkerThread_${i + 1}`, logger: 'RocketmqRemoting', pid: 4242 + i, line: String(120 + i) };
        const line = `${r.header(h)}closeChannel: begin close the channel[10.213.0.11:10911] Found: true`;
        const m = layout.header.exec(line);
        expect(m, `${layout.id}: ${line}`).not.toBeNull();
        const g = m!.groups!;
        if (g.level !== undefined) expect(g.level).toBe(h.level);
        if (layout.header.source.includes('(?<thread>')) expect(g.thread?.trim()).toBe(h.thread);
        if (layout.header.source.includes('(?<logger>')) expect(g.logger).toBe(h.logger);
        if (layout.header.source.includes('(?<pid>')) expect(Number(g.pid)).toBe(h.pid);
        const f = reader.read(g.ts)!;
        expect(f, `${layout.id}: time of ${line}`).not.toBeNull();
        // The local time of the zone the layout prints in (GMT+8 where its pattern fixes it).
        const off = layout.zone === 'gmt8' ? 480 : zone.offsetAt(epochMs);
        const d = new Date(epochMs + off * 60000);
        const want = [d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), /S/.test(layout.ts!) ? d.getUTCMilliseconds() : 0];
        expect([f.h, f.mi, f.s, f.ms], `${layout.id}: time of ${line}`).toEqual(want);
        if (!layout.timeOnly) expect([f.y, f.mo, f.d], `${layout.id}: date of ${line}`).toEqual([d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()]);
        if (f.offsetMin !== null) expect(f.offsetMin).toBe(off);
      });
    });
  }

  it('the parser detects each written layout and reads its records as written', () => {
    for (const layout of LAYOUTS.filter((l) => l.render && !l.timeOnly)) {
      const r = new HeaderRenderer(layout.id, (ms) => zone.offsetAt(ms));
      const lines = TIMES.map((epochMs, i) => `${r.header({ epochMs, level: 'WARN', thread: 'main', logger: 'RocketmqClient', pid: 7, line: '88' })}invokeSync: wait response timeout exception, the channel[10.213.0.1${i}:10911]`);
      const events: RmqEvent[] = [];
      const p = new SourceParser({ file: 'x.log', host: 'h', sourceIndex: 0, kindHint: null, kindForced: false, defaultZone: zone }, (e) => events.push(e));
      lines.forEach((l, i) => p.line(l, i + 1));
      const acc = p.end();
      expect(acc.layout, layout.id).toBe(layout.id);
      expect(events.map((e) => e.line), layout.id).toEqual([1, 2, 3, 4, 5]);
    }
  });
});
