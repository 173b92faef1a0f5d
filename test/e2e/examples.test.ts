// Every command example of README.md, docs/*.md (```sh blocks) and every --help runs, as written,
// with the built binary as `rmq-diag` on PATH (what `npm link` gives). Examples name `incident/` for
// the user's own logs: each runs in a fresh folder where `incident/` is a copy of the bundled seed
// outage, `samples/` the bundled samples and `broker.log.gz` a gzipped broker.log of it; `app/`,
// `src/main/resources/logback.xml` and `log4j2.xml` are an application of the user's own
// (--pattern). Exit code 0 or 1 (findings, not reproduced) is a run; 2 and up is a failure. TUI examples run in a tmux
// pseudo-terminal and are quit with q. Only rmq-diag commands run (`rmq-diag ...`, `npx rmq-diag ...`,
// `zcat FILE | rmq-diag ...`, `npm start`); the lines that install, test, benchmark or record the
// project itself (npm install, npm test, npm link, npm run bench, npm run lab: that one starts a real
// cluster) are set-up and are not run; any other line fails the test, to be sorted into one of the two.
// Each command's --help shows its examples as whole commands, one per line, under a comment line.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const RUN = /^(rmq-diag |npx rmq-diag |npm start$|zcat \S+ \| rmq-diag )/;
const SETUP = /^(npm (install|test|link|ci|run (bench|lab))\b|node scripts\/)/;

/** The ```sh blocks of a markdown file, each as its commands (comments removed), in order. */
function shBlocks(file: string): string[][] {
  const out: string[][] = [];
  let block: string[] | null = null;
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    if (/^```sh\s*$/.test(raw)) block = [];
    else if (/^```/.test(raw)) {
      if (block?.length) out.push(block);
      block = null;
    } else if (block) {
      const line = stripComment(raw).trim();
      if (line) block.push(line);
    }
  }
  return out;
}

/** Drops a trailing `# comment` (a `#` outside quotes, after a space). */
function stripComment(line: string): string {
  let q: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (q) {
      if (c === q) q = null;
    } else if (c === "'" || c === '"') q = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) return line.slice(0, i);
  }
  return line;
}

const COMMANDS = ['events', 'analyze', 'rules', 'replay', 'tui'];
/**
 * `rmq-diag --help` and each command's --help at COLUMNS=80, by the executable (execFileSync fails on
 * an exit code other than 0): their examples run below, and their layout is checked below too
 * (help examples), from the same runs.
 */
const helpTexts = [['--help'], ...COMMANDS.map((c) => [c, '--help'])].map((args) => ({
  args,
  text: execFileSync(process.execPath, [join(ROOT, 'bin', 'rmq-diag.js'), ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, COLUMNS: '80' } }),
}));

function helpExamples(): string[] {
  const out: string[] = [];
  for (const { text } of helpTexts) {
    const lines = text.split('\n');
    let inEx = false;
    for (const l of lines) {
      if (l === 'Examples:') inEx = true;
      else if (inEx && !l.startsWith('  ')) inEx = false;
      else if (inEx && !l.startsWith('  #')) out.push(l.trim());
    }
  }
  return out;
}

// A block is a sequence (`--save-scenario s.json`, then `replay s.json`): its commands run in order,
// in one folder. Help examples run one by one.
const docs = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const fromDocs = docs.flatMap((d) => shBlocks(join(ROOT, d)).flatMap((cmds, b) => cmds.map((cmd) => ({ where: d, block: `${d}#${b}`, cmd }))));
const fromHelp = helpExamples().map((cmd, i) => ({ where: '--help', block: `help#${i}`, cmd }));
const listed = [...fromDocs, ...fromHelp];
const all = listed.filter((e) => RUN.test(e.cmd));
// A command shown twice runs once (the first place that shows it).
const unique = [...new Map(all.map((e) => [e.cmd, e])).values()];
const isTui = (cmd: string) => /rmq-diag (tui|analyze .*--tui)\b/.test(cmd);

