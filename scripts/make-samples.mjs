#!/usr/bin/env node
// Generates the bundled sample incidents under samples/ as real-format RocketMQ log files.
//
//   node scripts/make-samples.mjs            (re)write every sample
//   node scripts/make-samples.mjs --check    write nothing, exit 1 if a file on disk differs
//   node scripts/make-samples.mjs --only=<name>   write one sample (expected.json too, not the README)
//
// Deterministic: no clock, no Math.random. Every sample has its own seeded PRNG, so the output is
// byte-identical on every run and on every machine. Plain Node ESM; headers are written by the built layouts (`npm run build` first).
//
// Log texts, thread names, logger names, stack frames and their line numbers follow the Apache
// RocketMQ sources of the versions each host runs (4.6.0, 4.8.0 and 4.9.4 clients and servers,
// the 5.1.4 client), Netty 4.0.42.Final / 4.1.65.Final and JDK 8u (1.8.0_192).
// The ground truth of every sample (samples/<name>/expected.json and the README section) is
// computed from the same data the log lines are written from.

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RENDER = path.join(ROOT, 'dist', 'parse', 'render.js');
if (!fs.existsSync(RENDER)) {
  process.stderr.write('make-samples: run `npm run build` first (headers are written by the built layouts)\n');
  process.exit(2);
}
const { HeaderRenderer } = await import(pathToFileURL(RENDER).href);
// Messages the catalogue knows are written by its entries (src/parse/message-render.ts): the same
// definitions that read them.
const { renderMessage: M, responseExceptionMessage } = await import(pathToFileURL(path.join(path.dirname(RENDER), 'message-render.js')).href);
const OUT = path.join(ROOT, 'samples');
const CHECK = process.argv.includes('--check');

// ---------------------------------------------------------------------------------------------
// Time. Every time in this script is epoch milliseconds; every log is written in GMT+8.
// ---------------------------------------------------------------------------------------------

const ZONE_MS = 8 * 3600 * 1000;

/** '2020-12-22 14:42:00.000' (wall clock in GMT+8) -> epoch ms */
function T(s) {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{3}))?$/.exec(s);
  if (!m) throw new Error(`bad time ${s}`);
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], m[7] ? +m[7] : 0) - ZONE_MS;
}
const p2 = (n) => String(n).padStart(2, '0');
const p3 = (n) => String(n).padStart(3, '0');
function parts(ms) {
  const d = new Date(ms + ZONE_MS);
  return {
    date: `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`,
    time: `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`,
    sec: d.getUTCSeconds(),
    ms: d.getUTCMilliseconds(),
  };
}
/** yyyy-MM-dd HH:mm:ss */
const fmtSec = (ms) => {
  const p = parts(ms);
  return `${p.date} ${p.time}`;
};
/** yyyy-MM-dd HH:mm:ss.SSS */
const fmtMs = (ms, sep = '.') => {
  const p = parts(ms);
  return `${p.date} ${p.time}${sep}${p3(p.ms)}`;
};
/** ISO-8601 with the +08:00 offset, to the second */
const iso = (ms) => {
  const p = parts(ms);
  return `${p.date}T${p.time}+08:00`;
};
/** ISO-8601 with the +08:00 offset and milliseconds */
const isoMs = (ms) => {
  const p = parts(ms);
  return `${p.date}T${p.time}.${p3(p.ms)}+08:00`;
};
const clock = (ms) => parts(ms).time;
const SEC = 1000;
const MIN = 60 * SEC;

// ---------------------------------------------------------------------------------------------
// Deterministic PRNG (mulberry32) with a few helpers.
// ---------------------------------------------------------------------------------------------

