import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  UsageError,
  fsErrorMessage,
  kindFromName,
  looksLikeLog,
  parseOverride,
  parseRotatedName,
  resolveInputs,
  type SourceSpec,
} from '../../src/ingest/sources.js';

let tmp: string;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rmq-ingest-')));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Create a file under tmp; names ending in .gz get real gzip content unless `plain`. */
function touch(rel: string, content = 'x\n', plain = false): string {
  const abs = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, rel.endsWith('.gz') && !plain ? gzipSync(content) : content);
  return abs;
}

function brief(s: SourceSpec[]): Array<[string, string, number]> {
  return s.map((x) => [x.display, x.group, x.rotation]);
}

describe('resolveInputs: rotated sets', () => {
  it('orders a 4.3-5.0 client set (.1 newest) oldest first, live last', async () => {
    for (const n of ['rocketmq_client.log', 'rocketmq_client.log.1', 'rocketmq_client.log.2', 'rocketmq_client.log.10']) {
      touch(`inc/hostA/logs/rocketmqlogs/${n}`);
    }
    const { sources, issues } = await resolveInputs(['inc'], { cwd: tmp });
    expect(issues).toEqual([]);
    expect(brief(sources)).toEqual([
      ['inc/hostA/logs/rocketmqlogs/rocketmq_client.log.10', 'hostA/rocketmq_client.log', 10],
      ['inc/hostA/logs/rocketmqlogs/rocketmq_client.log.2', 'hostA/rocketmq_client.log', 2],
      ['inc/hostA/logs/rocketmqlogs/rocketmq_client.log.1', 'hostA/rocketmq_client.log', 1],
      ['inc/hostA/logs/rocketmqlogs/rocketmq_client.log', 'hostA/rocketmq_client.log', 0],
    ]);
    expect(sources.every((s) => s.host === 'hostA' && s.kindHint === 'client' && !s.kindForced)).toBe(true);
  });

  it('puts 5.1+ other_days/rocketmq_client-N.log.gz in the group of the live file', async () => {
    touch('inc/hostB/rocketmqlogs/rocketmq_client.log');
    for (const i of [1, 2, 3]) touch(`inc/hostB/rocketmqlogs/other_days/rocketmq_client-${i}.log.gz`);
    const { sources } = await resolveInputs(['inc'], { cwd: tmp });
    expect(brief(sources)).toEqual([
      ['inc/hostB/rocketmqlogs/other_days/rocketmq_client-3.log.gz', 'hostB/rocketmq_client.log', 3],
      ['inc/hostB/rocketmqlogs/other_days/rocketmq_client-2.log.gz', 'hostB/rocketmq_client.log', 2],
      ['inc/hostB/rocketmqlogs/other_days/rocketmq_client-1.log.gz', 'hostB/rocketmq_client.log', 1],
      ['inc/hostB/rocketmqlogs/rocketmq_client.log', 'hostB/rocketmq_client.log', 0],
    ]);
    expect(sources.map((s) => s.gz)).toEqual([true, true, true, false]);
  });

  it('groups 4.0-4.2 logback otherdays/rocketmq_client.N.log (not gzipped)', async () => {
    touch('h/rocketmqlogs/rocketmq_client.log');
    touch('h/rocketmqlogs/otherdays/rocketmq_client.1.log');
    touch('h/rocketmqlogs/otherdays/rocketmq_client.3.log');
    const { sources } = await resolveInputs(['h'], { cwd: tmp });
    expect(brief(sources)).toEqual([
      ['h/rocketmqlogs/otherdays/rocketmq_client.3.log', 'h/rocketmq_client.log', 3],
      ['h/rocketmqlogs/otherdays/rocketmq_client.1.log', 'h/rocketmq_client.log', 1],
      ['h/rocketmqlogs/rocketmq_client.log', 'h/rocketmq_client.log', 0],
    ]);
  });

  it('orders log4j2 dated names: older date first, then index ascending', async () => {
    for (const n of [
      'rocketmq_client.log',
      'rocketmq_client-2024-01-01-2.log',
      'rocketmq_client-2024-01-01-1.log',
      'rocketmq_client-2023-12-31-5.log',
    ]) {
      touch(`h/${n}`);
    }
    const { sources } = await resolveInputs(['h'], { cwd: tmp });
    expect(brief(sources)).toEqual([
      ['h/rocketmq_client-2023-12-31-5.log', 'h/rocketmq_client.log', 3],
      ['h/rocketmq_client-2024-01-01-1.log', 'h/rocketmq_client.log', 2],
      ['h/rocketmq_client-2024-01-01-2.log', 'h/rocketmq_client.log', 1],
      ['h/rocketmq_client.log', 'h/rocketmq_client.log', 0],
    ]);
  });

  it('orders server otherdays/*.N.log.gz by host, group, oldest first', async () => {
    const names = [
      'broker.log',
      'otherdays/broker.1.log.gz',
      'otherdays/broker.3.log.gz',
      'otherdays/broker.2.log.gz',
      'broker_default.log',
      'otherdays/broker_default.1.log.gz',
      'namesrv.log',
      'otherdays/namesrv.2.log.gz',
      'otherdays/namesrv.1.log.gz',
    ];
    for (const n of names) touch(`inc/ns1/rocketmqlogs/${n}`);
    touch('inc/broker-a/rocketmqlogs/broker.log');
    const { sources } = await resolveInputs(['inc'], { cwd: tmp });
    expect(brief(sources)).toEqual([
      ['inc/broker-a/rocketmqlogs/broker.log', 'broker-a/broker.log', 0],
      ['inc/ns1/rocketmqlogs/otherdays/broker.3.log.gz', 'ns1/broker.log', 3],
      ['inc/ns1/rocketmqlogs/otherdays/broker.2.log.gz', 'ns1/broker.log', 2],
      ['inc/ns1/rocketmqlogs/otherdays/broker.1.log.gz', 'ns1/broker.log', 1],
      ['inc/ns1/rocketmqlogs/broker.log', 'ns1/broker.log', 0],
      ['inc/ns1/rocketmqlogs/otherdays/broker_default.1.log.gz', 'ns1/broker_default.log', 1],
      ['inc/ns1/rocketmqlogs/broker_default.log', 'ns1/broker_default.log', 0],
      ['inc/ns1/rocketmqlogs/otherdays/namesrv.2.log.gz', 'ns1/namesrv.log', 2],
      ['inc/ns1/rocketmqlogs/otherdays/namesrv.1.log.gz', 'ns1/namesrv.log', 1],
      ['inc/ns1/rocketmqlogs/namesrv.log', 'ns1/namesrv.log', 0],
    ]);
    expect(sources.map((s) => s.kindHint)).toEqual([
      'broker', 'broker', 'broker', 'broker', 'broker', 'broker', 'broker', 'namesrv', 'namesrv', 'namesrv',
    ]);
  });

  it('keeps isolated broker folders apart (4.x otherdays/<dir>/, 5.x <dir>/otherdays/)', async () => {
    touch('inc/h/rocketmqlogs/brokerA_0/broker.log');
    touch('inc/h/rocketmqlogs/brokerA_0/otherdays/broker.1.log.gz'); // 5.x container layout
    touch('inc/h/rocketmqlogs/brokerB_0/broker.log');
    touch('inc/h/rocketmqlogs/otherdays/brokerB_0/broker.2.log.gz'); // 4.x isolateLogEnable layout
    const { sources } = await resolveInputs(['inc'], { cwd: tmp });
    expect(brief(sources)).toEqual([
      ['inc/h/rocketmqlogs/brokerA_0/otherdays/broker.1.log.gz', 'h/brokerA_0/broker.log', 1],
      ['inc/h/rocketmqlogs/brokerA_0/broker.log', 'h/brokerA_0/broker.log', 0],
      ['inc/h/rocketmqlogs/otherdays/brokerB_0/broker.2.log.gz', 'h/brokerB_0/broker.log', 2],
      ['inc/h/rocketmqlogs/brokerB_0/broker.log', 'h/brokerB_0/broker.log', 0],
    ]);
  });

  it('sorts hosts naturally (host2 before host10)', async () => {
    touch('inc/host10/broker.log');
    touch('inc/host2/broker.log');
    const { sources } = await resolveInputs(['inc'], { cwd: tmp });
    expect(sources.map((s) => s.host)).toEqual(['host2', 'host10']);
  });

  it('detects gzip by magic bytes, not by name', async () => {
    touch('h/app.log.gz', 'not really gzip\n', true);
    fs.writeFileSync(path.join(tmp, 'h/archived'), gzipSync('hello\n'));
    const { sources } = await resolveInputs(['h'], { cwd: tmp });
    const byName = Object.fromEntries(sources.map((s) => [path.basename(s.path), s.gz]));
    expect(byName).toEqual({ 'app.log.gz': false, archived: true });
  });

  it('treats X.N.log outside a rolled folder literally', async () => {
    touch('h/app.1.log');
    touch('h/app.log');
    const { sources } = await resolveInputs(['h'], { cwd: tmp });
    expect(brief(sources)).toEqual([
      ['h/app.1.log', 'h/app.1.log', 0],
      ['h/app.log', 'h/app.log', 0],
    ]);
  });
});

