import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SourceParser } from '../../src/parse/parser.js';
import { PatternError, compilePattern, patternArg, patternsOfConfig } from '../../src/parse/pattern.js';
import { parseZone } from '../../src/parse/time.js';
import type { RmqEvent } from '../../src/parse/types.js';

interface Values {
  date: string;
  level: string;
  thread: string;
  logger: string;
  msg: string;
  line?: string;
  method?: string;
  mdc?: string;
  pid?: string;
}

/**
 * Render a line the way logback/log4j2 would for the converters under test: padding `%-5level`
 * (left) and `%5p` (right), literal text, `%n` and `%ex` print nothing on the line.
 */
function render(pattern: string, v: Values): string {
  const val: Record<string, string | undefined> = {
    d: v.date, date: v.date, p: v.level, le: v.level, level: v.level, t: v.thread, thread: v.thread,
    c: v.logger, lo: v.logger, logger: v.logger, C: v.logger, class: v.logger, M: v.method, method: v.method,
    L: v.line, line: v.line, X: v.mdc, mdc: v.mdc, m: v.msg, msg: v.msg, message: v.msg, pid: v.pid,
  };
  let out = '';
  let i = 0;
  const skipOptions = () => {
    while (pattern[i] === '{') {
      let depth = 0;
      do {
        if (pattern[i] === '{') depth++;
        else if (pattern[i] === '}') depth--;
        i++;
      } while (depth > 0);
    }
  };
  while (i < pattern.length) {
    if (pattern[i] !== '%') {
      out += pattern[i++];
      continue;
    }
    const m = /^%(-?)(\d*)(?:\.-?\d+)?([A-Za-z]+)/.exec(pattern.slice(i))!;
    i += m[0].length;
    if (m[3] === 'clr' && pattern[i] === '(') {
      const close = pattern.indexOf(')', i);
      out += render(pattern.slice(i + 1, close), v);
      i = close + 1;
      skipOptions();
      continue;
    }
    skipOptions();
    const s = val[m[3]] ?? '';
    const w = Number(m[2] || 0);
    out += s.length >= w ? s : m[1] ? s.padEnd(w) : s.padStart(w);
  }
  return out;
}

function parseWith(pattern: string, lines: string[], tz = '+08:00') {
  const events: RmqEvent[] = [];
  const p = new SourceParser(
    { file: 'app.log', host: 'h', sourceIndex: 0, kindHint: null, kindForced: false, defaultZone: parseZone(tz), layouts: [compilePattern(pattern, 'pattern-1')] },
    (e) => events.push(e),
  );
  lines.forEach((l, i) => p.line(l, i + 1));
  const acc = p.end();
  return { events, acc };
}

const MSG = 'sendKernelImpl exception, resend at once, InvokeID: 77, RT: 3001ms, Broker: MessageQueue [topic=T, brokerName=broker-a, queueId=1]';
const CAUSE = 'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <10.0.0.1:10911> timeout, 3000(ms)';

