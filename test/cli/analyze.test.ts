import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main, normaliseArgv } from '../../src/cli/main.js';
import { STDIN_ARG } from '../../src/cli/result.js';
import { renderRulesMarkdown } from '../../src/report/findings-markdown.js';
import { ALL_RULES } from '../../src/rules/index.js';
import type { Rule, Severity } from '../../src/rules/types.js';
import { ROOT, run, runBin, type Run } from './helpers.js';

const SEED = join(ROOT, 'samples', 'seed-outage');
const BUSY = join(ROOT, 'samples', 'broker-busy');

/** A rule that always reports one finding of its severity, at the first event of a type it reads. */
function always(id: string, severity: Severity): Rule {
  return {
    meta: {
      id,
      title: `Always ${severity}`,
      severity,
      description: 'test rule',
      versions: 'all',
      settings: { [`${id}.minimum`]: { default: 1, description: 'events needed' }, [`${id}.loud`]: { default: false, description: 'b' } },
      events: ['startup'],
    },
    create(ctx) {
      const seen: Parameters<NonNullable<ReturnType<Rule['create']>['startup']>>[0][] = [];
      return {
        startup: (e) => void seen.push(e),
        end() {
          if (seen.length < (ctx.settings[`${id}.minimum`] as number)) return;
          ctx.report({
            title: `${seen.length} startups \u001b[31m seen`,
            start: seen[0].ts,
            end: seen[seen.length - 1].ts,
            subject: { host: seen[0].host },
            metrics: { failures: seen.length, stuckMs: 706000 },
            evidence: seen,
            explanation: 'A test rule that reports every time, so that exit codes and reports can be tested whatever rules are registered.',
            advice: ['Nothing to do.'],
          });
        },
      };
    },
  };
}

const FAKE = [always('broker-busy', 'warning'), always('always-info', 'info'), always('always-critical', 'critical')];

/** Run with the fake rules instead of the registry. */
async function runFake(args: string[], opts: { tty?: boolean; columns?: number; env?: NodeJS.ProcessEnv } = {}, rules: readonly Rule[] = FAKE): Promise<Run> {
  const out = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  const err = new PassThrough() as PassThrough & { isTTY?: boolean };
  out.isTTY = opts.tty ?? false;
  out.columns = opts.columns;
  err.isTTY = false;
  let stdout = '';
  let stderr = '';
  out.on('data', (d) => (stdout += d));
  err.on('data', (d) => (stderr += d));
  const code = await main(args, { stdout: out, stderr: err, env: opts.env ?? {} }, { rules });
  return { code, stdout, stderr };
}

