// Log output of the model. Components write records (level, thread, logger, message, exception) to
// named log files; the sink renders each record the way the real component's layout would, and
// turns it into typed events with the parsers' own message catalogue, so a simulated timeline has
// exactly the event types, fields and texts that parsing the real logs would give.
//
// Record -> events follows the parser, by the same rules (src/parse/record.ts): the message and
// every non-frame line of the stack are looked up in the catalogue; one record gives one event per
// type (a repeated message fills the first); an entry marked "cause from next lines" takes its cause
// (and addr) from the exception under it.

import { matchMessage, type CatalogueMatch } from '../parse/catalogue.js';
import { CLIENT_IMPL, fillCause, mergeIntoRecord, stackSendPath } from '../parse/record.js';
import { HeaderRenderer } from '../parse/render.js';
import type { Zone } from '../parse/time.js';
import type { EventFields, FieldValue, RmqEvent } from '../parse/types.js';
import type { SourceKind } from '../ingest/kinds.js';
import { fail } from './kernel.js';

/** A Java exception as printed by printStackTrace / logback. */
export interface JavaException {
  /** Fully qualified class name. */
  cls: string;
  /** getMessage(); may contain `\n` (FAQ suffixes); null prints the class alone. */
  msg: string | null;
  /** `at ...` frames without the leading tab; a default pair is used when absent. */
  frames?: string[];
  cause?: JavaException;
}

/** `class: message` as Throwable.toString() prints it (first line of the message only for logs). */
export function exceptionText(e: JavaException): string {
  return e.msg === null ? e.cls : `${e.cls}: ${e.msg}`;
}

/**
 * The layouts the model writes, by their id in src/parse/layouts.ts (which both reads and renders
 * them): the servers' logback (`rocketmq-server`, watermark.log's `rocketmq-bare`), the 4.3.0-5.0.0
 * client inner logger (JVM zone; JDK-style stacks), the 5.1.0+ client logback, the application's.
 */
type ModelLayout = 'rocketmq-server' | 'rocketmq-bare' | 'rocketmq-client-inner' | 'rocketmq-client-5x' | 'logback-app';

export type Level = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

interface LogFileSpec {
  host: string;
  /** File name as the component writes it, e.g. `rocketmq_client.log`. */
  name: string;
  kind: SourceKind;
  layout: ModelLayout;
  /** Zone of the printed times (layouts fixed at GMT+8 ignore it). */
  zone: Zone;
  /** 4.3.0-4.7.1 inner logger: the millis field repeats the seconds. */
  fakeMillis?: boolean;
  /** Process id printed by the 5.x client layout. */
  pid?: number;
  /** Replace `\n` in messages by a space (4.9.3+ inner logger). */
  flattenNewlines?: boolean;
}

export interface LogSinkOptions {
  /** Epoch ms of model time 0. */
  startEpochMs: number;
  /** The model clock. */
  nowMs: () => number;
  /** Keep the rendered lines of every file (for writing simulated logs); off by default. */
  keepLines?: boolean;
  /** Keep only events of these types (default: all). A long run's heartbeats and registrations are most of its events. */
  keepTypes?: ReadonlySet<string> | null;
  /** Sees every event, kept or not, as it is added. */
  onEvent?: (ev: RmqEvent) => void;
}

const DEFAULT_FRAMES: Record<string, string[]> = {
  RemotingTimeoutException: [
    'org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:427)',
    'org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:375)',
  ],
  RemotingConnectException: [
    'org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:394)',
    'org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessageSync(MQClientAPIImpl.java:440)',
  ],
  RemotingSendRequestException: [
    'org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:429)',
    'org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:375)',
  ],
  RemotingTooMuchRequestException: [
    'org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:667)',
    'org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.send(DefaultMQProducerImpl.java:1343)',
  ],
  MQBrokerException: [
    'org.apache.rocketmq.client.impl.MQClientAPIImpl.processSendResponse(MQClientAPIImpl.java:665)',
    'org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessageSync(MQClientAPIImpl.java:442)',
  ],
  MQClientException: [
    'org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:681)',
    'org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.send(DefaultMQProducerImpl.java:1343)',
  ],
  IllegalStateException: [
    'org.apache.rocketmq.client.impl.factory.MQClientInstance.updateTopicRouteInfoFromNameServer(MQClientInstance.java:720)',
    'org.apache.rocketmq.client.impl.factory.MQClientInstance$3.run(MQClientInstance.java:289)',
  ],
  IOException: [
    'sun.nio.ch.FileDispatcherImpl.read0(Native Method)',
    'sun.nio.ch.SocketDispatcher.read(SocketDispatcher.java:39)',
  ],
  AnnotatedConnectException: [
    'sun.nio.ch.SocketChannelImpl.checkConnect(Native Method)',
    'sun.nio.ch.SocketChannelImpl.finishConnect(SocketChannelImpl.java:717)',
  ],
};