class Rng {
  constructor(seed) {
    this.s = seed >>> 0;
  }
  next() {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick(a) {
    return a[Math.floor(this.next() * a.length)];
  }
  chance(p) {
    return this.next() < p;
  }
  hex(n) {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[this.int(0, 15)];
    return s;
  }
  /** a Java long as printed by Long.toString (may be negative) */
  javaLong() {
    const hi = BigInt(this.int(0, 0xffffffff));
    const lo = BigInt(this.int(0, 0xffffffff));
    return BigInt.asIntN(64, (hi << 32n) | lo).toString();
  }
  /** exponential inter-arrival with the given mean */
  exp(mean) {
    return -Math.log(1 - this.next()) * mean;
  }
}

// ---------------------------------------------------------------------------------------------
// Java collection orders (HashMap/HashSet iteration, String.hashCode), for toString outputs.
// ---------------------------------------------------------------------------------------------

function javaHash(s) {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}
/** iteration order of a java.util.HashMap/HashSet built by inserting `keys` in order */
function javaHashOrder(keys, initialCapacity = 16) {
  let cap = initialCapacity;
  while (keys.length > cap * 0.75) cap *= 2;
  const idx = (k) => {
    const h = javaHash(k);
    return ((h ^ (h >>> 16)) & (cap - 1)) >>> 0;
  };
  return keys
    .map((k, i) => ({ k, i, b: idx(k) }))
    .sort((a, b) => a.b - b.b || a.i - b.i)
    .map((x) => x.k);
}
/**
 * iteration order of a java.util.concurrent.ConcurrentHashMap: `new ConcurrentHashMap()` starts with
 * 16 buckets (pass 0), `new ConcurrentHashMap(n)` with tableSizeFor(n + n/2 + 1); it doubles when
 * the size reaches 3/4 of the table.
 */
function javaChmOrder(keys, initialCapacity = 0) {
  let cap = 16;
  if (initialCapacity > 0) {
    cap = 1;
    const want = initialCapacity + (initialCapacity >>> 1) + 1;
    while (cap < want) cap *= 2;
  }
  while (keys.length >= cap * 0.75) cap *= 2;
  const idx = (k) => {
    const h = javaHash(k);
    return ((h ^ (h >>> 16)) & 0x7fffffff & (cap - 1)) >>> 0;
  };
  return keys
    .map((k, i) => ({ k, i, b: idx(k) }))
    .sort((a, b) => a.b - b.b || a.i - b.i)
    .map((x) => x.k);
}
/** Integer.toHexString(identityHashCode): no leading zeros */
const jhash = (rng) => rng.int(0x1000000, 0x7fffffff).toString(16);
/** Java's Double.toString for the plain values this script prints */
function javaDouble(x) {
  if (Number.isInteger(x)) return `${x}.0`;
  return String(x);
}

// ---------------------------------------------------------------------------------------------
// Log files. Each file collects records (time + fields); rendering sorts them by time (stable).
// ---------------------------------------------------------------------------------------------

const JDK = '1.8.0_192';

/** Trace lines: frames are 'at ...' and '... N more' lines (written after a tab), the rest as is. */
function stackLines(trace) {
  return trace.map((l) => (l.startsWith('at ') || l.startsWith('... ') ? `\t${l}` : l));
}

class LogFile {
  constructor(rel, layout, opts = {}) {
    this.rel = rel;
    this.layout = layout;
    this.opts = opts;
    this.recs = [];
    this.seq = 0;
  }
  add(t, rec) {
    if (!Number.isFinite(t)) throw new Error(`bad time in ${this.rel}: ${JSON.stringify(rec)}`);
    this.recs.push({ t: Math.round(t), seq: this.seq++, ...rec });
    return this;
  }
  sorted() {
    return this.recs.slice().sort((a, b) => a.t - b.t || a.seq - b.seq);
  }
  render() {
    const L = LAYOUTS[this.layout];
    return this.sorted()
      .map((r) => L(r, this.opts))
      .join('');
  }
}

// Headers are written by the layouts' own render templates (src/parse/layouts.ts, through the built
// src/parse/render.ts), the definitions the parser reads them with. Every host runs in GMT+8.
const renderers = new Map();
function headerOf(layoutId, r, o) {
  const key = `${layoutId}|${o.fakeMillis ? 1 : 0}`;
  let h = renderers.get(key);
  if (!h) renderers.set(key, (h = new HeaderRenderer(layoutId, () => ZONE_MS / 60000, o.fakeMillis ?? false)));
  return h.header({ epochMs: r.t, level: r.level ?? 'INFO', thread: r.thread ?? 'main', logger: r.logger ?? '', pid: o.pid });
}

const LAYOUTS = {
  // logback %d{yyy-MM-dd HH:mm:ss,GMT+8} %p %t - %m%n (+ %ex). Packaging data is added by the caller.
  server(r, o) {
    let s = `${headerOf('rocketmq-server', r, o)}${r.msg}\n`;
    if (r.stack) s += stackLines(r.stack).join('\n') + '\n';
    return s;
  },
  // watermark.log: %d{yyy-MM-dd HH:mm:ss,GMT+8} - %m%n
  watermark(r, o) {
    return `${headerOf('rocketmq-bare', r, o)}${r.msg}\n`;
  },
  // RocketMQ inner logger (client 4.3.0 - 5.0.0): date LEVEL logger - msg CRLF, stack CRLF, empty line.
  // 4.3.0-4.7.1 print the seconds again in place of the millis ("sss" pattern bug).
  client4(r, o) {
    let s = `${headerOf('rocketmq-client-inner', r, o)}${r.msg}\r\n`;
    if (r.stack) s += stackLines(r.stack).map((l) => `${l}\r\n`).join('') + '\r\n';
    return s;
  },
  // client 5.1.x rmq.client.logback.xml: %d{yyy-MM-dd HH:mm:ss.SSS,GMT+8} %-5p [%pid] [%t] [%logger{12}#%M:%L] - %m%n
  client5(r, o) {
    let s = `${headerOf('rocketmq-client-5x', r, o)}${r.msg}\n`;
    if (r.stack) s += stackLines(r.stack).join('\n') + '\n';
    return s;
  },
  // Spring Boot 2.x file pattern: %d{yyyy-MM-dd HH:mm:ss.SSS} %5p ${PID} --- [%t] %-40.40logger{39} : %m%n%wEx
  spring(r, o) {
    let s = `${headerOf('spring-boot', { ...r, logger: r.logger.slice(0, 40) }, o)}${r.msg}\n`;
    if (r.stack) s += '\n' + stackLines(r.stack).join('\n') + '\n\n';
    return s;
  },
  // plain logback: %d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n
  logback(r, o) {
    let s = `${headerOf('logback-app', r, o)}${r.msg}\n`;
    if (r.stack) s += stackLines(r.stack).join('\n') + '\n';
    return s;
  },
};

/**
 * logback 1.0.x packaging data, as the 4.x servers (logback 1.0.13) print it: frames shared with the
 * logging thread's own stack (counted from the bottom) are exact "[jar:version]", the others are
 * "~[jar:version]"; JDK classes are "na:<java.version>".
 */
function withPackaging(trace, jars, commonFromBottom) {
  const frameIdx = [];
  trace.forEach((l, i) => {
    if (l.startsWith('at ')) frameIdx.push(i);
  });
  // only the top-level frames (before any "Caused by") can be shared with the logging thread
  const firstCause = trace.findIndex((l) => l.startsWith('Caused by'));
  const topFrames = frameIdx.filter((i) => firstCause < 0 || i < firstCause);
  const exact = new Set(topFrames.slice(topFrames.length - commonFromBottom));
  return trace.map((l, i) => {
    if (!frameIdx.includes(i)) return l;
    const cls = l.slice(3, l.indexOf('('));
    let jar = `na:${JDK}`;
    for (const [prefix, j] of jars) {
      if (cls.startsWith(prefix)) {
        jar = j;
        break;
      }
    }
    return `${l} ${exact.has(i) ? '' : '~'}[${jar}]`;
  });
}

// ---------------------------------------------------------------------------------------------
// Sample container
// ---------------------------------------------------------------------------------------------

class Sample {
  constructor(name, seed) {
    this.name = name;
    this.rng = new Rng(seed);
    this.files = new Map();
    this.counts = {};
    this.extra = {};
  }
  file(rel, layout, opts) {
    if (!this.files.has(rel)) this.files.set(rel, new LogFile(rel, layout, opts));
    return this.files.get(rel);
  }
}

// ---------------------------------------------------------------------------------------------
// JDK / Netty frames (JDK 8u192, Netty 4.0.42.Final for 4.6-4.8, 4.1.65.Final for 4.9.x / 5.1.x)
// ---------------------------------------------------------------------------------------------

const JDK_SCHED = [
  'at java.util.concurrent.Executors$RunnableAdapter.call(Executors.java:511)',
  'at java.util.concurrent.FutureTask.runAndReset(FutureTask.java:308)',
  'at java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask.access$301(ScheduledThreadPoolExecutor.java:180)',
  'at java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask.run(ScheduledThreadPoolExecutor.java:294)',
  'at java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1149)',
  'at java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:624)',
  'at java.lang.Thread.run(Thread.java:748)',
];
const JDK_POOL = [
  'at java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1149)',
  'at java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:624)',
  'at java.lang.Thread.run(Thread.java:748)',
];

const NETTY = {
  '4.0.42': {
    jar: 'netty-all-4.0.42.Final.jar:4.0.42.Final',
    read: [
      'at io.netty.buffer.UnpooledUnsafeDirectByteBuf.setBytes(UnpooledUnsafeDirectByteBuf.java:362)',
      'at io.netty.buffer.AbstractByteBuf.writeBytes(AbstractByteBuf.java:899)',
      'at io.netty.channel.socket.nio.NioSocketChannel.doReadBytes(NioSocketChannel.java:275)',
      'at io.netty.channel.nio.AbstractNioByteChannel$NioByteUnsafe.read(AbstractNioByteChannel.java:119)',
      'at io.netty.channel.nio.NioEventLoop.processSelectedKey(NioEventLoop.java:652)',
      'at io.netty.channel.nio.NioEventLoop.processSelectedKeysOptimized(NioEventLoop.java:575)',
      'at io.netty.channel.nio.NioEventLoop.processSelectedKeys(NioEventLoop.java:489)',
      'at io.netty.channel.nio.NioEventLoop.run(NioEventLoop.java:451)',
      'at io.netty.util.concurrent.SingleThreadEventExecutor$2.run(SingleThreadEventExecutor.java:140)',
      'at java.lang.Thread.run(Thread.java:748)',
    ],
    connect: [
      'at io.netty.channel.socket.nio.NioSocketChannel.doFinishConnect(NioSocketChannel.java:257)',
      'at io.netty.channel.nio.AbstractNioChannel$AbstractNioUnsafe.finishConnect(AbstractNioChannel.java:291)',
      'at io.netty.channel.nio.NioEventLoop.processSelectedKey(NioEventLoop.java:640)',
      'at io.netty.channel.nio.NioEventLoop.processSelectedKeysOptimized(NioEventLoop.java:575)',
      'at io.netty.channel.nio.NioEventLoop.processSelectedKeys(NioEventLoop.java:489)',
      'at io.netty.channel.nio.NioEventLoop.run(NioEventLoop.java:451)',
      'at io.netty.util.concurrent.SingleThreadEventExecutor$2.run(SingleThreadEventExecutor.java:140)',
      'at java.lang.Thread.run(Thread.java:748)',
    ],
  },
  '4.1.65': {
    jar: 'netty-all-4.1.65.Final.jar:4.1.65.Final',
    connect: [
      'at io.netty.channel.socket.nio.NioSocketChannel.doFinishConnect(NioSocketChannel.java:330)',
      'at io.netty.channel.nio.AbstractNioChannel$AbstractNioUnsafe.finishConnect(AbstractNioChannel.java:334)',
      'at io.netty.channel.nio.NioEventLoop.processSelectedKey(NioEventLoop.java:707)',
      'at io.netty.channel.nio.NioEventLoop.processSelectedKeysOptimized(NioEventLoop.java:655)',
      'at io.netty.channel.nio.NioEventLoop.processSelectedKeys(NioEventLoop.java:581)',
      'at io.netty.channel.nio.NioEventLoop.run(NioEventLoop.java:493)',
      'at io.netty.util.concurrent.SingleThreadEventExecutor$4.run(SingleThreadEventExecutor.java:989)',
      'at io.netty.util.internal.ThreadExecutorMap$2.run(ThreadExecutorMap.java:74)',
      'at java.lang.Thread.run(Thread.java:748)',
    ],
  },
};

/** java.io.IOException: Connection reset by peer, read on a NIO channel */
function resetTrace(netty) {
  return [
    'java.io.IOException: Connection reset by peer',
    'at sun.nio.ch.FileDispatcherImpl.read0(Native Method)',
    'at sun.nio.ch.SocketDispatcher.read(SocketDispatcher.java:39)',
    'at sun.nio.ch.IOUtil.readIntoNativeBuffer(IOUtil.java:223)',
    'at sun.nio.ch.IOUtil.read(IOUtil.java:192)',
    'at sun.nio.ch.SocketChannelImpl.read(SocketChannelImpl.java:380)',
    ...NETTY[netty].read,
  ];
}
/** the cause printed by createChannel's "connect remote host[...] failed" WARN (4.x) */
function refusedTrace(netty, addr) {
  const head = `io.netty.channel.AbstractChannel$AnnotatedConnectException: Connection refused: /${addr}`;
  const frames = [
    'at sun.nio.ch.SocketChannelImpl.checkConnect(Native Method)',
    'at sun.nio.ch.SocketChannelImpl.finishConnect(SocketChannelImpl.java:717)',
    ...NETTY[netty].connect,
  ];
  // 4.0.x copies the stack into the annotated exception; 4.1.x keeps it in the cause
  if (netty === '4.0.42') return [head, ...frames];
  return [head, 'Caused by: java.net.ConnectException: Connection refused', ...frames];
}
const refusedText = (addr) =>
  `io.netty.channel.AbstractChannel$AnnotatedConnectException: Connection refused: /${addr}`;

// ---------------------------------------------------------------------------------------------
// RocketMQ client frames, line numbers read from each release tag.
// ---------------------------------------------------------------------------------------------

const CLIENT_LINES = {
  '4.6.0': {
    invokeSyncImpl_timeout: 426, invokeSyncImpl_sendreq: 429, invokeSync_call: 373, invokeSync_connect: 390,
    sendMessageSync_invoke: 503, sendMessageSync_process: 505, processSendResponse_throw: 709,
    sendMessage_long: 487, sendMessage_short: 431, getRoute3_invoke: 1369, getRoute2: 1359, hb_invoke: 1023,
    update3_call: 624, update3_ise: 681, update1: 511, update0: 360, route_run: 277, hb_call: 559,
    hb_withlock: 472, hb_run: 290, sendKernelImpl_sync: 833, sendDefaultImpl_kernel: 583,
    sendDefaultImpl_toomuch: 666, sendDefaultImpl_mqce: 664, send_timeout: 1342, send: 1288, dp_send: 324,
  },
  '4.8.0': {
    invokeSyncImpl_timeout: 436, invokeSyncImpl_sendreq: 439, invokeSync_call: 377, invokeSync_connect: 394,
    sendMessageSync_invoke: 503, sendMessageSync_process: 505, processSendResponse_throw: 666,
    sendMessage_long: 487, sendMessage_short: 431, getRoute3_invoke: 1365, getRoute2: 1355, hb_invoke: 1019,
    update3_call: 622, update3_ise: 679, update1: 509, update0: 358, route_run: 275, hb_call: 557,
    hb_withlock: 470, hb_run: 288, sendKernelImpl_sync: 834, sendDefaultImpl_kernel: 584,
    sendDefaultImpl_toomuch: 667, sendDefaultImpl_mqce: 665, send_timeout: 1343, send: 1289, dp_send: 325,
  },
  '4.9.4': {
    invokeSyncImpl_timeout: 438, invokeSyncImpl_sendreq: 441, invokeSync_call: 390, invokeSync_connect: 407,
    sendMessageSync_invoke: 521, sendMessageSync_process: 523, processSendResponse_throw: 675,
    sendMessage_long: 505, sendMessage_short: 449, getRoute3_invoke: 1394, getRoute2: 1384, hb_invoke: 1028,
    update3_call: 623, update3_ise: 680, update1: 510, update0: 359, route_run: 276, hb_call: 558,
    hb_withlock: 471, hb_run: 289, sendKernelImpl_sync: 817, sendDefaultImpl_kernel: 575,
    sendDefaultImpl_toomuch: 649, sendDefaultImpl_mqce: 647, send_timeout: 1363, send: 1307, dp_send: 333,
  },
  '5.1.4': {
    invokeSync_connect: 556, sendMessageSync_invoke: 624, sendMessage_long: 608, sendMessage_short: 552,
    sendKernelImpl_sync: 995, sendDefaultImpl_kernel: 739, send_timeout: 1526, send: 1468,
    dp_sendDirect_call: 681, dp_send: 393,
  },
};

const PKG = {
  NRA: 'org.apache.rocketmq.remoting.netty.NettyRemotingAbstract',
  NRC: 'org.apache.rocketmq.remoting.netty.NettyRemotingClient',
  API: 'org.apache.rocketmq.client.impl.MQClientAPIImpl',
  MCI: 'org.apache.rocketmq.client.impl.factory.MQClientInstance',
  DPI: 'org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl',
  DP: 'org.apache.rocketmq.client.producer.DefaultMQProducer',
};
const fr = (cls, m, line) => `at ${cls}.${m}(${cls.slice(cls.lastIndexOf('.') + 1).replace(/\$.*/, '')}.java:${line})`;

/** frames of a synchronous send, from the invokeSync frame down to DefaultMQProducer.send */
function sendFrames(v, top /* 'timeout' | 'connect' | 'sendreq' | 'busy' */) {
  const L = CLIENT_LINES[v];
  const f = [];
  if (top === 'timeout' || top === 'sendreq') {
    f.push(fr(PKG.NRA, 'invokeSyncImpl', top === 'timeout' ? L.invokeSyncImpl_timeout : L.invokeSyncImpl_sendreq));
    f.push(fr(PKG.NRC, 'invokeSync', L.invokeSync_call));
  } else if (top === 'connect') {
    f.push(fr(PKG.NRC, 'invokeSync', L.invokeSync_connect));
  }
  if (top === 'busy') {
    f.push(fr(PKG.API, 'processSendResponse', L.processSendResponse_throw));
    f.push(fr(PKG.API, 'sendMessageSync', L.sendMessageSync_process));
  } else {
    f.push(fr(PKG.API, 'sendMessageSync', L.sendMessageSync_invoke));
  }
  f.push(fr(PKG.API, 'sendMessage', L.sendMessage_long));
  f.push(fr(PKG.API, 'sendMessage', L.sendMessage_short));
  f.push(fr(PKG.DPI, 'sendKernelImpl', L.sendKernelImpl_sync));
  f.push(fr(PKG.DPI, 'sendDefaultImpl', L.sendDefaultImpl_kernel));
  f.push(fr(PKG.DPI, 'send', L.send_timeout));
  f.push(fr(PKG.DPI, 'send', L.send));
  if (v === '5.1.4') {
    f.push(fr(PKG.DP, 'sendDirect', L.dp_sendDirect_call));
    f.push(fr(PKG.DP, 'send', L.dp_send));
  } else {
    f.push(fr(PKG.DP, 'send', L.dp_send));
  }
  return f;
}
/** frames of the periodic route update (MQClientFactoryScheduledThread), from the invokeSync frame down */
function routeFrames(v) {
  const L = CLIENT_LINES[v];
  return [
    fr(PKG.NRA, 'invokeSyncImpl', L.invokeSyncImpl_timeout),
    fr(PKG.NRC, 'invokeSync', L.invokeSync_call),
    fr(PKG.API, 'getTopicRouteInfoFromNameServer', L.getRoute3_invoke),
    fr(PKG.API, 'getTopicRouteInfoFromNameServer', L.getRoute2),
    fr(PKG.MCI, 'updateTopicRouteInfoFromNameServer', L.update3_call),
    fr(PKG.MCI, 'updateTopicRouteInfoFromNameServer', L.update1),
    fr(PKG.MCI, 'updateTopicRouteInfoFromNameServer', L.update0),
    `at ${PKG.MCI}$3.run(MQClientInstance.java:${L.route_run})`,
    ...JDK_SCHED,
  ];
}
/** the IllegalStateException the route task rethrows, with its cause, as printStackTrace prints it */
function routeIseTrace(v, causeHead) {
  const L = CLIENT_LINES[v];
  const outer = [
    fr(PKG.MCI, 'updateTopicRouteInfoFromNameServer', L.update3_ise),
    fr(PKG.MCI, 'updateTopicRouteInfoFromNameServer', L.update1),
    fr(PKG.MCI, 'updateTopicRouteInfoFromNameServer', L.update0),
    `at ${PKG.MCI}$3.run(MQClientInstance.java:${L.route_run})`,
    ...JDK_SCHED,
  ];
  const cause = routeFrames(v);
  // frames in common, counted from the bottom, as Throwable.printEnclosedStackTrace does
  let m = cause.length - 1;
  let n = outer.length - 1;
  while (m >= 0 && n >= 0 && cause[m] === outer[n]) {
    m--;
    n--;
  }
  const common = cause.length - 1 - m;
  return [
    `java.lang.IllegalStateException: ${causeHead}`,
    ...outer,
    `Caused by: ${causeHead}`,
    ...cause.slice(0, m + 1),
    `... ${common} more`,
  ];
}
/** frames of a heartbeat (MQClientFactoryScheduledThread) */
function heartbeatFrames(v, top) {
  const L = CLIENT_LINES[v];
  const hb = v === '4.9.4' ? 'sendHeartbeat' : 'sendHearbeat';
  const f = [];
  if (top === 'timeout') {
    f.push(fr(PKG.NRA, 'invokeSyncImpl', L.invokeSyncImpl_timeout));
    f.push(fr(PKG.NRC, 'invokeSync', L.invokeSync_call));
  } else {
    f.push(fr(PKG.NRC, 'invokeSync', L.invokeSync_connect));
  }
  f.push(fr(PKG.API, hb, L.hb_invoke));
  f.push(fr(PKG.MCI, 'sendHeartbeatToAllBroker', L.hb_call));
  f.push(fr(PKG.MCI, 'sendHeartbeatToAllBrokerWithLock', L.hb_withlock));
  f.push(`at ${PKG.MCI}$4.run(MQClientInstance.java:${L.hb_run})`);
  f.push(...JDK_SCHED);
  return f;
}

const FAQ4 = 'http://rocketmq.apache.org/docs/faq/';
const timeoutHead = (addr, ms) => `org.apache.rocketmq.remoting.exception.RemotingTimeoutException: ${M('rpc-timeout/wait-response', { addr, timeoutMs: ms })}`;
const connectHead = (addr) => `org.apache.rocketmq.remoting.exception.RemotingConnectException: ${M('connect-failed/plain', { addr })}`;
const sendReqHead = (addr) => `org.apache.rocketmq.remoting.exception.RemotingSendRequestException: send request to <${addr}> failed`;
const busyRemark = (wait, size) => M('busy-reply/timeout-clean-queue', { waitMs: wait, queueSize: size });

// ---------------------------------------------------------------------------------------------
// RocketMQ toString forms
// ---------------------------------------------------------------------------------------------

/** QueueData.toString: "topicSynFlag" up to 4.8.0 (renamed topicSysFlag in 4.9.x) */
function queueData(v, brokerName, r, w, perm, flag = 0) {
  const f = v < '4.9' ? 'topicSynFlag' : 'topicSysFlag';
  return `QueueData [brokerName=${brokerName}, readQueueNums=${r}, writeQueueNums=${w}, perm=${perm}, ${f}=${flag}]`;
}
/** TopicRouteData as a client of version v prints it; brokers: [{name, addr}] in NameServer order */
function routeData(v, queues, brokers) {
  const qd = `[${queues.map((q) => queueData(v, q.name, q.r, q.w, q.perm)).join(', ')}]`;
  const bd = `[${brokers
    .map((b) =>
      v.startsWith('5.')
        ? `BrokerData [brokerName=${b.name}, brokerAddrs={0=${b.addr}}, enableActingMaster=false]`
        : `BrokerData [brokerName=${b.name}, brokerAddrs={0=${b.addr}}]`,
    )
    .join(', ')}]`;
  if (v.startsWith('5.'))
    return `TopicRouteData [orderTopicConf=null, queueDatas=${qd}, brokerDatas=${bd}, filterServerTable={}, topicQueueMappingInfoTable=null]`;
  return `TopicRouteData [orderTopicConf=null, queueDatas=${qd}, brokerDatas=${bd}, filterServerTable={}]`;
}
/** the brokerDatas order a NameServer returns: a HashSet<String> of broker names */
const brokerNameSetOrder = (names) => javaHashOrder(names);

/** MessageQueue.toString */
const mqText = (topic, broker, q) => `MessageQueue [topic=${topic}, brokerName=${broker}, queueId=${q}]`;

/** Message.toString as printed after a failed attempt (properties HashMap, body as byte array) */
function messageText(topic, props, body) {
  const keys = javaHashOrder(Object.keys(props));
  const p = `{${keys.map((k) => `${k}=${props[k]}`).join(', ')}}`;
  const bytes = `[${Array.from(Buffer.from(body, 'utf8')).map((b) => (b > 127 ? b - 256 : b)).join(', ')}]`;
  return `Message{topic='${topic}', flag=0, properties=${p}, body=${bytes}, transactionId='null'}`;
}
/** MessageClientIDSetter.createUniqID: ip(4) pid(2) classloader hash(4) time since month start(4) counter(2) */
function uniqId(ip, pid, t, counter) {
  const iphex = ip
    .split('.')
    .map((x) => p2(Number(x).toString(16)).toUpperCase())
    .join('');
  const d = new Date(t + ZONE_MS);
  const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - ZONE_MS;
  const diff = (t - monthStart) >>> 0;
  return (
    iphex +
    (pid & 0xffff).toString(16).toUpperCase().padStart(4, '0') +
    '18B4AAC2' +
    diff.toString(16).toUpperCase().padStart(8, '0') +
    (counter & 0xffff).toString(16).toUpperCase().padStart(4, '0')
  );
}

// ---------------------------------------------------------------------------------------------
// Startup property dumps (MixAll.printObjectProperties): field order and defaults read from the
// 4.8.0 and 4.9.4 tags; @x@ are filled per host (8 CPU cores assumed).
// ---------------------------------------------------------------------------------------------

const PROPS_BROKER480 = `rocketmqHome=@home@
namesrvAddr=@namesrv@
brokerIP1=@ip@
brokerIP2=@ip@
brokerName=@brokerName@
brokerClusterName=DefaultCluster
brokerId=0
brokerPermission=6
defaultTopicQueueNums=8
autoCreateTopicEnable=true
clusterTopicEnable=true
brokerTopicEnable=true
autoCreateSubscriptionGroup=true
messageStorePlugIn=
msgTraceTopicName=RMQ_SYS_TRACE_TOPIC
traceTopicEnable=false
sendMessageThreadPoolNums=1
pullMessageThreadPoolNums=32
processReplyMessageThreadPoolNums=32
queryMessageThreadPoolNums=16
adminBrokerThreadPoolNums=16
clientManageThreadPoolNums=32
consumerManageThreadPoolNums=32
heartbeatThreadPoolNums=8
endTransactionThreadPoolNums=24
flushConsumerOffsetInterval=5000
flushConsumerOffsetHistoryInterval=60000
rejectTransactionMessage=false
fetchNamesrvAddrByAddressServer=false
sendThreadPoolQueueCapacity=10000
pullThreadPoolQueueCapacity=100000
replyThreadPoolQueueCapacity=10000
queryThreadPoolQueueCapacity=20000
clientManagerThreadPoolQueueCapacity=1000000
consumerManagerThreadPoolQueueCapacity=1000000
heartbeatThreadPoolQueueCapacity=50000
endTransactionPoolQueueCapacity=100000
filterServerNums=0
longPollingEnable=true
shortPollingTimeMills=1000
notifyConsumerIdsChangedEnable=true
highSpeedMode=false
commercialEnable=true
commercialTimerCount=1
commercialTransCount=1
commercialBigCount=1
commercialBaseCount=1
transferMsgByHeap=true
maxDelayTime=40
regionId=DefaultRegion
registerBrokerTimeoutMills=6000
slaveReadEnable=false
disableConsumeIfConsumerReadSlowly=false
consumerFallbehindThreshold=17179869184
brokerFastFailureEnable=true
waitTimeMillsInSendQueue=200
waitTimeMillsInPullQueue=5000
waitTimeMillsInHeartbeatQueue=31000
waitTimeMillsInTransactionQueue=3000
startAcceptSendRequestTimeStamp=0
traceOn=true
enableCalcFilterBitMap=false
expectConsumerNumUseFilter=32
maxErrorRateOfBloomFilter=20
filterDataCleanTimeSpan=86400000
filterSupportRetry=false
enablePropertyFilter=false
compressedRegister=false
forceRegister=true
registerNameServerPeriod=30000
transactionTimeOut=6000
transactionCheckMax=15
transactionCheckInterval=60000
aclEnable=false
storeReplyMessageEnable=true
autoDeleteUnusedStats=false
listenPort=10911
serverWorkerThreads=8
serverCallbackExecutorThreads=0
serverSelectorThreads=3
serverOnewaySemaphoreValue=256
serverAsyncSemaphoreValue=64
serverChannelMaxIdleTimeSeconds=120
serverSocketSndBufSize=65535
serverSocketRcvBufSize=65535
serverPooledByteBufAllocatorEnable=true
useEpollNativeSelector=false
clientWorkerThreads=4
clientCallbackExecutorThreads=8
clientOnewaySemaphoreValue=65535
clientAsyncSemaphoreValue=65535
connectTimeoutMillis=3000
channelNotActiveInterval=60000
clientChannelMaxIdleTimeSeconds=120
clientSocketSndBufSize=65535
clientSocketRcvBufSize=65535
clientPooledByteBufAllocatorEnable=false
clientCloseSocketIfTimeout=false
useTLS=false
storePathRootDir=/home/rocketmq/store
storePathCommitLog=/home/rocketmq/store/commitlog
mappedFileSizeCommitLog=1073741824
mappedFileSizeConsumeQueue=6000000
enableConsumeQueueExt=false
mappedFileSizeConsumeQueueExt=50331648
bitMapLengthConsumeQueueExt=64
flushIntervalCommitLog=500
commitIntervalCommitLog=200
useReentrantLockWhenPutMessage=false
flushCommitLogTimed=false
flushIntervalConsumeQueue=1000
cleanResourceInterval=10000
deleteCommitLogFilesInterval=100
deleteConsumeQueueFilesInterval=100
destroyMapedFileIntervalForcibly=120000
redeleteHangedFileInterval=120000
deleteWhen=04
diskMaxUsedSpaceRatio=75
fileReservedTime=48
putMsgIndexHightWater=600000
maxMessageSize=4194304
checkCRCOnRecover=true
flushCommitLogLeastPages=4
commitCommitLogLeastPages=4
flushLeastPagesWhenWarmMapedFile=4096
flushConsumeQueueLeastPages=2
flushCommitLogThoroughInterval=10000
commitCommitLogThoroughInterval=200
flushConsumeQueueThoroughInterval=60000
maxTransferBytesOnMessageInMemory=262144
maxTransferCountOnMessageInMemory=32
maxTransferBytesOnMessageInDisk=65536
maxTransferCountOnMessageInDisk=8
accessMessageInMemoryMaxRatio=40
messageIndexEnable=true
maxHashSlotNum=5000000
maxIndexNum=20000000
maxMsgsNumBatch=64
messageIndexSafe=false
haListenPort=10912
haSendHeartbeatInterval=5000
haHousekeepingInterval=20000
haTransferBatchSize=32768
haMasterAddress=
haSlaveFallbehindMax=268435456
brokerRole=ASYNC_MASTER
flushDiskType=ASYNC_FLUSH
syncFlushTimeout=5000
messageDelayLevel=1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h
flushDelayOffsetInterval=10000
cleanFileForciblyEnable=true
warmMapedFileEnable=false
offsetCheckInSlave=false
debugLockEnable=false
duplicationEnable=false
diskFallRecorded=true
osPageCacheBusyTimeOutMills=1000
defaultQueryMaxNum=32
transientStorePoolEnable=false
transientStorePoolSize=5
fastFailIfNoBufferInStorePool=false
enableDLegerCommitLog=false
dLegerGroup=
dLegerPeers=
dLegerSelfId=
preferredLeaderId=
isEnableBatchPush=false`;
const PROPS_NAMESRV480 = `rocketmqHome=@home@
kvConfigPath=/home/rocketmq/namesrv/kvConfig.json
configStorePath=/home/rocketmq/namesrv/namesrv.properties
productEnvName=center
clusterTest=false
orderMessageEnable=false
listenPort=9876
serverWorkerThreads=8
serverCallbackExecutorThreads=0
serverSelectorThreads=3
serverOnewaySemaphoreValue=256
serverAsyncSemaphoreValue=64
serverChannelMaxIdleTimeSeconds=120
serverSocketSndBufSize=65535
serverSocketRcvBufSize=65535
serverPooledByteBufAllocatorEnable=true
useEpollNativeSelector=false`;
const PROPS_BROKER494 = `rocketmqHome=@home@
namesrvAddr=@namesrv@
brokerIP1=@ip@
brokerIP2=@ip@
brokerName=@brokerName@
brokerClusterName=DefaultCluster
brokerId=0
brokerPermission=6
defaultTopicQueueNums=8
autoCreateTopicEnable=true
clusterTopicEnable=true
brokerTopicEnable=true
autoCreateSubscriptionGroup=true
messageStorePlugIn=
msgTraceTopicName=RMQ_SYS_TRACE_TOPIC
traceTopicEnable=false
sendMessageThreadPoolNums=4
putMessageFutureThreadPoolNums=4
pullMessageThreadPoolNums=32
processReplyMessageThreadPoolNums=32
queryMessageThreadPoolNums=16
adminBrokerThreadPoolNums=16
clientManageThreadPoolNums=32
consumerManageThreadPoolNums=32
heartbeatThreadPoolNums=8
endTransactionThreadPoolNums=24
flushConsumerOffsetInterval=5000
flushConsumerOffsetHistoryInterval=60000
rejectTransactionMessage=false
fetchNamesrvAddrByAddressServer=false
sendThreadPoolQueueCapacity=10000
putThreadPoolQueueCapacity=10000
pullThreadPoolQueueCapacity=100000
replyThreadPoolQueueCapacity=10000
queryThreadPoolQueueCapacity=20000
clientManagerThreadPoolQueueCapacity=1000000
consumerManagerThreadPoolQueueCapacity=1000000
heartbeatThreadPoolQueueCapacity=50000
endTransactionPoolQueueCapacity=100000
filterServerNums=0
longPollingEnable=true
shortPollingTimeMills=1000
notifyConsumerIdsChangedEnable=true
highSpeedMode=false
commercialEnable=true
commercialTimerCount=1
commercialTransCount=1
commercialBigCount=1
commercialBaseCount=1
transferMsgByHeap=true
maxDelayTime=40
regionId=DefaultRegion
registerBrokerTimeoutMills=6000
slaveReadEnable=false
disableConsumeIfConsumerReadSlowly=false
consumerFallbehindThreshold=17179869184
brokerFastFailureEnable=true
waitTimeMillsInSendQueue=200
waitTimeMillsInPullQueue=5000
waitTimeMillsInHeartbeatQueue=31000
waitTimeMillsInTransactionQueue=3000
startAcceptSendRequestTimeStamp=0
traceOn=true
enableCalcFilterBitMap=false
expectConsumerNumUseFilter=32
maxErrorRateOfBloomFilter=20
filterDataCleanTimeSpan=86400000
filterSupportRetry=false
enablePropertyFilter=false
compressedRegister=false
forceRegister=true
registerNameServerPeriod=30000
transactionTimeOut=6000
transactionCheckMax=15
transactionCheckInterval=60000
aclEnable=false
storeReplyMessageEnable=true
enableDetailStat=true
autoDeleteUnusedStats=false
isolateLogEnable=false
listenPort=10911
serverWorkerThreads=8
serverCallbackExecutorThreads=0
serverSelectorThreads=3
serverOnewaySemaphoreValue=256
serverAsyncSemaphoreValue=64
serverChannelMaxIdleTimeSeconds=120
serverSocketSndBufSize=0
serverSocketRcvBufSize=0
writeBufferHighWaterMark=0
writeBufferLowWaterMark=0
serverSocketBacklog=1024
serverPooledByteBufAllocatorEnable=true
useEpollNativeSelector=false
clientWorkerThreads=4
clientCallbackExecutorThreads=8
clientOnewaySemaphoreValue=65535
clientAsyncSemaphoreValue=65535
connectTimeoutMillis=3000
channelNotActiveInterval=60000
clientChannelMaxIdleTimeSeconds=120
clientSocketSndBufSize=0
clientSocketRcvBufSize=0
clientPooledByteBufAllocatorEnable=false
clientCloseSocketIfTimeout=true
useTLS=false
writeBufferHighWaterMark=0
writeBufferLowWaterMark=0
storePathRootDir=/home/rocketmq/store
storePathCommitLog=
storePathDLedgerCommitLog=
readOnlyCommitLogStorePaths=
mappedFileSizeCommitLog=1073741824
mappedFileSizeConsumeQueue=6000000
enableConsumeQueueExt=false
mappedFileSizeConsumeQueueExt=50331648
bitMapLengthConsumeQueueExt=64
flushIntervalCommitLog=500
commitIntervalCommitLog=200
useReentrantLockWhenPutMessage=true
flushCommitLogTimed=true
flushIntervalConsumeQueue=1000
cleanResourceInterval=10000
deleteCommitLogFilesInterval=100
deleteConsumeQueueFilesInterval=100
destroyMapedFileIntervalForcibly=120000
redeleteHangedFileInterval=120000
deleteWhen=04
diskMaxUsedSpaceRatio=75
fileReservedTime=48
putMsgIndexHightWater=600000
maxMessageSize=4194304
checkCRCOnRecover=true
flushCommitLogLeastPages=4
commitCommitLogLeastPages=4
flushLeastPagesWhenWarmMapedFile=4096
flushConsumeQueueLeastPages=2
flushCommitLogThoroughInterval=10000
commitCommitLogThoroughInterval=200
flushConsumeQueueThoroughInterval=60000
maxTransferBytesOnMessageInMemory=262144
maxTransferCountOnMessageInMemory=32
maxTransferBytesOnMessageInDisk=65536
maxTransferCountOnMessageInDisk=8
accessMessageInMemoryMaxRatio=40
messageIndexEnable=true
maxHashSlotNum=5000000
maxIndexNum=20000000
maxMsgsNumBatch=64
messageIndexSafe=false
haListenPort=10912
haSendHeartbeatInterval=5000
haHousekeepingInterval=20000
haTransferBatchSize=32768
haMasterAddress=
haSlaveFallbehindMax=268435456
brokerRole=ASYNC_MASTER
flushDiskType=ASYNC_FLUSH
syncFlushTimeout=5000
slaveTimeout=3000
messageDelayLevel=1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h
flushDelayOffsetInterval=10000
cleanFileForciblyEnable=true
warmMapedFileEnable=false
offsetCheckInSlave=false
debugLockEnable=false
duplicationEnable=false
diskFallRecorded=true
osPageCacheBusyTimeOutMills=1000
defaultQueryMaxNum=32
transientStorePoolEnable=false
transientStorePoolSize=5
fastFailIfNoBufferInStorePool=false
enableDLegerCommitLog=false
dLegerGroup=
dLegerPeers=
dLegerSelfId=
preferredLeaderId=
isEnableBatchPush=false
enableScheduleMessageStats=true
enableLmq=false
enableMultiDispatch=false
maxLmqConsumeQueueNum=20000
enableScheduleAsyncDeliver=false
scheduleAsyncDeliverMaxPendingLimit=2000
scheduleAsyncDeliverMaxResendNum2Blocked=3`;
const PROPS_NAMESRV494 = `rocketmqHome=@home@
kvConfigPath=/home/rocketmq/namesrv/kvConfig.json
configStorePath=/home/rocketmq/namesrv/namesrv.properties
productEnvName=center
clusterTest=false
orderMessageEnable=false
listenPort=9876
serverWorkerThreads=8
serverCallbackExecutorThreads=0
serverSelectorThreads=3
serverOnewaySemaphoreValue=256
serverAsyncSemaphoreValue=64
serverChannelMaxIdleTimeSeconds=120
serverSocketSndBufSize=0
serverSocketRcvBufSize=0
writeBufferHighWaterMark=0
writeBufferLowWaterMark=0
serverSocketBacklog=1024
serverPooledByteBufAllocatorEnable=true
useEpollNativeSelector=false`;

const fillProps = (tpl, vars) => tpl.replace(/@(\w+)@/g, (_, k) => vars[k]).split('\n');

// ---------------------------------------------------------------------------------------------
// Server-side helpers (broker.log, namesrv.log, remoting.log, store.log, watermark.log)
// ---------------------------------------------------------------------------------------------

/** logback packaging data on server stacks: 4.x up to 4.9.1 ship logback 1.0.13, which prints it */
function srvTrace(v, trace, commonFromBottom) {
  if (v >= '4.9.4') return trace;
  return withPackaging(
    trace,
    [
      ['org.apache.rocketmq.remoting.', `rocketmq-remoting-${v}.jar:${v}`],
      ['org.apache.rocketmq.broker.', `rocketmq-broker-${v}.jar:${v}`],
      ['org.apache.rocketmq.namesrv.', `rocketmq-namesrv-${v}.jar:${v}`],
      ['org.apache.rocketmq.store.', `rocketmq-store-${v}.jar:${v}`],
      ['io.netty.', NETTY['4.0.42'].jar],
    ],
    commonFromBottom,
  );
}

function brokerFiles(S, host) {
  return {
    broker: S.file(`${host}/broker.log`, 'server'),
    remoting: S.file(`${host}/remoting.log`, 'server'),
    store: S.file(`${host}/store.log`, 'server'),
    wm: S.file(`${host}/watermark.log`, 'watermark'),
  };
}

/** watermark.log: 4.x prints Send, Pull, Query and Transaction once a second */
function watermarkLines(wm, t, send, sendSlow, pull = 0, query = 0, tx = 0) {
  wm.add(t, { msg: M('watermark/broker', { queue: 'Send', size: send, slowMs: sendSlow }) });
  wm.add(t, { msg: M('watermark/broker', { queue: 'Pull', size: pull, slowMs: 0 }) });
  wm.add(t, { msg: M('watermark/broker', { queue: 'Query', size: query, slowMs: 0 }) });
  wm.add(t, { msg: M('watermark/broker', { queue: 'Transaction', size: tx, slowMs: 0 }) });
}

/** netty server pipeline lines for an inbound connection (remoting.log on a broker, namesrv.log on a NameServer) */
function srvConnect(f, t, codec, remote) {
  f.add(t, { level: 'INFO', thread: codec, msg: M('pipeline/server-registered', { addr: remote }) });
  f.add(t, { level: 'INFO', thread: codec, msg: M('pipeline/server-active', { addr: remote }) });
}
function srvDisconnect(f, t, codec, remote) {
  f.add(t, { level: 'INFO', thread: codec, msg: M('pipeline/server-inactive', { addr: remote }) });
  f.add(t, { level: 'INFO', thread: codec, msg: M('pipeline/server-unregistered', { addr: remote }) });
}

/** the periodic lines of a running 4.x broker between `from` and `to` */
function brokerPeriodic(S, F, o) {
  const { v, from, to, boot, rng } = o;
  // watermark every second, 10 s after boot
  const wmPhase = (boot + 10 * SEC) % SEC;
  for (let t = Math.ceil((from - wmPhase) / SEC) * SEC + wmPhase; t < to; t += SEC) {
    if (t < boot + 10 * SEC) continue;
    const w = o.watermark ? o.watermark(t) : null;
    if (w) watermarkLines(F.wm, t, w.send, w.slow, w.pull ?? 0);
    else {
      const busy = rng.chance(0.06);
      // 4.7.1-4.9.2: the send queue head is often a CompletableFuture callback, so SlowTimeMills reads 0
      const slow = busy && v >= '4.9.3' ? rng.int(1, 4) : 0;
      watermarkLines(F.wm, t, busy ? rng.int(1, 3) : 0, slow, rng.chance(0.03) ? 1 : 0);
    }
  }
  // dispatch behind / slave fall behind every 60 s, 10 s after boot (BrokerControllerScheduledThread1)
  for (let t = boot + 10 * SEC + 7; t < to; t += MIN) {
    if (t < from) continue;
    F.broker.add(t, { level: 'INFO', thread: 'BrokerControllerScheduledThread1', msg: 'dispatch behind commit log 0 bytes' });
    // no slave attached: the whole commit log counts as "behind"
    const off = o.maxOffset(t);
    F.broker.add(t + 1, { level: 'INFO', thread: 'BrokerControllerScheduledThread1', msg: M('store-sync/slave-fall-behind', { behindBytes: off }) });
  }
  // StoreStatsService prints once a minute
  for (let t = boot + MIN + 211; t < to; t += MIN + 1) {
    if (t < from) continue;
    const s = o.storeStats ? o.storeStats(t) : defaultStoreStats(rng, o.tps ?? 40);
    F.store.add(t, {
      level: 'INFO',
      thread: 'StoreStatsService',
      msg: `[STORETPS] put_tps ${s.putTps} get_found_tps ${s.getFound} get_miss_tps ${s.getMiss} get_transfered_tps ${s.getTransfered}`,
    });
    if (v >= '4.9.4') {
      F.store.add(t, { level: 'INFO', thread: 'StoreStatsService', msg: `findPutMessageEntireTimePX 0.99=${s.p99}ms cost 0ms` });
      F.store.add(t, { level: 'INFO', thread: 'StoreStatsService', msg: `findPutMessageEntireTimePX 0.999=${s.p999}ms cost 0ms` });
    }
    F.store.add(t, { level: 'INFO', thread: 'StoreStatsService', msg: M('store-slow/pagecachert', { totalPut: s.total, putMessageDistributeTime: s.dist }) });
  }
}
const BUCKETS = ['[<=0ms]', '[0~10ms]', '[10~50ms]', '[50~100ms]', '[100~200ms]', '[200~500ms]', '[500ms~1s]', '[1~2s]', '[2~3s]', '[3~4s]', '[4~5s]', '[5~10s]', '[10s~]'];
function defaultStoreStats(rng, tps, counts) {
  const total = counts ? counts.reduce((a, b) => a + b, 0) : Math.round(tps * 60 * (0.85 + rng.next() * 0.3));
  const c = counts ?? (() => {
    const le0 = Math.round(total * (0.55 + rng.next() * 0.1));
    const lt10 = total - le0 - (total > 200 ? rng.int(0, 3) : 0);
    const a = [le0, lt10, total - le0 - lt10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    return a;
  })();
  const dist = BUCKETS.map((b, i) => `${b}:${c[i]}`).join(' ') + ' ';
  const span = 60000 + rng.int(1, 9);
  const found = Math.round(total * (0.95 + rng.next() * 0.04));
  const p99 = c[2] + c[3] + c[4] + c[5] + c[6] > total * 0.01 ? (10 + rng.next() * 30).toFixed(2) : (rng.next() * 1.5 + 0.5).toFixed(2);
  return {
    total,
    dist,
    // CallSnapshot.getTPS: (double) (count delta * 1000) / (time delta in ms)
    putTps: javaDouble((total * 1000) / span),
    getFound: javaDouble((found * 1000) / span),
    getMiss: javaDouble((rng.int(300, 420) * 1000) / span),
    getTransfered: javaDouble((found * 1000) / span),
    p99,
    p999: (Number(p99) + 1 + rng.next() * 3).toFixed(2),
  };
}

/** NameServer KVConfigManager.printAllPeriodically (1 min after boot, then every 10 min) */
function nsKvPrint(f, from, to, boot) {
  for (let t = boot + MIN + 3; t < to; t += 10 * MIN) {
    if (t < from) continue;
    f.add(t, { level: 'INFO', thread: 'NSScheduledThread1', msg: '--------------------------------------------------------' });
    f.add(t, { level: 'INFO', thread: 'NSScheduledThread1', msg: 'configTable SIZE: 0' });
  }
}

/** NameServer boot (4.x) */
function nsBoot(f, t, v, vars) {
  const tpl = v >= '4.9' ? PROPS_NAMESRV494 : PROPS_NAMESRV480;
  let lines = fillProps(tpl, vars);
  if (vars.idle) lines = lines.map((l) => (l === 'serverChannelMaxIdleTimeSeconds=120' ? `serverChannelMaxIdleTimeSeconds=${vars.idle}` : l));
  for (const l of lines) f.add(t, { level: 'INFO', thread: 'main', msg: l });
  f.add(t + 180, { level: 'INFO', thread: 'main', msg: 'Server is running in TLS permissive mode' });
  f.add(t + 240, { level: 'INFO', thread: 'main', msg: 'SSLContext created for server' });
  f.add(t + 301, { level: 'INFO', thread: 'main', msg: 'Try to start service thread:FileWatchService started:false lastThread:null' });
  f.add(t + 305, { level: 'INFO', thread: 'main', msg: M('startup/namesrv', { serializeType: 'JSON' }) });
  f.add(t + 306, { level: 'INFO', thread: 'FileWatchService', msg: 'FileWatchService service started' });
}

/** broker boot (4.x, ASYNC_MASTER, no slave); returns the time of the "boot success" line */
function brokerBoot(S, F, t0, o) {
  const { v, name, ip, namesrv, abnormal, rng } = o;
  const tpl = v >= '4.9' ? PROPS_BROKER494 : PROPS_BROKER480;
  let t = t0;
  for (const l of fillProps(tpl, { home: `/opt/rocketmq-${v}`, namesrv, ip, brokerName: name })) F.broker.add(t, { level: 'INFO', thread: 'main', msg: l });
  t += 420;
  for (const c of ['topics.json', 'consumerOffset.json', 'delayOffset.json', 'subscriptionGroup.json', 'consumerFilter.json']) {
    F.broker.add(t, { level: 'INFO', thread: 'main', msg: `load /home/rocketmq/store/config/${c} OK` });
    t += rng.int(2, 9);
  }
  F.broker.add(t, { level: 'INFO', thread: 'main', msg: 'Try to start service thread:AllocateMappedFileService started:false lastThread:null' });
  F.store.add(t + 1, { level: 'INFO', thread: 'AllocateMappedFileService', msg: 'AllocateMappedFileService service started' });
  t += 35;
  F.store.add(t, { level: 'INFO', thread: 'main', msg: `last shutdown ${abnormal ? 'abnormally' : 'normally'}` });
  t += 15;
  F.store.add(t, { level: 'INFO', thread: 'main', msg: 'load commit log OK' });
  const files = o.commitLogFiles;
  t += o.loadMs ?? 120;
  F.store.add(t, { level: 'INFO', thread: 'main', msg: 'load logics queue all over, OK' });
  t += 40;
  if (abnormal) {
    t += o.recoverMs ?? 6000;
    F.store.add(t, { level: 'INFO', thread: 'main', msg: `recover from this mapped file ${files[files.length - 1]}` });
    t += 2400;
    F.store.add(t, { level: 'INFO', thread: 'main', msg: `recover physics file end, ${files[files.length - 1]} pos=${o.lastFilePos}` });
  } else {
    for (const fl of files.slice(-3)) {
      t += rng.int(30, 80);
      F.store.add(t, { level: 'INFO', thread: 'main', msg: `recover next physics file, ${fl}` });
    }
    F.store.add(t, { level: 'INFO', thread: 'main', msg: `recover physics file end, ${files[files.length - 1]}` });
  }
  t += 30;
  F.store.add(t, { level: 'INFO', thread: 'main', msg: `load over, and the max phy offset = ${o.maxPhyOffset}` });
  t += 60;
  F.broker.add(t, { level: 'INFO', thread: 'main', msg: M('namesrv-list/broker-user-specified', { addrs: namesrv }) });
  F.remoting.add(t + 2, { level: 'INFO', thread: 'main', msg: 'Server is running in TLS permissive mode' });
  F.remoting.add(t + 40, { level: 'INFO', thread: 'main', msg: 'SSLContext created for server' });
  F.remoting.add(t + 44, { level: 'INFO', thread: 'main', msg: 'Server is running in TLS permissive mode' });
  F.remoting.add(t + 71, { level: 'INFO', thread: 'main', msg: 'SSLContext created for server' });
  t += 90;
  F.broker.add(t, { level: 'WARN', thread: 'main', msg: 'Load default transaction message hook service: TransactionalMessageServiceImpl' });
  F.broker.add(t + 1, { level: 'WARN', thread: 'main', msg: 'Load default discard message hook service: DefaultTransactionalMessageCheckListener' });
  F.broker.add(t + 2, { level: 'INFO', thread: 'main', msg: 'The broker dose not enable acl' });
  t += 60;
  const services = ['ReputMessageService', 'FlushConsumeQueueService', 'FlushRealTimeService', 'StoreStatsService', 'AcceptSocketService', 'GroupTransferService', 'HAClient'];
  for (const s of services) {
    F.broker.add(t, { level: 'INFO', thread: 'main', msg: `Try to start service thread:${s} started:false lastThread:null` });
    if (s === 'FlushRealTimeService' || s === 'ReputMessageService' || s === 'FlushConsumeQueueService' || s === 'StoreStatsService')
      F.store.add(t + 1, { level: 'INFO', thread: s, msg: `${s} service started` });
    t += rng.int(1, 4);
  }
  F.remoting.add(t + 1, { level: 'INFO', thread: 'NettyEventExecutor', msg: 'NettyEventExecutor service started' });
  t += 30;
  for (const s of ['FileWatchService', 'PullRequestHoldService', 'TransactionalMessageCheckService']) {
    F.broker.add(t, { level: 'INFO', thread: 'main', msg: `Try to start service thread:${s} started:false lastThread:null` });
    F.broker.add(t + 1, { level: 'INFO', thread: s, msg: s === 'TransactionalMessageCheckService' ? 'Start transaction check service thread!' : `${s} service started` });
    t += rng.int(1, 3);
  }
  return t;
}

/** broker registration outcome lines; returns nothing. thread: brokerOutApi_thread_N */
function regOkLine(F, t, thread, ns) {
  F.broker.add(t, { level: 'INFO', thread, msg: M('broker-registered/register-broker-id', { brokerId: 0, namesrvAddr: ns }) });
}

// ---------------------------------------------------------------------------------------------
// RocketMQ 4.x client simulator (inner logger: rocketmq_client.log)
// ---------------------------------------------------------------------------------------------

const DEFAULT_TPI = 'TopicPublishInfo [orderTopic=false, messageQueueList=[], sendWhichQueue=ThreadLocalIndex{threadLocalIndex=null}, haveTopicRouterInfo=false]';

function sameRoute(a, b) {
  const k = (r) =>
    JSON.stringify([
      r.queues.map((q) => `${q.name}/${q.r}/${q.w}/${q.perm}`).sort(),
      r.brokers.map((x) => `${x.name}/${x.addr}`).sort(),
    ]);
  return k(a) === k(b);
}

class Client4 {
  /**
   * o: host, v ('4.6.0' | '4.8.0' | '4.9.4'), ip, pid, group, topic, namesrv (configured string),
   *    nsList (after shuffle), nsIndex0, world, appFrames, rstAt {addr: time}
   */
  constructor(S, o) {
    Object.assign(this, o);
    this.S = S;
    this.rng = S.rng;
    this.rel = `${o.host}/rocketmq_client.log`;
    this.f = S.file(this.rel, 'client4', { fakeMillis: o.v < '4.8' });
    this.instance = o.v >= '4.9.4' ? `${o.pid}#${o.nanoTime}` : String(o.pid);
    this.clientId = `${o.ip}@${this.instance}`;
    this.ch = new Map(); // addr -> channel
    this.routes = new Map(); // topic -> {queues, brokers, text}
    this.tables = { [o.group]: new Map([['TBW102', DEFAULT_TPI]]), CLIENT_INNER_PRODUCER: new Map([['TBW102', DEFAULT_TPI]]) };
    this.bat = new Map(); // brokerName -> addr (masters only)
    this.hbRound = 0;
    this.sched = 0;
    this.nsChosen = null;
    this.nsIndex = o.nsIndex0;
    this.tl = new Map(); // app thread -> ThreadLocalIndex
    this.msgCounter = this.rng.int(0, 4000);
    this.m = { sendTimeouts: [], callTimeouts: [], routeTimeouts: [], routeChanges: [], hbFailed: [], nsChosen: [], connectRefused: [], sendReqFailed: [], resets: [], idle: [], okByBroker: {} };
    this.rstDone = new Set();
  }
  L(t, level, logger, msg, stack) {
    this.f.add(t, { level, logger, msg, stack });
  }
  hash() {
    return jhash(this.rng);
  }

  // --- startup --------------------------------------------------------------------------------
  startup(t) {
    const R = 'RocketmqRemoting';
    const C = 'RocketmqClient';
    this.L(t, 'INFO', R, M('namesrv-list/updated', { addrs: this.nsList, old: null }));
    this.L(t, 'INFO', C, M('namesrv-list/user-specified', { addrs: this.namesrv }));
    const cfg =
      `ClientConfig [namesrvAddr=${this.namesrv}, clientIP=${this.ip}, instanceName=${this.instance}, clientCallbackExecutorThreads=8, ` +
      `pollNameServerInterval=30000, heartbeatBrokerInterval=30000, persistConsumerOffsetInterval=5000, pullTimeDelayMillsWhenException=1000, ` +
      `unitMode=false, unitName=null, vipChannelEnabled=false, useTLS=false, language=JAVA, namespace=null` +
      (this.v >= '4.9.4' ? ', mqClientApiTimeout=3000, enableStreamRequestType=false]' : ']');
    const ver = { '4.6.0': 'V4_6_0', '4.8.0': 'V4_8_0', '4.9.4': 'V4_9_4' }[this.v];
    this.L(t + 3, 'INFO', C, M('startup/client-instance', { instanceIndex: 0, clientId: this.clientId, clientConfig: cfg, clientVersion: ver, serializerType: 'JSON' }));
    this.L(t + 4, 'INFO', C, `Created new MQClientInstance for clientId:[${this.clientId}]`);
    const ts = t + 31;
    this.L(ts + 2, 'INFO', 'RocketmqCommon', 'Try to start service thread:PullMessageService started:false lastThread:null');
    this.L(ts + 2, 'INFO', C, 'PullMessageService service started');
    this.L(ts + 3, 'INFO', 'RocketmqCommon', 'Try to start service thread:RebalanceService started:false lastThread:null');
    this.L(ts + 3, 'INFO', C, 'RebalanceService service started');
    this.L(ts + 4, 'INFO', C, M('startup/producer', { group: 'CLIENT_INNER_PRODUCER', sendMessageWithVIPChannel: false }));
    this.L(ts + 4, 'INFO', C, M('startup/client-factory', { clientId: this.clientId }));
    this.L(ts + 5, 'INFO', C, M('startup/producer', { group: this.group, sendMessageWithVIPChannel: false }));
    this.routeT0 = ts + 10;
    this.hbT0 = ts + 1000;
    return ts + 5;
  }

  // --- channels -------------------------------------------------------------------------------
  /** open (or reuse) a channel; returns {ok:true,t} or {ok:false,t,refused:true} */
  connect(t, addr, logger = 'RocketmqRemoting') {
    const c = this.ch.get(addr);
    if (c && c.open) return { ok: true, t };
    this.L(t, 'INFO', logger, `createChannel: begin to connect remote host[${addr}] asynchronously`);
    this.L(t + 1, 'INFO', logger, M('pipeline/client-connect', { local: 'UNKNOWN', addr: addr }));
    const r = this.world.connect(addr, t);
    if (r === 'ok') {
      const port = this.rng.int(32768, 60999);
      this.ch.set(addr, { open: true, created: t, lastIO: t + 2, port });
      this.L(t + 2, 'INFO', logger, `createChannel: connect remote host[${addr}] success, DefaultChannelPromise@${this.hash()}(success)`);
      this.world.onConnect?.(this, addr, t + 2, port);
      return { ok: true, t: t + 2 };
    }
    // refused: the 4.x client logs the cause with its stack
    const netty = this.v >= '4.9' ? '4.1.65' : '4.0.42';
    this.L(
      t + 2,
      'WARN',
      logger,
      M('connect-failed/create-channel-failed', { addr, channelFuture: `DefaultChannelPromise@${this.hash()}(failure: ${refusedText(addr)})` }),
      refusedTrace(netty, addr),
    );
    this.m.connectRefused.push(t + 2);
    return { ok: false, t: t + 2, refused: true };
  }
  /** exceptionCaught on an established channel (RST), then the close sequence */
  reset(t, addr) {
    const c = this.ch.get(addr);
    if (!c || !c.open) return;
    const R = 'RocketmqRemoting';
    const netty = this.v >= '4.9' ? '4.1.65' : '4.0.42';
    this.L(t, 'WARN', R, M('pipeline/client-exception', { addr }));
    this.L(t, 'WARN', R, 'NETTY CLIENT PIPELINE: exceptionCaught exception.', resetTrace(netty));
    this.L(t + 1, 'INFO', R, M('channel-closed/removed', { addr }));
    this.L(t + 1, 'INFO', R, M('pipeline/client-close', { addr }));
    this.L(t + 1, 'INFO', R, 'eventCloseChannel: the channel[null] has been removed from the channel table before');
    this.L(t + 2, 'INFO', R, M('channel-closed/connection-closed', { addr, result: true }));
    c.open = false;
    c.closedAt = t;
    this.m.resets.push({ t, addr });
  }
  idleClose(t, addr) {
    const c = this.ch.get(addr);
    const R = 'RocketmqRemoting';
    this.L(t, 'WARN', R, M('pipeline/client-idle', { addr }));
    this.L(t, 'INFO', R, M('channel-closed/removed', { addr }));
    this.L(t + 1, 'INFO', R, M('pipeline/client-close', { addr }));
    this.L(t + 1, 'INFO', R, 'eventCloseChannel: the channel[null] has been removed from the channel table before');
    this.L(t + 1, 'INFO', R, M('channel-closed/connection-closed', { addr, result: true }));
    c.open = false;
    c.closedAt = t;
    this.m.idle.push({ t, addr });
  }
  /** housekeeping before an operation at time t: scheduled RSTs and idle channels */
  tick(t) {
    for (const [addr, r] of Object.entries(this.rstAt ?? {})) {
      if (r <= t && !this.rstDone.has(addr)) {
        this.rstDone.add(addr);
        const c = this.ch.get(addr);
        if (c && c.open && c.created < r) this.reset(r, addr);
      }
    }
    for (const [addr, c] of this.ch) {
      if (c.open && c.lastIO + 120 * SEC < t) this.idleClose(c.lastIO + 120 * SEC, addr);
    }
  }
  /**
   * one request on an open channel: {kind:'ok', t} (response time), {kind:'timeout', t}, {kind:'rst', t}
   */
  request(t, addr, timeoutMs, okRt) {
    const c = this.ch.get(addr);
    c.lastIO = Math.max(c.lastIO, t);
    const st = this.world.state(addr, t, c.created);
    if (st === 'up') {
      c.lastIO = t + okRt;
      return { kind: 'ok', t: t + okRt };
    }
    // unanswered: the wait ends at the timeout, or earlier if the peer resets the connection
    const r = this.rstAt?.[addr];
    if (r !== undefined && r > t && r < t + timeoutMs && !this.rstDone.has(addr)) {
      this.rstDone.add(addr);
      this.reset(r, addr);
      return { kind: 'rst', t: r };
    }
    return { kind: 'timeout', t: t + timeoutMs };
  }

  // --- name server ----------------------------------------------------------------------------
  nsChannel(t) {
    const R = 'RocketmqRemoting';
    if (this.nsChosen) {
      const c = this.ch.get(this.nsChosen);
      if (c && c.open) return { ok: true, t, addr: this.nsChosen };
    }
    for (let i = 0; i < this.nsList.length; i++) {
      this.nsIndex++;
      const addr = this.nsList[Math.abs(this.nsIndex) % this.nsList.length];
      this.L(t, 'INFO', R, M('namesrv-chosen/chosen', { old: this.nsChosen, new: addr, namesrvIndex: this.nsIndex }));
      this.m.nsChosen.push({ t, old: this.nsChosen, addr, index: this.nsIndex });
      this.nsChosen = addr;
      const r = this.connect(t, addr);
      t = r.t;
      if (r.ok) return { ok: true, t, addr };
    }
    return { ok: false, t };
  }

  applyRoute(t, topic, rd) {
    const old = this.routes.get(topic);
    if (old && sameRoute(old, rd)) return false;
    const C = 'RocketmqClient';
    const text = routeData(this.v, rd.queues, rd.brokers);
    this.L(t, 'INFO', C, M('route-changed/changed', { topic, old: old ? old.text : 'null', new: text }));
    this.m.routeChanges.push({ t, topic, brokers: rd.brokers.map((b) => b.name).sort() });
    for (const b of rd.brokers) this.bat.set(b.name, b.addr);
    // topicRouteData2TopicPublishInfo: queue datas sorted by broker name, writable masters only
    const mqs = [];
    for (const q of rd.queues.slice().sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!(q.perm & 2)) continue;
      for (let i = 0; i < q.w; i++) mqs.push({ broker: q.name, q: i });
    }
    const tpi = `TopicPublishInfo [orderTopic=false, messageQueueList=[${mqs.map((m) => mqText(topic, m.broker, m.q)).join(', ')}], sendWhichQueue=ThreadLocalIndex{threadLocalIndex=null}, haveTopicRouterInfo=true]`;
    for (const g of javaChmOrder([this.group, 'CLIENT_INNER_PRODUCER'])) {
      const prev = this.tables[g].get(topic);
      this.tables[g].set(topic, tpi);
      if (prev) this.L(t, 'INFO', C, `updateTopicPublishInfo prev is not null, ${prev}`);
    }
    this.L(t, 'INFO', C, `topicRouteTable.put. Topic = ${topic}, TopicRouteData[${text}]`);
    this.routes.set(topic, { ...rd, text, mqs });
    return true;
  }

  /** the periodic route update (MQClientFactoryScheduledThread) */
  routePoll(t0) {
    let t = Math.max(t0, this.sched);
    this.tick(t);
    const C = 'RocketmqClient';
    const R = 'RocketmqRemoting';
    const topics = javaHashOrder([...new Set(['TBW102', ...this.routes.keys()])]);
    const ns = this.nsChannel(t);
    t = ns.t;
    if (!ns.ok) {
      // not reached in these samples
      throw new Error('no name server reachable');
    }
    for (const topic of topics) {
      const res = this.request(t, ns.addr, 3000, this.rng.int(1, 4));
      if (res.kind === 'ok') {
        t = res.t;
        const rd = this.world.route(ns.addr, topic, t);
        this.applyRoute(t, topic, rd);
        continue;
      }
      if (res.kind === 'timeout') {
        t = res.t + this.rng.int(0, 2);
        const head = timeoutHead(ns.addr, 3000);
        this.L(t, 'WARN', R, M('rpc-timeout/invoke-sync-wait', { addr: null }));
        this.L(t, 'ERROR', C, M('route-update-failed/exception'), [head, ...routeFrames(this.v)]);
        this.L(t + 1, 'ERROR', C, M('route-update-failed/scheduled-task'), routeIseTrace(this.v, head));
        this.m.routeTimeouts.push(t);
      } else {
        t = res.t + 2;
        this.sendRequestFailed(t, ns.addr, null);
        const head = sendReqHead(ns.addr);
        const tr = [head, ...routeFrames(this.v)];
        tr[1] = fr(PKG.NRA, 'invokeSyncImpl', CLIENT_LINES[this.v].invokeSyncImpl_sendreq);
        this.L(t, 'ERROR', C, M('route-update-failed/exception'), tr);
        this.L(t + 1, 'ERROR', C, M('route-update-failed/scheduled-task'), routeIseTrace(this.v, head));
      }
      break;
    }
    this.sched = t + 1;
  }

  /** invokeSync's handling of RemotingSendRequestException (the channel was reset under a request) */
  sendRequestFailed(t, addr, addrArg) {
    const R = 'RocketmqRemoting';
    this.L(t, 'WARN', R, M('channel-closed/send-exception', { addr: addrArg }));
    this.L(t, 'INFO', R, `closeChannel: begin close the channel[${addr}] Found: false`);
    this.L(t, 'INFO', R, `closeChannel: the channel[${addr}] has been removed from the channel table before`);
    this.L(t + 1, 'INFO', R, M('channel-closed/connection-closed', { addr, result: true }));
  }

  // --- heartbeat ------------------------------------------------------------------------------
  heartbeat(t0) {
    let t = Math.max(t0, this.sched);
    this.tick(t);
    const C = 'RocketmqClient';
    // cleanOfflineBroker
    for (const name of javaChmOrder([...this.bat.keys()])) {
      const addr = this.bat.get(name);
      const used = [...this.routes.values()].some((r) => r.brokers.some((b) => b.addr === addr));
      if (!used) {
        this.L(t, 'INFO', C, `the broker addr[${name} ${addr}] is offline, remove it`);
        this.L(t, 'INFO', C, `the broker[${name}] name's host is offline, remove it`);
        this.bat.delete(name);
      }
    }
    const round = this.hbRound++;
    for (const name of javaChmOrder([...this.bat.keys()])) {
      const addr = this.bat.get(name);
      const cn = this.connect(t, addr);
      t = cn.t;
      if (!cn.ok) {
        this.L(t, 'INFO', C, M('heartbeat-failed/failed', { brokerName: name, brokerId: 0, brokerAddr: addr }), [connectHead(addr), ...heartbeatFrames(this.v, 'connect')]);
        this.m.hbFailed.push({ t, broker: name });
        continue;
      }
      const res = this.request(t, addr, 3000, this.rng.int(1, 3));
      if (res.kind === 'ok') {
        t = res.t;
        if (round % 20 === 0) {
          this.L(t, 'INFO', C, `send heart beat to broker[${name} 0 ${addr}] success`);
          this.L(t, 'INFO', C, `HeartbeatData [clientID=${this.clientId}, producerDataSet=[ProducerData [groupName=CLIENT_INNER_PRODUCER], ProducerData [groupName=${this.group}]], consumerDataSet=[]]`);
        }
        this.world.onHeartbeat?.(this, addr, t);
      } else if (res.kind === 'timeout') {
        t = res.t + this.rng.int(0, 2);
        this.L(t, 'WARN', 'RocketmqRemoting', M('rpc-timeout/invoke-sync-wait', { addr }));
        this.L(t, 'INFO', C, M('heartbeat-failed/failed', { brokerName: name, brokerId: 0, brokerAddr: addr }), [timeoutHead(addr, 3000), ...heartbeatFrames(this.v, 'timeout')]);
        this.m.hbFailed.push({ t, broker: name });
      } else {
        t = res.t + 2;
        this.sendRequestFailed(t, addr, addr);
        const tr = [sendReqHead(addr), ...heartbeatFrames(this.v, 'timeout')];
        tr[1] = fr(PKG.NRA, 'invokeSyncImpl', CLIENT_LINES[this.v].invokeSyncImpl_sendreq);
        this.L(t, 'INFO', C, M('heartbeat-failed/failed', { brokerName: name, brokerId: 0, brokerAddr: addr }), tr);
        this.m.hbFailed.push({ t, broker: name });
      }
    }
    this.sched = t + 1;
  }

  /**
   * A SYNC send answered by the broker with SYSTEM_BUSY (code 2). Up to 5.2.0 code 2 is not in
   * retryResponseCodes: the WARN is written, then the MQBrokerException is rethrown at once.
   * returns the exception's trace (for the application's log).
   */
  busyReply(tStart, tEnd, mq, remark, brokerAddr, body, tags, keys) {
    const C = 'RocketmqClient';
    const uniq = uniqId(this.ip, this.pid, tStart, this.msgCounter++);
    const props = { WAIT: 'true', TAGS: tags, UNIQ_KEY: uniq };
    if (keys) props.KEYS = keys;
    const first = responseExceptionMessage(2, remark, this.v >= '4.8' ? brokerAddr : null);
    const trace = [
      `org.apache.rocketmq.client.exception.MQBrokerException: ${first}`,
      `For more information, please visit the url, ${FAQ4}`,
      ...sendFrames(this.v, 'busy'),
      ...this.appFrames,
    ];
    const invokeID = this.rng.javaLong();
    this.L(tEnd, 'WARN', C, M('send-attempt-failed/resend', { invokeId: invokeID, rtMs: tEnd - tStart, mq: mqText(this.topic, mq.broker, mq.q) }), trace);
    this.L(tEnd, 'WARN', C, messageText(this.topic, props, body));
    return { trace, uniq };
  }

  // --- send -----------------------------------------------------------------------------------
  selectQueue(thread, mqs, lastBroker, prefer) {
    if (!this.tl.has(thread)) this.tl.set(thread, this.rng.int(0, 1 << 30));
    if (prefer && !lastBroker && mqs.some((m) => m.broker === prefer)) {
      // the thread-local index happens to point at this broker's queue
      while (mqs[Math.abs(this.tl.get(thread) + 1) % mqs.length].broker !== prefer) this.tl.set(thread, this.tl.get(thread) + 1);
    }
    const next = () => {
      const i = this.tl.get(thread) + 1;
      this.tl.set(thread, i);
      return mqs[Math.abs(i) % mqs.length];
    };
    if (!lastBroker) return next();
    for (let i = 0; i < mqs.length; i++) {
      const mq = next();
      if (mq.broker !== lastBroker) return mq;
    }
    return next();
  }

  /**
   * SYNC send of one message from an application thread.
   * returns {ok, t, mq, msgId, error: {kind, head, frames}}
   */
  send(t0, thread, body, tags, keys, prefer) {
    const C = 'RocketmqClient';
    const R = 'RocketmqRemoting';
    this.tick(t0);
    const topic = this.topic;
    let t = t0;
    if (!this.routes.has(topic)) {
      // tryToFindTopicPublishInfo: first use of the topic fetches its route on the caller's thread
      this.tables[this.group].set(topic, DEFAULT_TPI);
      const ns = this.nsChannel(t);
      const res = this.request(ns.t, ns.addr, 3000, this.rng.int(2, 5));
      t = res.t;
      this.applyRoute(t, topic, this.world.route(ns.addr, topic, t));
    }
    const uniq = uniqId(this.ip, this.pid, t0, this.msgCounter++);
    const props = { WAIT: 'true', TAGS: tags, UNIQ_KEY: uniq };
    if (keys) props.KEYS = keys;
    const msgText = messageText(topic, props, body);
    const timeout = 3000;
    let last = null;
    let lastErr = null;
    const brokersSent = [];
    for (let times = 0; times < 3; times++) {
      const mqs = this.routes.get(topic).mqs;
      const mq = this.selectQueue(thread, mqs, last, prefer);
      brokersSent.push(mq.broker);
      last = mq.broker;
      const begin = t;
      const cost = t - t0;
      if (cost > timeout) {
        const err = { kind: 'callTimeout', head: `org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException: ${M('send-call-timeout/producer')}` };
        this.m.callTimeouts.push(t);
        return { ok: false, t, mq, uniq, error: err, lastErr, brokersSent };
      }
      const addr = this.bat.get(mq.broker);
      const invokeID = this.rng.javaLong();
      const fail = (tEnd, head, top, extra) => {
        const rt = tEnd - begin;
        this.L(tEnd, 'WARN', C, M('send-attempt-failed/resend', { invokeId: invokeID, rtMs: rt, mq: mqText(topic, mq.broker, mq.q) }), [head, ...sendFrames(this.v, top), ...this.appFrames]);
        this.L(tEnd, 'WARN', C, msgText);
        lastErr = { head, top };
        t = tEnd + 1;
      };
      const cn = this.connect(t, addr);
      if (!cn.ok) {
        fail(cn.t + this.rng.int(0, 1), connectHead(addr), 'connect');
        continue;
      }
      t = cn.t;
      const remaining = timeout - (t - t0);
      const okRt = this.rng.int(2, 9);
      const res = this.request(t, addr, remaining, okRt);
      if (res.kind === 'ok') {
        this.m.okByBroker[mq.broker] = (this.m.okByBroker[mq.broker] ?? 0) + 1;
        return { ok: true, t: res.t, mq, uniq, attempts: times + 1 };
      }
      if (res.kind === 'timeout') {
        const wait = remaining - this.rng.int(0, 1);
        const tEnd = t + remaining + this.rng.int(1, 3);
        this.L(tEnd, 'WARN', R, M('rpc-timeout/invoke-sync-wait', { addr }));
        fail(tEnd, timeoutHead(addr, wait), 'timeout');
        this.m.sendTimeouts.push({ t: tEnd, broker: mq.broker });
      } else {
        // failFast wakes the caller after the pipeline has closed the channel
        this.sendRequestFailed(res.t + 2, addr, addr);
        fail(res.t + 3, sendReqHead(addr), 'sendreq');
        this.m.sendReqFailed.push(res.t);
      }
    }
    const err = { kind: 'sendFailed', head: `org.apache.rocketmq.client.exception.MQClientException: ${M('send-failed/still-failed', { attempts: 3, costMs: t - t0, topic, brokersSent })}` };
    return { ok: false, t, error: err, lastErr, brokersSent };
  }
}

// ---------------------------------------------------------------------------------------------
// Small shared pieces for application logs
// ---------------------------------------------------------------------------------------------

/** logback %logger{n}: shorten leading package segments to their first letter until it fits */
function abbrev(name, n) {
  if (name.length <= n) return name;
  const seg = name.split('.');
  for (let i = 0; i < seg.length - 1; i++) {
    seg[i] = seg[i][0];
    if (seg.join('.').length <= n) break;
  }
  return seg.join('.');
}
/** app send schedule: exponential inter-arrivals over free worker threads */
function appSchedule(rng, from, to, mean, threads, busyMs = 3100) {
  const busy = new Map(threads.map((th) => [th, 0]));
  const out = [];
  for (let t = from + rng.exp(mean); t < to; t += rng.exp(mean)) {
    const free = threads.filter((th) => busy.get(th) <= t);
    if (!free.length) continue;
    const th = rng.pick(free);
    busy.set(th, t + busyMs);
    out.push({ t: Math.round(t), thread: th });
  }
  return out;
}
/** run a client's scheduled tasks and sends in time order */
function runClient(c, until, sends, onSend) {
  const ev = [];
  for (let t = c.routeT0; t < until; t += 30 * SEC) ev.push({ t, k: 'poll' });
  for (let t = c.hbT0; t < until; t += 30 * SEC) ev.push({ t, k: 'hb' });
  for (const s of sends) ev.push({ ...s, k: 'send' });
  ev.sort((a, b) => a.t - b.t || (a.k < b.k ? -1 : 1));
  for (const e of ev) {
    if (e.k === 'poll') c.routePoll(e.t);
    else if (e.k === 'hb') c.heartbeat(e.t);
    else onSend(e, c.send(e.t, e.thread, e.body, e.tags, e.keys, e.prefer));
  }
}

const TOPICS_SYS = [
  ['SCHEDULE_TOPIC_XXXX', 18, 6],
  ['RMQ_SYS_TRANS_HALF_TOPIC', 1, 6],
  ['DefaultCluster_REPLY_TOPIC', 1, 6],
  ['BenchmarkTest', 1024, 6],
  ['OFFSET_MOVED_EVENT', 1, 6],
  ['TBW102', 8, 7],
  ['SELF_TEST_TOPIC', 1, 6],
  ['DefaultCluster', 16, 7],
];
/** the topic configs of one broker, in the order a NameServer iterates the registered table (a ConcurrentHashMap decoded from JSON) */
function brokerTopics(name, appTopics) {
  const list = [...TOPICS_SYS, [name, 1, 7], ...appTopics.map((t) => [t, 4, 6])];
  const order = javaChmOrder(list.map((x) => x[0]));
  return order.map((n) => {
    const x = list.find((y) => y[0] === n);
    return { topic: x[0], q: x[1], perm: x[2] };
  });
}

// =============================================================================================
// Sample 1: seed-outage
// =============================================================================================

function seedOutage() {
  const S = new Sample('seed-outage', 0x5eed2020);
  const rng = S.rng;
  const D = '2020-12-22';
  const t = (s) => T(`${D} ${s}`);
  const V = '4.8.0';

  const START = t('14:35:00.000');
  const END = t('15:00:00.000');
  const HANG = t('14:42:00.200'); // 192.168.3.100 freezes (memory fault): no logging, no answers, TCP stays open
  const HOST_UP = t('14:53:38.000'); // kernel back after the ~10 min reboot: old connections get RST
  const NS100_START = t('14:53:50.217');
  const A_START = t('14:53:52.870');

  const NS100 = '192.168.3.100:9876';
  const NS101 = '192.168.3.101:9876';
  const NSCONF = `${NS100};${NS101}`;
  const A = { name: 'broker-a', ip: '192.168.3.100', addr: '192.168.3.100:10911', ha: '192.168.3.100:10912', host: 'mq-node-100' };
  const B = { name: 'broker-b', ip: '192.168.3.101', addr: '192.168.3.101:10911', ha: '192.168.3.101:10912', host: 'mq-node-101' };
  const FA = brokerFiles(S, A.host);
  const FB = brokerFiles(S, B.host);
  const NSF100 = S.file(`${A.host}/namesrv.log`, 'server');
  const NSF101 = S.file(`${B.host}/namesrv.log`, 'server');
  const APP_TOPICS = ['TopicOrder', 'TopicPay'];
  const topicsA = brokerTopics('broker-a', APP_TOPICS);
  const topicsB = brokerTopics('broker-b', APP_TOPICS);
  const outThread = () => `brokerOutApi_thread_${rng.int(1, 4)}`;
  const codec = () => `NettyServerCodecThread_${rng.int(1, 8)}`;
  const selector = () => `NettyServerNIOSelector_3_${rng.int(1, 3)}`;
  const clientWorker = () => `NettyClientWorkerThread_${rng.int(1, 4)}`;

  // --- broker registration phases --------------------------------------------------------------
  const A_TICK0 = t('14:35:28.612');
  const B_TICK0 = t('14:35:12.305');
  const aTicks = [];
  for (let x = A_TICK0; x < HANG; x += 30 * SEC) aTicks.push(x);
  const lastRegA = aTicks[aTicks.length - 1] + 4; // processed on both NameServers ~4 ms after the tick
  // NameServer 192.168.3.101: scan every 10 s (NSScheduledThread1), 120 s without registration -> expired
  const SCAN_PHASE = t('14:35:05.412');
  let EXP101 = SCAN_PHASE;
  while (!(lastRegA + 120000 < EXP101)) EXP101 += 10 * SEC;

  // broker-a after reboot
  const aBootEnd = brokerBoot(S, FA, A_START, {
    v: V, name: 'broker-a', ip: A.ip, namesrv: NSCONF, abnormal: true, rng, recoverMs: 7400,
    commitLogFiles: ['/home/rocketmq/store/commitlog/00000000000000000000', '/home/rocketmq/store/commitlog/00000000001073741824', '/home/rocketmq/store/commitlog/00000000002147483648'],
    lastFilePos: 815642317, maxPhyOffset: 2963125965,
  });
  const A_LISTEN = aBootEnd - 40; // remoting server bound shortly before registration
  const A_REG = aBootEnd + 12; // first registration at start
  const A_BOOTED = A_REG + 9; // "boot success" is printed after registerBrokerAll returns

  // NameServer 192.168.3.100 after reboot
  nsBoot(NSF100, NS100_START, V, { home: '/opt/rocketmq-4.8.0', idle: 300 });
  const NS100_UP = NS100_START + 305;

  // --- routes as each NameServer answers them ----------------------------------------------------
  const order2 = brokerNameSetOrder(['broker-a', 'broker-b']);
  const bd = (names) => order2.filter((n) => names.includes(n)).map((n) => (n === 'broker-a' ? { name: n, addr: A.addr } : { name: n, addr: B.addr }));
  const qd = (topic, names) =>
    names.map((n) => (topic === 'TBW102' ? { name: n, r: 8, w: 8, perm: 7 } : { name: n, r: 4, w: 4, perm: 6 }));
  const AREG101 = A_REG + 3;
  const route = (ns, topic, tt) => {
    if (ns === NS101) {
      if (tt < EXP101) return { queues: qd(topic, ['broker-a', 'broker-b']), brokers: bd(['broker-a', 'broker-b']) };
      if (tt < AREG101) return { queues: qd(topic, ['broker-b']), brokers: bd(['broker-b']) };
      return { queues: qd(topic, ['broker-b', 'broker-a']), brokers: bd(['broker-a', 'broker-b']) };
    }
    if (tt < HANG) return { queues: qd(topic, ['broker-a', 'broker-b']), brokers: bd(['broker-a', 'broker-b']) };
    throw new Error(`route from ${ns} at ${fmtMs(tt)}`);
  };
  const hello = new Map(); // broker addr -> set of clientIds already registered by heartbeat
  const world = {
    route,
    state(addr, tt, created) {
      if (addr === NS100) return tt < HANG || (created >= NS100_UP && tt >= NS100_UP) ? 'up' : 'dead';
      if (addr === A.addr) return tt < HANG || (created >= A_LISTEN && tt >= A_LISTEN) ? 'up' : 'dead';
      return 'up';
    },
    connect(addr, tt) {
      if (addr === NS100) {
        if (tt < HANG || tt >= NS100_UP) return 'ok';
        if (tt >= HOST_UP) return 'refused';
        throw new Error(`connect to ${addr} during the hang at ${fmtMs(tt)}`);
      }
      if (addr === A.addr) {
        if (tt < HANG || tt >= A_LISTEN) return 'ok';
        if (tt >= HOST_UP) return 'refused';
        throw new Error(`connect to ${addr} during the hang at ${fmtMs(tt)}`);
      }
      return 'ok';
    },
    onConnect(c, addr, tt, port) {
      const remote = `${c.ip}:${port}`;
      if (addr === NS100) srvConnect(NSF100, tt, codec(), remote);
      else if (addr === NS101) srvConnect(NSF101, tt, codec(), remote);
      else if (addr === A.addr) srvConnect(FA.remoting, tt, codec(), remote);
      else if (addr === B.addr) srvConnect(FB.remoting, tt, codec(), remote);
      c.ch.get(addr).remote = remote;
    },
    onHeartbeat(c, addr, tt) {
      const k = `${addr}|${c.clientId}|${c.ch.get(addr).created}`;
      if (hello.has(k)) return;
      hello.set(k, true);
      const F = addr === A.addr ? FA : FB;
      const ch = c.ch.get(addr);
      const chText = `[id: 0x${rng.hex(8)}, L:/${addr} - R:/${ch.remote}]`;
      const ver = c.v === '4.8.0' ? 373 : 333;
      const hbThread = `HeartbeatThread_${rng.int(1, 8)}`;
      for (const g of ['CLIENT_INNER_PRODUCER', c.group]) {
        F.broker.add(tt, {
          level: 'INFO',
          thread: hbThread,
          msg: `new producer connected, group: ${g} channel: ClientChannelInfo [channel=${chText}, clientId=${c.clientId}, language=JAVA, version=${ver}, lastUpdateTimestamp=${tt}]`,
        });
      }
    },
  };

  // --- clients --------------------------------------------------------------------------------
  const appA = S.file('app-order-01/app.log', 'spring', { pid: 23817 });
  const appB = S.file('app-pay-01/app.log', 'logback');
  const framesA = [
    'at com.acme.order.mq.OrderEventPublisher.publish(OrderEventPublisher.java:58)',
    'at com.acme.order.mq.OrderEventPublisher.lambda$publishAsync$0(OrderEventPublisher.java:41)',
    ...JDK_POOL,
  ];
  const framesB = [
    'at com.acme.pay.notify.PayResultProducer.send(PayResultProducer.java:64)',
    'at com.acme.pay.notify.PayNotifyService.lambda$onPaid$0(PayNotifyService.java:88)',
    ...JDK_POOL,
  ];
  const cA = new Client4(S, {
    host: 'app-order-01', v: '4.8.0', ip: '192.168.3.21', pid: 23817, group: 'PID_ORDER', topic: 'TopicOrder',
    namesrv: NSCONF, nsList: [NS101, NS100], nsIndex0: 412, world, appFrames: framesA,
    rstAt: { [NS100]: t('14:53:40.214'), [A.addr]: t('14:53:38.351') },
  });
  const cB = new Client4(S, {
    host: 'app-pay-01', v: '4.6.0', ip: '192.168.3.22', pid: 17342, group: 'PID_PAY', topic: 'TopicPay',
    namesrv: NSCONF, nsList: [NS100, NS101], nsIndex0: 88, world, appFrames: framesB,
    rstAt: { [A.addr]: t('14:53:43.702') },
  });

  // application A: Spring Boot service, start-up then one order event per request
  const aBoot = t('14:35:05.114');
  const sb = (tt, level, thread, logger, msg, stack) => appA.add(tt, { level, thread, logger: abbrev(logger, 39), msg, stack });
  sb(aBoot, 'INFO', 'main', 'com.acme.order.OrderServiceApplication', 'Starting OrderServiceApplication v1.4.2 on app-order-01 with PID 23817 (/opt/apps/order-service/order-service-1.4.2.jar started by app in /opt/apps/order-service)');
  sb(aBoot + 2, 'INFO', 'main', 'com.acme.order.OrderServiceApplication', 'The following profiles are active: prod');
  sb(aBoot + 4105, 'INFO', 'main', 'o.s.boot.web.embedded.tomcat.TomcatWebServer', 'Tomcat initialized with port(s): 8080 (http)');
  sb(aBoot + 4122, 'INFO', 'main', 'org.apache.catalina.core.StandardService', 'Starting service [Tomcat]');
  sb(aBoot + 4123, 'INFO', 'main', 'org.apache.catalina.core.StandardEngine', 'Starting Servlet engine: [Apache Tomcat/9.0.39]');
  sb(aBoot + 4301, 'INFO', 'main', 'o.a.c.c.C.[Tomcat].[localhost].[/]', 'Initializing Spring embedded WebApplicationContext');
  const aClientStart = t('14:35:16.240');
  cA.startup(aClientStart);
  sb(aClientStart + 40, 'INFO', 'main', 'com.acme.order.mq.OrderEventPublisher', `RocketMQ producer started, group=PID_ORDER, namesrvAddr=${NSCONF}, sendMsgTimeout=3000, retryTimesWhenSendFailed=2`);
  sb(aClientStart + 2210, 'INFO', 'main', 'o.s.s.concurrent.ThreadPoolTaskExecutor', "Initializing ExecutorService 'orderMqSender'");
  sb(aClientStart + 3122, 'INFO', 'main', 'o.s.boot.web.embedded.tomcat.TomcatWebServer', "Tomcat started on port(s): 8080 (http) with context path ''");
  sb(aClientStart + 3131, 'INFO', 'main', 'com.acme.order.OrderServiceApplication', 'Started OrderServiceApplication in 14.912 seconds (JVM running for 15.860)');

  // application B: plain Java service with logback (packaging data on)
  const bBoot = t('14:35:24.981');
  const lb = (tt, level, thread, logger, msg, stack) => appB.add(tt, { level, thread, logger: abbrev(logger, 36), msg, stack });
  lb(bBoot, 'INFO', 'main', 'com.acme.pay.notify.Bootstrap', 'pay-notify 2.3.1 starting, pid=17342');
  const bClientStart = t('14:35:26.497');
  cB.startup(bClientStart);
  lb(bClientStart + 44, 'INFO', 'main', 'com.acme.pay.notify.PayResultProducer', `producer PID_PAY started, namesrv=${NSCONF}`);
  lb(bClientStart + 391, 'INFO', 'main', 'com.acme.pay.notify.Bootstrap', 'pay-notify started in 1.907 s');

  const sendsA = appSchedule(rng, aClientStart + 4100, END, 2600, Array.from({ length: 8 }, (_, i) => `orderMqSender-${i + 1}`));
  const sendsB = appSchedule(rng, bClientStart + 2600, END, 3400, Array.from({ length: 6 }, (_, i) => `pay-callback-${i + 1}`));
  // one send in the seconds between the RST and the route change picks broker-a: connection refused, retried on broker-b
  {
    const w0 = t('14:53:41.000');
    const w1 = t('14:53:45.800');
    let s = sendsA.find((x) => x.t > w0 && x.t < w1);
    if (!s) {
      s = { t: t('14:53:42.517'), thread: 'orderMqSender-3' };
      sendsA.push(s);
      sendsA.sort((a, b) => a.t - b.t);
    }
    s.prefer = 'broker-a';
  }
  let orderNo = 381204;
  for (const s of sendsA) {
    s.order = `20201222${String(orderNo++).padStart(10, '0')}`;
    s.body = `{"orderId":"${s.order}","userId":${rng.int(100000, 999999)},"amount":${rng.int(9, 900)}.${p2(rng.int(0, 99))},"status":"CREATED"}`;
    s.tags = 'ORDER_CREATED';
    s.keys = s.order;
  }
  let payNo = 77120;
  for (const s of sendsB) {
    s.pay = `P20201222${String(payNo++).padStart(7, '0')}`;
    s.body = `{"payNo":"${s.pay}","result":"SUCCESS","channel":"${rng.pick(['ALIPAY', 'WECHAT', 'UNIONPAY'])}"}`;
    s.tags = 'PAY_RESULT';
    s.keys = s.pay;
  }

  const appErrA = [];
  const appErrB = [];
  const tooMuch = (v, frames) => [
    `org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException: ${M('send-call-timeout/producer')}`,
    fr(PKG.DPI, 'sendDefaultImpl', CLIENT_LINES[v].sendDefaultImpl_toomuch),
    fr(PKG.DPI, 'send', CLIENT_LINES[v].send_timeout),
    fr(PKG.DPI, 'send', CLIENT_LINES[v].send),
    fr(PKG.DP, 'send', CLIENT_LINES[v].dp_send),
    ...frames,
  ];
  runClient(cA, END, sendsA, (e, r) => {
    if (r.ok) {
      sb(r.t + 1, 'INFO', e.thread, 'com.acme.order.mq.OrderEventPublisher', `order event sent, orderId=${e.order}, msgId=${r.uniq}, queue=${r.mq.broker}:${r.mq.q}`);
    } else {
      if (r.error.kind !== 'callTimeout') throw new Error('unexpected failure kind in A');
      sb(r.t + 1, 'ERROR', e.thread, 'com.acme.order.mq.OrderEventPublisher', `order event send failed, orderId=${e.order}, it will be re-sent by the compensation job`, tooMuch('4.8.0', framesA));
      appErrA.push(r.t + 1);
    }
  });
  runClient(cB, END, sendsB, (e, r) => {
    if (r.ok) {
      lb(r.t + 1, 'INFO', e.thread, 'com.acme.pay.notify.PayResultProducer', `pay result sent, payNo=${e.pay}, msgId=${r.uniq}`);
    } else {
      if (r.error.kind !== 'callTimeout') throw new Error('unexpected failure kind in B');
      const tr = withPackaging(tooMuch('4.6.0', framesB), [
        ['org.apache.rocketmq.client.', 'rocketmq-client-4.6.0.jar:4.6.0'],
        ['com.acme.', 'pay-notify-2.3.1.jar:na'],
      ], 4);
      lb(r.t + 1, 'ERROR', e.thread, 'com.acme.pay.notify.PayResultProducer', `send pay result failed, payNo=${e.pay}`, tr);
      appErrB.push(r.t + 1);
    }
  });

  // --- broker-a (192.168.3.100) -----------------------------------------------------------------
  const A_OLDBOOT = T('2020-12-18 09:12:33.512');
  const offA0 = 2961874403;
  brokerPeriodic(S, FA, { v: V, from: START, to: HANG, boot: A_OLDBOOT, rng, maxOffset: (x) => offA0 + Math.round((x - START) * 1.9) });
  brokerPeriodic(S, FA, { v: V, from: A_BOOTED, to: END, boot: A_BOOTED, rng, maxOffset: (x) => 2963125965 + Math.round((x - A_BOOTED) * 1.9) });
  for (const x of aTicks) {
    regOkLine(FA, x + 3, outThread(), NS100);
    regOkLine(FA, x + 4, outThread(), NS101);
  }
  // boot registration, then every 30 s from 10 s after start
  regOkLine(FA, A_REG, outThread(), NS100);
  regOkLine(FA, A_REG + 3, outThread(), NS101);
  FA.broker.add(A_BOOTED, { level: 'INFO', thread: 'main', msg: M('startup/broker', { brokerName: 'broker-a', brokerAddr: A.addr, serializeType: 'JSON', namesrvAddr: NSCONF }, 'namesrv') });
  S.extra.brokerABootSuccess = A_BOOTED;
  for (let x = A_REG + 10 * SEC; x < END; x += 30 * SEC) {
    regOkLine(FA, x + 2, outThread(), NS100);
    regOkLine(FA, x + 3, outThread(), NS101);
  }
  // broker-a's own connections to the NameServers after boot
  const aPort100 = rng.int(32768, 60999);
  const aPort101 = rng.int(32768, 60999);
  for (const [ns, d] of [[NS100, 0], [NS101, 1]]) {
    const th = outThread();
    FA.remoting.add(A_REG - 6 + d, { level: 'INFO', thread: th, msg: `createChannel: begin to connect remote host[${ns}] asynchronously` });
    FA.remoting.add(A_REG - 5 + d, { level: 'INFO', thread: clientWorker(), msg: M('pipeline/client-connect', { local: 'UNKNOWN', addr: ns }) });
    FA.remoting.add(A_REG - 4 + d, { level: 'INFO', thread: th, msg: `createChannel: connect remote host[${ns}] success, DefaultChannelPromise@${jhash(rng)}(success)` });
  }

  // --- broker-b (192.168.3.101) -----------------------------------------------------------------
  const B_BOOT = T('2020-12-18 09:14:02.117');
  brokerPeriodic(S, FB, { v: V, from: START, to: END, boot: B_BOOT, rng, maxOffset: (x) => 2870331762 + Math.round((x - START) * 1.9) });
  const RST_B = t('14:53:39.655');
  let bTimeouts = 0;
  const bRegFails = [];
  for (let x = B_TICK0; x < END; x += 30 * SEC) {
    regOkLine(FB, x + 3, outThread(), NS101);
    if (x < HANG) {
      regOkLine(FB, x + 2, outThread(), NS100);
    } else if (x < RST_B) {
      const th = outThread();
      const te = x + 6000 + rng.int(1, 3);
      FB.remoting.add(te, { level: 'WARN', thread: th, msg: M('rpc-timeout/invoke-sync-wait', { addr: NS100 }) });
      const tr = srvTrace(V, [
        timeoutHead(NS100, 6000),
        'at org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:436)',
        'at org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:377)',
        'at org.apache.rocketmq.broker.out.BrokerOuterAPI.registerBroker(BrokerOuterAPI.java:193)',
        'at org.apache.rocketmq.broker.out.BrokerOuterAPI.access$000(BrokerOuterAPI.java:60)',
        'at org.apache.rocketmq.broker.out.BrokerOuterAPI$1.run(BrokerOuterAPI.java:149)',
        ...JDK_POOL,
      ], 3);
      FB.broker.add(te, { level: 'WARN', thread: th, msg: M('register-failed/register-broker-exception', { namesrvAddr: NS100 }), stack: tr });
      bTimeouts++;
      bRegFails.push(te);
    } else if (x < NS100_UP) {
      const th = outThread();
      FB.remoting.add(x + 1, { level: 'INFO', thread: th, msg: `createChannel: begin to connect remote host[${NS100}] asynchronously` });
      FB.remoting.add(x + 2, { level: 'INFO', thread: clientWorker(), msg: M('pipeline/client-connect', { local: 'UNKNOWN', addr: NS100 }) });
      FB.remoting.add(x + 3, {
        level: 'WARN', thread: th,
        msg: M('connect-failed/create-channel-failed', { addr: NS100, channelFuture: `DefaultChannelPromise@${jhash(rng)}(failure: ${refusedText(NS100)})` }),
        stack: srvTrace(V, refusedTrace('4.0.42', NS100), 1),
      });
      const tr = srvTrace(V, [
        connectHead(NS100),
        'at org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:394)',
        'at org.apache.rocketmq.broker.out.BrokerOuterAPI.registerBroker(BrokerOuterAPI.java:193)',
        'at org.apache.rocketmq.broker.out.BrokerOuterAPI.access$000(BrokerOuterAPI.java:60)',
        'at org.apache.rocketmq.broker.out.BrokerOuterAPI$1.run(BrokerOuterAPI.java:149)',
        ...JDK_POOL,
      ], 3);
      FB.broker.add(x + 4, { level: 'WARN', thread: th, msg: M('register-failed/register-broker-exception', { namesrvAddr: NS100 }), stack: tr });
      bRegFails.push(x + 4);
    } else {
      // NameServer 192.168.3.100 is back: new connection, first registration there
      const th = outThread();
      const port = rng.int(32768, 60999);
      if (!S.extra.bBackOn100) {
        S.extra.bBackOn100 = x + 5;
        FB.remoting.add(x + 1, { level: 'INFO', thread: th, msg: `createChannel: begin to connect remote host[${NS100}] asynchronously` });
        FB.remoting.add(x + 2, { level: 'INFO', thread: clientWorker(), msg: M('pipeline/client-connect', { local: 'UNKNOWN', addr: NS100 }) });
        FB.remoting.add(x + 3, { level: 'INFO', thread: th, msg: `createChannel: connect remote host[${NS100}] success, DefaultChannelPromise@${jhash(rng)}(success)` });
        srvConnect(NSF100, x + 3, codec(), `${B.ip}:${port}`);
        const rt = `RemotingExecutorThread_${rng.int(1, 8)}`;
        for (const tc of topicsB) {
          if (topicsA.some((y) => y.topic === tc.topic)) continue; // already registered by broker-a
          NSF100.add(x + 4, { level: 'INFO', thread: rt, msg: `new topic registered, ${tc.topic} ${queueData(V, 'broker-b', tc.q, tc.q, tc.perm)}` });
        }
        NSF100.add(x + 4, { level: 'INFO', thread: rt, msg: M('broker-registered/new-broker', { brokerAddr: B.addr, haAddr: B.ha }) });
      }
      regOkLine(FB, x + 5, th, NS100);
    }
  }
  // broker-b's connection to the old NameServer 192.168.3.100 is reset after the reboot
  {
    const w = clientWorker();
    FB.remoting.add(RST_B, { level: 'WARN', thread: w, msg: M('pipeline/client-exception', { addr: NS100 }) });
    FB.remoting.add(RST_B, { level: 'WARN', thread: w, msg: 'NETTY CLIENT PIPELINE: exceptionCaught exception.', stack: srvTrace(V, resetTrace('4.0.42'), 1) });
    FB.remoting.add(RST_B + 1, { level: 'INFO', thread: w, msg: M('channel-closed/removed', { addr: NS100 }) });
    FB.remoting.add(RST_B + 1, { level: 'INFO', thread: w, msg: M('pipeline/client-close', { addr: NS100 }) });
    FB.remoting.add(RST_B + 1, { level: 'INFO', thread: w, msg: 'eventCloseChannel: the channel[null] has been removed from the channel table before' });
    FB.remoting.add(RST_B + 2, { level: 'INFO', thread: 'NettyClientSelector_1', msg: M('channel-closed/connection-closed', { addr: NS100, result: true }) });
  }

  // --- NameServer 192.168.3.101 ------------------------------------------------------------------
  const NS101_BOOT = T('2020-12-18 09:10:41.409');
  nsKvPrint(NSF101, START, END, NS101_BOOT);
  {
    const x = EXP101;
    const aPortOld = 40126;
    NSF101.add(x, { level: 'WARN', thread: 'NSScheduledThread1', msg: M('broker-expired/addr', { brokerAddr: A.addr, idleMs: 120000 }) });
    NSF101.add(x, { level: 'INFO', thread: 'NSScheduledThread1', msg: M('broker-removed/remove-broker-addr', { brokerId: 0, brokerAddr: A.addr }) });
    NSF101.add(x, { level: 'INFO', thread: 'NSScheduledThread1', msg: M('broker-removed/remove-broker-name', { brokerName: 'broker-a' }) });
    NSF101.add(x, { level: 'INFO', thread: 'NSScheduledThread1', msg: 'remove brokerName[broker-a], clusterName[DefaultCluster] from clusterAddrTable, because channel destroyed' });
    // topicQueueTable is a HashMap: iterate in its order; broker-a owns a queue list in every topic it serves
    const allTopics = [...new Set([...topicsA.map((y) => y.topic), ...topicsB.map((y) => y.topic)])];
    for (const tp of javaHashOrder(allTopics, 1024)) {
      const ta = topicsA.find((y) => y.topic === tp);
      if (!ta) continue;
      NSF101.add(x, { level: 'INFO', thread: 'NSScheduledThread1', msg: `remove topic[${tp} ${queueData(V, 'broker-a', ta.q, ta.q, ta.perm)}], from topicQueueTable, because channel destroyed` });
      if (!topicsB.some((y) => y.topic === tp))
        NSF101.add(x, { level: 'INFO', thread: 'NSScheduledThread1', msg: `remove topic[${tp}] all queue, from topicQueueTable, because channel destroyed` });
    }
    NSF101.add(x + 1, { level: 'INFO', thread: selector(), msg: M('channel-closed/connection-closed', { addr: `${A.ip}:${aPortOld}`, result: true }) });
    srvDisconnect(NSF101, x + 1, codec(), `${A.ip}:${aPortOld}`);
  }
  // broker-a registers again after its reboot
  {
    srvConnect(NSF101, AREG101 - 2, codec(), `${A.ip}:${aPort101}`);
    const rt = `RemotingExecutorThread_${rng.int(1, 8)}`;
    for (const tc of topicsA) {
      if (!topicsB.some((y) => y.topic === tc.topic))
        NSF101.add(AREG101, { level: 'INFO', thread: rt, msg: `new topic registered, ${tc.topic} ${queueData(V, 'broker-a', tc.q, tc.q, tc.perm)}` });
    }
    NSF101.add(AREG101, { level: 'INFO', thread: rt, msg: M('broker-registered/new-broker', { brokerAddr: A.addr, haAddr: A.ha }) });
  }

  // --- NameServer 192.168.3.100 ------------------------------------------------------------------
  const NS100_OLDBOOT = T('2020-12-18 09:11:50.006');
  nsKvPrint(NSF100, START, HANG, NS100_OLDBOOT);
  nsKvPrint(NSF100, NS100_UP, END, NS100_START);
  {
    // broker-a's first registration on the fresh NameServer: every topic is new
    srvConnect(NSF100, A_REG - 3, codec(), `${A.ip}:${aPort100}`);
    const rt = `RemotingExecutorThread_${rng.int(1, 8)}`;
    for (const tc of topicsA) NSF100.add(A_REG + 1, { level: 'INFO', thread: rt, msg: `new topic registered, ${tc.topic} ${queueData(V, 'broker-a', tc.q, tc.q, tc.perm)}` });
    NSF100.add(A_REG + 1, { level: 'INFO', thread: rt, msg: M('broker-registered/new-broker', { brokerAddr: A.addr, haAddr: A.ha }) });
  }

  // --- operators' mqadmin / dashboard probes (short connections) ---------------------------------
  for (let x = t('14:35:40.000'); x < END; x += 5 * MIN) {
    const probe = (f, tt) => {
      const r = `192.168.3.50:${rng.int(40000, 65000)}`;
      const c = codec();
      srvConnect(f, tt, c, r);
      srvDisconnect(f, tt + rng.int(150, 900), c, r);
    };
    const j = rng.int(0, 4000);
    if (x + j < HANG || x + j > NS100_UP) probe(NSF100, x + j);
    probe(NSF101, x + j + 31);
    if (x + j < HANG || x + j > A_BOOTED) probe(FA.remoting, x + j + 212);
    probe(FB.remoting, x + j + 240);
  }

  // --- ground truth ----------------------------------------------------------------------------
  const firstOf = (a) => (a.length ? Math.min(...a) : null);
  const lastOf = (a) => (a.length ? Math.max(...a) : null);
  const rcA = cA.m.routeChanges.filter((x) => x.t > HANG);
  const rcB = cB.m.routeChanges.filter((x) => x.t > HANG);
  const dropA = rcA.find((x) => x.topic === 'TopicOrder' && !x.brokers.includes('broker-a'));
  const backA = rcA.find((x) => x.topic === 'TopicOrder' && x.brokers.includes('broker-a'));
  const dropB = rcB.find((x) => x.topic === 'TopicPay' && !x.brokers.includes('broker-a'));
  const backB = rcB.find((x) => x.topic === 'TopicPay' && x.brokers.includes('broker-a'));
  const swA = cA.m.nsChosen.find((x) => x.old !== null);
  const sendFailA = cA.m.sendTimeouts.map((x) => x.t);
  const sendFailB = cB.m.sendTimeouts.map((x) => x.t);
  // the last line 192.168.3.100 wrote before it froze
  const lastBefore = Math.max(...[NSF100, FA.broker, FA.remoting, FA.store, FA.wm].flatMap((f) => f.recs.filter((r) => r.t < HANG).map((r) => r.t)));
  const firstAfter = Math.min(...[NSF100, FA.broker, FA.remoting, FA.store, FA.wm].flatMap((f) => f.recs.filter((r) => r.t > HANG).map((r) => r.t)));

  const gt = {
    window: { from: iso(START), to: iso(END) },
    hang: {
      host: '192.168.3.100',
      start: iso(HANG),
      lastLogLineBefore: iso(lastBefore),
      firstLogLineAfter: iso(firstAfter),
      hostBack: iso(HOST_UP),
      nameServerBootSuccess: iso(NS100_UP),
      brokerBootSuccess: iso(A_BOOTED),
      silentSeconds: Math.round((firstAfter - lastBefore) / 1000),
    },
    brokerA: {
      lastRegistration: iso(lastRegA),
      expiredOn: { nameServer: NS101, at: iso(EXP101), sinceLastRegistrationSec: Math.round((EXP101 - lastRegA) / 1000), path: 'scanNotActiveBroker (The broker channel expired)' },
      registeredAgainOn: [
        { nameServer: NS100, at: iso(A_REG + 1) },
        { nameServer: NS101, at: iso(AREG101) },
      ],
    },
    brokerB: {
      registerFailuresTo100: bRegFails.length,
      registerTimeoutsTo100: bTimeouts,
      firstRegisterFailure: iso(firstOf(bRegFails)),
      lastRegisterFailure: iso(lastOf(bRegFails)),
      registeredAgainOn100: iso(S.extra.bBackOn100),
    },
    clients: {
      'app-order-01': {
        clientVersion: '4.8.0',
        clientLogMillis: 'real',
        boundNameServer: cA.m.nsChosen[0].addr,
        namesrvIndexAtStart: cA.m.nsChosen[0].index,
        firstSendFailure: iso(firstOf(sendFailA)),
        lastSendTimeout: iso(lastOf(sendFailA)),
        firstAppError: iso(firstOf(appErrA)),
        lastAppError: iso(lastOf(appErrA)),
        appErrors: appErrA.length,
        sendAttemptTimeouts: sendFailA.length,
        routeUpdateTimeouts: cA.m.routeTimeouts.length,
        firstRouteUpdateTimeout: iso(firstOf(cA.m.routeTimeouts)),
        lastRouteUpdateTimeout: iso(lastOf(cA.m.routeTimeouts)),
        heartbeatFailures: cA.m.hbFailed.length,
        connectionResets: cA.m.resets.map((x) => ({ at: iso(x.t), addr: x.addr })),
        connectRefused: cA.m.connectRefused.length,
        sendRequestFailed: cA.m.sendReqFailed.length,
        namesrvSwitch: swA ? { at: iso(swA.t), old: swA.old, new: swA.addr, namesrvIndex: swA.index } : null,
        routeLostBrokerA: dropA ? iso(dropA.t) : null,
        routeRegainedBrokerA: backA ? iso(backA.t) : null,
        outageSec: Math.round((lastOf(appErrA) - firstOf(appErrA)) / 1000),
        sendsOk: Object.values(cA.m.okByBroker).reduce((a, b) => a + b, 0),
      },
      'app-pay-01': {
        clientVersion: '4.6.0',
        clientLogMillis: 'fake (repeats the seconds)',
        boundNameServer: cB.m.nsChosen[0].addr,
        namesrvIndexAtStart: cB.m.nsChosen[0].index,
        firstSendFailure: iso(firstOf(sendFailB)),
        lastSendTimeout: iso(lastOf(sendFailB)),
        firstAppError: iso(firstOf(appErrB)),
        lastAppError: iso(lastOf(appErrB)),
        appErrors: appErrB.length,
        sendAttemptTimeouts: sendFailB.length,
        routeUpdateTimeouts: cB.m.routeTimeouts.length,
        heartbeatFailures: cB.m.hbFailed.length,
        idleClosed: cB.m.idle.map((x) => ({ at: iso(x.t), addr: x.addr })),
        namesrvSwitch: null,
        routeLostBrokerA: dropB ? iso(dropB.t) : null,
        routeRegainedBrokerA: backB ? iso(backB.t) : null,
        routeLostAfterHangSec: dropB ? Math.round((dropB.t - HANG) / 1000) : null,
        outageSec: Math.round((lastOf(appErrB) - firstOf(appErrB)) / 1000),
        sendsOk: Object.values(cB.m.okByBroker).reduce((a, b) => a + b, 0),
      },
    },
  };
  S.truth = gt;
  const C = gt.clients;
  S.doc = {
    title: 'seed-outage: a NameServer that hangs with its broker (10-minute send timeouts)',
    story: [
      'The outage of the seed article: two masters, broker-a on 192.168.3.100 and broker-b on 192.168.3.101, and a NameServer on each of the two hosts (`192.168.3.100:9876;192.168.3.101:9876`). All servers run 4.8.0.',
      `At ${clock(HANG)} host 192.168.3.100 freezes (memory fault, then a reboot with a long hardware self-test). Its broker and NameServer stop answering and stop logging, but the TCP connections to the host stay open, so nobody gets a connection error.`,
      `NameServer 192.168.3.101 notices nothing until its 10-second scan finds broker-a silent for more than 120 s: \`The broker channel expired\` at ${clock(EXP101)}, followed by the \`remove ... because channel destroyed\` lines (the expiry path prints no "the broker's channel destroyed" line).`,
      `app-pay-01 (client 4.6.0, fake millis) is bound to NameServer .101, so its route loses broker-a at its next 30-second poll (${clock(dropB.t)}, ${gt.clients['app-pay-01'].routeLostAfterHangSec} s after the hang began). Its sends to broker-a time out only until then.`,
      `app-order-01 (client 4.8.0, real millis) is bound to NameServer .100, the one that hangs. Every route poll times out after 3000 ms, but clientCloseSocketIfTimeout is false before 4.9.1, so the client keeps the dead connection and never tries the other NameServer. Its sends to broker-a keep failing with \`sendDefaultImpl call timeout\` for more than ten minutes.`,
      `When the host comes back (${clock(HOST_UP)}), the old connections get RSTs (\`Connection reset by peer\`). app-order-01 picks the other NameServer at ${clock(swA.t)} and its route drops broker-a at once, because broker-a has not registered yet. broker-a boots at ${clock(A_BOOTED)}; both clients regain it at their next poll.`,
    ],
    hosts: [
      ['mq-node-100', '192.168.3.100', 'broker-a (10911) and NameServer (9876), 4.8.0; silent from the hang to the reboot'],
      ['mq-node-101', '192.168.3.101', 'broker-b (10911) and NameServer (9876), 4.8.0'],
      ['app-order-01', '192.168.3.21', 'producer PID_ORDER, topic TopicOrder, client 4.8.0; Spring Boot app log (PID 23817)'],
      ['app-pay-01', '192.168.3.22', 'producer PID_PAY, topic TopicPay, client 4.6.0; plain logback app log with packaging data'],
    ],
    notes: [
      'The NameServers run with `serverChannelMaxIdleTimeSeconds=300` (visible in the property dump of the reboot at 192.168.3.100). With the default of 120 s, a silent broker connection on a 4.x NameServer is closed by the Netty idle handler 120 s after the last read, a few seconds before the 10-second expiry scan sees it, and the NameServer logs `NETTY SERVER PIPELINE: IDLE exception [...]` and `the broker\'s channel destroyed, ...` instead of `The broker channel expired`. The idle time is raised here so that the sample shows the expiry path.',
      'A read timeout takes the whole 3000 ms send budget, so a send that picks broker-a during the hang is never retried on broker-b: it ends with `RemotingTooMuchRequestException: sendDefaultImpl call timeout` (no "Send [N] times" exception). The client log shows one `sendKernelImpl exception, resend at once` WARN per such send.',
      'The 4.x inner logger writes no thread names. Client logs use CRLF line endings and end each stack trace with an empty line. 4.6.0 prints the seconds again in place of the milliseconds (`14:42:30,030`).',
      'Broker-side stacks (logback 1.0.13 in 4.8.0) carry packaging data such as `~[rocketmq-remoting-4.8.0.jar:4.8.0]`.',
      'NameServer 192.168.3.100 after its reboot: a fresh NameServer logs `new topic registered` for every topic of the first broker that registers.',
    ],
    truth: [
      ['hang of 192.168.3.100 begins', iso(HANG)],
      ['last line written on 192.168.3.100 before the hang', gt.hang.lastLogLineBefore],
      ['first line written on 192.168.3.100 after the reboot', gt.hang.firstLogLineAfter],
      ['host back on the network (RSTs start)', iso(HOST_UP)],
      ['NameServer 192.168.3.100 boot success', gt.hang.nameServerBootSuccess],
      ['broker-a boot success', gt.hang.brokerBootSuccess],
      ['broker-a last registration before the hang', gt.brokerA.lastRegistration],
      ['NameServer 192.168.3.101 expires broker-a (`The broker channel expired`)', `${iso(EXP101)} (${gt.brokerA.expiredOn.sinceLastRegistrationSec} s after the last registration)`],
      ['broker-a registered again on 192.168.3.101', iso(AREG101)],
      ['broker-b `registerBroker Exception, 192.168.3.100:9876`', `${gt.brokerB.registerFailuresTo100} (${gt.brokerB.registerTimeoutsTo100} timeouts of 6000 ms, then connection refused), ${gt.brokerB.firstRegisterFailure} .. ${gt.brokerB.lastRegisterFailure}`],
      ['app-order-01: bound NameServer / namesrvIndex', `${C['app-order-01'].boundNameServer} / ${C['app-order-01'].namesrvIndexAtStart}`],
      ['app-order-01: first failed send (client WARN = app ERROR)', C['app-order-01'].firstSendFailure],
      ['app-order-01: last app error', C['app-order-01'].lastAppError],
      ['app-order-01: app errors (`sendDefaultImpl call timeout`)', String(C['app-order-01'].appErrors)],
      ['app-order-01: route-update timeouts (`updateTopicRouteInfoFromNameServer Exception`)', `${C['app-order-01'].routeUpdateTimeouts}, ${C['app-order-01'].firstRouteUpdateTimeout} .. ${C['app-order-01'].lastRouteUpdateTimeout}`],
      ['app-order-01: heartbeat failures to broker-a', String(C['app-order-01'].heartbeatFailures)],
      ['app-order-01: connection resets', C['app-order-01'].connectionResets.map((x) => `${x.addr} at ${x.at}`).join('; ')],
      ['app-order-01: NameServer switch (`new name server is chosen. OLD: 192.168.3.100:9876`)', `${swA ? iso(swA.t) : '-'} (namesrvIndex = ${swA ? swA.index : '-'})`],
      ['app-order-01: route drops broker-a / regains it', `${C['app-order-01'].routeLostBrokerA} / ${C['app-order-01'].routeRegainedBrokerA}`],
      ['app-order-01: outage (first to last app error)', `${C['app-order-01'].outageSec} s`],
      ['app-pay-01: bound NameServer / namesrvIndex', `${C['app-pay-01'].boundNameServer} / ${C['app-pay-01'].namesrvIndexAtStart}`],
      ['app-pay-01: first failed send', C['app-pay-01'].firstSendFailure],
      ['app-pay-01: last app error', C['app-pay-01'].lastAppError],
      ['app-pay-01: app errors (`sendDefaultImpl call timeout`)', String(C['app-pay-01'].appErrors)],
      ['app-pay-01: heartbeat failures to broker-a', String(C['app-pay-01'].heartbeatFailures)],
      ['app-pay-01: route drops broker-a / regains it', `${C['app-pay-01'].routeLostBrokerA} (${C['app-pay-01'].routeLostAfterHangSec} s after the hang) / ${C['app-pay-01'].routeRegainedBrokerA}`],
      ['app-pay-01: idle close of its broker-a connection', C['app-pay-01'].idleClosed.map((x) => x.at).join(', ')],
      ['app-pay-01: outage (first to last app error)', `${C['app-pay-01'].outageSec} s`],
    ],
  };
  return S;
}


// ---------------------------------------------------------------------------------------------
// RocketMQ 5.1.x client (shaded logback, rmq.client.logback.xml layout)
// ---------------------------------------------------------------------------------------------

class Client5 {
  constructor(S, o) {
    Object.assign(this, o);
    this.S = S;
    this.rng = S.rng;
    this.rel = `${o.host}/rocketmq_client.log`;
    this.f = S.file(this.rel, 'client5', { pid: o.pid });
    this.instance = `${o.pid}#${o.nanoTime}`;
    this.clientId = `${o.ip}@${this.instance}`;
    this.ch = new Map();
    this.routes = new Map();
    this.tables = { [o.group]: new Map([['TBW102', DEFAULT_TPI]]), CLIENT_INNER_PRODUCER: new Map([['TBW102', DEFAULT_TPI]]) };
    this.bat = new Map();
    this.hbRound = 0;
    this.sched = 0;
    this.nsChosen = null;
    this.nsIndex = o.nsIndex0;
    this.tl = new Map();
    this.msgCounter = this.rng.int(0, 4000);
    this.m = { routeChanges: [], connectRefused: [], sendAttemptFailed: [], fin: [], nsChosen: [], okByBroker: {} };
    this.finDone = new Set();
  }
  static LOGGERS = {
    R: 'RocketmqRemoting',
    COMMON: 'RocketmqCommon',
    MCI: 'o.a.r.c.i.f.MQClientInstance',
    DPI: 'o.a.r.c.i.p.DefaultMQProducerImpl',
    MGR: 'o.a.r.c.i.MQClientManager',
    DP: 'o.a.r.c.p.DefaultMQProducer',
    PMS: 'o.a.r.c.i.c.PullMessageService',
    RBS: 'o.a.r.c.i.c.RebalanceService',
  };
  L(t, level, thread, lg, msg, stack) {
    this.f.add(t, { level, thread, logger: Client5.LOGGERS[lg], msg, stack });
  }
  worker() {
    return `NettyClientWorkerThread_${this.rng.int(1, 4)}`;
  }

