// --pattern against hostile patterns: grammar-aware mutations of real logback/log4j2 patterns
// (tokens repeated, nested, dropped, swapped; long literals), each compiled and tried on real lines.
// Every case must end in a layout or one PatternError line, and the whole run must end: the cases run
// in a worker thread (over the built dist/, as the parse threads do) and a guard far above their
// cost (minutes, where a backtracking regex took hours) stops it and names the case it was on.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/model/random.js';
import { compilePattern, MAX_CONFIG_BYTES, MAX_PATTERN_CHARS, MAX_PATTERN_FIELDS, MAX_PATTERN_NESTING, patternArg } from '../../src/parse/pattern.js';
import { ROOT, run } from '../cli/helpers.js';

/** Real patterns: logback's and log4j2's documented defaults, Spring Boot's console pattern, RocketMQ's own (logback_broker.xml, 4.9.x). */
const REAL = [
  '%d{HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n',
  '%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n',
  '%d{ISO8601} %-5p [%t] %c{1.} - %m%n',
  '%d %-5p [%t] %C{2} (%L) - %m%n',
  '%clr(%d{${LOG_DATEFORMAT_PATTERN:-yyyy-MM-dd HH:mm:ss.SSS}}){faint} %clr(${LOG_LEVEL_PATTERN:-%5p}) %clr(${PID:- }){magenta} %clr(---){faint} %clr([%15.15t]){faint} %clr(%-40.40logger{39}){cyan} %clr(:){faint} %m%n%wEx',
  '%d{yyy-MM-dd HH:mm:ss,GMT+8} %p %t - %m%n',
  '%d{yyy-MM-dd HH:mm:ss,GMT+8} - %m%n',
  '%highlight(%-5level) %d{yyyy-MM-dd HH:mm:ss.SSS} [%X{traceId}] %logger - %msg %ex%n',
];

/** Lines of the lab's crash recording (samples/lab/crash): a broker's, a client's, the application's. */
const LINES = [
  '2026-12-01 19:00:13 INFO main - rocketmqHome=/tmp/rmq-lab-crash-xJkWk7/rocketmq-home',
  '2026-12-01 19:01:41,532 WARN RocketmqClient - sendKernelImpl exception, resend at once, InvokeID: -8366549002769521976, RT: 5ms, Broker: MessageQueue [topic=TopicShop, brokerName=broker-a, queueId=0]',
  '2026-12-01 19:01:41,531 WARN RocketmqRemoting - createChannel: connect remote host[10.213.0.21:10911] failed, AbstractBootstrap$PendingRegistrationPromise@2c6bb1f0(failure: io.netty.channel.AbstractChannel$AnnotatedConnectException: Connection refused: /10.213.0.21:10911)',
  '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:587)',
];

/** A pattern's tokens: a converter with its options and group, `%%`, `${...}`, or one literal character. */
function tokens(p: string): string[] {
  const out: string[] = [];
  const re = /%%|\$\{[^}]*\}|%-?\d*(?:\.-?\d+)?[A-Za-z]+(?:\((?:[^()]|\([^()]*\))*\))?(?:\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\})*|[\s\S]/gy;
  for (let m = re.exec(p); m !== null && m[0] !== ''; m = re.exec(p)) out.push(m[0]);
  return out;
}

const LITERAL_CHARS = ' []{}()%\\$-:.|,';

function mutate(rng: Rng, base: string): string {
  let t = tokens(base);
  const pick = () => rng.int(t.length);
  const ops = 1 + rng.int(4);
  for (let k = 0; k < ops && t.length; k++) {
    const i = pick();
    switch (rng.int(8)) {
      case 0: // repeat a token, sometimes past the limit of fields
        t.splice(i, 1, ...Array<string>(2 + rng.int(rng.int(4) === 0 ? 400 : 60)).fill(t[i]));
        break;
      case 1: {
        // nest a token, sometimes past the limit
        const n = 1 + rng.int(MAX_PATTERN_NESTING + 8);
        t[i] = `${'%highlight('.repeat(n)}${t[i]}${')'.repeat(n)}`;
        break;
      }
      case 2: // drop a token
        t.splice(i, 1);
        break;
      case 3: {
        // a long literal of pattern-significant characters
        let s = '';
        for (let n = rng.int(4000); n > 0; n--) s += LITERAL_CHARS[rng.int(LITERAL_CHARS.length)];
        t.splice(i, 0, s);
        break;
      }
      case 4: // free-text fields side by side
        t.splice(i, 0, ...Array<string>(2 + rng.int(30)).fill(['%X{a}', '%5t', '%t', '%c', '%m', '%-40.40logger{39}'][rng.int(6)]));
        break;
      case 5: {
        // swap two tokens
        const j = pick();
        [t[i], t[j]] = [t[j], t[i]];
        break;
      }
      case 6: // the whole pattern again
        t = [...t, ...t];
        break;
      default: // a token cut in half
        t[i] = t[i].slice(0, rng.int(t[i].length + 1));
    }
  }
  return t.join('');
}