const THREAD_RUN_FRAMES = ['java.lang.Thread.run(Thread.java:748)'];
const FRAMES_BY_CLASS = new Map<string, string[]>();

function framesOf(e: JavaException): string[] {
  if (e.frames) return e.frames;
  let frames = FRAMES_BY_CLASS.get(e.cls);
  if (frames === undefined) {
    const simple = e.cls.slice(e.cls.lastIndexOf('.') + 1).replace(/^.*\$/, '');
    frames = DEFAULT_FRAMES[simple] ?? THREAD_RUN_FRAMES;
    FRAMES_BY_CLASS.set(e.cls, frames);
  }
  return frames;
}

/**
 * The exception as thrown further up: its frames followed by the callers' (`sendKernelImpl`, then
 * `sendSelectImpl` for a selector send), so the printed stack shows the path the send took.
 */
export function thrownThrough(e: JavaException, callers: readonly string[]): JavaException {
  return { ...e, frames: [...framesOf(e), ...callers] };
}

/** `\tat frame`, made once per frame (the frames are the model's constants). */
const FRAME_LINES = new Map<string, string>();

function frameLine(f: string): string {
  let line = FRAME_LINES.get(f);
  if (line === undefined) {
    line = `\tat ${f}`;
    if (FRAME_LINES.size >= 20000) FRAME_LINES.clear();
    FRAME_LINES.set(f, line);
  }
  return line;
}

/** The lines of a printed stack trace (JDK style for the inner logger, logback style otherwise). */
export function stackLines(e: JavaException, style: 'jdk' | 'logback'): string[] {
  const out: string[] = [];
  let cur: JavaException | undefined = e;
  let prefix = '';
  while (cur) {
    const msgLines = (cur.msg ?? '').split('\n');
    out.push(prefix + (cur.msg === null ? cur.cls : `${cur.cls}: ${msgLines[0]}`));
    for (let i = 1; i < msgLines.length; i++) out.push(msgLines[i]);
    const frames = framesOf(cur);
    for (const f of frames) out.push(frameLine(f));
    if (prefix !== '') out.push(style === 'jdk' ? '\t... 12 more' : '\t... 12 common frames omitted');
    prefix = 'Caused by: ';
    cur = cur.cause;
  }
  return out;
}

/**
 * matchMessage with a memo, for the lines under a record's message (exception and FAQ lines): the
 * model prints the same few over and over, while its messages mostly differ (times, ids), so those
 * are matched directly. The catalogue match is a pure function of the text; a hit is handed out as
 * a copy (its fields are filled in afterwards). The memo is dropped when it grows large.
 */
const MATCH_MEMO = new Map<string, CatalogueMatch | null>();
const MATCH_MEMO_MAX = 20000;

function matchCached(text: string): CatalogueMatch | null {
  let hit = MATCH_MEMO.get(text);
  if (hit === undefined) {
    hit = matchMessage(text);
    if (MATCH_MEMO.size >= MATCH_MEMO_MAX) MATCH_MEMO.clear();
    MATCH_MEMO.set(text, hit === null ? null : { type: hit.type, fields: copyFields(hit.fields), entry: hit.entry });
    return hit;
  }
  return hit === null ? null : { type: hit.type, fields: copyFields(hit.fields), entry: hit.entry };
}

/**
 * fillCause with a memo: its effect is a function of the line alone (a cause, and an addr for an
 * event whose addr is missing), and the model prints the same exception lines over and over, so the
 * events share one cause string per line instead of each keeping a copy and the line it came from.
 */
interface CauseFill {
  result: 'filled' | 'wait' | 'none';
  cause: FieldValue | undefined;
  addr: FieldValue | undefined;
}
const CAUSE_MEMO = new Map<string, CauseFill>();