  construct(t) {
    // new DefaultMQProducer(group): the accumulator is keyed by the client id built before start()
    this.L(t, 'INFO', 'main', 'MGR', `Created new ProduceAccumulator for clientId:[${this.ip}@DEFAULT]`);
  }
  startup(t) {
    const main = 'main';
    this.L(t, 'INFO', main, 'R', M('namesrv-list/updated', { addrs: this.nsList, old: null }));
    this.L(t, 'INFO', main, 'MCI', M('namesrv-list/user-specified', { addrs: this.namesrv }));
    this.L(t + 1, 'WARN', main, 'MGR', `Returned Previous ProduceAccumulator for clientId:[${this.ip}@DEFAULT]`);
    const cfg =
      `ClientConfig [namesrvAddr=${this.namesrv}, clientIP=${this.ip}, instanceName=${this.instance}, clientCallbackExecutorThreads=8, ` +
      'pollNameServerInterval=30000, heartbeatBrokerInterval=30000, persistConsumerOffsetInterval=5000, pullTimeDelayMillsWhenException=1000, ' +
      'unitMode=false, unitName=null, vipChannelEnabled=false, useTLS=false, socksProxyConfig={}, language=JAVA, namespace=null, mqClientApiTimeout=3000, ' +
      'decodeReadBody=true, decodeDecompressBody=true, sendLatencyEnable=false, startDetectorEnable=false, enableStreamRequestType=false, useHeartbeatV2=false]';
    this.L(t + 2, 'INFO', main, 'MCI', M('startup/client-instance', { instanceIndex: 0, clientId: this.clientId, clientConfig: cfg, clientVersion: 'V5_1_4', serializerType: 'JSON' }));
    this.L(t + 2, 'INFO', main, 'MGR', `Created new MQClientInstance for clientId:[${this.clientId}]`);
    const ts = t + 27;
    // NettyRemotingClient.start(): scanAvailableNameSrv runs at once and connects to every name server
    this.nsList.forEach((addr, i) => this.connect(ts + 1 + i, addr, `NettyClientScan_thread_${i + 1}`));
    for (const svc of ['PullMessageService', 'RebalanceService']) {
      this.L(ts + 3, 'INFO', main, 'COMMON', `Try to start service thread:${svc} started:false lastThread:null`);
      this.L(ts + 3, 'INFO', main, 'COMMON', `Start service thread:${svc} started:true lastThread:Thread[${svc},5,main]`);
      this.L(ts + 3, 'INFO', svc, svc === 'PullMessageService' ? 'PMS' : 'RBS', `${svc} service started`);
    }
    this.L(ts + 4, 'INFO', main, 'DPI', M('startup/producer', { group: 'CLIENT_INNER_PRODUCER', sendMessageWithVIPChannel: false }));
    this.L(ts + 4, 'INFO', main, 'MCI', M('startup/client-factory', { clientId: this.clientId }));
    this.L(ts + 6, 'INFO', main, 'DPI', M('startup/producer', { group: this.group, sendMessageWithVIPChannel: false }));
    for (const g of ['GuardForSyncSend', 'GuardForAsyncSend']) {
      const svc = `Client_${this.ip}@DEFAULT_${g}`;
      this.L(ts + 7, 'INFO', main, 'COMMON', `Try to start service thread:${svc} started:false lastThread:null`);
      this.L(ts + 7, 'INFO', main, 'COMMON', `Start service thread:${svc} started:true lastThread:Thread[${svc},5,main]`);
      this.L(ts + 7, 'INFO', svc, 'DP', `${svc} service started`);
    }
    this.routeT0 = ts + 10;
    this.hbT0 = ts + 1000;
  }

