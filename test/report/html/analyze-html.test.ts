// The analyze page's figures of a client lane, from real-format logs: delivered sends as the
// application logged them (per send, or its statistics lines), unknown when no line shows them, and
// a client with no application log counted by its failed attempts.

import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, run } from '../../cli/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rmq-lanes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The page of an incident folder, and its client lanes' data attributes and texts by host. */
async function lanes(path: string): Promise<{ page: string; lanes: Map<string, { sent: string; failed: string; texts: string[] }> }> {
  const r = await run(['analyze', path, '--format', 'html', '--severity', 'none']);
  expect(r.code, r.stderr).toBe(0);
  const out = new Map<string, { sent: string; failed: string; texts: string[] }>();
  for (const m of r.stdout.matchAll(/<g class="lane" data-host="([^"]+)" data-sent="([^"]+)" data-failed="(\d+)">(.*?)<\/g>/g)) {
    out.set(m[1], { sent: m[2], failed: m[3], texts: [...m[4].matchAll(/<text[^>]*>([^<]*)/g)].map((t) => t[1]) });
  }
  return { page: r.stdout, lanes: out };
}

const count = (text: string, re: RegExp) => [...text.matchAll(re)].length;

describe('a client lane of the analyze page', () => {
  it('counts the sends its application logged one by one (samples/seed-outage)', async () => {
    const { lanes: l } = await lanes('samples/seed-outage');
    for (const host of ['app-order-01', 'app-pay-01']) {
      const app = readFileSync(join(ROOT, 'samples', 'seed-outage', host, 'app.log'), 'utf8');
      // The page's sends are the INFO lines with a msgId; its failures are the application's exceptions.
      expect(l.get(host)!.sent).toBe(String(count(app, /^\S+ \S+ .*INFO.*msgId=/gm)));
      expect(Number(l.get(host)!.sent)).toBeGreaterThan(100);
      expect(l.get(host)!.texts[1]).toBe(`client: ${l.get(host)!.sent} sent`);
    }
  });

  it('counts the sends of its statistics lines when it logs no send one by one (samples/broker-busy)', async () => {
    const { lanes: l } = await lanes('samples/broker-busy');
    const app = readFileSync(join(ROOT, 'samples', 'broker-busy', 'app-feed-01', 'app.log'), 'utf8');
    const sent = [...app.matchAll(/stats: sent=(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
    expect(sent).toBeGreaterThan(1000);
    expect(l.get('app-feed-01')!.sent).toBe(String(sent));
  });

  it('says the sends delivered are unknown with no line that shows them, and counts failed attempts without an application log', async () => {
    // samples/seed-outage with app-pay-01's application log left out: its client log alone.
    const inc = join(dir, 'no-app');
    cpSync(join(ROOT, 'samples', 'seed-outage'), inc, { recursive: true });
    rmSync(join(inc, 'app-pay-01', 'app.log'));
    const { page, lanes: l } = await lanes(inc);
    const pay = l.get('app-pay-01')!;
    expect(pay.sent).toBe('unknown');
    const client = readFileSync(join(inc, 'app-pay-01', 'rocketmq_client.log'), 'utf8');
    const resends = count(client, /sendKernelImpl exception, resend at once/g);
    expect(resends).toBeGreaterThan(0);
    expect(pay.failed).toBe(String(resends));
    expect(pay.texts.slice(1)).toEqual(['client: sent unknown', `${resends} failed attempts`]);
    expect(page).toContain(`app-pay-01: sends delivered unknown (no application log, and the client logs no successful send); ${resends} failed attempts in the client&#39;s log`);
    expect(page).not.toMatch(/\b0 sent\b/);
  });
});

describe('the analyze page says what its inputs leave out', () => {
  const notes = (page: string) => [...page.matchAll(/<p class="note">([^<]*)<\/p>/g)].map((m) => m[1]);

  it('one host read: the page says so, as the text report does (samples/lab/hang-5x/mq-broker-a)', async () => {
    const r = await run(['analyze', 'samples/lab/hang-5x/mq-broker-a', '--format', 'html']);
    expect(r.code, r.stderr).toBe(1);
    const text = await run(['analyze', 'samples/lab/hang-5x/mq-broker-a', '--json']);
    const partial: string[] = JSON.parse(text.stdout).summary.partial;
    expect(partial.length).toBeGreaterThan(0);
    expect(notes(r.stdout)).toEqual(partial.map((p) => p.replace(/'/g, '&#39;')));
    expect(notes(r.stdout)[0]).toMatch(/^only one host read \(mq-broker-a\)/);
  });

  it('the whole recording: no such note', async () => {
    const r = await run(['analyze', 'samples/lab/hang-5x', '--format', 'html']);
    expect(notes(r.stdout)).toEqual([]);
  });
});
