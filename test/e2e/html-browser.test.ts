// The HTML reports in a real browser: Debian's chromium, driven by playwright-core (which downloads
// nothing). Every bundled sample's page opens from disk with no console error and no request, its
// timeline has a lane per host and a band per fault, a click on a finding's bar (or a mark) shows
// its evidence, and a screenshot is not blank. Log text holding markup stays text. On a phone and
// on a laptop nothing runs off a card of either page and the page never scrolls sideways (screenshots
// are left in the temp folder's rmq-html-shots/ to look at). The Markdown report's mermaid block
// parses with mermaid 10 and 11 (their own bundles, run in the page).

import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, run } from '../cli/helpers.js';

/** Debian's package (`apt-get install chromium`; .ci/run installs it). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SAMPLES = ['seed-outage', 'healthy-restart', 'broker-busy', ...readdirSync(join(ROOT, 'samples', 'lab')).filter((d) => existsSync(join(ROOT, 'samples', 'lab', d, 'lab.json'))).map((d) => `lab/${d}`)];
const PAYLOAD = '</script><img src=x onerror=alert(1)>';

let browser: Browser;
const dir = mkdtempSync(join(tmpdir(), 'rmq-html-'));

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium, as .ci/run does)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 60000);
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * `analyze samples/SAMPLE --format html --severity none -o FILE`, once per sample for the file: the
 * page of each sample, and the same page for the tests below that look at the seed outage's and the
 * lab's seed outage's (the same command writes the same page; each test opens it in a page of its
 * own and changes nothing in the file).
 */
const analyzed = new Map<string, Promise<{ file: string; r: Awaited<ReturnType<typeof run>> }>>();
function analyzeHtml(sample: string) {
  if (!analyzed.has(sample)) {
    const file = join(dir, `${sample.replace('/', '-')}.html`);
    analyzed.set(sample, run(['analyze', `samples/${sample}`, '--format', 'html', '--severity', 'none', '-o', file]).then((r) => ({ file, r })));
  }
  return analyzed.get(sample)!;
}

interface Opened {
  page: Page;
  errors: string[];
  requests: string[];
  dialogs: string[];
}

/** Opens a file:// page; records console errors, page errors, dialogs and every request that is not the page itself. */
async function open(file: string, viewport = { width: 1280, height: 900 }): Promise<Opened> {
  const page = await browser.newPage({ viewport });
  // A missing element fails in seconds, not at the test's timeout.
  page.setDefaultTimeout(5000);
  const o: Opened = { page, errors: [], requests: [], dialogs: [] };
  page.on('console', (m) => m.type() === 'error' && o.errors.push(m.text()));
  page.on('pageerror', (e) => o.errors.push(String(e)));
  page.on('dialog', (d) => (o.dialogs.push(d.message()), void d.dismiss()));
  page.on('request', (r) => r.url() !== `file://${file}` && o.requests.push(r.url()));
  await page.goto(`file://${file}`);
  return o;
}

/** Distinct colours of a PNG, counted by the browser itself (a blank or one-colour picture has 1). */
async function colours(page: Page, png: Buffer): Promise<number> {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d')!;
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < d.length; i += 4 * 7) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  }, png.toString('base64'));
}