const work = mkdtempSync(join(tmpdir(), 'rmq-diag-examples-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const bin = join(work, 'bin');
mkdirSync(bin);
writeFileSync(join(bin, 'rmq-diag'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin', 'rmq-diag.js'))} "$@"\n`);
chmodSync(join(bin, 'rmq-diag'), 0o755);
const PATH = `${bin}:${process.env.PATH}`;

/** A fresh folder with the paths the examples name. */
function stage(): string {
  const dir = mkdtempSync(join(work, 'ex-'));
  cpSync(join(ROOT, 'samples', 'seed-outage'), join(dir, 'incident'), { recursive: true });
  symlinkSync(join(ROOT, 'samples'), join(dir, 'samples'));
  writeFileSync(join(dir, 'broker.log.gz'), gzipSync(readFileSync(join(ROOT, 'samples', 'seed-outage', 'mq-node-101', 'broker.log'))));
  // The user's own application (the --pattern examples): a log in its logback pattern, and its
  // logback.xml and log4j2.xml.
  mkdirSync(join(dir, 'app'));
  writeFileSync(
    join(dir, 'app', 'app.log'),
    '2024-05-20 14:03:11.490 [publisher-1] ERROR com.example.order.OrderPublisher - send failed, topic=TopicOrder\n' +
      'org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException: sendDefaultImpl call timeout\n' +
      '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:667)\n',
  );
  const pattern = '%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n';
  mkdirSync(join(dir, 'src', 'main', 'resources'), { recursive: true });
  writeFileSync(
    join(dir, 'src', 'main', 'resources', 'logback.xml'),
    `<configuration>\n  <appender name="FILE" class="ch.qos.logback.core.FileAppender">\n    <file>app.log</file>\n    <encoder><pattern>${pattern}</pattern></encoder>\n  </appender>\n  <root level="INFO"><appender-ref ref="FILE"/></root>\n</configuration>\n`,
  );
  writeFileSync(
    join(dir, 'log4j2.xml'),
    `<Configuration>\n  <Appenders>\n    <File name="FILE" fileName="app.log"><PatternLayout pattern="${pattern}"/></File>\n  </Appenders>\n  <Loggers><Root level="info"><AppenderRef ref="FILE"/></Root></Loggers>\n</Configuration>\n`,
  );
  return dir;
}

function runShell(cmd: string, cwd: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    // HOME is a temp folder: npm and npx keep their cache and logs there, never in the clone. `npx`
    // would run the package's prepare script (a rebuild of dist/ under the other tests' feet):
    // ignore-scripts keeps dist/ as `npm test` built it (`npm start` still runs its script).
    const env = { PATH, HOME: work, npm_config_update_notifier: 'false', npm_config_ignore_scripts: 'true', npm_config_fund: 'false' };
    const child = spawn('bash', ['-o', 'pipefail', '-c', cmd], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
  });
}

describe('help examples', () => {
  it('are whole commands, one per line, under a line saying what they do', () => {
    for (const c of COMMANDS) {
      const lines = helpTexts.find((h) => h.args[0] === c)!.text.split('\n');
      const at = lines.indexOf('Examples:');
      expect(at, c).toBeGreaterThan(0);
      const block = lines.slice(at + 1, lines.findIndex((l, i) => i > at && !l.startsWith('  ')));
      expect(block.length % 2, c).toBe(0);
      for (let i = 0; i < block.length; i += 2) {
        expect(block[i], c).toMatch(/^ {2}# \S/);
        expect(block[i + 1], c).toMatch(/^ {2}(rmq-diag|zcat) \S/);
      }
    }
  });
});

describe('documented examples', () => {
  it('are rmq-diag commands or set-up lines (never anything else, never run blind)', () => {
    expect(listed.filter((e) => !RUN.test(e.cmd) && !SETUP.test(e.cmd)).map((e) => `${e.where}: ${e.cmd}`)).toEqual([]);
  });

  it('were found in README.md, docs/*.md and every --help', () => {
    expect(fromDocs.filter((e) => e.where === 'README.md').length).toBeGreaterThan(15);
    expect(fromHelp.length).toBeGreaterThan(20);
    expect(unique.some((e) => e.cmd === 'rmq-diag analyze incident/ --json | jq .findings')).toBe(true);
  });

  it('every non-TUI example runs as written: exit 0 or 1, no error line', async () => {
    const blocks = new Map<string, typeof unique>();
    for (const e of unique.filter((x) => !isTui(x.cmd))) blocks.set(e.block, [...(blocks.get(e.block) ?? []), e]);
    const failures: string[] = [];
    const runBlock = async (list: typeof unique) => {
      const dir = stage();
      for (const e of list) {
        const r = await runShell(e.cmd, /^np[mx] /.test(e.cmd) ? ROOT : dir);
        const errorLines = r.stderr.split('\n').filter((l) => /^rmq-diag: |Error|internal error|jq: error/.test(l));
        if (r.code > 1 || errorLines.length) failures.push(`${e.where}: ${e.cmd}\n  exit ${r.code}: ${errorLines.join(' | ') || r.stderr.slice(-300)}`);
      }
    };
    // Two blocks at a time: the machine has two cores.
    const queue = [...blocks.values()];
    await Promise.all([0, 1].map(async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await runBlock(next);
    }));
    expect(failures).toEqual([]);
  }, 240000);

  it('every TUI example opens and quits on q with exit 0 (in tmux)', async () => {
    const tmuxOk = spawnSync('tmux', ['-V']).status === 0;
    if (!tmuxOk) throw new Error('tmux is not installed: the TUI examples run in a tmux pseudo-terminal (CI installs it)');
    const socket = `rmq-diag-examples-${process.pid}`;
    const env: NodeJS.ProcessEnv = { PATH, TERM: 'xterm-256color', HOME: work };
    const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', env });
    const todo = unique.filter((e) => isTui(e.cmd));
    expect(todo.length).toBeGreaterThanOrEqual(4);
    const one = async (e: (typeof todo)[number], k: number) => {
      const dir = stage();
      // Written whole, then renamed: the file never shows before its code is in it (a read between
      // the shell's creating it and writing it saw an empty file).
      const codeFile = join(dir, 'code');
      const started = tmux('new-session', '-d', '-s', `ex${k}`, '-x', '100', '-y', '30', '-c', dir, `${e.cmd}; echo $? > code.part && mv code.part code`);
      expect(started.status, started.stderr).toBe(0);
      const end = Date.now() + 30000;
      let screen = '';
      while (Date.now() < end && !/\[(events|findings)\]/.test(screen)) {
        await new Promise((r) => setTimeout(r, 150));
        screen = tmux('capture-pane', '-p', '-t', `ex${k}`).stdout ?? '';
      }
      expect(screen, `${e.where}: ${e.cmd}`).toMatch(/\[(events|findings)\]/);
      tmux('send-keys', '-t', `ex${k}`, 'q');
      while (Date.now() < end && !existsSync(codeFile)) await new Promise((r) => setTimeout(r, 100));
      expect(existsSync(codeFile) ? readFileSync(codeFile, 'utf8').trim() : 'no exit', `${e.where}: ${e.cmd}`).toBe('0');
    };
    try {
      // Two at a time: the machine has two cores.
      for (let i = 0; i < todo.length; i += 2) await Promise.all(todo.slice(i, i + 2).map((e, j) => one(e, i + j)));
    } finally {
      tmux('kill-server');
    }
  }, 240000);
});
