// The replay page's figures: what the logs did not show is said so, never drawn as 0.

import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, run } from '../cli/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rmq-replay-html-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('replay --format html', () => {
  it("counts a client's observed failures as failed attempts without its application log", async () => {
    // samples/seed-outage with app-pay-01's application log left out: its client log alone.
    const inc = join(dir, 'no-app');
    cpSync(join(ROOT, 'samples', 'seed-outage'), inc, { recursive: true });
    rmSync(join(inc, 'app-pay-01', 'app.log'));
    const r = await run(['replay', inc, '--format', 'html']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse((await run(['replay', inc, '--json'])).stdout);
    const pay = doc.outages.find((o: { client: string }) => o.client === 'app-pay-01');
    expect(pay.observedFailedSends).toBeGreaterThan(0);
    const bar = /<div class="bar-group" data-client="app-pay-01">.*?<div class="bar" data-label="observed"[^>]*>(.*?)<\/div>/s.exec(r.stdout)![1];
    expect(bar).toContain(`${pay.observedFailedSends} failed attempts (no application log)`);
    // app-order-01 still has its application log: its failures are sends lost.
    const order = doc.outages.find((o: { client: string }) => o.client === 'app-order-01');
    expect(r.stdout).toMatch(new RegExp(`data-label="observed"[^>]*><span class="bar-label">observed</span>.*?${order.observedFailedSends} failed</span>`));
  });

  it('says a sendMsgTimeout no log line gave is a default it assumed (samples/lab/crash: none logged; samples/seed-outage: logged)', async () => {
    for (const sample of ['samples/lab/crash', 'samples/seed-outage']) {
      const r = await run(['replay', sample, '--format', 'html']);
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse((await run(['replay', sample, '--json'])).stdout);
      for (const c of doc.scenario.clients as Array<{ host: string; settings?: { sendMsgTimeoutMs?: number } }>) {
        const row = new RegExp(`<td data-label="name">${c.host}[^<]*</td><td data-label="host">${c.host}</td><td data-label="details">([^<]*)</td>`).exec(r.stdout)![1];
        const logged = c.settings?.sendMsgTimeoutMs;
        const [given, assumed = ''] = row.split('; assumed: ');
        if (logged !== undefined) expect(given).toContain(`sendMsgTimeout ${logged} ms`);
        else expect(assumed).toContain('sendMsgTimeout 3000 ms');
        expect(assumed.includes('sendMsgTimeout')).toBe(sample === 'samples/lab/crash');
      }
    }
  });
});
