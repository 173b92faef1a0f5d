// The pictures of docs/img: the seed outage's HTML reports, in Debian's chromium (playwright-core
// drives it and downloads no browser). Run after `npm run build`: node scripts/screenshots.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const root = new URL('..', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'rmq-shots-'));
const bin = join(root, 'bin', 'rmq-diag.js');
const analyze = join(tmp, 'incident.html');
const replay = join(tmp, 'replay.html');
execFileSync(process.execPath, [bin, 'analyze', 'samples/seed-outage/', '--format', 'html', '--severity', 'none', '-o', analyze], { cwd: root, stdio: ['ignore', 'inherit', 'ignore'] });
execFileSync(process.execPath, [bin, 'replay', 'samples/seed-outage/', '--what-if', 'clientCloseSocketIfTimeout=true', '--what-if', 'namesrvOnOwnHosts=true', '--runs', '10', '--format', 'html', '-o', replay], { cwd: root, stdio: ['ignore', 'inherit', 'ignore'] });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1240, height: 900 } });
  await page.goto(`file://${analyze}`);
  // The timeline with a finding's evidence shown, as a reader sees it after a click.
  await page.locator('#timeline-svg g.finding-bar').first().click();
  // Bounding boxes are of the viewport: measured from the top they are the page's.
  await page.evaluate(() => window.scrollTo(0, 0));
  const top = await page.locator('#timeline').boundingBox();
  const end = await page.locator('#evidence').boundingBox();
  await page.screenshot({ path: join(root, 'docs', 'img', 'seed-outage-timeline.png'), fullPage: true, clip: { x: 0, y: top.y - 8, width: 1240, height: end.y + end.height - top.y + 16 } });
  await page.screenshot({ path: join(root, 'docs', 'img', 'seed-outage-incident.png') });
  // On a phone: the timeline as a list, an entry's evidence shown under it after a tap.
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await phone.goto(`file://${analyze}`);
  await phone.locator('#timeline-list ol li.fault').first().click();
  await phone.locator('#timeline-list h3').nth(1).evaluate((e) => e.scrollIntoView());
  await phone.screenshot({ path: join(root, 'docs', 'img', 'seed-outage-phone.png') });
  await phone.close();
  await page.goto(`file://${replay}`);
  await page.evaluate(() => window.scrollTo(0, 0));
  const r0 = await page.locator('h1').boundingBox();
  const r1 = await page.locator('#runs-chart').boundingBox();
  await page.screenshot({ path: join(root, 'docs', 'img', 'seed-outage-replay.png'), fullPage: true, clip: { x: 0, y: r0.y - 8, width: 1240, height: r1.y + r1.height - r0.y + 16 } });
} finally {
  await browser.close();
  rmSync(tmp, { recursive: true, force: true });
}