function fillCauseCached(ev: RmqEvent, raw: string): 'filled' | 'wait' | 'none' {
  let c = CAUSE_MEMO.get(raw);
  if (c === undefined) {
    // A probe whose addr is missing, so that fillCause also tells the addr it would fill in.
    const probe = { fields: { addr: null } as EventFields } as RmqEvent;
    const result = fillCause(probe, raw);
    c = { result, cause: probe.fields.cause, addr: probe.fields.addr };
    if (CAUSE_MEMO.size >= MATCH_MEMO_MAX) CAUSE_MEMO.clear();
    CAUSE_MEMO.set(raw, c);
  }
  if (c.result === 'filled') {
    ev.fields.cause = c.cause!;
    if ('addr' in ev.fields && ev.fields.addr == null) ev.fields.addr = c.addr!;
  }
  return c.result;
}

function copyFields(f: EventFields): EventFields {
  const out: EventFields = {};
  for (const k in f) {
    const v: FieldValue = f[k];
    out[k] = Array.isArray(v) ? (v.slice() as FieldValue) : v;
  }
  return out;
}

/**
 * A line names a class of the client's impl package (DefaultMQProducerImpl, or MQClientAPIImpl's
 * InvokeCallback for an asynchronous send): else stackSendPath finds nothing (it looks for them).
 */
function namesProducer(lines: readonly string[]): boolean {
  for (const l of lines) if (l.indexOf(CLIENT_IMPL) >= 0) return true;
  return false;
}

/** An open log file of one component. */
export class LogFile {
  /** Lines written so far (records, continuation lines and blank lines). */
  lineCount = 0;
  private seq = 0;
  /** The last `receive response, but not matched any request, addr` (late-response) event, for the response the next record dumps. */
  private lateResponse: RmqEvent | null = null;
  readonly path: string;
  readonly lines: string[] | null;
  private readonly renderer: HeaderRenderer;
  /** What the parser reads from the layout's header: a level, a thread, a logger. */
  private readonly has: { level: boolean; thread: boolean; logger: boolean };
  private readonly defaultLogger: string;

  constructor(
    private readonly sink: LogSink,
    readonly spec: LogFileSpec,
    readonly sourceIndex: number,
    keepLines: boolean,
  ) {
    this.path = `sim:${spec.host}/${spec.name}`;
    this.lines = keepLines ? [] : null;
    this.renderer = new HeaderRenderer(spec.layout, (epochMs) => spec.zone.offsetAt(epochMs), spec.fakeMillis ?? false);
    const groups = this.renderer.layout.header.source;
    this.has = { level: groups.includes('(?<level>'), thread: groups.includes('(?<thread>'), logger: groups.includes('(?<logger>') };
    this.defaultLogger = spec.kind === 'app' ? 'app' : 'RocketmqClient';
  }

  /** Write one record; returns the events it gives (already added to the sink). */
  write(level: Level, thread: string | null, logger: string | null, message: string, exc?: JavaException): void {
    const spec = this.spec;
    const atMs = this.sink.nowMs();
    const epochMs = this.sink.startEpochMs + atMs;
    const header = this.renderer.header({ epochMs, level, thread: thread ?? 'main', logger: logger ?? this.defaultLogger, pid: spec.pid ?? 1 });
    // The message as a slice of the record's first line: slicing flattens that line, so a kept event
    // holds one string for its text and for the fields matched from its message, not a rope of the
    // header's pieces beside the message's own copy. The slice is also what is searched for line ends.
    let first = header + message;
    let message0 = first.slice(header.length);
    const lines: string[] = [first];
    if (message0.indexOf('\n') >= 0 || (spec.flattenNewlines && message0.indexOf('\r') >= 0)) {
      // The 4.9.3+ inner logger prints the message on one line; the others print its lines.
      const msgLines = spec.flattenNewlines ? [message.replace(/[\r\n]/g, ' ')] : message.split('\n');
      first = header + msgLines[0];
      message0 = first.slice(header.length);
      lines[0] = first;
      for (let i = 1; i < msgLines.length; i++) lines.push(msgLines[i]);
    }
    if (exc) {
      const jdk = spec.layout === 'rocketmq-client-inner';
      for (const l of stackLines(exc, jdk ? 'jdk' : 'logback')) lines.push(l);
      if (jdk) lines.push('');
    }
    const firstLine = this.lineCount + 1;
    this.lineCount += lines.length;
    if (this.lines) for (const l of lines) this.lines.push(l);
    this.toEvents(lines, message0, firstLine, Math.floor(epochMs), level, thread, logger);
  }