  connect(t, addr, thread) {
    const c = this.ch.get(addr);
    if (c && c.open) return { ok: true, t };
    this.L(t, 'INFO', thread, 'R', `createChannel: begin to connect remote host[${addr}] asynchronously`);
    this.L(t + 1, 'INFO', this.worker(), 'R', M('pipeline/client-connect', { local: 'UNKNOWN', addr: addr }));
    const r = this.world.connect(addr, t);
    if (r === 'ok') {
      const port = this.rng.int(32768, 60999);
      this.ch.set(addr, { open: true, created: t, port });
      this.L(t + 2, 'INFO', thread, 'R', `createChannel: connect remote host[${addr}] success, DefaultChannelPromise@${jhash(this.rng)}(success)`);
      this.world.onConnect?.(this, addr, t + 2, port);
      return { ok: true, t: t + 2 };
    }
    // 5.0.0 - 5.1.x: the failure is logged without a throwable
    this.L(t + 2, 'WARN', thread, 'R', M('connect-failed/create-channel-failed', { addr, channelFuture: `DefaultChannelPromise@${jhash(this.rng)}(failure: ${refusedText(addr)})` }));
    this.m.connectRefused.push(t + 2);
    return { ok: false, t: t + 2 };
  }
  /** the peer closed the connection (FIN): 5.1.3 - 5.3.0 log channelInactive and close the channel */
  tick(t) {
    for (const [addr, f] of Object.entries(this.finAt ?? {})) {
      if (f <= t && !this.finDone.has(addr)) {
        this.finDone.add(addr);
        const c = this.ch.get(addr);
        if (!c || !c.open || c.created >= f) continue;
        const w = this.worker();
        this.L(f, 'INFO', w, 'R', M('pipeline/client-inactive', { addr }));
        this.L(f, 'INFO', w, 'R', M('channel-closed/removed', { addr }));
        this.L(f + 1, 'INFO', w, 'R', M('pipeline/client-close', { addr }));
        this.L(f + 1, 'INFO', w, 'R', 'eventCloseChannel: the channel[null] has been removed from the channel table before');
        this.L(f + 1, 'INFO', 'NettyClientSelector_1', 'R', M('channel-closed/connection-closed', { addr, result: true }));
        c.open = false;
        this.m.fin.push({ t: f, addr });
      }
    }
  }
  applyRoute(t, topic, rd, thread) {
    const old = this.routes.get(topic);
    if (old && sameRoute(old, rd)) return false;
    const text = routeData('5.1.4', rd.queues, rd.brokers);
    this.L(t, 'INFO', thread, 'MCI', M('route-changed/changed', { topic, old: old ? old.text : 'null', new: text }));
    this.m.routeChanges.push({ t, topic, brokers: rd.brokers.map((b) => b.name).sort() });
    for (const b of rd.brokers) this.bat.set(b.name, b.addr);
    const mqs = [];
    for (const q of rd.queues.slice().sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!(q.perm & 2)) continue;
      for (let i = 0; i < q.w; i++) mqs.push({ broker: q.name, q: i });
    }
    const tpi = `TopicPublishInfo [orderTopic=false, messageQueueList=[${mqs.map((m) => mqText(topic, m.broker, m.q)).join(', ')}], sendWhichQueue=ThreadLocalIndex{threadLocalIndex=null}, haveTopicRouterInfo=true]`;
    for (const g of javaChmOrder([this.group, 'CLIENT_INNER_PRODUCER'])) {
      const prev = this.tables[g].get(topic);
      this.tables[g].set(topic, tpi);
      if (prev) this.L(t, 'INFO', thread, 'DPI', `updateTopicPublishInfo prev is not null, ${prev}`);
    }
    this.L(t, 'INFO', thread, 'MCI', `topicRouteTable.put. Topic = ${topic}, TopicRouteData[${text}]`);
    this.routes.set(topic, { ...rd, text, mqs });
    return true;
  }
  nsChannel(t, thread) {
    if (this.nsChosen && this.ch.get(this.nsChosen)?.open) return { t, addr: this.nsChosen };
    this.nsIndex++;
    const addr = this.nsList[Math.abs(this.nsIndex) % this.nsList.length];
    this.L(t, 'INFO', thread, 'R', M('namesrv-chosen/chosen', { old: this.nsChosen, new: addr, namesrvIndex: this.nsIndex }));
    this.m.nsChosen.push({ t, old: this.nsChosen, addr, index: this.nsIndex });
    this.nsChosen = addr;
    const r = this.connect(t, addr, thread);
    return { t: r.t, addr };
  }
  routePoll(t0) {
    const th = 'MQClientFactoryScheduledThread';
    let t = Math.max(t0, this.sched);
    this.tick(t);
    const ns = this.nsChannel(t, th);
    t = ns.t;
    for (const topic of javaHashOrder([...new Set(['TBW102', ...this.routes.keys()])])) {
      t += this.rng.int(1, 3);
      this.applyRoute(t, topic, this.world.route(ns.addr, topic, t), th);
    }
    this.sched = t + 1;
  }
  heartbeat(t0) {
    const th = 'MQClientFactoryScheduledThread';
    let t = Math.max(t0, this.sched);
    this.tick(t);
    for (const name of javaChmOrder([...this.bat.keys()])) {
      const addr = this.bat.get(name);
      if (![...this.routes.values()].some((r) => r.brokers.some((b) => b.addr === addr))) {
        this.L(t, 'INFO', th, 'MCI', `the broker addr[${name} ${addr}] is offline, remove it`);
        this.L(t, 'INFO', th, 'MCI', `the broker[${name}] name's host is offline, remove it`);
        this.bat.delete(name);
      }
    }
    const round = this.hbRound++;
    for (const name of javaChmOrder([...this.bat.keys()])) {
      const addr = this.bat.get(name);
      const cn = this.connect(t, addr, th);
      t = cn.t + this.rng.int(1, 3);
      if (!cn.ok) throw new Error('5.x heartbeat to a closed broker is not part of this sample');
      if (round % 20 === 0) {
        this.L(t, 'INFO', th, 'MCI', `send heart beat to broker[${name} 0 ${addr}] success`);
        this.L(t, 'INFO', th, 'MCI', `HeartbeatData [clientID=${this.clientId}, producerDataSet=[ProducerData [groupName=CLIENT_INNER_PRODUCER], ProducerData [groupName=${this.group}]], consumerDataSet=[]]`);
      }
      this.world.onHeartbeat?.(this, addr, t);
    }
    this.sched = t + 1;
  }
  send(t0, thread, body, tags, keys, prefer) {
    this.tick(t0);
    let t = t0;
    if (!this.routes.has(this.topic)) {
      this.tables[this.group].set(this.topic, DEFAULT_TPI);
      const ns = this.nsChannel(t, thread);
      t = ns.t + this.rng.int(2, 5);
      this.applyRoute(t, this.topic, this.world.route(ns.addr, this.topic, t), thread);
    }
    const uniq = uniqId(this.ip, this.pid, t0, this.msgCounter++);
    let last = null;
    for (let times = 0; times < 3; times++) {
      const mq = Client4.prototype.selectQueue.call(this, thread, this.routes.get(this.topic).mqs, last, prefer);
      last = mq.broker;
      const begin = t;
      const addr = this.bat.get(mq.broker);
      const cn = this.connect(t, addr, thread);
      if (!cn.ok) {
        const tEnd = cn.t + this.rng.int(0, 1);
        const invokeID = this.rng.javaLong();
        void invokeID; // 5.1.0 - 5.2.0 pass %s placeholders to SLF4J: the values never reach the line
        this.L(tEnd, 'WARN', thread, 'DPI', M('send-attempt-failed/unformatted'), [connectHead(addr), ...sendFrames('5.1.4', 'connect'), ...this.appFrames]);
        this.m.sendAttemptFailed.push({ t: tEnd, rt: tEnd - begin, broker: mq.broker });
        t = tEnd + 1;
        continue;
      }
      t = cn.t + this.rng.int(2, 8);
      this.m.okByBroker[mq.broker] = (this.m.okByBroker[mq.broker] ?? 0) + 1;
      return { ok: true, t, mq, uniq, attempts: times + 1 };
    }
    throw new Error('5.x send failed three times');
  }
}