describe('rmq-diag analyze --json with the registered rules', () => {
  it('prints the documented document; the exit code follows the findings', async () => {
    const r = await run(['analyze', SEED, '--json']);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['schemaVersion', 'inputs', 'summary', 'clocks', 'incidents', 'consumers', 'findings', 'milestones']);
    expect(doc.schemaVersion).toBe(2);
    // The seed logs hold producers only: no consumer group to report.
    expect(doc.consumers).toEqual([]);
    expect(doc.inputs).toHaveLength(14);
    // The seed outage is one incident: mq-node-100 went dark, then rebooted; its findings are listed by id.
    expect(doc.incidents).toHaveLength(1);
    const inc = doc.incidents[0];
    expect(Object.keys(inc)).toEqual(['id', 'title', 'start', 'end', 'causes', 'impact', 'impactUnknown', 'chain', 'advice', 'findings']);
    expect(inc.impactUnknown).toBeNull();
    expect(inc.causes.map((c: any) => `${c.host} ${c.kind}`)).toEqual(['mq-node-100 reboot']);
    expect(inc.impact.map((i: any) => i.client).sort()).toEqual(['app-order-01', 'app-pay-01']);
    const ids = doc.findings.map((f: any) => f.id);
    expect(ids).toEqual(doc.findings.map((_: unknown, i: number) => `F${i + 1}`));
    for (const id of inc.findings) expect(ids).toContain(id);
    expect(new Set(inc.advice).size).toBe(inc.advice.length);
    for (const i of doc.inputs) {
      expect(Object.keys(i)).toEqual(
        expect.arrayContaining(['path', 'kind', 'host', 'layout', 'zone', 'lines', 'records', 'events', 'continuation', 'unknown', 'unreadable']),
      );
    }
    expect(Object.keys(doc.summary)).toEqual(
      expect.arrayContaining(['window', 'zone', 'hosts', 'totals', 'findings', 'severity', 'rules', 'settings', 'issues']),
    );
    expect(doc.summary.window.start).toBe('2020-12-22T14:35:00.000+08:00');
    expect(doc.summary.hosts).toEqual(['app-order-01', 'app-pay-01', 'mq-node-100', 'mq-node-101']);
    expect(doc.summary.rules).toEqual(ALL_RULES.map((x) => x.meta.id));
    for (const f of doc.findings) {
      expect(Object.keys(f)).toEqual(['id', 'rule', 'severity', 'title', 'start', 'end', 'subject', 'metrics', 'evidence', 'explanation', 'advice']);
    }
    expect(doc.milestones.some((m: any) => m.kind === 'namesrv-switch' && m.time === '2020-12-22T14:53:46.281+08:00')).toBe(true);
    expect(r.code).toBe(doc.summary.atOrAboveSeverity > 0 ? 1 : 0);
    // The sample's one input note is in the document and on stderr.
    expect(doc.summary.issues).toHaveLength(1);
    expect(r.stderr).toBe(`note: ${doc.summary.issues[0].file}: ${doc.summary.issues[0].message}\n`);
  });

  it('exit 2 for usage and input errors, with a one-line message', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['analyze'], /no input/],
      [['analyze', join(ROOT, 'nope.log')], /./],
      [['analyze', SEED, '--rule', 'no-such-rule'], /--rule no-such-rule: unknown rule/],
      [['analyze', SEED, '--no-rule', 'no-such-rule'], /--no-rule no-such-rule: unknown rule/],
      [['analyze', SEED, '--set', 'nonsense=1'], /--set nonsense=1: no enabled rule has a setting "nonsense"/],
      [['analyze', SEED, '--set', 'nonsense'], /--set nonsense: expected NAME=VALUE/],
      [['analyze', SEED, '--severity', 'fatal'], /--severity fatal: unknown severity/],
      [['analyze', SEED, '--format', 'xml'], /xml/],
      [['analyze', SEED, '--json', '--format', 'markdown'], /--json and --format markdown disagree/],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      if (args[1] !== join(ROOT, 'nope.log')) {
        expect(r.stderr, args.join(' ')).toMatch(/^rmq-diag: /);
        expect(r.stderr, args.join(' ')).toMatch(message);
      }
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('rmq-diag analyze with rules that always report', () => {
  it('exit 1 when a finding at or above --severity exists, 0 when none', async () => {
    const r = await runFake(['analyze', SEED, '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.findings.map((f: any) => [f.rule, f.severity])).toEqual([
      ['always-critical', 'critical'],
      ['broker-busy', 'warning'],
      ['always-info', 'info'],
    ]);
    expect(doc.summary.findings).toEqual({ total: 3, critical: 1, error: 0, warning: 1, info: 1, shown: 3 });
    expect(doc.findings[0].evidence).toHaveLength(5);
    expect(doc.findings[0].evidence[0]).toEqual({
      file: 'samples/seed-outage/app-order-01/rocketmq_client.log',
      line: 3,
      time: '2020-12-22T14:35:16.243+08:00',
      text: expect.stringContaining('ClientVersion'),
    });
    expect((await runFake(['analyze', SEED, '--rule', 'always-info'])).code).toBe(0);
    expect((await runFake(['analyze', SEED, '--rule', 'always-info', '--severity', 'info'])).code).toBe(1);
    expect((await runFake(['analyze', SEED, '--rule', 'broker-busy', '--severity', 'error'])).code).toBe(0);
    expect((await runFake(['analyze', SEED, '--rule', 'broker-busy,always-critical', '--severity', 'critical'])).code).toBe(1);
  });

  it('skips rules with --no-rule (and --skip-rule), runs only some with --rule', async () => {
    const ids = async (args: string[]) => JSON.parse((await runFake(['analyze', SEED, '--json', ...args])).stdout).summary.rules;
    expect(await ids(['--no-rule', 'broker-busy'])).toEqual(['always-info', 'always-critical']);
    expect(await ids(['--no-rule=broker-busy'])).toEqual(['always-info', 'always-critical']);
    expect(await ids(['--skip-rule', 'broker-busy', '--no-rule', 'always-info'])).toEqual(['always-critical']);
    expect(await ids(['--no-rule', 'broker-busy,always-critical'])).toEqual(['always-info']);
    expect(await ids(['--rule', 'always-info', '--rule', 'broker-busy'])).toEqual(['broker-busy', 'always-info']);
    // Paths may follow the flags.
    const after = JSON.parse((await runFake(['analyze', '--no-rule', 'broker-busy', SEED, '--set', 'always-info.minimum=2', BUSY, '--json'])).stdout);
    expect(after.summary.rules).toEqual(['always-info', 'always-critical']);
    expect(after.inputs).toHaveLength(22);
    const r = await runFake(['analyze', SEED, '--no-rule', 'broker-busy', '--no-rule', 'always-critical']);
    expect(r.code).toBe(0);
  });

  it('types --set values; a bad one is exit 2', async () => {
    const doc = JSON.parse((await runFake(['analyze', SEED, '--json', '--set', 'broker-busy.minimum=100', '--set', 'always-info.loud=true'])).stdout);
    expect(doc.summary.settings).toMatchObject({ 'broker-busy.minimum': 100, 'always-info.loud': true, 'always-critical.minimum': 1 });
    expect(doc.findings.map((f: any) => f.rule)).toEqual(['always-critical', 'always-info']);
    const bad = await runFake(['analyze', SEED, '--set', 'broker-busy.minimum=lots']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('rmq-diag: --set broker-busy.minimum=lots: "lots" is not a number\n');
    // A setting of a skipped rule is unknown.
    expect((await runFake(['analyze', SEED, '--no-rule', 'broker-busy', '--set', 'broker-busy.minimum=2'])).code).toBe(2);
  });

  it('--show hides findings below it, the exit code still follows --severity', async () => {
    const r = await runFake(['analyze', SEED, '--show', 'critical', '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.findings.map((f: any) => f.rule)).toEqual(['always-critical']);
    expect(doc.summary.findings).toMatchObject({ total: 3, shown: 1 });
    expect(doc.milestones.filter((m: any) => m.rule).map((m: any) => m.rule)).toEqual(['always-critical', 'always-critical']);
  });

  it('prints the report for people within 80 columns, without colour under NO_COLOR', async () => {
    const r = await runFake(['analyze', SEED], { tty: true, columns: 80, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^rmq-diag analyze: 1 incident; 3 findings \(1 critical, 1 warning, 1 info\)$/m);
    expect(r.stdout).toMatch(/^1\. CRITICAL {2}always-critical {2}\d+ startups \\x1b\[31m seen$/m);
    expect(r.stdout).toMatch(/^Timeline$/m);
    expect(r.stdout).not.toMatch(/\u001b/);
    for (const line of r.stdout.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
    const coloured = await runFake(['analyze', SEED], { tty: true, columns: 80 });
    expect(coloured.stdout).toMatch(/\u001b\[31m/);
    const piped = await runFake(['analyze', SEED, '--verbose']);
    expect(piped.stdout).not.toMatch(/\u001b/);
    expect(piped.stdout).toMatch(/│ source/);
  });

  it('writes a markdown postmortem', async () => {
    const r = await runFake(['analyze', BUSY, '--format', 'markdown']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^# RocketMQ incident analysis$/m);
    expect(r.stdout).toMatch(/^### 1\. CRITICAL: /m);
    expect(r.stdout).toMatch(/```mermaid\ntimeline\n/);
    expect(r.stdout).toContain('first busy reply from 192.168.1.12:10911');
  });

  it('with no rules at all: no findings, exit 0', async () => {
    const r = await runFake(['analyze', SEED], {}, []);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^No findings\.$/m);
  });
});

describe('rmq-diag rules', () => {
  it('--json lists the rule ids of the registry', async () => {
    const r = await run(['rules', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.schemaVersion).toBe(1);
    expect(doc.rules.map((x: any) => x.id)).toEqual(ALL_RULES.map((x) => x.meta.id));
    for (const x of doc.rules) expect(Object.keys(x)).toEqual(['id', 'title', 'severity', 'description', 'versions', 'events', 'settings']);
  });

  it('lists every rule with its settings as a table', async () => {
    const r = await runFake(['rules'], { tty: true, columns: 80, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/│ broker-busy\s+│ warning\s+│ Always warning/);
    expect(r.stdout).toContain('- broker-busy.minimum = 1: events needed');
    for (const line of r.stdout.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
    const ids = JSON.parse((await runFake(['rules', '--json'])).stdout).rules.map((x: any) => x.id);
    expect(ids).toEqual(['broker-busy', 'always-info', 'always-critical']);
  });

  it('every registered rule, its settings and the metric names are documented in docs/analyze.md', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'analyze.md'), 'utf8');
    const table = /<!-- rules table: rmq-diag rules --format markdown -->\n([\s\S]*?)<!-- end of rules table -->/.exec(doc);
    expect(table, 'docs/analyze.md has the rules table markers').not.toBeNull();
    expect(table![1], 'the rules table in docs/analyze.md is out of date: paste the output of `node bin/rmq-diag.js rules --format markdown` between its markers').toBe(
      renderRulesMarkdown(ALL_RULES),
    );
    for (const m of ['rejections', 'maxWaitMs', 'maxQueueSize', 'failedSends', 'staleMs', 'timeouts', 'stuckMs', 'detection', 'detectMs', 'failures']) {
      expect(doc).toContain(`\`${m}\``);
    }
  });
});

describe('arguments', () => {
  it('reads --no-rule as --skip-rule, and a lone - as stdin, but nothing after --', () => {
    expect(normaliseArgv(['analyze', '-', '--no-rule', 'a', '--no-rule=b', '--', '--no-rule'])).toEqual([
      'analyze',
      STDIN_ARG,
      '--skip-rule',
      'a',
      '--skip-rule=b',
      '--',
      '--no-rule',
    ]);
    expect(normaliseArgv(['events', 'x', '--no-progress'])).toEqual(['events', 'x', '--no-progress']);
  });

  it('the executable documents analyze and rules', () => {
    const h = runBin(['analyze', '--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/--severity/);
    expect(h.stdout).toMatch(/--no-rule/);
    expect(h.stdout).toMatch(/Examples:/);
    const top = runBin(['--help']);
    expect(top.stdout).toMatch(/analyze \[paths\.\.\]/);
    expect(top.stdout).toMatch(/rmq-diag rules/);
    const rules = runBin(['rules', '--json']);
    expect(rules.code).toBe(0);
    expect(JSON.parse(rules.stdout).schemaVersion).toBe(1);
  });

  it('--no-progress still works', async () => {
    const r = await runFake(['analyze', SEED, '--no-progress', '--json']);
    expect(r.code).toBe(1);
  });
});

describe('analyze over inputs inside and outside the working folder', () => {
  it('reads both (one shown relative, one absolute) and reports, where the folder they share looped', async () => {
    const { cpSync, mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-outside-'));
    try {
      // The absolute input's hosts (app-feed-*) sort before the relative one's (app-shop-*, mq-*).
      cpSync(join(ROOT, 'samples', 'broker-busy'), join(dir, 'broker-busy'), { recursive: true });
      const r = await run(['analyze', '--json', 'samples/healthy-restart', join(dir, 'broker-busy')]);
      expect([0, 1]).toContain(r.code);
      const paths = (JSON.parse(r.stdout).inputs as Array<{ path: string }>).map((i) => i.path);
      expect(paths[0].startsWith(dir)).toBe(true);
      expect(paths.some((p) => p.startsWith('samples/healthy-restart/'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60000);
});