describe('parseRotatedName', () => {
  it.each([
    ['rocketmq_client.log', false, 'rocketmq_client.log', 0],
    ['rocketmq_client.log.7', false, 'rocketmq_client.log', 7],
    ['rocketmq_client.log.7.gz', false, 'rocketmq_client.log', 7],
    ['rocketmq_client-4.log.gz', false, 'rocketmq_client.log', 4],
    ['rocketmq_client-4.log', false, 'rocketmq_client-4.log', 0],
    ['rocketmq_client-4.log', true, 'rocketmq_client.log', 4],
    ['rocketmq_client.3.log', true, 'rocketmq_client.log', 3],
    ['broker.12.log.gz', false, 'broker.log', 12],
    ['pop.2.log', true, 'pop.log', 2],
    ['broker.log.gz', false, 'broker.log', 0],
    ['messages', false, 'messages', 0],
  ])('%s (rolled dir: %s) -> %s #%d', (name, rolled, base, rot) => {
    const info = parseRotatedName(name, rolled);
    expect([info.base, info.rotation, info.dated]).toEqual([base, rot, null]);
  });

  it('recognises dated names', () => {
    expect(parseRotatedName('rocketmq_client-2024-01-01-3.log').dated).toEqual({ date: '2024-01-01', index: 3 });
    expect(parseRotatedName('app-2024-01-01.log.gz').dated).toEqual({ date: '2024-01-01', index: 0 });
    expect(parseRotatedName('app.log.2024-01-01').base).toBe('app.log');
  });
});