// =============================================================================================
// Sample 2: healthy-restart
// =============================================================================================

/** move the records before `at` into a rotated sibling file */
function rotate(S, rel, at, olderRel, opts = {}) {
  const f = S.files.get(rel);
  const older = new LogFile(olderRel, f.layout, { ...f.opts, ...opts });
  older.recs = f.recs.filter((r) => r.t < at);
  f.recs = f.recs.filter((r) => r.t >= at);
  S.files.set(olderRel, older);
}

function healthyRestart() {
  const S = new Sample('healthy-restart', 0x4e517e57);
  const rng = S.rng;
  const D = '2024-03-12';
  const t = (x) => T(`${D} ${x}`);
  const V = '4.9.4';
  const START = t('09:58:00.000');
  const END = t('10:20:00.000');
  const NS1 = '10.10.1.11:9876';
  const NS2 = '10.10.1.12:9876';
  const NSCONF = `${NS1};${NS2}`;
  const A = { name: 'broker-a', ip: '10.10.1.21', addr: '10.10.1.21:10911', ha: '10.10.1.21:10912', host: 'mq-broker-a' };
  const B = { name: 'broker-b', ip: '10.10.1.22', addr: '10.10.1.22:10911', ha: '10.10.1.22:10912', host: 'mq-broker-b' };
  const FA = brokerFiles(S, A.host);
  const FB = brokerFiles(S, B.host);
  const NSF = { [NS1]: S.file('mq-ns-1/namesrv.log', 'server'), [NS2]: S.file('mq-ns-2/namesrv.log', 'server') };
  const APP_TOPICS = ['TopicShop', 'TopicStock'];
  const topicsA = brokerTopics('broker-a', APP_TOPICS);
  const topicsB = brokerTopics('broker-b', APP_TOPICS);
  const codec = () => `NettyServerCodecThread_${rng.int(1, 8)}`;
  const execT = () => `RemotingExecutorThread_${rng.int(1, 8)}`;
  const outT = () => `brokerOutApi_thread_${rng.int(1, 4)}`;

  // --- the planned restart of broker-a -------------------------------------------------------------
  const SHUT = t('10:08:30.412'); // `mqshutdown broker` -> SIGTERM -> ShutdownHook
  const FIN = SHUT + 6; // remotingServer.shutdown(): client connections closed
  const UNREG = SHUT + 1000 + 22 + 1043; // after messageStore.shutdown() (sleeps 1 s) and the scheduler
  const EXIT = UNREG + 61;
  const RESTART = SHUT + 40 * SEC; // the operator starts it again 40 s later
  const aBootEnd = brokerBoot(S, FA, RESTART, {
    v: V, name: 'broker-a', ip: A.ip, namesrv: NSCONF, abnormal: false, rng, loadMs: 2310,
    commitLogFiles: ['/home/rocketmq/store/commitlog/00000000002147483648', '/home/rocketmq/store/commitlog/00000000003221225472', '/home/rocketmq/store/commitlog/00000000004294967296'],
    maxPhyOffset: 4611905411,
  });
  const A_LISTEN = aBootEnd - 40;
  const A_REG = aBootEnd + 14;
  const A_BOOTED = A_REG + 8;

  // --- routes -------------------------------------------------------------------------------------
  const nameOrder = brokerNameSetOrder(['broker-a', 'broker-b']);
  const qOrder = javaHashOrder(['broker-a', 'broker-b']); // 4.9.4 keeps queue datas in a HashMap by broker name
  const regOn = (ns) => A_REG + (ns === NS1 ? 2 : 3);
  const route = (ns, topic, tt) => {
    const names = tt < UNREG + 3 || tt >= regOn(ns) ? ['broker-a', 'broker-b'] : ['broker-b'];
    return {
      queues: qOrder.filter((n) => names.includes(n)).map((n) => (topic === 'TBW102' ? { name: n, r: 8, w: 8, perm: 7 } : { name: n, r: 4, w: 4, perm: 6 })),
      brokers: nameOrder.filter((n) => names.includes(n)).map((n) => (n === 'broker-a' ? { name: n, addr: A.addr } : { name: n, addr: B.addr })),
    };
  };
  const hello = new Set();
  const world = {
    route,
    state(addr, tt, created) {
      if (addr === A.addr) return tt < FIN || (created >= A_LISTEN && tt >= A_LISTEN) ? 'up' : 'dead';
      return 'up';
    },
    connect(addr, tt) {
      if (addr === A.addr && tt >= FIN && tt < A_LISTEN) return 'refused';
      return 'ok';
    },
    conns: [],
    onConnect(c, addr, tt, port) {
      const remote = `${c.ip}:${port}`;
      c.ch.get(addr).remote = remote;
      world.conns.push({ addr, remote, t: tt });
      if (NSF[addr]) srvConnect(NSF[addr], tt, codec(), remote);
      else srvConnect(addr === A.addr ? FA.remoting : FB.remoting, tt, codec(), remote);
    },
    onHeartbeat(c, addr, tt) {
      const k = `${addr}|${c.clientId}|${c.ch.get(addr).created}`;
      if (hello.has(k)) return;
      hello.add(k);
      const F = addr === A.addr ? FA : FB;
      const th = `HeartbeatThread_${rng.int(1, 8)}`;
      const chText = `[id: 0x${rng.hex(8)}, L:/${addr} - R:/${c.ch.get(addr).remote}]`;
      const ver = c instanceof Client5 ? 441 : 401;
      for (const g of ['CLIENT_INNER_PRODUCER', c.group])
        F.broker.add(tt, { level: 'INFO', thread: th, msg: `new producer connected, group: ${g} channel: ClientChannelInfo [channel=${chText}, clientId=${c.clientId}, language=JAVA, version=${ver}, lastUpdateTimestamp=${tt}]` });
    },
  };

  // --- clients --------------------------------------------------------------------------------
  const shopFrames = [
    'at com.acme.shop.mq.CartEventProducer.send(CartEventProducer.java:52)',
    'at com.acme.shop.service.CheckoutService.checkout(CheckoutService.java:211)',
    'at com.acme.shop.service.CheckoutService.lambda$checkoutAsync$3(CheckoutService.java:160)',
    ...JDK_POOL,
  ];
  const stockFrames = [
    'at com.acme.stock.mq.StockChangeNotifier.notify(StockChangeNotifier.java:66)',
    'at com.acme.stock.service.StockService.deduct(StockService.java:134)',
    'at com.acme.stock.service.StockService.lambda$deductAsync$0(StockService.java:91)',
    ...JDK_POOL,
  ];
  const c1 = new Client4(S, {
    host: 'app-shop-01', v: V, ip: '10.10.2.31', pid: 2761, nanoTime: 52214093311876, group: 'PID_SHOP', topic: 'TopicShop',
    namesrv: NSCONF, nsList: [NS2, NS1], nsIndex0: 306, world, appFrames: shopFrames,
  });
  const c2 = new Client5(S, {
    host: 'app-stock-01', ip: '10.10.2.32', pid: 31234, nanoTime: 1729380117402641, group: 'PID_STOCK', topic: 'TopicStock',
    namesrv: NSCONF, nsList: [NS1, NS2], nsIndex0: 517, world, appFrames: stockFrames,
    finAt: { [A.addr]: FIN + 2 },
  });
  // 4.x clients log nothing when the peer closes: the channel is simply found inactive on next use
  c1.tick = ((orig) =>
    function (tt) {
      const ch = this.ch.get(A.addr);
      if (ch && ch.open && ch.created < FIN && tt >= FIN) ch.open = false;
      return orig.call(this, tt);
    })(c1.tick);

  const appShop = S.file('app-shop-01/app.log', 'spring', { pid: 2761 });
  const appStock = S.file('app-stock-01/app.log', 'spring', { pid: 31234 });
  const sb = (f) => (tt, level, thread, logger, msg) => f.add(tt, { level, thread, logger: abbrev(logger, 39), msg });
  const logShop = sb(appShop);
  const logStock = sb(appStock);
  const shopStart = t('09:58:12.304');
  logShop(shopStart - 10877, 'INFO', 'main', 'com.acme.shop.ShopApplication', 'Starting ShopApplication v2.14.1 using Java 1.8.0_192 on app-shop-01 with PID 2761 (/opt/apps/shop/shop-2.14.1.jar started by app in /opt/apps/shop)');
  logShop(shopStart - 10875, 'INFO', 'main', 'com.acme.shop.ShopApplication', 'The following 1 profile is active: "prod"');
  logShop(shopStart - 5120, 'INFO', 'main', 'o.s.boot.web.embedded.tomcat.TomcatWebServer', 'Tomcat initialized with port(s): 8080 (http)');
  c1.startup(shopStart);
  logShop(shopStart + 41, 'INFO', 'main', 'com.acme.shop.mq.CartEventProducer', `RocketMQ producer started, group=PID_SHOP, namesrvAddr=${NSCONF}`);
  logShop(shopStart + 2210, 'INFO', 'main', 'o.s.boot.web.embedded.tomcat.TomcatWebServer', "Tomcat started on port(s): 8080 (http) with context path ''");
  logShop(shopStart + 2219, 'INFO', 'main', 'com.acme.shop.ShopApplication', 'Started ShopApplication in 13.408 seconds (JVM running for 14.117)');
  const stockStart = t('10:00:41.771');
  logStock(stockStart - 9302, 'INFO', 'main', 'com.acme.stock.StockApplication', 'Starting StockApplication v5.2.0 using Java 1.8.0_192 on app-stock-01 with PID 31234 (/opt/apps/stock/stock-5.2.0.jar started by app in /opt/apps/stock)');
  logStock(stockStart - 9300, 'INFO', 'main', 'com.acme.stock.StockApplication', 'The following 1 profile is active: "prod"');
  c2.construct(stockStart - 412);
  c2.startup(stockStart);
  logStock(stockStart + 52, 'INFO', 'main', 'com.acme.stock.mq.StockChangeNotifier', `RocketMQ producer started, group=PID_STOCK, namesrvAddr=${NSCONF}`);
  logStock(stockStart + 1876, 'INFO', 'main', 'com.acme.stock.StockApplication', 'Started StockApplication in 11.249 seconds (JVM running for 11.978)');

  const sends1 = appSchedule(rng, shopStart + 2500, END, 3100, Array.from({ length: 6 }, (_, i) => `checkout-${i + 1}`), 50);
  const sends2 = appSchedule(rng, stockStart + 2100, END, 3700, Array.from({ length: 4 }, (_, i) => `stock-notify-${i + 1}`), 50);
  // one send of each application lands on broker-a between its restart and the route update
  for (const [arr, thread] of [[sends1, 'checkout-2'], [sends2, 'stock-notify-3']]) {
    const w0 = FIN + 3 * SEC;
    let s = arr.find((x) => x.t > w0 && x.t < w0 + 4 * SEC);
    if (!s) {
      s = { t: w0 + 1317, thread };
      arr.push(s);
      arr.sort((a, b) => a.t - b.t);
    }
    s.prefer = 'broker-a';
  }
  let cart = 7731021;
  for (const s of sends1) {
    s.cart = `C${cart++}`;
    s.body = `{"cartId":"${s.cart}","items":${rng.int(1, 6)},"total":${rng.int(5, 600)}.${p2(rng.int(0, 99))}}`;
    s.tags = 'CHECKOUT';
    s.keys = s.cart;
  }
  let sku = 40012;
  for (const s of sends2) {
    s.sku = `SKU-${sku + rng.int(0, 900)}`;
    s.body = `{"sku":"${s.sku}","delta":-${rng.int(1, 5)},"warehouse":"WH-${rng.int(1, 4)}"}`;
    s.tags = 'STOCK_DEDUCT';
    s.keys = s.sku;
  }
  const retried = { 'app-shop-01': 0, 'app-stock-01': 0 };
  runClient(c1, END, sends1, (e, r) => {
    if (!r.ok) throw new Error(`app-shop-01 send failed at ${fmtMs(e.t)}`);
    if (r.attempts > 1) retried['app-shop-01']++;
    logShop(r.t + 1, 'INFO', e.thread, 'com.acme.shop.mq.CartEventProducer', `checkout event sent, cartId=${e.cart}, msgId=${r.uniq}, status=SEND_OK`);
  });
  runClient(c2, END, sends2, (e, r) => {
    if (r.attempts > 1) retried['app-stock-01']++;
    logStock(r.t + 1, 'INFO', e.thread, 'com.acme.stock.mq.StockChangeNotifier', `stock change notified, sku=${e.sku}, msgId=${r.uniq}, status=SEND_OK`);
  });

  // --- brokers ------------------------------------------------------------------------------------
  const A_OLDBOOT = T('2024-03-04 16:22:41.907');
  const B_BOOT = T('2024-03-04 16:23:30.551');
  brokerPeriodic(S, FA, { v: V, from: START, to: SHUT, boot: A_OLDBOOT, rng, maxOffset: (x) => 4607312200 + Math.round((x - START) * 3.3) });
  brokerPeriodic(S, FA, { v: V, from: A_BOOTED, to: END, boot: A_BOOTED, rng, maxOffset: (x) => 4611905411 + Math.round((x - A_BOOTED) * 3.3) });
  brokerPeriodic(S, FB, { v: V, from: START, to: END, boot: B_BOOT, rng, maxOffset: (x) => 4588120945 + Math.round((x - START) * 3.3) });
  const nsReg = (ns, tt, br, first) => {
    const f = NSF[ns];
    const th = execT();
    f.add(tt, { level: 'INFO', thread: th, msg: M('broker-registered/master-address-change', { clusterName: 'DefaultCluster', brokerName: br.name, oldAddr: first ? 'null' : br.addr, brokerAddr: br.addr }) });
    if (first) {
      for (const tc of br === A ? topicsA : topicsB) {
        const other = br === A ? topicsB : topicsA;
        if (!other.some((y) => y.topic === tc.topic)) f.add(tt, { level: 'INFO', thread: th, msg: `new topic registered, ${tc.topic} ${queueData(V, br.name, tc.q, tc.q, tc.perm)}` });
      }
      f.add(tt, { level: 'INFO', thread: th, msg: M('broker-registered/new-broker', { brokerAddr: br.addr, haAddr: br.ha }) });
    }
  };
  // registrations every 30 s (4.9.4 NameServers log the "master address change" line every time)
  const aTick0 = A_OLDBOOT + 10 * SEC + 31;
  for (let x = aTick0; x < SHUT; x += 30 * SEC) {
    if (x < START) continue;
    regOkLine(FA, x + 2, outT(), NS1);
    regOkLine(FA, x + 3, outT(), NS2);
    nsReg(NS1, x + 1, A, false);
    nsReg(NS2, x + 2, A, false);
  }
  for (let x = B_BOOT + 10 * SEC + 18; x < END; x += 30 * SEC) {
    if (x < START) continue;
    regOkLine(FB, x + 2, outT(), NS1);
    regOkLine(FB, x + 2, outT(), NS2);
    nsReg(NS1, x + 1, B, false);
    nsReg(NS2, x + 1, B, false);
  }
  // broker-a comes back: connects to both NameServers and registers
  for (const ns of [NS1, NS2]) {
    const th = outT();
    const d = ns === NS1 ? 0 : 1;
    const port = rng.int(32768, 60999);
    FA.remoting.add(A_REG - 6 + d, { level: 'INFO', thread: th, msg: `createChannel: begin to connect remote host[${ns}] asynchronously` });
    FA.remoting.add(A_REG - 5 + d, { level: 'INFO', thread: `NettyClientWorkerThread_${rng.int(1, 4)}`, msg: M('pipeline/client-connect', { local: 'UNKNOWN', addr: ns }) });
    FA.remoting.add(A_REG - 4 + d, { level: 'INFO', thread: th, msg: `createChannel: connect remote host[${ns}] success, DefaultChannelPromise@${jhash(rng)}(success)` });
    srvConnect(NSF[ns], A_REG - 4 + d, codec(), `${A.ip}:${port}`);
    regOkLine(FA, regOn(ns) + 1, th, ns);
    nsReg(ns, regOn(ns), A, true);
  }
  FA.broker.add(A_BOOTED, { level: 'INFO', thread: 'main', msg: M('startup/broker', { brokerName: 'broker-a', brokerAddr: A.addr, serializeType: 'JSON', namesrvAddr: NSCONF }, 'namesrv') });
  for (let x = A_REG + 10 * SEC; x < END; x += 30 * SEC) {
    regOkLine(FA, x + 2, outT(), NS1);
    regOkLine(FA, x + 3, outT(), NS2);
    nsReg(NS1, x + 1, A, false);
    nsReg(NS2, x + 2, A, false);
  }

  // --- the shutdown of broker-a (ShutdownHook) ---------------------------------------------------
  {
    const H = 'ShutdownHook';
    const b = (tt, msg, level = 'INFO', thread = H) => FA.broker.add(tt, { level, thread, msg });
    const st = (tt, msg, level = 'INFO', thread = H) => FA.store.add(tt, { level, thread, msg });
    const rm = (tt, msg, level = 'INFO', thread = H) => FA.remoting.add(tt, { level, thread, msg });
    let x = SHUT;
    b(x, M('shutdown/broker-hook', { shutdownTimes: 1 }));
    const svc = (name, file = b, interrupt = false, joinMs = 0, endFile = b) => {
      file(x, `Try to shutdown service thread:${name} started:true lastThread:Thread[${name},5,main]`);
      file(x, `shutdown thread ${name} interrupt ${interrupt}`);
      endFile(x + joinMs, `${name} service end`, 'INFO', name);
      file(x + joinMs, `join thread ${name} elapsed time(ms) ${joinMs} 90000`);
      x += joinMs + 1;
    };
    svc('PullRequestHoldService', b, false, 1);
    // NettyRemotingServer.shutdown(): the server channels close (clients get a FIN), then NettyEventExecutor stops
    for (const k of world.conns.filter((y) => y.addr === A.addr && y.t < FIN)) srvDisconnect(FA.remoting, FIN, codec(), k.remote);
    rm(FIN + 3, 'shutdown thread NettyEventExecutor interrupt false');
    rm(FIN + 3, 'NettyEventExecutor service end', 'INFO', 'NettyEventExecutor');
    rm(FIN + 3, 'join thread NettyEventExecutor elapsed time(ms) 0 90000');
    rm(FIN + 4, 'shutdown thread NettyEventExecutor interrupt false');
    rm(FIN + 4, 'NettyEventExecutor service end', 'INFO', 'NettyEventExecutor');
    rm(FIN + 4, 'join thread NettyEventExecutor elapsed time(ms) 0 90000');
    x = FIN + 6;
    svc('FileWatchService', b, false, 0);
    // DefaultMessageStore.shutdown(): sleeps 1 s first
    x += 1000;
    svc('StoreStatsService', b, false, 1, st);
    st(x + 3, 'FlushRealTimeService service shutdown, retry 1 times OK', 'INFO', 'FlushRealTimeService');
    svc('FlushRealTimeService', b, false, 3, st);
    svc('ReputMessageService', b, false, 0, st);
    svc('FlushConsumeQueueService', b, false, 2, st);
    svc('AllocateMappedFileService', b, true, 0, st);
    x = UNREG;
    b(x, `unregisterBroker OK, NamesrvAddr: ${NS1}`);
    b(x + 2, `unregisterBroker OK, NamesrvAddr: ${NS2}`);
    // the NameServers drop broker-a at once
    for (const [ns, d] of [[NS1, 0], [NS2, 2]]) {
      const f = NSF[ns];
      const th = execT();
      const tt = x + d;
      f.add(tt, { level: 'INFO', thread: th, msg: M('broker-removed/unregister-live', { result: 'OK', brokerAddrInfo: A.addr }) });
      f.add(tt, { level: 'INFO', thread: th, msg: M('broker-removed/unregister-addr', { result: 'OK', brokerAddrInfo: A.addr }) });
      f.add(tt, { level: 'INFO', thread: th, msg: M('broker-removed/unregister-name', { brokerName: 'broker-a' }) });
      f.add(tt, { level: 'INFO', thread: th, msg: 'unregisterBroker, remove name from clusterAddrTable OK, broker-a' });
      const all = [...new Set([...topicsA.map((y) => y.topic), ...topicsB.map((y) => y.topic)])];
      for (const tp of javaHashOrder(all, 1024)) {
        const ta = topicsA.find((y) => y.topic === tp);
        if (!ta) continue;
        f.add(tt, { level: 'INFO', thread: th, msg: `removeTopicByBrokerName, remove one broker's topic ${tp} ${queueData(V, 'broker-a', ta.q, ta.q, ta.perm)}` });
        if (!topicsB.some((y) => y.topic === tp)) f.add(tt, { level: 'INFO', thread: th, msg: `removeTopicByBrokerName, remove the topic all queue ${tp}` });
      }
    }
    // brokerOuterAPI.shutdown(): the broker's own connections to the NameServers
    x += 9;
    for (const ns of [NS1, NS2]) {
      const w = `NettyClientWorkerThread_${rng.int(1, 4)}`;
      rm(x, `closeChannel: begin close the channel[${ns}] Found: true`);
      rm(x, M('channel-closed/removed', { addr: ns }));
      rm(x + 1, M('pipeline/client-close', { addr: ns }), 'INFO', w);
      rm(x + 1, 'eventCloseChannel: the channel[null] has been removed from the channel table before', 'INFO', w);
      rm(x + 1, M('channel-closed/connection-closed', { addr: ns, result: true }), 'INFO', 'NettyClientSelector_1');
      srvDisconnect(NSF[ns], x + 1, codec(), `${A.ip}:${rng.int(32768, 60999)}`);
      x += 1;
    }
    x += 3;
    rm(x, 'shutdown thread NettyEventExecutor interrupt false');
    rm(x, 'NettyEventExecutor service end', 'INFO', 'NettyEventExecutor');
    rm(x, 'join thread NettyEventExecutor elapsed time(ms) 0 90000');
    b(x, 'Try to shutdown service thread:TransactionalMessageCheckService started:true lastThread:Thread[TransactionalMessageCheckService,5,main]');
    b(x, 'shutdown thread TransactionalMessageCheckService interrupt false');
    b(x + 1, 'End transaction check service thread!', 'INFO', 'TransactionalMessageCheckService');
    b(x + 1, 'join thread TransactionalMessageCheckService elapsed time(ms) 1 90000');
    b(EXIT, M('shutdown/broker-hook-over', { consumingTimeTotal: EXIT - SHUT }));
    S.extra.shutdownOver = EXIT;
  }

  // --- NameServers -------------------------------------------------------------------------------
  nsKvPrint(NSF[NS1], START, END, T('2024-03-04 16:19:02.331'));
  nsKvPrint(NSF[NS2], START, END, T('2024-03-04 16:19:40.118'));
  for (let x = t('09:59:20.000'); x < END; x += 5 * MIN) {
    for (const [f, d] of [[NSF[NS1], 0], [NSF[NS2], 37], [FB.remoting, 212], [FA.remoting, 240]]) {
      const tt = x + d + rng.int(0, 900);
      if (f === FA.remoting && tt > SHUT - 2000 && tt < A_BOOTED) continue;
      const r = `10.10.9.15:${rng.int(40000, 65000)}`;
      const c = codec();
      srvConnect(f, tt, c, r);
      srvDisconnect(f, tt + rng.int(150, 900), c, r);
    }
  }

  // rotated files: the broker log rolled into otherdays/ (gzip), the 4.x client log rolled to .1
  rotate(S, `${A.host}/broker.log`, t('10:04:00.000'), `${A.host}/otherdays/broker.1.log.gz`, { gzip: true });
  rotate(S, 'app-shop-01/rocketmq_client.log', t('10:03:00.000'), 'app-shop-01/rocketmq_client.log.1');

  // --- ground truth ----------------------------------------------------------------------------
  const dropOf = (c, topic) => c.m.routeChanges.find((r) => r.topic === topic && !r.brokers.includes('broker-a'));
  const backOf = (c, topic) => c.m.routeChanges.find((r) => r.topic === topic && r.brokers.includes('broker-a') && r.t > SHUT);
  const d1 = dropOf(c1, 'TopicShop');
  const b1 = backOf(c1, 'TopicShop');
  const d2 = dropOf(c2, 'TopicStock');
  const b2 = backOf(c2, 'TopicStock');
  S.truth = {
    window: { from: iso(START), to: iso(END) },
    restart: {
      broker: 'broker-a',
      addr: A.addr,
      shutdownHookInvoked: iso(SHUT),
      unregisteredFromNameServers: iso(UNREG),
      shutdownHookOver: iso(EXIT),
      started: iso(RESTART),
      bootSuccess: iso(A_BOOTED),
      registeredAgain: { [NS1]: iso(regOn(NS1)), [NS2]: iso(regOn(NS2)) },
      downSec: Math.round((A_BOOTED - SHUT) / 1000),
      nameServerPath: 'unregisterBroker (no expiry, no "channel destroyed" line)',
    },
    clients: {
      'app-shop-01': {
        clientVersion: '4.9.4',
        layout: 'inner logger 4.x, CRLF, real millis',
        rotatedFile: 'app-shop-01/rocketmq_client.log.1',
        boundNameServer: c1.m.nsChosen[0].addr,
        routeLostBrokerA: d1 ? iso(d1.t) : null,
        routeLostAfterShutdownSec: d1 ? Math.round((d1.t - SHUT) / 1000) : null,
        routeRegainedBrokerA: b1 ? iso(b1.t) : null,
        connectRefused: c1.m.connectRefused.map(iso),
        sendAttemptsFailed: c1.m.connectRefused.length,
        sendsRetriedOk: retried['app-shop-01'],
        appErrors: 0,
        heartbeatFailures: c1.m.hbFailed.length,
      },
      'app-stock-01': {
        clientVersion: '5.1.4',
        layout: 'logback 5.1.x: yyyy-MM-dd HH:mm:ss.SSS LEVEL [pid] [thread] [logger#?:?] - msg, LF',
        boundNameServer: c2.m.nsChosen[0].addr,
        channelInactive: c2.m.fin.map((x) => ({ at: iso(x.t), addr: x.addr })),
        routeLostBrokerA: d2 ? iso(d2.t) : null,
        routeLostAfterShutdownSec: d2 ? Math.round((d2.t - SHUT) / 1000) : null,
        routeRegainedBrokerA: b2 ? iso(b2.t) : null,
        connectRefused: c2.m.connectRefused.map(iso),
        sendAttemptsFailed: c2.m.sendAttemptFailed.length,
        sendsRetriedOk: retried['app-stock-01'],
        appErrors: 0,
      },
    },
  };
  const H = S.truth;
  const K1 = H.clients['app-shop-01'];
  const K2 = H.clients['app-stock-01'];
  S.doc = {
    title: 'healthy-restart: a planned broker restart that the clients ride through',
    story: [
      `A healthy 4.9.4 cluster: NameServers on their own hosts (mq-ns-1, mq-ns-2), broker-a and broker-b on mq-broker-a and mq-broker-b. At ${clock(SHUT)} an operator stops broker-a (\`mqshutdown broker\`): its ShutdownHook closes the client connections, stops the store, unregisters from both NameServers (\`unregisterBroker OK, NamesrvAddr: ...\`) and exits at ${clock(EXIT)}.`,
      'The NameServers drop broker-a at once (`unregisterBroker, remove from brokerLiveTable OK, ...` and the `removeTopicByBrokerName` lines): no 120 s expiry, no "channel destroyed" line. 4.9.4 NameServers log `cluster [DefaultCluster] brokerName [...] master address change from X to X` on every registration, so their logs are busy with that line every 30 s per broker.',
      `The clients see the route change at their next poll (app-shop-01 after ${K1.routeLostAfterShutdownSec} s, app-stock-01 after ${K2.routeLostAfterShutdownSec} s). Before that, one send of each picks broker-a, fails fast with a refused connection and is retried on broker-b, so the applications see no error.`,
      `broker-a is started again 40 s later, boots (${clock(A_BOOTED)}) and registers; both clients regain it at their next poll.`,
    ],
    hosts: [
      ['mq-ns-1', '10.10.1.11', 'NameServer 4.9.4'],
      ['mq-ns-2', '10.10.1.12', 'NameServer 4.9.4'],
      ['mq-broker-a', '10.10.1.21', 'broker-a 4.9.4, restarted; broker.log rolled once into otherdays/broker.1.log.gz'],
      ['mq-broker-b', '10.10.1.22', 'broker-b 4.9.4'],
      ['app-shop-01', '10.10.2.31', 'producer PID_SHOP, topic TopicShop, client 4.9.4 (CRLF, real millis); rocketmq_client.log rolled once into rocketmq_client.log.1'],
      ['app-stock-01', '10.10.2.32', 'producer PID_STOCK, topic TopicStock, client 5.1.4 (logback layout, LF, `[pid] [thread] [logger#?:?]`)'],
    ],
    notes: [
      'A 4.x client logs nothing when the broker closes the connection; the channel is found inactive at the next use and reconnected. The 5.1.4 client logs `NETTY CLIENT PIPELINE: channelInactive, the channel[...]` at once.',
      '5.1.0-5.2.0 pass `%s` placeholders to SLF4J, so the 5.1.4 client writes `sendKernelImpl exception, resend at once, InvokeID: %s, RT: %sms, Broker: %s` literally; the stack trace follows without an empty line (logback). In 5.1.x the message body line is only at DEBUG.',
      'The 5.1.4 client connects to every NameServer at start (scanAvailableNameSrv), and logs `Returned Previous ProduceAccumulator for clientId:[10.10.2.32@DEFAULT]` because the internal producer asks for the accumulator under the pre-start client id.',
      'The rotated files split one stream: rocketmq_client.log.1 is older than rocketmq_client.log (4.x index 1 = newest rolled), and otherdays/broker.1.log.gz (gzip) is older than broker.log.',
    ],
    truth: [
      ['broker-a ShutdownHook invoked', H.restart.shutdownHookInvoked],
      ['broker-a unregistered from both NameServers', H.restart.unregisteredFromNameServers],
      ['broker-a ShutdownHook over', H.restart.shutdownHookOver],
      ['broker-a started again / boot success', `${H.restart.started} / ${H.restart.bootSuccess}`],
      ['broker-a registered again', Object.entries(H.restart.registeredAgain).map(([k, v]) => `${k} ${v}`).join('; ')],
      ['app-shop-01: route drops / regains broker-a', `${K1.routeLostBrokerA} / ${K1.routeRegainedBrokerA}`],
      ['app-shop-01: failed attempts (connection refused, retried OK)', `${K1.sendAttemptsFailed} at ${K1.connectRefused.join(', ')}`],
      ['app-stock-01: channelInactive on broker-a', K2.channelInactive.map((x) => x.at).join(', ')],
      ['app-stock-01: route drops / regains broker-a', `${K2.routeLostBrokerA} / ${K2.routeRegainedBrokerA}`],
      ['app-stock-01: failed attempts (connection refused, retried OK)', `${K2.sendAttemptsFailed} at ${K2.connectRefused.join(', ')}`],
      ['application errors', '0 (both apps)'],
    ],
  };
  return S;
}