/** Compiles each pattern and tries it on each line (run in a worker: `data` = { dist, patterns, lines }). */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.dist).then(({ compilePattern, PatternError }) => {
  for (let i = 0; i < workerData.patterns.length; i++) {
    parentPort.postMessage({ at: i });
    let r;
    try {
      const l = compilePattern(workerData.patterns[i]);
      r = { matched: workerData.lines.map((x) => l.header.exec(x) !== null) };
    } catch (e) {
      r = { error: e instanceof PatternError ? 'PatternError' : String(e && e.stack), message: String(e && e.message) };
    }
    parentPort.postMessage({ done: i, ...r });
  }
  parentPort.postMessage({ end: true });
});
`;

type Result = { matched?: boolean[]; error?: string; message?: string };

function inWorker(patterns: string[], lines: string[], guardMs: number): Promise<Result[]> {
  return new Promise((resolve, reject) => {
    const w = new Worker(WORKER, { eval: true, workerData: { dist: join(ROOT, 'dist', 'parse', 'pattern.js'), patterns, lines } });
    const results: Result[] = [];
    let at = -1;
    const guard = setTimeout(() => {
      void w.terminate();
      reject(new Error(`still on case ${at} after ${guardMs / 1000} s: ${JSON.stringify(patterns[at]?.slice(0, 300))}`));
    }, guardMs);
    w.on('message', (m: { at?: number; done?: number; end?: boolean } & Result) => {
      if (m.at !== undefined) at = m.at;
      else if (m.done !== undefined) results[m.done] = m;
      else if (m.end) {
        clearTimeout(guard);
        void w.terminate();
        resolve(results);
      }
    });
    w.on('error', (e) => {
      clearTimeout(guard);
      reject(e);
    });
  });
}

describe('--pattern fuzz', () => {
  it('compiles mutated real patterns into a layout or one PatternError line, and every match ends', async () => {
    const rng = new Rng(20261205);
    const patterns = Array.from({ length: 400 }, (_, k) => mutate(rng, REAL[k % REAL.length]));
    // The ten-field cases that backtracked for minutes are among them on purpose.
    patterns.push(`%d{yyyy-MM-dd HH:mm:ss,SSS} ${'%5t'.repeat(25)} - %m%n`, `%d{yyyy-MM-dd HH:mm:ss,SSS} ${'%X{a}'.repeat(10)} - %m%n`);
    const long = LINES.map((l) => l + ' ['.repeat(20000));
    const results = await inWorker(patterns, [...LINES, ...long], 120_000);
    expect(results).toHaveLength(patterns.length);
    let compiled = 0;
    let refused = 0;
    results.forEach((r, i) => {
      if (r.error !== undefined) {
        expect(r.error, `case ${i}: ${patterns[i].slice(0, 200)}`).toBe('PatternError');
        expect(r.message, `case ${i}`).not.toMatch(/\n/);
        expect(r.message!.length, `case ${i}`).toBeLessThan(600);
        refused++;
      } else compiled++;
    });
    // The mutations keep most patterns readable and make some unreadable: both paths are exercised.
    expect(compiled).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(20);
    // The two once-catastrophic cases compile and read the lines they fit.
    expect(results[patterns.length - 2].matched).toBeDefined();
    expect(results[patterns.length - 1].matched!.slice(0, 3)).toEqual([false, true, true]);
  }, 150_000);
});

describe('--pattern: free-text fields split where what follows them begins', () => {
  it('reads ten MDC fields side by side, and a message followed by a thread', () => {
    const x10 = compilePattern(`%d{yyyy-MM-dd HH:mm:ss,SSS} ${'%X{a}'.repeat(10)} %-5p %c - %m%n`);
    const m = x10.header.exec('2026-12-01 19:01:41,532 tid-7 WARN RocketmqClient - sendKernelImpl exception')!;
    expect(m.groups).toMatchObject({ mdc: '', level: 'WARN', logger: 'RocketmqClient' });
    expect(m.input.slice(m[0].length)).toBe('sendKernelImpl exception');
    const tail = compilePattern('%d{yyyy-MM-dd HH:mm:ss,SSS} %-5p %m [%t]%n');
    expect(tail.header.exec('2026-12-01 19:01:41,532 WARN  Broker: MessageQueue [topic=T, queueId=0] [main]')!.groups).toMatchObject({
      msg: 'Broker: MessageQueue [topic=T, queueId=0]',
      thread: 'main',
    });
  });

  it('a message followed by a thread, on a line of a megabyte', () => {
    const l = compilePattern('%d{yyyy-MM-dd HH:mm:ss,SSS} %-5p %m [%t]%n');
    const msg = `${'a [b] '.repeat(200_000)}end`;
    const m = l.header.exec(`2026-12-01 19:01:41,532 WARN  ${msg} [main]`)!;
    expect(m.groups).toMatchObject({ level: 'WARN', thread: 'main' });
    expect(m.groups!.msg).toBe(msg);
    expect(l.header.test(`2026-12-01 19:01:41,532 WARN  ${msg} [main] and more`)).toBe(false);
  });

  it('reads a backslash at the end of a pattern or of a wrapped group as itself (it once looped forever)', () => {
    expect(compilePattern('%d{yyyy-MM-dd HH:mm:ss,SSS} %m \\').header.test('2026-12-01 19:01:41,532 hello \\')).toBe(true);
    expect(compilePattern('%d{yyyy-MM-dd HH:mm:ss,SSS} %highlight(%p\\) %m').header.test('2026-12-01 19:01:41,532 WARN\\ hello')).toBe(true);
  });

  it('refuses more fields than the limit, and a regex too large for the engine, in one line', () => {
    expect(() => compilePattern(`%d %m ${'[%t]'.repeat(MAX_PATTERN_FIELDS)}`)).toThrow(/: more than 256 fields$/);
    expect(() => compilePattern(`%d %m ${'x'.repeat(MAX_PATTERN_CHARS - 10)}`)).toThrow(/: cannot be compiled \(Regular expression too large\)$/);
  });

  it('a padded thread twenty-five times reads twenty-five words', () => {
    const l = compilePattern(`%d{yyyy-MM-dd HH:mm:ss,SSS} ${'%5t'.repeat(25)} - %m%n`);
    const words = Array.from({ length: 25 }, (_, i) => `w${i}`).join(' ');
    expect(l.header.exec(`2026-12-01 19:01:41,532 ${words} - hello`)!.groups!.thread).toBe('w0');
    expect(l.header.exec(`2026-12-01 19:01:41,532 ${words.replace(' w24', '')} - hello`)).toBeNull();
  });
});

describe('--pattern: files and sizes it refuses, in one line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rmq-pattern-fuzz-'));
  const cases: Array<[string, () => string, RegExp]> = [
    ['/dev/zero', () => '/dev/zero', /--pattern \/dev\/zero: not a regular file/],
    ['a folder', () => dir, /: not a regular file/],
    [
      'a FIFO',
      () => {
        const p = join(dir, 'fifo');
        execFileSync('mkfifo', [p]);
        return p;
      },
      /fifo: not a regular file/,
    ],
    [
      'a config past the limit',
      () => {
        const p = join(dir, 'big.xml');
        writeFileSync(p, `<Configuration><PatternLayout ${'<PatternLayout '.repeat(MAX_CONFIG_BYTES / 10)}`);
        return p;
      },
      /big\.xml: [\d,]+ bytes is past the limit of 1 MB/,
    ],
    ['a pattern past the limit', () => `%d %m ${'x'.repeat(MAX_PATTERN_CHARS)}`, /a pattern of 65,542 characters is past the limit of 65,536/],
    ['nesting past the limit', () => `${'%highlight('.repeat(5000)}%m${')'.repeat(5000)}`, /nested more than 32 deep/],
    ['a missing file', () => join(dir, 'missing.xml'), /missing\.xml: cannot read it \(ENOENT\)/],
  ];
  for (const [what, arg, message] of cases) {
    it(`refuses ${what} with exit 2 and one line`, async () => {
      const r = await run(['events', join(ROOT, 'samples/lab/crash'), '--pattern', arg()]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    });
  }

  it('reads damaged configs within the limit in one pass (no pattern found, or the one there)', () => {
    const unclosed = join(dir, 'unclosed.xml');
    writeFileSync(unclosed, `<Configuration><PatternLayout pattern="%d %-5p %m%n"/>${'<PatternLayout '.repeat(50000)}<!--${'<pattern>'.repeat(10000)}`);
    expect(patternArg(unclosed).patterns).toEqual(['%d %-5p %m%n']);
    const attrs = join(dir, 'attrs.xml');
    writeFileSync(attrs, `<Configuration><PatternLayout charset='UTF-8' pattern='%d &gt; %m%n'/><pattern><![CDATA[%d [%t] %m%n]]></pattern></Configuration>`);
    expect(patternArg(attrs).patterns.sort()).toEqual(['%d > %m%n', '%d [%t] %m%n']);
    rmSync(join(dir, 'fifo'), { force: true });
  });
});