describe('analyze --format html in chromium', () => {
  it.each(SAMPLES)('%s: opens from disk with a lane per host, a band per fault, evidence on click, a picture', async (sample) => {
    const { file, r } = await analyzeHtml(sample);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const size = readFileSync(file).length;
    expect(size).toBeLessThan(1 << 20);
    // What the page must show, from `analyze --json` of the same sample: its golden file, which
    // test/golden.test.ts holds to the CLI's output byte for byte (one analyze fewer per sample).
    const doc = JSON.parse(readFileSync(join(ROOT, 'test', 'golden', 'samples', `${sample}.analyze.json`), 'utf8'));
    const o = await open(file);
    try {
      expect(o.errors).toEqual([]);
      expect(o.requests).toEqual([]);
      const lanes = await o.page.$$eval('#timeline-svg g.lane', (els) => els.map((e) => e.getAttribute('data-host')));
      expect([...lanes].sort()).toEqual([...doc.summary.hosts].sort());
      const causes = doc.incidents.flatMap((i: { causes: Array<{ host: string }> }) => i.causes.map((c) => c.host));
      const bands = await o.page.$$eval('#timeline-svg g.fault', (els) => els.map((e) => e.getAttribute('data-host')));
      expect(bands.sort()).toEqual(causes.filter((h: string) => doc.summary.hosts.includes(h)).sort());
      expect(await o.page.locator('#timeline-svg .fault-band').count()).toBe(bands.length);
      // The incident comes first, the inputs last.
      const order = await o.page.$$eval('h2', (els) => els.map((e) => e.id || e.textContent));
      expect(order.indexOf('timeline')).toBeGreaterThan(doc.incidents.length ? 0 : -1);
      expect(order[order.length - 1]).toBe('inputs');
      if (doc.findings.length) {
        const f = doc.findings[0];
        await o.page.locator(`#timeline-svg g.finding-bar[data-finding="${f.id}"]`).click();
        const shown = await o.page.locator('#evidence').innerText();
        const e = f.evidence[0];
        expect(shown).toContain(`${e.file.split('/').slice(-2).join('/')}:${e.line}`);
        expect(shown).toContain(f.title);
      } else {
        await o.page.locator('#timeline-svg g.mark').first().click();
        expect(await o.page.locator('#evidence .evidence-line').count()).toBeGreaterThan(0);
      }
      const png = await o.page.locator('#timeline-svg').screenshot();
      expect(await colours(o.page, png)).toBeGreaterThan(8);
    } finally {
      await o.page.close();
    }
  });

  it('the seed outage: a mark shows its evidence line (file:line, time, text)', async () => {
    const { file, r } = await analyzeHtml('seed-outage');
    expect(r.code, r.stderr).toBe(0);
    const o = await open(file);
    try {
      await o.page.locator('#timeline-svg g.mark[data-kind="namesrv-switch"]').first().click();
      const line = await o.page.locator('#evidence .evidence-line').first().innerText();
      expect(line).toMatch(/^app-order-01\/rocketmq_client\.log:\d+ {2}14:53:46\.\d{3} {2}.*new name server is chosen\. OLD: 192\.168\.3\.100:9876/);
      // Without the script the same text is the mark's tooltip.
      const title = await o.page.locator('#timeline-svg g.mark[data-kind="namesrv-switch"] title').first().textContent();
      expect(title).toContain('new name server is chosen');
    } finally {
      await o.page.close();
    }
  });

  it('reads without JavaScript: the picture, the cards and the evidence are in the page itself', async () => {
    const { file, r } = await analyzeHtml('seed-outage');
    expect(r.code, r.stderr).toBe(0);
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    try {
      await page.goto(`file://${file}`);
      expect(await page.locator('#timeline-svg g.lane').count()).toBe(4);
      expect(await page.locator('article.card').count()).toBeGreaterThan(3);
      expect(await page.locator('article.card pre.evidence').first().innerText()).toMatch(/\.log:\d+/);
    } finally {
      await ctx.close();
    }
  });
});

describe('log text is text in the page', () => {
  it(`a log line holding ${PAYLOAD} appears as text, and nothing runs`, async () => {
    const inc = join(dir, 'hostile');
    cpSync(join(ROOT, 'samples', 'seed-outage'), inc, { recursive: true });
    for (const host of readdirSync(inc).filter((h) => !h.endsWith('.json'))) {
      for (const f of readdirSync(join(inc, host))) {
        const p = join(inc, host, f);
        writeFileSync(p, readFileSync(p, 'utf8').replace(/\n/g, ` ${PAYLOAD}\n`));
      }
    }
    // A host folder named like markup, too.
    renameSync(join(inc, 'app-pay-01'), join(inc, '<img src=x onerror=alert(2)>'));
    const file = join(dir, 'hostile.html');
    const r = await run(['analyze', inc, '--format', 'html', '--severity', 'none', '-o', file]);
    expect(r.code, r.stderr).toBe(0);
    const o = await open(file);
    try {
      expect(o.errors).toEqual([]);
      expect(o.dialogs).toEqual([]);
      expect(o.requests).toEqual([]);
      expect(await o.page.locator('img').count()).toBe(0);
      const text = await o.page.locator('body').innerText();
      expect(text).toContain(PAYLOAD);
      expect(text).toContain('<img src=x onerror=alert(2)>');
      await o.page.locator('#timeline-svg g.finding-bar').first().click();
      expect(await o.page.locator('#evidence').innerText()).toContain(PAYLOAD);
      expect(await o.page.locator('img').count()).toBe(0);
    } finally {
      await o.page.close();
    }
  });
});

