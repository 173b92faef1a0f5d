// A timeline for inference keeps the records that are no event only where inference reads them.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTimeline } from '../../src/timeline/build.js';
import fc from 'fast-check';
import { inferenceCandidate, inferenceFilter, inferenceReader, propLine } from '../../src/timeline/other-records.js';

describe('inferenceFilter', () => {
  it('keeps a server’s start-up dump and its first producer connection per address, and an application’s sends', () => {
    const reads = inferenceFilter();
    expect(reads('broker', 'main', 'brokerIP1=10.0.0.2')).toBe(true);
    const link = (r: string) => `new producer connected, group: P channel: ClientChannelInfo [channel=[id: 0x1, L:/10.0.0.2:10911 - R:/${r}:51234]`;
    expect(reads('broker', 'HeartbeatThread_1', link('10.0.1.5'))).toBe(true);
    expect(reads('broker', 'HeartbeatThread_2', link('10.0.1.6'))).toBe(false);
    expect(reads('broker', 'SendMessageThread_1', 'something else')).toBe(false);
    expect(reads('app', 'main', 'Sent order-1, msgId=0A0000')).toBe(true);
    expect(reads('app', 'main', 'GET /health 200')).toBe(false);
    expect(reads('client', 'main', 'msgId=0A0000')).toBe(false);
  });
});

describe('inferenceCandidate', () => {
  it('takes what the regular expressions alone take (its keyword scan only skips records that cannot match)', () => {
    const hint = /msgId=|SEND_OK|\bsent=\d|\b(?:sendMsgTimeout|retryTimesWhenSendFailed|sendLatencyFaultEnable|namesrvAddr)=/;
    const prop = / - ([A-Za-z][A-Za-z0-9]*)=([^\s,;]*)\s*$/;
    const piece = fc.constantFrom(' - ', '=', 'msgId=', 'SEND_OK', 'sent=', 'sent=3', 'xsent=3', 'namesrvAddr=', '_sendMsgTimeout=', 'brokerIP1', 'new producer connected', ',', ';', ' ', '\t', 'a', '9', '\u00e9', '-', ' -', '- ', '\u00a0', '\u3000');
    const text = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));
    fc.assert(
      fc.property(fc.constantFrom('broker', 'namesrv', 'app', 'client'), text, (kind, t) => {
        const server = kind === 'broker' || kind === 'namesrv';
        const want = server ? t.includes('new producer connected') || prop.test(t) : kind === 'app' && hint.test(t);
        expect(inferenceCandidate(kind, t)).toBe(want);
        // The property line's name and value, as the regex tried at every character gives them.
        const m = prop.exec(t);
        const got = propLine(t);
        expect(got === null ? null : [got.index, got[1], got[2]]).toEqual(m === null ? null : [m.index, m[1], m[2]]);
      }),
      { numRuns: 5000 },
    );
    expect(propLine('2024-05-20 10:00:00 INFO main - a - brokerIP1=10.0.0.2 \t')?.[2]).toBe('10.0.0.2');
    expect(propLine('x - a=b - c d')).toBeNull();
    expect(propLine('x - a=b\u00a0')?.[2]).toBe('b'); // a trailing space of another script
    expect(propLine('x - a=b\u00a0c')).toBeNull();
    expect(propLine('x - a=\u00e9t\u00e9 ')?.[2]).toBe('\u00e9t\u00e9');
    expect(propLine(' - a=b')?.[1]).toBe('a');
    expect(propLine('- a=b')).toBeNull();
    expect(propLine('')).toBeNull();
  });
});

describe("keepOther: 'inference'", () => {
  const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-other-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the records inference reads and counts every record, kept or not', async () => {
    mkdirSync(join(dir, 'app-1'));
    const file = join(dir, 'app-1', 'app.log');
    writeFileSync(
      file,
      [
        '2024-05-20 14:00:00.001  INFO 1 --- [main] com.example.Shop : GET /health 200',
        '2024-05-20 14:00:00.002  INFO 1 --- [main] com.example.Shop : sent order-1, msgId=0A0000',
        '2024-05-20 14:00:00.003  INFO 1 --- [main] com.example.Shop : GET /health 200',
      ].join('\n') + '\n',
    );
    const t = await buildTimeline({ inputs: [file], keepOther: 'inference' });
    try {
      const events = [...t.events()];
      expect(events.map((e) => e.text)).toEqual([expect.stringContaining('msgId=0A0000')]);
      expect(t.accounting[0].records).toBe(3);
    } finally {
      t.close();
    }
  });
});

describe('inferenceReader', () => {
  const ROOT = join(__dirname, '..', '..');
  const key = (e: { file: string; line: number; type: string }) => `${e.file}:${e.line} ${e.type}`;

  for (const sample of ['healthy-restart', 'seed-outage', 'lab/namesrv-hang']) {
    it(`reads, of every record kept, exactly those keepOther 'inference' keeps, and all of those: samples/${sample}`, async () => {
      const inputs = [join(ROOT, 'samples', sample)];
      const all = await buildTimeline({ inputs, keepOther: true, workers: 0 });
      const kept = await buildTimeline({ inputs, keepOther: 'inference', workers: 0 });
      try {
        const reads = inferenceReader();
        const others = [...all.events()].filter((e) => e.type === 'other');
        const want = [...kept.events()].filter((e) => e.type === 'other');
        expect(want.length).toBeGreaterThan(0);
        expect(others.length).toBeGreaterThan(want.length);
        expect(others.filter(reads).map(key)).toEqual(want.map(key));
        const again = inferenceReader();
        expect(want.filter(again).map(key)).toEqual(want.map(key));
      } finally {
        all.close();
        kept.close();
      }
    });
  }
});