// =============================================================================================
// Sample 3: broker-busy
// =============================================================================================

function brokerBusy() {
  const S = new Sample('broker-busy', 0xb05e2023);
  const rng = S.rng;
  const D = '2023-06-14';
  const t = (x) => T(`${D} ${x}`);
  const V = '4.9.4';
  const START = t('20:00:00.000');
  const END = t('20:20:00.000');
  const NS1 = '192.168.1.5:9876';
  const NS2 = '192.168.1.6:9876';
  const NSCONF = `${NS1};${NS2}`;
  const BA = { name: 'broker-a', addr: '192.168.1.11:10911' };
  const BB = { name: 'broker-b', addr: '192.168.1.12:10911', ip: '192.168.1.12', host: 'mq-broker-b' };
  const F = {
    broker: S.file(`${BB.host}/broker.log`, 'server'),
    remoting: S.file(`${BB.host}/remoting.log`, 'server'),
    store: S.file(`${BB.host}/store.log`, 'server'),
    wm: S.file(`${BB.host}/watermark.log`, 'watermark'),
  };
  const codec = () => `NettyServerCodecThread_${rng.int(1, 8)}`;

  // --- episode 1: steady overload (the send queue backs up, the head waits ~200 ms) -------------
  const E1_FROM = t('20:05:12.000');
  const E1_TO = t('20:07:44.000');
  const PEAK = 2480;
  const shape = (x) => {
    const ph = (x - E1_FROM) / (E1_TO - E1_FROM);
    if (ph < 0 || ph > 1) return 0;
    if (ph < 0.14) return ph / 0.14;
    if (ph > 0.86) return (1 - ph) / 0.14;
    return 0.78 + 0.22 * Math.sin(ph * 9.1);
  };
  const wm1 = new Map(); // second -> {send, slow}
  for (let x = E1_FROM - 2 * SEC; x < E1_TO + 3 * SEC; x += SEC) {
    const sh = shape(x);
    const size = Math.max(0, Math.round(PEAK * sh * (0.82 + rng.next() * 0.3)));
    const slow = size > 60 ? Math.min(209, 148 + rng.int(0, 64)) : size > 0 ? rng.int(20, 140) : 0;
    wm1.set(Math.floor(x / SEC), { send: size, slow });
  }
  const rej1 = [];
  for (let x = E1_FROM; x < E1_TO; x += rng.exp(2600)) {
    const sh = shape(x);
    if (sh < 0.25 || !rng.chance(Math.min(1, sh * 1.1))) continue;
    const w = wm1.get(Math.floor(x / SEC));
    const wait = 200 + rng.int(0, 9);
    const size = Math.max(40, w.send - rng.int(0, 25));
    rej1.push({ tEnd: Math.round(x), wait, size, ep: 1 });
  }

  // --- episode 2: stop-the-world pauses on the broker (the cleaner is paused too) ----------------
  const pauses = [
    { at: t('20:13:21.318'), len: 392, queued: 35 },
    { at: t('20:13:33.904'), len: 603, queued: 41 },
    { at: t('20:13:46.127'), len: 790, queued: 47 },
  ];
  const rej2 = [];
  for (const p of pauses) {
    const end = p.at + p.len;
    let arrived = 0;
    // the head is the oldest request: it was queued ~9 ms before the pause began
    for (let i = 0; i < p.queued; i++) {
      const pre = Math.max(0, 9 - Math.floor((i * 10) / p.queued));
      if (i > 2 && rng.chance(0.3)) arrived++;
      rej2.push({ tEnd: end + 1 + Math.floor(i / 12), wait: p.len + pre, size: p.queued - 1 - i + arrived, ep: 2, pause: p, idx: i });
    }
    p.max = p.len + 9;
  }

  // --- clients ---------------------------------------------------------------------------------
  const world = {
    route(ns, topic) {
      const names = ['broker-a', 'broker-b'];
      return {
        queues: names.map((n) => (topic === 'TBW102' ? { name: n, r: 8, w: 8, perm: 7 } : { name: n, r: 8, w: 8, perm: 6 })),
        brokers: brokerNameSetOrder(names).map((n) => (n === 'broker-a' ? BA : BB)),
      };
    },
    state: () => 'up',
    connect: () => 'ok',
    onConnect(c, addr, tt, port) {
      c.ch.get(addr).remote = `${c.ip}:${port}`;
      if (addr === BB.addr) {
        const ct = codec();
        F.remoting.add(tt, { level: 'INFO', thread: ct, msg: M('pipeline/server-registered', { addr: `${c.ip}:${port}` }) });
        F.remoting.add(tt, { level: 'INFO', thread: ct, msg: M('pipeline/server-active', { addr: `${c.ip}:${port}` }) });
      }
    },
    onHeartbeat(c, addr, tt) {
      if (addr !== BB.addr || c.helloB) return;
      c.helloB = true;
      const th = `HeartbeatThread_${rng.int(1, 8)}`;
      const chText = `[id: 0x${rng.hex(8)}, L:/${addr} - R:/${c.ch.get(addr).remote}]`;
      for (const g of ['CLIENT_INNER_PRODUCER', c.group])
        F.broker.add(tt, { level: 'INFO', thread: th, msg: `new producer connected, group: ${g} channel: ClientChannelInfo [channel=${chText}, clientId=${c.clientId}, language=JAVA, version=401, lastUpdateTimestamp=${tt}]` });
    },
  };
  const apps = [
    { host: 'app-feed-01', ip: '192.168.1.31', pid: 4711, nano: 1384467298751204, start: t('20:00:07.412'), layout: 'spring' },
    { host: 'app-feed-02', ip: '192.168.1.32', pid: 5123, nano: 1390173355802917, start: t('20:00:33.057'), layout: 'logback' },
  ];
  const appFrames = [
    'at com.acme.feed.mq.FeedEventProducer.publish(FeedEventProducer.java:77)',
    'at com.acme.feed.service.FeedFanoutService.fanout(FeedFanoutService.java:143)',
    'at com.acme.feed.service.FeedFanoutService.lambda$submit$2(FeedFanoutService.java:98)',
    ...JDK_POOL,
  ];
  for (const a of apps) {
    a.c = new Client4(S, {
      host: a.host, v: V, ip: a.ip, pid: a.pid, nanoTime: a.nano, group: 'PID_FEED', topic: 'TopicFeed',
      namesrv: NSCONF, nsList: a.host === 'app-feed-01' ? [NS2, NS1] : [NS1, NS2], nsIndex0: a.host === 'app-feed-01' ? 640 : 215,
      world, appFrames,
    });
    a.file = a.layout === 'spring' ? S.file(`${a.host}/app.log`, 'spring', { pid: a.pid }) : S.file(`${a.host}/app.log`, 'logback');
    a.log = (tt, level, thread, logger, msg, stack) =>
      a.file.add(tt, { level, thread, logger: abbrev(logger, a.layout === 'spring' ? 39 : 36), msg, stack });
    a.errors = [];
    a.busy = [];
  }
  // application start-up
  for (const a of apps) {
    const b = a.start - 9871;
    if (a.layout === 'spring') {
      a.log(b, 'INFO', 'main', 'com.acme.feed.FeedServiceApplication', `Starting FeedServiceApplication v3.8.0 on ${a.host} with PID ${a.pid} (/opt/apps/feed-service/feed-service-3.8.0.jar started by app in /opt/apps/feed-service)`);
      a.log(b + 2, 'INFO', 'main', 'com.acme.feed.FeedServiceApplication', 'The following profiles are active: prod');
      a.log(b + 5120, 'INFO', 'main', 'o.s.boot.web.embedded.tomcat.TomcatWebServer', 'Tomcat initialized with port(s): 8080 (http)');
    } else {
      a.log(b, 'INFO', 'main', 'com.acme.feed.Bootstrap', `feed-worker 3.8.0 starting on ${a.host}, pid=${a.pid}`);
    }
    a.c.startup(a.start);
    a.log(a.start + 38, 'INFO', 'main', 'com.acme.feed.mq.FeedEventProducer', `producer PID_FEED started, namesrvAddr=${NSCONF}, sendMsgTimeout=3000`);
    if (a.layout === 'spring') a.log(a.start + 1874, 'INFO', 'main', 'com.acme.feed.FeedServiceApplication', 'Started FeedServiceApplication in 11.703 seconds (JVM running for 12.561)');
    else a.log(a.start + 655, 'INFO', 'main', 'com.acme.feed.Bootstrap', 'feed-worker started in 10.52 s');
    const first = { t: a.start + 2303, thread: 'feed-fanout-1', body: '{"feedId":0,"warmup":true}', tags: 'WARMUP', keys: null };
    runClient(a.c, END, [first], () => {});
  }
  // split the rejections between the two applications (they are two of many producers)
  let feedId = 88120451;
  const threads = Array.from({ length: 16 }, (_, i) => `feed-fanout-${i + 1}`);
  const ours = [];
  for (const r of rej1) ours.push({ ...r, app: apps[rng.int(0, 1)] });
  for (const r of rej2) {
    // the oldest request of every pause is one of ours, so the maximum wait is visible client-side
    if (r.idx === 0 || rng.chance(0.28)) ours.push({ ...r, app: r.idx === 0 ? apps[pauses.indexOf(r.pause) % 2] : apps[rng.int(0, 1)] });
  }
  ours.sort((a, b) => a.tEnd - b.tEnd);
  for (const r of ours) {
    const a = r.app;
    const rt = r.wait + rng.int(1, 3);
    const tEnd = r.tEnd + rng.int(0, 2);
    const tStart = tEnd - rt;
    const mq = { broker: 'broker-b', q: rng.int(0, 7) };
    const id = feedId++;
    const body = `{"feedId":${id},"authorId":${rng.int(10000, 99999)},"type":"${rng.pick(['POST', 'REPOST', 'LIKE'])}","ts":${tStart}}`;
    const thread = rng.pick(threads);
    const { trace } = a.c.busyReply(tStart, tEnd, mq, busyRemark(r.wait, r.size), BB.addr, body, 'FEED', String(id));
    a.log(tEnd + 1, 'ERROR', thread, 'com.acme.feed.mq.FeedEventProducer', `publish feed event failed, feedId=${id}, topic=TopicFeed`, trace);
    a.errors.push(tEnd + 1);
    a.busy.push({ t: tEnd, wait: r.wait, size: r.size, ep: r.ep });
  }
  // per-10-second publisher statistics
  for (const a of apps) {
    for (let x = a.start + 10 * SEC + 3; x < END; x += 10 * SEC) {
      const failed = a.busy.filter((b) => b.t > x - 10 * SEC && b.t <= x).length;
      const inE1 = shape(x) > 0;
      const sent = Math.round((inE1 ? 4200 : 1900) * (0.85 + rng.next() * 0.3));
      const avg = inE1 ? rng.int(118, 196) : x > pauses[0].at && x < pauses[2].at + 20 * SEC ? rng.int(9, 31) : rng.int(2, 4);
      a.log(x, 'INFO', 'feed-stats', 'com.acme.feed.mq.FeedEventProducer', `feed publisher stats: sent=${sent}, failed=${failed}, avgRt=${avg}ms`);
    }
  }

  // --- broker-b logs -------------------------------------------------------------------------------
  const BOOT = T('2023-06-13 23:41:08.266');
  const pauseLine = new Map(); // second -> watermark override
  pauseLine.set(Math.floor((pauses[1].at + pauses[1].len) / SEC), { send: pauses[1].queued + 3, slow: pauses[1].len + 1 });
  pauseLine.set(Math.floor((pauses[2].at + pauses[2].len) / SEC), { send: pauses[2].queued + 2, slow: pauses[2].len + 7 });
  pauseLine.set(Math.floor((pauses[0].at + pauses[0].len) / SEC), { send: 6, slow: 14 });
  const minuteOf = (x) => Math.floor((x - START) / MIN);
  brokerPeriodic(S, F, {
    v: V, from: START, to: END, boot: BOOT, rng,
    maxOffset: (x) => 58213400442 + Math.round((x - START) * 610),
    watermark(x) {
      const k = Math.floor(x / SEC);
      if (pauseLine.has(k)) return pauseLine.get(k);
      if (wm1.has(k)) return wm1.get(k);
      const busy = rng.chance(0.35);
      return { send: busy ? rng.int(1, 18) : 0, slow: busy ? rng.int(0, 9) : 0, pull: rng.chance(0.1) ? rng.int(1, 3) : 0 };
    },
    storeStats(x) {
      // the minute that just ended (StoreStatsService prints at x)
      const inE1 = shape(x - 30 * SEC) > 0 || shape(x - 5 * SEC) > 0;
      const hasPauses = pauses.filter((p) => p.at <= x && p.at > x - MIN - SEC);
      const base = inE1 ? 152000 : 64000;
      const total = Math.round(base * (0.9 + rng.next() * 0.2));
      const c = new Array(13).fill(0);
      c[5] = hasPauses.length * 4;
      c[6] = hasPauses.filter((p) => p.len >= 500).length * 4;
      c[5] -= hasPauses.filter((p) => p.len >= 500).length * 4;
      c[4] = inE1 ? rng.int(40, 160) : 0;
      c[3] = inE1 ? rng.int(300, 900) : rng.int(0, 2);
      c[2] = inE1 ? rng.int(9000, 16000) : rng.int(20, 90);
      c[1] = Math.round((total - c.reduce((a, b) => a + b, 0)) * (inE1 ? 0.7 : 0.42));
      c[0] = total - c.reduce((a, b) => a + b, 0);
      const st = defaultStoreStats(rng, 0, c);
      if (inE1) st.p99 = (52 + rng.next() * 30).toFixed(2);
      if (inE1) st.p999 = (Number(st.p99) + 40 + rng.next() * 60).toFixed(2);
      if (hasPauses.length) st.p999 = (480 + rng.next() * 300).toFixed(2);
      return st;
    },
  });
  for (let x = BOOT + 10 * SEC + 1200; x < END; x += 30 * SEC) {
    if (x < START) continue;
    F.broker.add(x + 2, { level: 'INFO', thread: `brokerOutApi_thread_${rng.int(1, 4)}`, msg: M('broker-registered/register-broker-id', { brokerId: 0, namesrvAddr: NS1 }) });
    F.broker.add(x + 3, { level: 'INFO', thread: `brokerOutApi_thread_${rng.int(1, 4)}`, msg: M('broker-registered/register-broker-id', { brokerId: 0, namesrvAddr: NS2 }) });
  }
  // store.log during the pauses: the put holding the CommitLog lock and the puts queued behind it
  let wrote = 61813300224;
  let logics = 9182231;
  for (const p of pauses) {
    const end = p.at + p.len;
    const th = [1, 2, 3, 4].sort(() => rng.next() - 0.5);
    const inLock = p.len + rng.int(3, 8);
    const body = rng.int(180, 1900);
    const bytes = body + rng.int(180, 260);
    const msgId = `C0A8010C00002A9F${(wrote + 0).toString(16).toUpperCase().padStart(16, '0')}`;
    F.store.add(end + 4, {
      level: 'WARN', thread: `SendMessageThread_${th[0]}`,
      msg: M('store-slow/in-lock', {
        costMs: inLock,
        bodyLength: body,
        appendMessageResult: `AppendMessageResult{status=PUT_OK, wroteOffset=${wrote}, wroteBytes=${bytes}, msgId='${msgId}', storeTimestamp=${p.at - 2}, logicsOffset=${logics}, pagecacheRT=${inLock - rng.int(0, 2)}, msgNum=1}`,
      }),
    });
    wrote += bytes;
    logics += 1;
    F.store.add(end + 4, { level: 'WARN', thread: `SendMessageThread_${th[0]}`, msg: M('store-slow/not-in-lock-elapsed', { costMs: inLock + 1, bodyLength: body }) });
    for (let k = 1; k < 4; k++) {
      const b2 = rng.int(180, 1900);
      F.store.add(end + 5 + k, { level: 'WARN', thread: `SendMessageThread_${th[k]}`, msg: M('store-slow/not-in-lock-elapsed', { costMs: inLock + 1 + k + rng.int(0, 2), bodyLength: b2 }) });
      wrote += b2 + 210;
    }
    wrote += 1800000;
    logics += 2900;
  }
  // mqadmin probes
  for (let x = t('20:01:40.000'); x < END; x += 5 * MIN) {
    const r = `192.168.1.50:${rng.int(40000, 65000)}`;
    const ct = codec();
    srvConnect(F.remoting, x, ct, r);
    srvDisconnect(F.remoting, x + rng.int(200, 900), ct, r);
  }

  // --- ground truth ----------------------------------------------------------------------------
  const all = apps.flatMap((a) => a.busy);
  const e1 = all.filter((b) => b.ep === 1);
  const e2 = all.filter((b) => b.ep === 2);
  const range = (a, f) => [Math.min(...a.map(f)), Math.max(...a.map(f))];
  const wmE1 = [...wm1.values()];
  S.truth = {
    window: { from: iso(START), to: iso(END) },
    broker: { name: 'broker-b', addr: BB.addr, host: BB.host, version: V },
    busyCode: 2,
    remarkKind: 'TIMEOUT_CLEAN_QUEUE',
    retried: false,
    episodes: [
      {
        kind: 'steady-overload',
        from: iso(Math.min(...e1.map((b) => b.t))),
        to: iso(Math.max(...e1.map((b) => b.t))),
        rejections: e1.length,
        waitMs: range(e1, (b) => b.wait),
        queueSize: range(e1, (b) => b.size),
        watermarkPeakSendQueueSize: Math.max(...wmE1.map((w) => w.send)),
        watermarkSlowTimeMillsRange: [Math.min(...wmE1.filter((w) => w.send > 60).map((w) => w.slow)), Math.max(...wmE1.map((w) => w.slow))],
      },
      {
        kind: 'broker-stall',
        from: iso(Math.min(...e2.map((b) => b.t))),
        to: iso(Math.max(...e2.map((b) => b.t))),
        rejections: e2.length,
        waitMs: range(e2, (b) => b.wait),
        maxWaitPerStall: pauses.map((p) => ({ at: iso(p.at + p.len), maxWaitMs: p.max, rejectionsSeen: e2.filter((b) => b.t >= p.at && b.t < p.at + 5 * SEC).length })),
        storeLog: { putMessageInLock: pauses.length, putMessageNotInLock: pauses.length * 4 },
      },
    ],
    maxWaitMs: Math.max(...all.map((b) => b.wait)),
    rejections: all.length,
    rejectionsPerClientLog: Object.fromEntries(apps.map((a) => [`${a.host}/rocketmq_client.log`, a.busy.length])),
    appErrorsPerAppLog: Object.fromEntries(apps.map((a) => [`${a.host}/app.log`, a.errors.length])),
    firstRejection: iso(Math.min(...all.map((b) => b.t))),
    lastRejection: iso(Math.max(...all.map((b) => b.t))),
  };
  const G = S.truth;
  S.doc = {
    title: 'broker-busy: [TIMEOUT_CLEAN_QUEUE] from broker-b, an overload and a stall',
    story: [
      `broker-b (${BB.addr}, 4.9.4) rejects sends with \`CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, ...\` twice. The broker itself logs nothing when it rejects (4.x); the rejections are visible in the producers\' logs, and the cause in watermark.log and store.log.`,
      `Episode 1, steady overload (${G.episodes[0].from.slice(11, 19)}-${G.episodes[0].to.slice(11, 19)}): the send queue grows to ${G.episodes[0].watermarkPeakSendQueueSize} requests, watermark.log shows \`Send Queue Size\` in the hundreds to thousands and \`SlowTimeMills\` of ${G.episodes[0].watermarkSlowTimeMillsRange[0]}-${G.episodes[0].watermarkSlowTimeMillsRange[1]}; BrokerFastFailure rejects queue heads as soon as they have waited 200 ms, so every reply says ${G.episodes[0].waitMs[0]}-${G.episodes[0].waitMs[1]} ms. store.log shows slower puts ([10~50ms] and [50~100ms] buckets).`,
      `Episode 2, broker stall (${clock(pauses[0].at)}-${clock(pauses[2].at + pauses[2].len)}): three stop-the-world pauses (${pauses.map((p) => `${p.len} ms`).join(', ')}) freeze the broker, the cleaner included. When it resumes, every queued request has waited longer than the pause, so the replies say ${pauses.map((p) => `${p.max} ms`).join(', ')} at most. store.log has one \`[NOTIFYME]putMessage in lock cost time(ms)=...\` and four \`putMessage not in lock elapsed time(ms)=...\` WARNs per pause, and the [200~500ms] / [500ms~1s] buckets of the next \`[PAGECACHERT]\` line.`,
      'The producers are 4.9.4 clients. SYSTEM_BUSY (code 2) is not in retryResponseCodes before 5.3.0, so each busy reply is logged once as `sendKernelImpl exception, resend at once, ...` (WARN, logged in the catch block before the decision) and then the MQBrokerException is rethrown to the application without a retry. The application logs it as an ERROR with the same trace.',
      'Because the client is 4.8.0 or later, the exception text ends with ` BROKER: 192.168.1.12:10911`, and the FAQ line follows on its own line.',
    ],
    hosts: [
      ['mq-broker-b', '192.168.1.12', 'broker-b (10911), 4.9.4: broker.log, remoting.log, store.log, watermark.log'],
      ['app-feed-01', '192.168.1.31', 'producer PID_FEED, topic TopicFeed, client 4.9.4; Spring Boot app log (PID 4711)'],
      ['app-feed-02', '192.168.1.32', 'producer PID_FEED, topic TopicFeed, client 4.9.4; plain logback app log'],
    ],
    notes: [
      'The two applications are two of many producers: watermark.log counts every producer\'s requests, the client logs only show the rejections these two received.',
      'There is no GC log in the sample; the stall is visible only through its effects (waits far above 200 ms, put latencies in store.log, one watermark line per pause that caught the queue before the cleaner).',
      'BrokerFastFailure runs every 10 ms, so in a steady overload the reported wait is 200-209 ms; only a stall of the whole JVM produces the 401/612/799 ms values.',
    ],
    truth: [
      ['busy broker', `${G.broker.name} ${G.broker.addr}`],
      ['episode 1 (steady overload): first / last rejection', `${G.episodes[0].from} / ${G.episodes[0].to}`],
      ['episode 1: rejections seen by the two apps', String(G.episodes[0].rejections)],
      ['episode 1: period in queue', `${G.episodes[0].waitMs[0]}-${G.episodes[0].waitMs[1]} ms`],
      ['episode 1: size of queue in the replies', `${G.episodes[0].queueSize[0]}-${G.episodes[0].queueSize[1]}`],
      ['episode 1: watermark peak Send Queue Size / SlowTimeMills range', `${G.episodes[0].watermarkPeakSendQueueSize} / ${G.episodes[0].watermarkSlowTimeMillsRange.join('-')}`],
      ['episode 2 (stall): first / last rejection', `${G.episodes[1].from} / ${G.episodes[1].to}`],
      ['episode 2: rejections seen by the two apps', String(G.episodes[1].rejections)],
      ['episode 2: stalls (end time, max wait, rejections seen)', G.episodes[1].maxWaitPerStall.map((x) => `${x.at} ${x.maxWaitMs} ms (${x.rejectionsSeen})`).join('; ')],
      ['max wait overall', `${G.maxWaitMs} ms`],
      ['rejections in total', `${G.rejections} (${Object.entries(G.rejectionsPerClientLog).map(([k, v]) => `${k}: ${v}`).join(', ')})`],
      ['app errors', Object.entries(G.appErrorsPerAppLog).map(([k, v]) => `${k}: ${v}`).join(', ')],
      ['store.log WARNs', `${G.episodes[1].storeLog.putMessageInLock} [NOTIFYME]putMessage in lock, ${G.episodes[1].storeLog.putMessageNotInLock} putMessage not in lock`],
    ],
  };
  return S;
}