describe('replay --format html in chromium', () => {
  it('the seed outage: observed and simulated marks per milestone, a band per fault, what-if bars, the runs spread', async () => {
    const file = join(dir, 'replay.html');
    const args = ['replay', 'samples/seed-outage', '--what-if', 'clientCloseSocketIfTimeout=true', '--runs', '3'];
    const r = await run([...args, '--format', 'html', '-o', file]);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse((await run([...args, '--json'])).stdout);
    const o = await open(file);
    try {
      expect(o.errors).toEqual([]);
      expect(o.requests).toEqual([]);
      const both = doc.milestones.filter((m: { observed: string | null; simulated: string | null }) => m.observed && m.simulated).length;
      expect(await o.page.locator('#replay-svg g.mark.obs').count()).toBe(doc.milestones.filter((m: { observed: string | null }) => m.observed).length);
      expect(await o.page.locator('#replay-svg g.mark.sim').count()).toBe(doc.milestones.filter((m: { simulated: string | null }) => m.simulated).length);
      expect(await o.page.locator('#replay-svg line.delta').count()).toBe(both);
      const faults = doc.scenario.faults.filter((f: { state?: string; heal?: unknown }) => f.state !== 'up' && !f.heal).length;
      expect(await o.page.locator('#replay-svg .fault-band').count()).toBe(faults);
      // What-if: a bar per client and variant; runs: a dot per client, variant and seed.
      expect(await o.page.locator('#whatif-chart .bar').count()).toBe(doc.scenario.clients.length * 2);
      expect(await o.page.locator('#runs-chart .seed').count()).toBe(doc.scenario.clients.length * 2 * 3);
      await o.page.locator('#replay-svg g.mark.obs').nth(1).click();
      expect(await o.page.locator('#evidence').innerText()).toMatch(/observed: 2020-12-22 14:4\d/);
      const png = await o.page.locator('#replay-svg').screenshot();
      expect(await colours(o.page, png)).toBeGreaterThan(8);
    } finally {
      await o.page.close();
    }
  });
});

/**
 * What runs off a card: for every card (a finding, an incident, a section of the page), each
 * element inside it whose right edge passes the card's by more than 1 px, unless an element between
 * them scrolls sideways on purpose (a wide table, the timeline's picture). Also the page's own width.
 */
async function overflow(page: Page): Promise<{ off: string[]; scrollWidth: number; innerWidth: number; cards: number }> {
  return page.evaluate(() => {
    const scrolls = (el: Element) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
    const cards = [...document.querySelectorAll('.card, .incident, section')];
    const off: string[] = [];
    for (const card of cards) {
      const right = card.getBoundingClientRect().right;
      for (const el of card.querySelectorAll('*')) {
        let up = el.parentElement;
        while (up && up !== card && !scrolls(up)) up = up.parentElement;
        if (up && up !== card) continue;
        const r = el.getBoundingClientRect();
        if ((r.width || r.height) && r.right > right + 1) off.push(`${card.id || card.className}: <${el.tagName.toLowerCase()}> ${Math.round(r.right)} > ${Math.round(right)} ${(el.textContent ?? '').slice(0, 40)}`);
      }
    }
    return { off: off.slice(0, 10), scrollWidth: document.scrollingElement!.scrollWidth, innerWidth, cards: cards.length };
  });
}