describe('--pattern: logback and log4j2 conversion patterns', () => {
  const cases: Array<{ pattern: string; v: Values; ts: string | null; clock?: string }> = [
    {
      pattern: '%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n',
      v: { date: '2024-05-20 14:03:11.483', level: 'WARN', thread: 'main', logger: 'c.e.o.OrderService', msg: MSG },
      ts: '2024-05-20T06:03:11.483Z',
    },
    {
      pattern: '%date{ISO8601} %5p [%t] %C.%M(%L) %X{traceId} - %m%n%ex',
      v: { date: '2024-05-20 14:03:11,483', level: 'INFO', thread: 'pool-4-thread-1', logger: 'com.example.Sender', method: 'send', line: '42', mdc: 'tid-9', msg: MSG },
      ts: '2024-05-20T06:03:11.483Z',
    },
    {
      pattern: "[%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX}] [%X{traceId}] %-5p %logger - %m%n",
      v: { date: '2024-05-20T06:03:11.483Z', level: 'ERROR', thread: '', logger: 'Sender', mdc: 'a1b2', msg: MSG },
      ts: '2024-05-20T06:03:11.483Z',
    },
    {
      pattern: '%d{yyyy-MM-dd HH:mm:ss.SSS, GMT+8} %-5level %pid [%thread] %logger - %msg%n',
      v: { date: '2024-05-20 14:03:11.483', level: 'WARN', thread: 'main', logger: 'Sender', pid: '4242', msg: MSG },
      ts: '2024-05-20T06:03:11.483Z',
    },
    {
      pattern: '%-5level %d{yyyy-MM-dd HH:mm:ss,SSS} [%t] %c - %m%n',
      v: { date: '2024-05-20 14:03:11,483', level: 'WARN', thread: 'main', logger: 'Sender', msg: MSG },
      ts: '2024-05-20T06:03:11.483Z',
    },
    {
      pattern: '%d{HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n',
      v: { date: '14:03:11.483', level: 'WARN', thread: 'main', logger: 'Sender', msg: MSG },
      ts: null,
      clock: '14:03:11.483',
    },
    {
      pattern: '%clr(%d{${LOG_DATEFORMAT_PATTERN:-yyyy-MM-dd HH:mm:ss.SSS}}){faint} %clr(%5p) [%15.15t] %-40.40logger{39} : %m%n%wEx',
      v: { date: '2024-05-20 14:03:11.483', level: 'WARN', thread: 'main', logger: 'c.e.o.OrderService', msg: MSG },
      ts: '2024-05-20T06:03:11.483Z',
    },
  ];

  for (const c of cases) {
    it(`reads lines rendered from ${c.pattern}`, () => {
      const header = render(c.pattern, c.v);
      // Zones: the default zone is not the GMT+8 of the 4th pattern, so that one must use its own.
      const { events, acc } = parseWith(c.pattern, [header, CAUSE, '\tat x.Y.z(Y.java:1)'], c.pattern.includes('GMT+8') ? 'UTC' : '+08:00');
      expect(acc, header).toMatchObject({ layout: 'pattern-1', records: 1, continuation: 2, unknown: 0 });
      expect(events.map((e) => e.type)).toEqual(['send-attempt-failed', 'rpc-timeout']);
      const e = events[0];
      expect(e.ts === null ? null : new Date(e.ts).toISOString()).toBe(c.ts);
      if (c.clock) expect(e.clock).toBe(c.clock);
      expect(e.level).toBe(c.v.level);
      if (c.pattern.includes('%t')) expect(e.thread).toBe(c.v.thread);
      expect(e.fields).toMatchObject({ rtMs: 3001, brokerName: 'broker-a', cause: 'RemotingTimeoutException: wait response on the channel <10.0.0.1:10911> timeout, 3000(ms)' });
    });
  }

  it('does not take a line of another layout for its own', () => {
    const { acc } = parseWith('%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n', [
      '2024-05-20 14:03:11.483 [main] WARN  Sender - hello',
      '2024-05-20 14:03:07 INFO main - The broker[broker-a, 192.168.1.10:10911] boot success. serializeType=JSON',
    ]);
    expect(acc.layout).toBe('pattern-1+rocketmq-server');
  });

  it('names the converter it does not support', () => {
    expect(() => compilePattern('%d %-5p [%t] %c (%F:%L) - %m%n')).toThrow(/%F is not supported/);
    expect(() => compilePattern('%d{yyyy-MM-dd hh:mm:ss a} %m')).toThrow(/the date letter 'h' is not supported/);
    expect(() => compilePattern('%d [%t] %level')).toThrow(/no %m\/%msg/);
    expect(() => compilePattern('plain text')).toThrow(PatternError);
  });

  it('reads the patterns of a logback.xml and a log4j2.xml, and GLOB=', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rmq-pattern-'));
    try {
      const logback = join(dir, 'logback.xml');
      writeFileSync(
        logback,
        '<configuration>\n  <!-- <pattern>%bogus</pattern> -->\n  <appender name="F" class="ch.qos.logback.core.FileAppender">\n    <encoder>\n      <pattern>%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n</pattern>\n    </encoder>\n  </appender>\n</configuration>\n',
      );
      const log4j2 = join(dir, 'log4j2.xml');
      writeFileSync(log4j2, '<Configuration><Appenders><Console name="C"><PatternLayout pattern="%d{ISO8601} %-5p [%t] %c{1.} - %m%n"/></Console></Appenders></Configuration>\n');
      expect(patternsOfConfig(logback)).toEqual(['%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n']);
      expect(patternsOfConfig(log4j2)).toEqual(['%d{ISO8601} %-5p [%t] %c{1.} - %m%n']);
      expect(patternArg(`app/*.log=${log4j2}`)).toEqual({ glob: 'app/*.log', patterns: ['%d{ISO8601} %-5p [%t] %c{1.} - %m%n'] });
      expect(patternArg('%d %p %m')).toEqual({ glob: null, patterns: ['%d %p %m'] });
      expect(() => patternArg(join(dir, 'missing.xml'))).toThrow(/cannot read it/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