describe('resolveInputs: host', () => {
  it('uses the first folder below the input folder; files directly in it get its name', async () => {
    touch('incident/hostA/rocketmqlogs/broker.log');
    touch('incident/hostB/namesrv.log');
    touch('incident/notes.txt');
    const { sources } = await resolveInputs(['incident'], { cwd: tmp });
    expect(sources.map((s) => [s.display, s.host])).toEqual([
      ['incident/hostA/rocketmqlogs/broker.log', 'hostA'],
      ['incident/hostB/namesrv.log', 'hostB'],
      ['incident/notes.txt', 'incident'],
    ]);
  });

  it('skips generic folder names when the input folder is a logs folder', async () => {
    touch('incident/hostA/logs/rocketmqlogs/broker.log');
    touch('incident/hostA/logs/rocketmqlogs/otherdays/broker.1.log.gz');
    const { sources } = await resolveInputs(['incident/hostA/logs/rocketmqlogs'], { cwd: tmp });
    expect(sources.map((s) => [s.host, s.group])).toEqual([
      ['hostA', 'hostA/broker.log'],
      ['hostA', 'hostA/broker.log'],
    ]);
  });

  it('uses the parent folder of a named file, going up past logs folders', async () => {
    const a = touch('incident/hostA/logs/rocketmqlogs/other_days/rocketmq_client-1.log.gz');
    const b = touch('incident/hostA/logs/rocketmqlogs/rocketmq_client.log');
    const c = touch('box7/app.log');
    const { sources } = await resolveInputs([a, b, c], { cwd: tmp });
    expect(sources.map((s) => [s.host, s.group, s.rotation])).toEqual([
      ['box7', 'box7/app.log', 0],
      ['hostA', 'hostA/rocketmq_client.log', 1],
      ['hostA', 'hostA/rocketmq_client.log', 0],
    ]);
  });

  it('expands globs and derives hosts from parent folders', async () => {
    touch('incident/hostA/rocketmqlogs/broker.log');
    touch('incident/hostB/rocketmqlogs/broker.log');
    touch('incident/hostB/rocketmqlogs/namesrv.log');
    touch('incident/hostB/rocketmqlogs/readme.md');
    const { sources, issues } = await resolveInputs(['incident/*/rocketmqlogs/*.log'], { cwd: tmp });
    expect(issues).toEqual([]);
    expect(sources.map((s) => [s.display, s.host])).toEqual([
      ['incident/hostA/rocketmqlogs/broker.log', 'hostA'],
      ['incident/hostB/rocketmqlogs/broker.log', 'hostB'],
      ['incident/hostB/rocketmqlogs/namesrv.log', 'hostB'],
    ]);
  });

  it('walks folders that a glob matches, with ** and braces', async () => {
    touch('incident/hostA/rocketmqlogs/broker.log');
    touch('incident/hostA/rocketmqlogs/lib.jar');
    touch('incident/hostB/x/y/namesrv.log.gz');
    touch('incident/hostC/store.log');
    const dirs = await resolveInputs(['incident/host{A,B}'], { cwd: tmp });
    expect(dirs.sources.map((s) => [s.display, s.host])).toEqual([
      ['incident/hostA/rocketmqlogs/broker.log', 'hostA'],
      ['incident/hostB/x/y/namesrv.log.gz', 'hostB'],
    ]);
    const deep = await resolveInputs(['incident/**/*.gz'], { cwd: tmp });
    expect(deep.sources.map((s) => s.display)).toEqual(['incident/hostB/x/y/namesrv.log.gz']);
  });

  it('applies --host overrides (first match wins) and --kind overrides', async () => {
    touch('incident/hostA/app.log');
    touch('incident/hostA/rocketmq_client.log');
    touch('incident/hostB/app.log');
    const { sources } = await resolveInputs(['incident'], {
      cwd: tmp,
      host: [
        ['incident/hostA/**', 'alpha'],
        ['**/app.log', 'never-for-hostA'],
      ],
      kind: [['app.log', 'client']],
    });
    expect(sources.map((s) => [s.display, s.host, s.group, s.kindHint, s.kindForced])).toEqual([
      ['incident/hostA/app.log', 'alpha', 'alpha/app.log', 'client', true],
      ['incident/hostA/rocketmq_client.log', 'alpha', 'alpha/rocketmq_client.log', 'client', false],
      ['incident/hostB/app.log', 'never-for-hostA', 'never-for-hostA/app.log', 'client', true],
    ]);
  });

  it('matches overrides against the absolute path too', async () => {
    const f = touch('x/app.log');
    const { sources } = await resolveInputs([f], { cwd: os.tmpdir(), host: [[path.join(tmp, '**'), 'abs']] });
    expect(sources[0].host).toBe('abs');
  });

  it('reads stdin as host "-"', async () => {
    const { sources } = await resolveInputs(['-', '-'], { cwd: tmp, kind: [['-', 'broker']] });
    expect(sources).toEqual([
      { path: '-', display: '-', host: '-', kindHint: 'broker', kindForced: true, gz: false, group: '-/-', rotation: 0 },
    ]);
  });

  it('rejects an unknown --kind with the list of valid kinds', async () => {
    await expect(resolveInputs([tmp], { kind: [['*', 'brokr' as never]] })).rejects.toThrow(UsageError);
    await expect(resolveInputs([tmp], { kind: [['*', 'brokr' as never]] })).rejects.toThrow(
      /unknown kind 'brokr'.*valid kinds: client, broker, namesrv, remoting, store, watermark, stats, app, unknown/,
    );
  });
});

