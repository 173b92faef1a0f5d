// Findings that read the same cannot be told apart: over every lab recording, whole and cut down to
// the servers, no two findings of one report have the same title (a master and its slave, two
// episodes of one broker, two NameServers each name what sets them apart: host, address, time).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ALL_RULES } from '../../src/rules/index.js';
import { analyzeTimeline } from '../../src/rules/analyze.js';
import { buildTimeline } from '../../src/timeline/build.js';
import { LAB } from './lab-findings.js';

// Every lab recording, and the generated ones where a master and its slave, or one NameServer's
// removals of a broker, once read the same.
const names = [...readdirSync(LAB).filter((n) => !n.startsWith('.')), ...['gen-239', 'gen-703', 'gen-710'].map((g) => join('..', 'generated', g))];

async function titles(inputs: string[]): Promise<string[]> {
  const t = await buildTimeline({ inputs, workers: 0 });
  try {
    return analyzeTimeline(t, { rules: ALL_RULES }).map((f) => f.title);
  } finally {
    t.close();
  }
}

const repeated = (xs: string[]) => xs.filter((x, i) => xs.indexOf(x) !== i);

it.each(names)('%s: every finding has a title of its own', async (name) => {
  const all = await titles([join(LAB, name)]);
  expect(all.length).toBeGreaterThan(0);
  expect(repeated(all)).toEqual([]);
  // The servers alone (an operator without the applications' logs) too.
  const servers = readdirSync(join(LAB, name)).filter((h) => h.startsWith('mq-')).map((h) => join(LAB, name, h));
  expect(repeated(await titles(servers))).toEqual([]);
});

it('seed-outage: the master and the slave of broker-b that failed to register are told apart by host', async () => {
  const all = await titles([join(LAB, 'seed-outage')]);
  const reg = all.filter((t) => /^broker-b on .* failed to register with NameServer 10\.213\.0\.11:9876/.test(t));
  expect(reg.map((t) => /on (\S+)/.exec(t)![1]).sort()).toEqual(['mq-node-b', 'mq-slave-b']);
});