// =============================================================================================
// Output
// =============================================================================================

/**
 * Event kinds counted in every file (expected.json "counts"): one count per log record (header line)
 * whose message matches; `trace` rules look at the record's stack trace instead.
 */
const COUNT_RULES = [
  ['startup', /^the client factory \[.*\] start OK$|^The broker\[.*\] boot success\.|^The Name Server boot success\./],
  ['shutdown', /^Shutdown hook was invoked, /],
  ['namesrv-list', /^name server address updated\. NEW : /],
  ['namesrv-chosen', /^new name server is chosen\. OLD: /],
  ['route-changed', /^the topic\[[^\]]+\] route info changed, old\[/],
  ['route-update-failed', /^updateTopicRouteInfoFromNameServer Exception$/],
  ['route-task-failed', /^ScheduledTask updateTopicRouteInfoFromNameServer exception$/],
  ['rpc-timeout', /^invokeSync: wait response timeout exception, the channel\[/],
  ['send-request-failed', /^invokeSync: send request exception, so close the channel\[/],
  ['send-attempt-failed', /^sendKernelImpl exception, resend at once, /],
  ['heartbeat-failed', /^send heart beat to broker\[.*\] failed$/],
  ['heartbeat-ok', /^send heart beat to broker\[.*\] success$/],
  ['connect-failed', /^createChannel: connect remote host\[.*\] failed, /],
  ['connection-reset', /^NETTY CLIENT PIPELINE: exceptionCaught exception\.$/],
  ['idle-close', /^NETTY (CLIENT|SERVER) PIPELINE: IDLE exception \[/],
  ['channel-closed', /^closeChannel: close the connection to remote address\[/],
  ['channel-inactive', /^NETTY (CLIENT|SERVER) PIPELINE: channelInactive, the channel\[/],
  ['pipeline', /^NETTY (CLIENT|SERVER) PIPELINE: /],
  ['broker-offline-removed', /^the broker addr\[.*\] is offline, remove it$/],
  ['register-ok', /^register broker\[\d+\]to name server .* OK$/],
  ['register-failed', /^registerBroker Exception, /],
  ['unregister-ok', /^unregisterBroker OK, NamesrvAddr: /],
  ['broker-registered', /^new broker registered, /],
  ['broker-expired', /^The broker channel expired, /],
  ['broker-removed', /^remove brokerAddr\[\d+, .*\] from brokerAddrTable, because channel destroyed$/],
  ['broker-unregistered', /^unregisterBroker, remove from brokerLiveTable OK, /],
  ['master-address-change', /^cluster \[.*\] brokerName \[.*\] master address change from /],
  ['new-producer', /^new producer connected, group: /],
  ['watermark', /^\[WATERMARK\] /],
  ['putmessage-in-lock', /^\[NOTIFYME\]putMessage in lock cost time\(ms\)=/],
  ['putmessage-not-in-lock', /^putMessage not in lock elapsed time\(ms\)=/],
  ['pagecachert', /^\[PAGECACHERT\] TotalPut /],
  ['busy-reply', null, /\[TIMEOUT_CLEAN_QUEUE\]broker busy/],
  ['send-call-timeout', null, /RemotingTooMuchRequestException: sendDefaultImpl call timeout/],
  ['error', 'ERROR'],
];
function countRecords(S) {
  const out = {};
  for (const [rel, f] of [...S.files].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (!f.recs.length) continue;
    const c = {};
    for (const r of f.recs) {
      for (const [k, re, trace] of COUNT_RULES) {
        const hit = re === 'ERROR' ? r.level === 'ERROR' : re ? re.test(r.msg) : !!r.stack && trace.test(r.stack[0]);
        if (hit) c[k] = (c[k] ?? 0) + 1;
      }
    }
    out[rel] = c;
  }
  return out;
}

function renderSample(S) {
  const out = new Map();
  for (const [rel, f] of S.files) {
    if (!f.recs.length) continue;
    const text = f.render();
    if (f.opts.gzip) {
      const gz = zlib.gzipSync(Buffer.from(text, 'utf8'), { level: 9 });
      gz[9] = 3; // gzip header OS byte: "Unix" on every platform, so the bytes do not depend on where this runs
      out.set(rel, gz);
    }
    else out.set(rel, Buffer.from(text, 'utf8'));
  }
  return out;
}

function lineStats(buf, rel) {
  if (rel.endsWith('.gz')) buf = zlib.gunzipSync(buf);
  const s = buf.toString('utf8');
  return { bytes: buf.length, lines: s.split('\n').length - 1 };
}

const samples = [];
const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const builders = { 'seed-outage': seedOutage, 'healthy-restart': healthyRestart, 'broker-busy': brokerBusy };
for (const [name, build] of Object.entries(builders)) {
  if (onlyArg && onlyArg.slice(7) !== name) continue;
  const S = build();
  S.counts = countRecords(S);
  const files = renderSample(S);
  samples.push({ S, files });
}

function readme(all) {
  const L = [];
  L.push('# Sample incidents');
  L.push('');
  L.push('Each folder is one incident as an operator would collect it: `samples/<incident>/<host>/<log files>`, one folder per machine, with the files RocketMQ and the applications wrote there.');
  L.push('');
  // The recordings the lab committed, as they are on disk (the lab writes them, not this script).
  const lab = fs.existsSync(path.join(OUT, 'lab')) ? fs.readdirSync(path.join(OUT, 'lab')).filter((d) => fs.existsSync(path.join(OUT, 'lab', d, 'lab.json'))).sort() : [];
  const producerLab = lab.filter((d) => !d.startsWith('consumer-'));
  const consumerNote = lab.some((d) => d.startsWith('consumer-')) ? ', and the consumer recordings `lab/consumer-*` (logs gzipped; `lab.json` adds each consumer instance\'s and group\'s truth)' : '';
  L.push(`- **Real recordings** in \`lab/\`: ${producerLab.map((d) => `\`lab/${d}\``).join(', ')}${consumerNote}. Released RocketMQ NameServers, brokers and Java clients wrote every line during a real fault injected by the lab (\`npm run lab -- record SCENARIO\`); each has \`lab.json\`, the truth about what happened, from the lab's own clock. What each shows: [docs/lab.md](../docs/lab.md#the-recordings).`);
  const generated = fs.existsSync(path.join(OUT, 'generated')) ? fs.readdirSync(path.join(OUT, 'generated')).filter((d) => fs.existsSync(path.join(OUT, 'generated', d, 'lab.json'))) : [];
  if (generated.length) L.push(`- **Generated recordings** in \`generated/\`: ${generated.length} incidents drawn by \`npm run lab -- generate --seed N\` and recorded unchanged (each \`gen-N\` from seed N; \`lab.json\` gives its description and truth). No rule was written against them before they were recorded. Scored by \`npm run lab -- score samples/lab samples/generated\` ([docs/lab.md](../docs/lab.md#scoring)).`);
  L.push('- **Generated** incidents, described below (`seed-outage`, `healthy-restart`, `broker-busy`): real-format logs written by `scripts/make-samples.mjs` (deterministic: run it again and the bytes are identical; `node scripts/make-samples.mjs --check` verifies that, and a test runs it), for what the lab cannot give (other address ranges, a ten-minute hang, GC stalls under steady load).');
  L.push('');
  L.push('Every folder also has `expected.json`: the ground truth of the incident (milestones as ISO-8601 times with the `+08:00` offset) and the number of events of each kind that the generator wrote into each file, for end-to-end tests. The tables below are generated from the same data.');
  L.push('');
  L.push('## Time zones and formats');
  L.push('');
  L.push('- Every machine runs in GMT+8 (Asia/Shanghai). Server logs (broker.log, namesrv.log, remoting.log, store.log, watermark.log) are written by logback with the zone fixed to GMT+8 and no milliseconds: `yyyy-MM-dd HH:mm:ss LEVEL thread - msg` (watermark.log: `yyyy-MM-dd HH:mm:ss - msg`). LF line endings.');
  L.push('- 4.x clients (4.3.0-5.0.0 inner logger) write rocketmq_client.log in the JVM\'s default zone, which is GMT+8 here: `yyyy-MM-dd HH:mm:ss,SSS LEVEL LoggerName - msg`, CRLF line endings, a stack trace after the message and one empty line after it. 4.3.0-4.7.1 print the seconds again in place of the milliseconds (`14:42:30,030`).');
  L.push('- The 5.1.4 client writes `yyyy-MM-dd HH:mm:ss.SSS LEVEL [pid] [thread] [logger#?:?] - msg` (level padded to 5, zone fixed to GMT+8), LF line endings.');
  L.push('- Application logs are Spring Boot\'s file layout (`yyyy-MM-dd HH:mm:ss.SSS  INFO PID --- [thread] logger : msg`, an empty line before and after a stack trace) or a plain logback layout (`yyyy-MM-dd HH:mm:ss.SSS [thread] LEVEL logger - msg`), in GMT+8.');
  L.push('- Stack frames, thread names, logger names and message texts follow the RocketMQ release each host runs (line numbers of frames included), Netty 4.0.42.Final (4.6-4.8) or 4.1.65.Final (4.9.x, 5.1.x) and JDK 1.8.0_192.');
  L.push('');
  for (const { S, files } of all) {
    const d = S.doc;
    L.push(`## ${d.title}`);
    L.push('');
    for (const p of d.story) {
      L.push(p);
      L.push('');
    }
    L.push('| host | address | role | files |');
    L.push('|---|---|---|---|');
    for (const [h, a, r] of d.hosts) {
      const fl = [...files.keys()].filter((k) => k.startsWith(`${h}/`)).map((k) => `\`${k.slice(h.length + 1)}\``).sort();
      L.push(`| ${h} | ${a} | ${r} | ${fl.join(', ')} |`);
    }
    L.push('');
    L.push('Notes:');
    L.push('');
    for (const n of d.notes) L.push(`- ${n}`);
    L.push('');
    L.push(`### Ground truth (${S.name})`);
    L.push('');
    L.push('| what | value |');
    L.push('|---|---|');
    for (const [k, v] of d.truth) L.push(`| ${k} | ${v} |`);
    L.push('');
    L.push('Events written, per file (also in `expected.json` under `counts`; the keys are defined at the end of this page):');
    L.push('');
    L.push('| file | events |');
    L.push('|---|---|');
    for (const [f, c] of Object.entries(S.counts).sort()) L.push(`| ${f} | ${Object.entries(c).map(([k, v]) => `${k} ${v}`).join(', ')} |`);
    L.push('');
  }
  L.push('## Count keys');
  L.push('');
  L.push('`counts` in expected.json counts log records (a header line with its stack trace, if any) per file. A record counts for every key whose pattern matches its message (after `LEVEL thread/logger - `); `busy-reply` and `send-call-timeout` match the first line of the record\'s stack trace, and `error` counts records at level ERROR.');
  L.push('');
  L.push('| key | message pattern |');
  L.push('|---|---|');
  for (const [k, re, trace] of COUNT_RULES) L.push(`| ${k} | \`${re === 'ERROR' ? 'level ERROR' : re ? re.source.replace(/\|/g, '\\|') : `stack: ${trace.source}`}\` |`);
  L.push('');
  return L.join('\n');
}

let differ = 0;
const outputs = new Map();
for (const { S, files } of samples) {
  const expected = {
    sample: S.name,
    generatedBy: 'scripts/make-samples.mjs',
    timeZone: '+08:00',
    files: Object.fromEntries([...files].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([rel, b]) => [rel, lineStats(b, rel)])),
    groundTruth: S.truth,
    counts: S.counts,
  };
  for (const [rel, buf] of files) outputs.set(path.join(OUT, S.name, rel), buf);
  outputs.set(path.join(OUT, S.name, 'expected.json'), Buffer.from(JSON.stringify(expected, null, 2) + '\n', 'utf8'));
}
if (!onlyArg) outputs.set(path.join(OUT, 'README.md'), Buffer.from(readme(samples) + '\n', 'utf8'));

for (const [p, buf] of outputs) {
  if (CHECK) {
    if (!fs.existsSync(p) || !fs.readFileSync(p).equals(buf)) {
      console.error(`differs: ${path.relative(ROOT, p)}`);
      differ++;
    }
    continue;
  }
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, buf);
}
for (const { S, files } of samples) {
  const total = [...files.values()].reduce((a, b) => a + b.length, 0);
  console.log(`${S.name}: ${files.size} log files, ${(total / 1024).toFixed(0)} KiB`);
  for (const [k, v] of S.doc.truth) console.log(`  ${k}: ${v.replace(/`/g, '')}`);
}
if (CHECK) {
  if (differ) process.exit(1);
  console.log('samples are up to date');
}