describe('resolveInputs: walking and problems', () => {
  it('includes log-like names only, and skips VCS folders', async () => {
    const names = [
      'a.log', 'a.log.3', 'b.3.log.gz', 'c-2.log.gz', 'd.gz', 'e.txt', 'nohup.out', 'messages',
      '.hidden.log', 'lib.jar', 'A.class', 'c.json', 'c.xml', 'broker.properties', 'pic.png', '.DS_Store',
      'README.md', '00000000000000000000', 'checkpoint', 'bundle.tar.gz', '.git/HEAD', 'node_modules/x/log',
    ];
    for (const n of names) touch(`h/${n}`);
    const { sources } = await resolveInputs(['h'], { cwd: tmp });
    expect(sources.map((s) => path.basename(s.path)).sort()).toEqual(
      ['.hidden.log', 'a.log', 'a.log.3', 'b.3.log.gz', 'c-2.log.gz', 'd.gz', 'e.txt', 'messages', 'nohup.out'].sort(),
    );
  });

  it('always includes files named explicitly', async () => {
    const f = touch('h/config.json', '{}');
    const { sources } = await resolveInputs([f], { cwd: tmp });
    expect(sources.map((s) => s.display)).toEqual(['h/config.json']);
  });

  it('terminates on symlink loops and reads a file reached twice once', async () => {
    touch('h/a/broker.log');
    touch('h/b/namesrv.log');
    fs.symlinkSync(path.join(tmp, 'h'), path.join(tmp, 'h/a/loop-to-root'));
    fs.symlinkSync(path.join(tmp, 'h/a'), path.join(tmp, 'h/a/self'));
    fs.symlinkSync(path.join(tmp, 'h/b/namesrv.log'), path.join(tmp, 'h/a/linked.log'));
    const { sources, issues } = await resolveInputs(['h', 'h/a/broker.log', 'h/a'], { cwd: tmp });
    expect(issues).toEqual([]);
    expect(sources.map((s) => s.display)).toEqual(['h/a/broker.log', 'h/a/linked.log']);
  });

  it('reports a broken symlink in a walk', async () => {
    touch('h/broker.log');
    fs.symlinkSync(path.join(tmp, 'gone.log'), path.join(tmp, 'h/dangling.log'));
    const { sources, issues } = await resolveInputs(['h'], { cwd: tmp });
    expect(sources).toHaveLength(1);
    expect(issues).toEqual([{ file: 'h/dangling.log', line: null, message: 'broken symbolic link: h/dangling.log' }]);
  });

  it('reports a missing path and a glob matching nothing, and continues', async () => {
    touch('h/broker.log');
    const { sources, issues } = await resolveInputs(['nope.log', 'h', 'h/*.gz', 'nowhere/*.log'], { cwd: tmp });
    expect(sources.map((s) => s.display)).toEqual(['h/broker.log']);
    expect(issues).toEqual([
      { file: 'nope.log', line: null, message: 'no such file or directory: nope.log' },
      { file: 'h/*.gz', line: null, message: 'no files match: h/*.gz' },
      { file: 'nowhere/*.log', line: null, message: 'no files match: nowhere/*.log' },
    ]);
  });

  it('takes a path that exists literally even with glob characters in it', async () => {
    touch('h/[weird].log');
    const { sources } = await resolveInputs(['h/[weird].log'], { cwd: tmp });
    expect(sources.map((s) => s.display)).toEqual(['h/[weird].log']);
  });

  it('shows paths outside cwd as absolute', async () => {
    const f = touch('h/broker.log');
    const elsewhere = path.join(tmp, 'elsewhere');
    fs.mkdirSync(elsewhere);
    const { sources } = await resolveInputs([f], { cwd: elsewhere });
    expect(sources[0].display).toBe(f);
    expect(sources[0].path).toBe(f);
  });

  it('words file-system errors for people (root reads everything, so EACCES is built by hand)', () => {
    const err = (code: string) => Object.assign(new Error(`${code}: x`), { code });
    expect(fsErrorMessage(err('EACCES'), 'h/secret.log')).toBe('permission denied: h/secret.log');
    expect(fsErrorMessage(err('ENOENT'), 'nope.log')).toBe('no such file or directory: nope.log');
    expect(fsErrorMessage(err('EIO'), 'bad.log')).toBe('cannot read bad.log: EIO: x');
  });
});

