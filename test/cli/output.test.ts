// `-o FILE`: the report goes to the file named, created or replaced; a folder or an input of the
// run is refused before anything is written, and no other file is created.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, run } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rmq-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SEED = join(ROOT, 'samples', 'seed-outage');

describe('analyze -o FILE', () => {
  it('writes the report to the file, replacing one that is there, and nothing on stdout or beside it', async () => {
    const out = join(dir, 'a', 'incident.html');
    mkdirSync(join(dir, 'a'));
    writeFileSync(out, 'old');
    const r = await run(['analyze', SEED, '--format', 'html', '-o', out, '--severity', 'none']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toMatch(/^<!DOCTYPE html>[\s\S]*<\/html>\n$/);
    expect(readdirSync(join(dir, 'a'))).toEqual(['incident.html']);
  });

  it('writes any format (the same text as stdout)', async () => {
    const out = join(dir, 'report.json');
    await run(['analyze', SEED, '--json', '--output', out]);
    expect(readFileSync(out, 'utf8')).toBe((await run(['analyze', SEED, '--json'])).stdout);
  });

  it('refuses a folder, before reading the input', async () => {
    const r = await run(['analyze', SEED, '--format', 'html', '-o', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`-o ${dir}: a folder; name the file to write`);
  });

  it('refuses a file of an input folder and leaves it as it was', async () => {
    const inc = join(dir, 'inc');
    cpSync(SEED, inc, { recursive: true });
    const target = join(inc, 'app-pay-01', 'app.log');
    const before = readFileSync(target, 'utf8');
    const r = await run(['analyze', inc, '--format', 'html', '-o', target]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`rmq-diag: -o ${target}: inside the input folder ${inc}, which is never written into\n`);
    expect(readFileSync(target, 'utf8')).toBe(before);
  });

  it('says a file that cannot be written in one line, exit code 2', async () => {
    const r = await run(['analyze', SEED, '--format', 'html', '-o', join(dir, 'missing', 'x.html')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n').filter((l) => l.includes('-o '))).toHaveLength(1);
    expect(r.stderr).toMatch(/ENOENT/);
  });
});

describe('-o FILE: the format and the look of the report', () => {
  it("without --format or --json, the file's extension names the format", async () => {
    for (const [name, format] of [['x.html', 'html'], ['x.HTM', 'html'], ['x.json', 'json'], ['x.md', 'markdown'], ['x.markdown', 'markdown'], ['x.txt', 'text'], ['x', 'text']]) {
      const out = join(dir, name);
      const r = await run(['analyze', SEED, '-o', out, '--severity', 'none']);
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(out, 'utf8'), name).toBe((await run(['analyze', SEED, '--format', format, '--severity', 'none'])).stdout);
    }
  }, 300_000);

  it('--format or --json wins over the extension', async () => {
    const out = join(dir, 'asked.html');
    await run(['analyze', SEED, '--format', 'text', '-o', out, '--severity', 'none']);
    expect(readFileSync(out, 'utf8')).toMatch(/^(?!<!DOCTYPE)/);
    expect(readFileSync(out, 'utf8')).toBe((await run(['analyze', SEED, '--severity', 'none'])).stdout);
    await run(['analyze', SEED, '--json', '-o', out]);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveProperty('findings');
  }, 300_000);

  it('replay: .html and .json name its formats; .md, which it has not, is text', async () => {
    const html = join(dir, 'replay.html');
    expect((await run(['replay', SEED, '-o', html])).code).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain('<h1>RocketMQ incident replay</h1>');
    const json = join(dir, 'replay.json');
    await run(['replay', SEED, '-o', json]);
    expect(JSON.parse(readFileSync(json, 'utf8'))).toHaveProperty('schemaVersion');
    const md = join(dir, 'replay.md');
    await run(['replay', SEED, '-o', md]);
    expect(readFileSync(md, 'utf8')).toBe((await run(['replay', SEED])).stdout);
  }, 300_000);

  it('a file gets no colour and 80 columns though stdout is a wide terminal', async () => {
    const out = join(dir, 'report.txt');
    const r = await run(['analyze', SEED, '-o', out, '--severity', 'none'], { tty: true, columns: 200 });
    expect(r.code, r.stderr).toBe(0);
    const onTerminal = await run(['analyze', SEED, '--severity', 'none', '--no-pager'], { tty: true, columns: 200 });
    expect(onTerminal.stdout).toContain('\x1b[');
    expect(readFileSync(out, 'utf8')).not.toContain('\x1b[');
    expect(readFileSync(out, 'utf8')).toBe((await run(['analyze', SEED, '--severity', 'none'])).stdout);
    const replayOut = join(dir, 'replay.txt');
    await run(['replay', SEED, '-o', replayOut], { tty: true, columns: 200 });
    expect(readFileSync(replayOut, 'utf8')).toBe((await run(['replay', SEED])).stdout);
  }, 300_000);
});

describe('--format html to stdout', () => {
  it('analyze: one self-contained document', async () => {
    const r = await run(['analyze', SEED, '--format', 'html', '--severity', 'none']);
    expect(r.stdout).toMatch(/^<!DOCTYPE html>/);
    expect(r.stdout).not.toMatch(/<(?:script|link|img)[^>]+(?:src|href)=/);
  });

  it('replay: --format html, and --json with another --format is a usage error', async () => {
    const r = await run(['replay', SEED, '--format', 'html']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('<h1>RocketMQ incident replay</h1>');
    const bad = await run(['replay', SEED, '--json', '--format', 'html']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--json and --format html disagree');
  });
});