describe('on a phone (390x844) and a laptop (1280x900)', () => {
  // Kept after the run, to be looked at: the test can tell that nothing runs off, not that it reads well.
  const shots = join(tmpdir(), 'rmq-html-shots');
  const lab = JSON.parse(readFileSync(join(ROOT, 'samples', 'lab', 'seed-outage', 'lab.json'), 'utf8'));
  const pages: Record<string, string> = {};

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    pages.replay = join(dir, 'lab-replay.html');
    const { file, r: a } = await analyzeHtml('lab/seed-outage');
    expect(a.code, a.stderr).toBe(0);
    pages.analyze = file;
    const r = await run(['replay', 'samples/lab/seed-outage', '--what-if', 'clientCloseSocketIfTimeout=true', '--runs', '2', '--format', 'html', '-o', pages.replay]);
    expect(r.code, r.stderr).toBe(0);
  }, 120000);

  const sizes = [
    { width: 390, height: 844 },
    { width: 1280, height: 900 },
  ];
  it.each(sizes.flatMap((v) => ['analyze', 'replay'].map((p) => ({ page: p, ...v }))))('$page page at $width px: nothing runs off a card, no sideways scroll of the page', async ({ page: which, width, height }) => {
    const o = await open(pages[which], { width, height });
    try {
      expect(o.errors).toEqual([]);
      const m = await overflow(o.page);
      expect(m.cards).toBeGreaterThan(4);
      expect(m.off).toEqual([]);
      expect(m.scrollWidth).toBeLessThanOrEqual(m.innerWidth);
      const narrow = width < 700;
      if (which === 'analyze') {
        // The timeline as a list on the phone only; the picture scrolls sideways in its block there.
        expect(await o.page.locator('#timeline-list').isVisible()).toBe(narrow);
        const box = await o.page.locator('#timeline-svg').evaluate((e) => ({ w: e.getBoundingClientRect().width, scroll: e.parentElement!.scrollWidth > e.parentElement!.clientWidth }));
        expect(box.scroll).toBe(narrow);
        if (narrow) {
          // Its entries are as large as the page's text, and a tap shows the evidence under the entry.
          expect(await o.page.locator('#timeline-list ol li').first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize))).toBeGreaterThanOrEqual(13);
          const entry = o.page.locator('#timeline-list ol li.fault').first();
          await entry.click();
          expect(await entry.locator('#evidence').innerText()).toMatch(/mq-node-a hang/);
          // Tables read as label/value rows: a cell of the impact shows its column's label beside it.
          expect(await o.page.locator('table.impact td[data-label="lost"]').first().evaluate((e) => getComputedStyle(e, '::before').content)).toBe('"lost"');
        }
      } else {
        expect(await o.page.locator('#outage-chart .bar').count()).toBe(lab.clients.length * 2);
        expect(await o.page.locator('#runs-chart .seed').count()).toBe(lab.clients.length * 2 * 2);
      }
      await o.page.screenshot({ path: join(shots, `${which}-${width}.png`) });
      await o.page.locator(which === 'analyze' ? '#timeline' : '#outages').scrollIntoViewIfNeeded();
      await o.page.screenshot({ path: join(shots, `${which}-${width}-chart.png`) });
    } finally {
      await o.page.close();
    }
  });

  it("the lab's seed outage: each client's failed sends as lab.json counts them, and its delivered sends unknown (no log line shows them), never 0", async () => {
    const o = await open(pages.analyze, sizes[0]);
    try {
      for (const c of lab.clients as Array<{ host: string; sends: { ok: number; failed: number } }>) {
        const lane = o.page.locator(`#timeline-svg g.lane[data-host="${c.host}"]`);
        expect(await lane.getAttribute('data-failed')).toBe(String(c.sends.failed));
        expect(await lane.getAttribute('data-sent')).toBe('unknown');
        expect(c.sends.ok).toBeGreaterThan(0);
        expect(await lane.locator('text').nth(1).textContent()).toBe('client: sent unknown');
      }
      const text = await o.page.locator('body').innerText();
      expect(text).not.toMatch(/\b0 sent\b/);
      expect(text).toContain('sends delivered unknown (its application logs no successful send and no statistics); 232 sends failed');
    } finally {
      await o.page.close();
    }
  });
});

describe('the Markdown report\'s mermaid block', () => {
  const parse = async (version: 'mermaid10' | 'mermaid11', blocks: string[]): Promise<string[]> => {
    const page = await browser.newPage();
    try {
      await page.setContent('<!DOCTYPE html><html><body></body></html>');
      await page.addScriptTag({ content: readFileSync(join(ROOT, 'node_modules', version, 'dist', 'mermaid.min.js'), 'utf8') });
      return await page.evaluate(async (list) => {
        const m = (window as unknown as { mermaid: { parse(t: string): Promise<unknown> } }).mermaid;
        const out: string[] = [];
        for (const b of list) {
          try {
            await m.parse(b);
            out.push('ok');
          } catch (e) {
            out.push(String((e as Error).message ?? e).split('\n').slice(0, 3).join(' '));
          }
        }
        return out;
      }, blocks);
    } finally {
      await page.close();
    }
  };

  // Every sample's report once, for both versions (fourteen analyses take a while on a busy machine).
  const blocks: string[] = [];
  beforeAll(async () => {
    for (const sample of SAMPLES) {
      const md = (await run(['analyze', `samples/${sample}`, '--format', 'markdown', '--severity', 'none'])).stdout;
      const block = /```mermaid\n([\s\S]*?)\n```/.exec(md);
      if (block) blocks.push(block[1]);
    }
  }, 300000);

  it.each(['mermaid10', 'mermaid11'] as const)('of every sample parses with %s', async (version) => {
    expect(blocks.length).toBeGreaterThan(5);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules', version, 'package.json'), 'utf8'));
    expect(pkg.version).toMatch(version === 'mermaid10' ? /^10\./ : /^11\./);
    expect(await parse(version, blocks)).toEqual(blocks.map(() => 'ok'));
    // The parse can fail: an `ip:port` colon in an event is what mermaid 10 refuses.
    if (version === 'mermaid10') expect((await parse(version, ['timeline\n    14.40 : broker 10.0.0.1:10911 down']))[0]).not.toBe('ok');
    // Loading a mermaid bundle and parsing fourteen blocks takes 15-30 s on a busy machine.
  }, 120000);
});