  private toEvents(
    lines: string[],
    message: string,
    firstLine: number,
    ts: number,
    level: Level,
    thread: string | null,
    logger: string | null,
  ): void {
    const spec = this.spec;
    // What the parser reads from the layout: server headers carry a thread, client ones a logger.
    const evLevel = this.has.level ? level : null;
    const evThread = this.has.thread ? thread ?? 'main' : null;
    const evLogger = this.has.logger ? logger ?? this.defaultLogger : null;
    const found: RmqEvent[] = [];
    let needsCause: RmqEvent | null = null;
    for (let i = 0; i < lines.length; i++) {
      const raw = lines[i];
      let text = raw;
      if (i === 0) text = message;
      else {
        if (needsCause && fillCauseCached(needsCause, raw) !== 'wait') needsCause = null;
        if (raw.length === 0 || raw.startsWith('\tat ') || raw.startsWith('\t... ')) continue;
      }
      const hit = i === 0 ? matchMessage(text) : matchCached(text);
      if (hit === null) continue;
      if (mergeIntoRecord(found, hit)) continue;
      // Two literals rather than a spread: the same keys in the same order, without the copy.
      const ev: RmqEvent = hit.entry.versionHint
        ? {
            ts,
            host: spec.host,
            kind: spec.kind,
            file: this.path,
            line: firstLine + i,
            level: evLevel,
            thread: evThread,
            logger: evLogger,
            type: hit.type,
            fields: hit.fields,
            text: lines[0],
            entry: hit.entry.id,
            versionHint: hit.entry.versionHint,
            source: this.sourceIndex,
            seq: 0,
          }
        : {
            ts,
            host: spec.host,
            kind: spec.kind,
            file: this.path,
            line: firstLine + i,
            level: evLevel,
            thread: evThread,
            logger: evLogger,
            type: hit.type,
            fields: hit.fields,
            text: lines[0],
            entry: hit.entry.id,
            source: this.sourceIndex,
            seq: 0,
          };
      if (hit.entry.causeFromNext) needsCause = ev;
      found.push(ev);
    }
    const sendPath = found.length && lines.length > 2 && namesProducer(lines) ? stackSendPath(lines) : undefined;
    const late = this.lateResponse;
    this.lateResponse = null;
    for (const ev of found) {
      if (sendPath) ev.sendPath = sendPath;
      // As the parser reads it (SourceParser.closeRecord): the response the line after a late
      // response's warning dumps is that channel's (a busy reply names no broker of its own).
      if (ev.type === 'late-response') this.lateResponse = ev;
      else if (late && ev.type === 'busy-reply' && ev.fields.brokerAddr == null && late.line === firstLine - 1 && late.thread === ev.thread) ev.fields = { ...ev.fields, brokerAddr: late.fields.addr };
      ev.seq = this.seq++;
      this.sink.add(ev);
    }
  }
}


/** All log files of a run, and the events they gave, in time order. */
export class LogSink {
  readonly events: RmqEvent[] = [];
  readonly files = new Map<string, LogFile>();
  readonly startEpochMs: number;
  readonly nowMs: () => number;
  private readonly keepLines: boolean;
  private readonly keepTypes: ReadonlySet<string> | null;
  private readonly onEvent: ((ev: RmqEvent) => void) | null;
  private lastTs = Number.NEGATIVE_INFINITY;

  constructor(opts: LogSinkOptions) {
    this.startEpochMs = opts.startEpochMs;
    this.nowMs = opts.nowMs;
    this.keepLines = opts.keepLines ?? false;
    this.keepTypes = opts.keepTypes ?? null;
    this.onEvent = opts.onEvent ?? null;
  }

  file(spec: LogFileSpec): LogFile {
    const key = `${spec.host}/${spec.name}`;
    let f = this.files.get(key);
    if (f === undefined) {
      f = new LogFile(this, spec, this.files.size, this.keepLines);
      this.files.set(key, f);
    }
    return f;
  }

  add(ev: RmqEvent): void {
    if (ev.ts === null || ev.ts < this.lastTs) fail(`events must come in time order (${ev.ts} after ${this.lastTs})`);
    this.lastTs = ev.ts;
    this.onEvent?.(ev);
    if (this.keepTypes === null || this.keepTypes.has(ev.type)) this.events.push(ev);
  }
}
