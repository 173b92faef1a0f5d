// The text report's first screen (24 lines at 80 columns) names the root cause and the impact: on
// every lab recording and the bundled incidents, through the built CLI off a terminal (its main() in
// a host process that loads dist/ once: useHost).
import { readFileSync, readdirSync } from 'node:fs';
import { CONSUMER_FAULT_KINDS } from '../../lab/src/scenario.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, useHost } from './helpers.js';

const cli = useHost();

/**
 * `analyze INPUT --json`: its golden file, which test/golden.test.ts holds to the CLI's output byte
 * for byte (every sample folder and lab recording has one): one analyze fewer per input here.
 */
const pinnedAnalyze = (input: string) => JSON.parse(readFileSync(join(ROOT, 'test', 'golden', `${input}.analyze.json`), 'utf8'));

// A NameServer that hung and resumed without a lost send (ns-hang-resume-*) has no incident named
// yet (issue 33's recall of causes), nor has a recording whose only faults are a consumer's (no rule
// reads consumers yet: issue 36): every other recording opens its report with its incident.
const onlyConsumerFaults = (n: string) =>
  (JSON.parse(readFileSync(join(ROOT, 'samples', 'lab', n, 'lab.json'), 'utf8')).faults as { kind: string }[]).every((f) =>
    (CONSUMER_FAULT_KINDS as readonly string[]).includes(f.kind),
  );
const LAB = readdirSync(join(ROOT, 'samples', 'lab'))
  .filter((n) => !n.startsWith('ns-hang-resume-') && !onlyConsumerFaults(n))
  .map((n) => `samples/lab/${n}`);
const INPUTS = [...LAB, 'samples/seed-outage', 'samples/broker-busy'];

describe('the first screen of analyze', () => {
  for (const input of INPUTS) {
    it(`${input}: cause and impact within 24 lines of 80 columns`, async () => {
      const inc = pinnedAnalyze(input).incidents[0];
      const text = await cli(['analyze', input], { env: { COLUMNS: '80' } });
      const screen = text.stdout.split('\n').slice(0, 24);
      for (const l of screen) expect(l.length, l).toBeLessThanOrEqual(80);
      const joined = screen.join('\n');
      expect(joined).toMatch(/^INCIDENT 1 {2}\S/m);
      expect(joined).toMatch(/^ {2}cause {4}\d\d:\d\d:\d\d – /m);
      for (const c of inc.causes) expect(joined, `${c.kind} on ${c.host}`).toContain(c.host);
      expect(joined).toMatch(/^ {2}impact {3}/m);
      for (const i of inc.impact) expect(joined, `impact on ${i.client}`).toMatch(new RegExp(`${i.client} +${i.failedSends ? `${i.failedSends} sends? lost` : 'no send lost'}`));
      if (!inc.impact.length) expect(joined).toContain('no failed send in the logs');
    });
  }
});

// The seed outage's report read without a pager: its first screen holds the cause and the findings'
// list, its last lines the recap, and no advice is said twice.
describe('the first and the last screen of the seed outage', () => {
  it('first 24 lines: cause, impact and one line per finding; last lines: the recap; each advice once', async () => {
    const json = pinnedAnalyze('samples/lab/seed-outage');
    const r = await cli(['analyze', 'samples/lab/seed-outage', '--severity', 'none'], { env: { COLUMNS: '80' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const first = lines.slice(0, 24).join('\n');
    expect(first).toMatch(/^ {2}cause {4}\d\d:\d\d:\d\d – \d\d:\d\d:\d\d {2}mq-node-a hung/m);
    // Each finding has its line, or (a list longer than 8) is in the line of its rule's run: `8-10.`.
    const listed = new Map<number, string>();
    for (const m of first.matchAll(/^ *(\d+)(?:-(\d+))?\. ([A-Z]+) {2}(\S+) {2}\S/gm)) {
      for (let n = Number(m[1]); n <= Number(m[2] ?? m[1]); n++) listed.set(n, `${m[3]} ${m[4]}`);
    }
    json.findings.forEach((f: { severity: string; rule: string }, i: number) => {
      expect(listed.get(i + 1), `finding ${i + 1}`).toBe(`${f.severity.toUpperCase()} ${f.rule}`);
    });
    const last = lines.slice(-8).join('\n');
    expect(last).toMatch(/^In short$/m);
    expect(last).toContain(`INCIDENT 1: ${json.incidents[0].title.slice(0, 40)}`);
    expect(last).toMatch(/^ {2}exit {5}0: --severity none, findings never set it$/m);
    expect(last).toMatch(/^ {2}details {2}above: /m);
    // Every advice, each on one line in a report 1000 columns wide: the incident's `change` items and
    // the findings' `- ` items. None is said twice.
    const wide = (await cli(['analyze', 'samples/lab/seed-outage', '--severity', 'none'], { env: { COLUMNS: '1000' } })).stdout.split('\n');
    const advice: string[] = [];
    let inChange = false;
    for (const l of wide) {
      const change = /^ {2}change {3}\d+\. (.*)$/.exec(l);
      if (change) inChange = true;
      else if (!/^ {11}\d+\. /.test(l)) inChange = false;
      const item = change ?? (inChange ? /^ {11}\d+\. (.*)$/.exec(l) : null) ?? /^ {3}- (.*)$/.exec(l) ?? /^ {3}advice {2}(see .*)$/.exec(l);
      if (item) advice.push(item[1]);
    }
    expect(advice.length).toBeGreaterThan(10);
    const told = advice.filter((a) => !/^see /.test(a));
    expect(new Set(told).size, told.join('\n')).toBe(told.length);
    for (const inc of json.incidents[0].advice) expect(told.filter((a) => a === inc)).toHaveLength(1);
    expect(advice).toContain('see the incident above (change 3)');
  });
});