describe('kindFromName', () => {
  it.each([
    ['rocketmq_client.log', 'client'],
    ['rocketmq_client.log.3', 'client'],
    ['rocketmq_client-2.log.gz', 'client'],
    ['broker.log', 'broker'],
    ['broker.4.log.gz', 'broker'],
    ['broker_default.log', 'broker'],
    ['broker_default.1.log.gz', 'broker'],
    ['broker_traffic.log', null],
    ['namesrv.log', 'namesrv'],
    ['namesrv_default.2.log.gz', 'namesrv'],
    ['remoting.log', 'remoting'],
    ['store.log', 'store'],
    ['storeerror.log', 'store'],
    ['watermark.3.log.gz', 'watermark'],
    ['stats.log', 'stats'],
    ['app.log', null],
    ['protection.log', null],
    ['dir/otherdays/broker.2.log.gz', 'broker'],
  ])('%s -> %s', (name, kind) => {
    expect(kindFromName(name)).toBe(kind);
  });
});

describe('looksLikeLog', () => {
  it('accepts the rotated forms', () => {
    for (const n of ['x.log', 'x.log.10', 'x.10.log.gz', 'x-3.log.gz', 'x.gz', 'x.txt', 'x.out', 'x', 'x.log.2024-01-01']) {
      expect(looksLikeLog(n), n).toBe(true);
    }
  });
});

describe('parseOverride', () => {
  it('splits GLOB=VALUE at the last =', () => {
    expect(parseOverride('incident/hostA/**=alpha')).toEqual(['incident/hostA/**', 'alpha']);
    expect(parseOverride('a=b=client')).toEqual(['a=b', 'client']);
  });

  it.each(['nothing', '=client', 'glob=', 'glob=  '])('rejects %j', (spec) => {
    expect(() => parseOverride(spec)).toThrow(UsageError);
    expect(() => parseOverride(spec)).toThrow(/expected GLOB=VALUE/);
  });
});
