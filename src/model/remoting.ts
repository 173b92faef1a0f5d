// NettyRemotingClient: the channel table, name server selection, invokeSync and the pipeline
// events, as the client (and the broker's BrokerOuterAPI) run them (NettyRemotingClient, 4.x and 5.x).
//
// The rules that make the seed outage:
// - A name server call reuses the chosen name server's channel as long as it is active; the index
//   rotates (and another name server is tried) only when there is no active channel
//   (getAndCreateNameserverChannel).
// - A timeout closes the channel only when clientCloseSocketIfTimeout is true: false up to 4.9.0,
//   true from 4.9.1 (NettyClientConfig, NettySystemConfig). A timed-out channel to a hung host stays active, so the client keeps it.
// - 5.0.0-5.2.0 clients reconnect every name server every 3 s (scanAvailableNameSrv), so a closed
//   channel to a hung host that still accepts connections is back before the next call.
// - Connect time counts against the call's timeout (invokeSync subtracts it).
// - An asynchronous request (invokeAsync: an ASYNC send) waits in the response table until
//   NettyRemotingAbstract.scanResponseTable, every second from 3 s after the start, finds
//   `beginTimestamp + timeoutMillis + 1000` passed: it is then removed (`remove timeout request`) and
//   its callback runs; nothing closes the channel (closeSocketIfTimeout is invokeSync's).

import { type Co, Mutex, Signal, spawn, wait } from './coroutine.js';
import { fail, Priority, type Timer } from './kernel.js';
import { renderMessage } from '../parse/message-render.js';
import type { JavaException, Level } from './log.js';
import type { Channel, ChannelHandler, Process, Response } from './network.js';
import type { Rng } from './random.js';
import type { ClientProfile } from './versions.js';

const EX = 'org.apache.rocketmq.remoting.exception.';

export const Exceptions = {
  /** 5.2.0+ print the channel's remoteAddress() (`/ip:port`), earlier ones the parsed address. */
  timeout(addr: string, slash: boolean, timeoutMs: number): JavaException {
    const msg = renderMessage(slash ? 'rpc-timeout/wait-response-slash' : 'rpc-timeout/wait-response', { addr, timeoutMs: Math.floor(timeoutMs) });
    return { cls: `${EX}RemotingTimeoutException`, msg };
  },
  /** invokeSync spent the call's time budget before it could send; 4.9.3+ name the address. */
  callTimeout(addr: string | null, namesAddr: boolean): JavaException {
    const msg = namesAddr ? renderMessage('rpc-timeout/call-the-addr', { addr }) : renderMessage('rpc-timeout/invoke-sync-call-timeout');
    return { cls: `${EX}RemotingTimeoutException`, msg };
  },
  connect(addr: string, angle: boolean): JavaException {
    return { cls: `${EX}RemotingConnectException`, msg: renderMessage(angle ? 'connect-failed/angle' : 'connect-failed/plain', { addr }) };
  },
  sendRequest(addr: string): JavaException {
    return { cls: `${EX}RemotingSendRequestException`, msg: renderMessage('send-request-failed/send-request-to', { addr }) };
  },
  tooMuch(msg: string): JavaException {
    return { cls: `${EX}RemotingTooMuchRequestException`, msg };
  },
  connectionReset(): JavaException {
    return { cls: 'java.io.IOException', msg: 'Connection reset by peer' };
  },
  connectRefused(addr: string): JavaException {
    return { cls: 'io.netty.channel.AbstractChannel$AnnotatedConnectException', msg: `Connection refused: /${addr}` };
  },
};

/**
 * What a waiter gets when its channel closed under it: NettyRemotingAbstract.failFast (run by the
 * client pipeline's close handler, every 4.x and 5.x line) fails the requests still waiting on that
 * channel at once, and invokeSyncImpl throws RemotingSendRequestException for them.
 */
const FAILED_FAST: Response = Object.freeze({ opaque: -1, code: -1, remark: 'failFast', body: null });

export type RpcResult =
  | { ok: true; resp: Response }
  | { ok: false; exc: JavaException; why: 'timeout' | 'connect' | 'send' };

interface RemotingClientOptions {
  proc: Process;
  profile: ClientProfile;
  /** Writes a RocketmqRemoting record. */
  log: (level: Level, msg: string, exc?: JavaException) => void;
  closeSocketIfTimeout: boolean;
  connectTimeoutMs: number;
  /** Client channel ALL_IDLE time (clientChannelMaxIdleTimeSeconds, 120 s). */
  channelMaxIdleMs: number;
  rng: Rng;
  /** Called for every invokeSync that timed out (metrics). */
  onTimeout?: (addr: string) => void;
  /** Called when a name server is chosen. */
  onNamesrvChosen?: (oldAddr: string | null, newAddr: string, index: number) => void;
  /** The epoch ms of model time 0 (a ResponseFuture prints its beginTimestamp); 0 where nothing asynchronous is sent. */
  startEpochMs?: number;
}

class ChannelWrapper {
  ch: Channel | null = null;
  connecting = true;
  refused = false;
  readonly done = new Signal<void>();
  readonly futureId: string;
  constructor(
    readonly addr: string,
    futureId: string,
  ) {
    this.futureId = futureId;
  }
  isOK(): boolean {
    return this.ch !== null && this.ch.active;
  }
}

/**
 * A callback-form invokeSync (invokeCached): the caller's own object waits in the response table, so
 * a request allocates no closure. One call at a time per object (it may be reused for the next).
 */
export abstract class CachedCall implements Waiter {
  private remoting: RemotingClient | null = null;
  private callAddr = '';
  private callCh: Channel | null = null;
  private callTimeoutMs = 0;
  /** An invokeAsync request (its opaque and start), or null for invokeSync's. */
  private callAsync: { opaque: number; beginMs: number } | null = null;

  /** @internal */
  bind(remoting: RemotingClient, addr: string, ch: Channel, timeoutMs: number, async: { opaque: number; beginMs: number } | null = null): void {
    this.remoting = remoting;
    this.callAddr = addr;
    this.callCh = ch;
    this.callTimeoutMs = timeoutMs;
    this.callAsync = async;
  }

  resolve(resp: Response | null): void {
    // failFast (the channel closed under the request): invokeSync throws and closes the channel; an
    // invokeAsync request's callback is told it was not sent (NettyRemotingAbstract.requestFail).
    if (resp === FAILED_FAST && this.callAsync !== null) this.onFailure({ ok: false, exc: Exceptions.sendRequest(this.callCh!.remoteAddr), why: 'send' });
    else if (resp === FAILED_FAST) this.onFailure(this.remoting!.sendRequestFailed(this.callAddr, this.callCh!));
    else if (resp !== null) this.onResponse(resp);
    else if (this.callAsync !== null) this.onFailure(this.remoting!.asyncTimedOut(this.callCh!, this.callTimeoutMs, this.callAsync.opaque, this.callAsync.beginMs));
    else this.onFailure(this.remoting!.timedOut(this.callAddr, this.callCh!, this.callTimeoutMs, this.callTimeoutMs));
  }

  /** @internal */
  channel(): Channel | null {
    return this.callCh;
  }

  /** The response came. */
  abstract onResponse(resp: Response): void;
  /** The call failed (timeout, send failure), as invokeSync would have returned it. */
  abstract onFailure(r: RpcResult & { ok: false }): void;
}

/** What waits for a response: a coroutine's signal, or a callback-form call (invokeCached). */
interface Waiter {
  resolve(resp: Response | null): void;
  /** The channel the request went out on. */
  channel(): Channel | null;
}

/** invokeSync's wait in coroutine form. */
class SyncWait extends Signal<Response | null> implements Waiter {
  constructor(private readonly ch: Channel) {
    super();
  }
  channel(): Channel | null {
    return this.ch;
  }
}

/**
 * The response table (opaque -> waiter). Opaques are handed out in increasing order and every
 * request has a deadline, so the live ones lie in a short window [base, top): a ring indexed by
 * opaque, which a request neither hashes nor allocates in. The ring doubles when the window outgrows
 * it; on() lists the live entries in opaque order, the order a Map would have kept them in. Free
 * slots hold NaN, which no opaque equals (FAILED_FAST and the background sends use -1).
 */
class PendingTable {
  private keys = new Float64Array(64).fill(NaN);
  private vals: Array<Waiter | undefined> = new Array<Waiter | undefined>(64).fill(undefined);
  private mask = 63;
  /** No live opaque below base; every one set so far is below top. */
  private base = 0;
  private top = 0;

  get(opaque: number): Waiter | undefined {
    const i = opaque & this.mask;
    return this.keys[i] === opaque ? this.vals[i] : undefined;
  }

  has(opaque: number): boolean {
    return this.keys[opaque & this.mask] === opaque;
  }

  /** opaque is larger than every opaque set before. */
  set(opaque: number, w: Waiter): void {
    if (!(opaque >= this.top)) fail(`pending: opaque ${opaque} after ${this.top}`);
    if (this.base === this.top) this.base = opaque;
    this.top = opaque + 1;
    while (this.top - this.base > this.mask + 1) this.grow();
    const i = opaque & this.mask;
    this.keys[i] = opaque;
    this.vals[i] = w;
  }

  /** The live entries whose request went out on ch. */
  on(ch: Channel): Array<[number, Waiter]> {
    const out: Array<[number, Waiter]> = [];
    for (let k = this.base; k < this.top; k++) {
      const i = k & this.mask;
      const w = this.vals[i];
      if (this.keys[i] === k && w !== undefined && w.channel() === ch) out.push([k, w]);
    }
    return out;
  }

  delete(opaque: number): void {
    const i = opaque & this.mask;
    if (this.keys[i] !== opaque) return;
    this.keys[i] = NaN;
    this.vals[i] = undefined;
    if (opaque !== this.base) return;
    let b = this.base + 1;
    while (b < this.top && this.keys[b & this.mask] !== b) b++;
    this.base = b;
  }

  private grow(): void {
    const n = (this.mask + 1) * 2;
    const keys = new Float64Array(n).fill(NaN);
    const vals = new Array<Waiter | undefined>(n).fill(undefined);
    const mask = n - 1;
    for (let k = this.base; k < this.top; k++) {
      const i = k & this.mask;
      if (this.keys[i] !== k) continue;
      keys[k & mask] = k;
      vals[k & mask] = this.vals[i];
    }
    this.keys = keys;
    this.vals = vals;
    this.mask = mask;
  }
}

export class RemotingClient implements ChannelHandler {
  private channelTables = new Map<string, ChannelWrapper>();
  private pending = new PendingTable();
  private opaqueNext = 1;
  private nsLock = new Mutex();
  namesrvAddrList: string[] = [];
  namesrvAddrChoosed: string | null = null;
  namesrvIndex = 0;

  constructor(private readonly o: RemotingClientOptions) {}

  private get now(): number {
    return this.o.proc.nowMs;
  }

  /** When the client started (reset at its boot): scanResponseTable's timer runs from 3 s after it. */
  private startedMs = 0;

  /** Forget everything (the process died, or starts). */
  reset(): void {
    this.startedMs = this.now;
    this.channelTables = new Map();
    this.pending = new PendingTable();
    this.dlAt = [];
    this.dlOpaque = [];
    this.deadlineTimer = null;
    this.nsLock = new Mutex();
    this.namesrvAddrChoosed = null;
    this.namesrvAddrList = [];
  }

  /** updateNameServerAddressList: shuffles a new list and logs it. */
  updateNameServerAddressList(addrs: readonly string[], shuffle: boolean): void {
    const old = this.namesrvAddrList;
    const same = old.length === addrs.length && addrs.every((a) => old.includes(a));
    if (same) return;
    const list = [...addrs];
    if (shuffle) this.o.rng.shuffle(list);
    this.namesrvAddrList = list;
    this.o.log('INFO', renderMessage('namesrv-list/updated', { addrs: list, old: old.length ? old : null }));
    if (this.namesrvAddrChoosed !== null && !list.includes(this.namesrvAddrChoosed)) this.namesrvAddrChoosed = null;
  }

  // ---- texts ------------------------------------------------------------------------------

  /** A catalogue message about a channel: its 5.3.1+ wording (`channel[addr=a, id=i]`) or the address alone. */
  private chanMessage(withId: string, plain: string, addr: string, ch: Channel | null): string {
    return this.o.profile.channelIdForm && ch ? renderMessage(withId, { addr, channelId: ch.shortId }) : renderMessage(plain, { addr });
  }

  private remoteText(ch: Channel): string {
    return this.o.profile.timeoutAddrSlash ? `/${ch.remoteAddr}` : ch.remoteAddr;
  }

  private future(state: string): string {
    return `DefaultChannelPromise@${this.o.rng.uint32().toString(16)}(${state})`;
  }

  // ---- invokeSync --------------------------------------------------------------------------

  /**
   * NettyRemotingClient.invokeSync; addr null means "the chosen name server". `async`: invokeAsync
   * (an ASYNC send) instead: the same channel handling, its own budget check, and a response table
   * entry that scanResponseTable removes (asyncTimedOut).
   */
  *invokeSync(addr: string | null, code: number, body: unknown, timeoutMs: number, msgKey = -1, async = false): Co<RpcResult> {
    const p = this.o.profile;
    const begin = this.now;
    let ch: Channel | null;
    const cached = addr === null ? undefined : this.channelTables.get(addr);
    if (cached !== undefined && cached.isOK()) ch = cached.ch;
    else {
      const got = yield* this.getAndCreateChannel(addr);
      if ('exc' in got) return { ok: false, exc: got.exc, why: 'connect' };
      ch = got.ch;
    }
    if (ch !== null && ch.clientOpen) {
      const cost = this.now - begin;
      if (timeoutMs < cost) return { ok: false, exc: this.callTimeout(addr, async), why: 'timeout' };
      const left = timeoutMs - cost;
      // invokeSyncImpl: write the request, wait for the response or the deadline.
      const opaque = this.opaqueNext++;
      const sig = new SyncWait(ch);
      this.pending.set(opaque, sig);
      const sentAt = this.now;
      if (!this.o.proc.net.send(ch, { code, opaque, body, msgKey })) return this.sendFailed(addr, ch, opaque);
      // waitResponse returns a little after the deadline (the 3001-3003 ms RTs of real logs).
      this.addDeadline(async ? this.scanRemovalAt(sentAt, left) : this.now + left + this.o.rng.uniform(0.5, 3), opaque);
      const resp = sig.settled ? sig.value : ((yield sig as Signal<unknown>) as Response | null);
      if (resp === FAILED_FAST) return async ? { ok: false, exc: Exceptions.sendRequest(ch.remoteAddr), why: 'send' } : this.sendRequestFailed(addr, ch);
      if (resp !== null) return { ok: true, resp };
      return async ? this.asyncTimedOut(ch, left, opaque, sentAt) : this.timedOut(addr, ch, timeoutMs, left);
    }
    this.closeChannel(addr, ch);
    return { ok: false, exc: Exceptions.connect(String(addr), p.connectExceptionAngle), why: 'connect' };
  }

  /**
   * invokeSync in callback form, for the hot path of sends: when the channel table holds an active
   * channel for addr, it does exactly what invokeSync does (same writes, draws, timers and logs, in
   * the same order) and calls k with the result, and returns true; otherwise it does nothing and
   * returns false (the caller then runs invokeSync).
   */
  invokeCached(addr: string, code: number, body: unknown, timeoutMs: number, call: CachedCall, msgKey = -1, async = false): boolean {
    const cached = this.channelTables.get(addr);
    if (cached === undefined || !cached.isOK()) return false;
    const ch = cached.ch!;
    if (timeoutMs < 0) {
      call.onFailure({ ok: false, exc: this.callTimeout(addr, async), why: 'timeout' });
      return true;
    }
    const opaque = this.opaqueNext++;
    call.bind(this, addr, ch, timeoutMs, async ? { opaque, beginMs: this.now } : null);
    this.pending.set(opaque, call);
    if (!this.o.proc.net.send(ch, { code, opaque, body, msgKey })) {
      call.onFailure(this.sendFailed(addr, ch, opaque));
      return true;
    }
    this.addDeadline(async ? this.scanRemovalAt(this.now, timeoutMs) : this.now + timeoutMs + this.o.rng.uniform(0.5, 3), opaque);
    return true;
  }

  /**
   * The budget was spent before the call: invokeSync throws RemotingTimeoutException, invokeAsync
   * RemotingTooMuchRequestException (NettyRemotingClient, 4.x and 5.x); 4.9.3+ name the address.
   */
  callTimeout(addr: string | null, async: boolean): JavaException {
    if (!async) return Exceptions.callTimeout(addr, this.o.profile.callTimeoutNamesAddr);
    const msg = this.o.profile.callTimeoutNamesAddr ? renderMessage('rpc-timeout/call-the-addr', { addr }, 'invokeAsync') : renderMessage('rpc-timeout/invoke-sync-call-timeout', {}, 'invokeAsync');
    return Exceptions.tooMuch(msg);
  }

  /**
   * When scanResponseTable removes an invokeAsync request begun at `beginMs` with `timeoutMs`: its
   * first run (every 1000 ms from 3 s after the client's start, NettyRemotingClient.start's timer)
   * at which `beginTimestamp + timeoutMillis + 1000 <= now` (NettyRemotingAbstract, 4.x and 5.x).
   */
  scanRemovalAt(beginMs: number, timeoutMs: number): number {
    const due = beginMs + timeoutMs + 1000;
    const first = this.startedMs + 3000;
    return due <= first ? first : first + Math.ceil((due - first) / 1000) * 1000;
  }

  /**
   * scanResponseTable removed an invokeAsync request: its `remove timeout request` line (4.x prints
   * the channel, 5.x not), and what its callback is told (the channel stays open).
   */
  asyncTimedOut(ch: Channel, timeoutMs: number, opaque: number, beginMs: number): RpcResult & { ok: false } {
    const p = this.o.profile;
    const epoch = (ms: number) => Math.floor((this.o.startEpochMs ?? 0) + ms);
    const hash = () => this.o.rng.uint32().toString(16);
    const args = {
      responseCommand: null,
      sendRequestOK: true,
      cause: null,
      opaque,
      processChannel: `[id: 0x${ch.shortId}, L:/${ch.localAddr} - R:/${ch.remoteAddr}]`,
      timeoutMs: Math.floor(timeoutMs),
      invokeCallback: p.v[0] >= 5 ? `org.apache.rocketmq.remoting.netty.NettyRemotingClient$InvokeCallbackWrapper@${hash()}` : `org.apache.rocketmq.client.impl.MQClientAPIImpl$1@${hash()}`,
      beginMs: epoch(beginMs),
      countDownLatch: `java.util.concurrent.CountDownLatch@${hash()}[Count = 1]`,
    };
    this.o.log('WARN', renderMessage('async-timeout/remove-timeout-request', args, p.v[0] >= 5 ? '5.x' : null));
    return { ok: false, exc: Exceptions.timeout(ch.remoteAddr, p.timeoutAddrSlash, timeoutMs), why: 'timeout' };
  }

  /** invokeSyncImpl could not write the request. */
  private sendFailed(addr: string | null, ch: Channel, opaque: number): RpcResult & { ok: false } {
    this.pending.delete(opaque);
    this.o.log('WARN', `send a request command to channel <${this.remoteText(ch)}> failed.`);
    return this.sendRequestFailed(addr, ch);
  }

  /** invokeSync caught RemotingSendRequestException: it closes the channel and throws it on. */
  sendRequestFailed(addr: string | null, ch: Channel): RpcResult & { ok: false } {
    const p = this.o.profile;
    const who = p.invokeWarnsChannelAddr ? ch.remoteAddr : String(addr);
    const text = p.sendExceptionIdForm
      ? renderMessage('channel-closed/send-exception-532', { addr: who, channelId: ch.shortId })
      : renderMessage('channel-closed/send-exception', { addr: who });
    this.o.log('WARN', text);
    this.closeChannel(addr, ch);
    return { ok: false, exc: Exceptions.sendRequest(ch.remoteAddr), why: 'send' };
  }

  /** invokeSync after the wait for a response ran out. */
  timedOut(addr: string | null, ch: Channel, timeoutMs: number, left: number): RpcResult & { ok: false } {
    const p = this.o.profile;
    const r: RpcResult & { ok: false } = { ok: false, exc: Exceptions.timeout(ch.remoteAddr, p.timeoutAddrSlash, left), why: 'timeout' };
    const who = p.invokeWarnsChannelAddr ? ch.remoteAddr : String(addr);
    this.o.onTimeout?.(ch.remoteAddr);
    const shouldClose = !p.closeGuard || left > 100 || left > timeoutMs / 4;
    if (this.o.closeSocketIfTimeout && shouldClose) {
      this.closeChannel(addr, ch);
      const text = p.channelIdForm
        ? renderMessage('channel-closed/timeout-531', { timeoutMillis: timeoutMs, addr: who, channelId: ch.shortId })
        : renderMessage('channel-closed/timeout', { timeoutMillis: timeoutMs, addr: who });
      this.o.log('WARN', text);
    }
    this.o.log('WARN', this.chanMessage('rpc-timeout/invoke-sync-wait-531', 'rpc-timeout/invoke-sync-wait', who, ch));
    return r;
  }

  // Response deadlines: one timer per client at the earliest deadline, not one per request. A binary
  // heap on atMs kept in two parallel arrays (deadline, opaque), so that a request allocates nothing.
  private dlAt: number[] = [];
  private dlOpaque: number[] = [];
  private deadlineTimer: Timer | null = null;

  private addDeadline(atMs: number, opaque: number): void {
    const at = this.dlAt;
    const op = this.dlOpaque;
    let i = at.length;
    at.push(atMs);
    op.push(opaque);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!earlier(at, op, i, p)) break;
      swap(at, op, p, i);
      i = p;
    }
    this.armDeadlines();
  }

  /** Removes the earliest deadline; returns its opaque. */
  private popDeadline(): number {
    const at = this.dlAt;
    const op = this.dlOpaque;
    const top = op[0];
    const lastAt = at.pop()!;
    const lastOp = op.pop()!;
    const n = at.length;
    if (n > 0) {
      at[0] = lastAt;
      op[0] = lastOp;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && earlier(at, op, r, l) ? r : l;
        if (!earlier(at, op, c, i)) break;
        swap(at, op, i, c);
        i = c;
      }
    }
    return top;
  }

  private armDeadlines(): void {
    // Responses usually come first: drop deadlines whose request is no longer pending.
    while (this.dlAt.length > 0 && !this.pending.has(this.dlOpaque[0])) this.popDeadline();
    if (this.dlAt.length === 0) return;
    const at = this.dlAt[0];
    if (this.deadlineTimer !== null && !this.deadlineTimer.cancelled && this.deadlineTimer.atMs <= at) return;
    this.deadlineTimer?.cancel();
    this.deadlineTimer = this.o.proc.at(at, this.fireDeadlinesFn, Priority.timer);
  }

  private readonly fireDeadlinesFn = (): void => this.fireDeadlines();

  private fireDeadlines(): void {
    this.deadlineTimer = null;
    while (this.dlAt.length > 0 && this.dlAt[0] <= this.now) {
      const opaque = this.popDeadline();
      const sig = this.pending.get(opaque);
      if (sig === undefined) continue;
      this.pending.delete(opaque);
      sig.resolve(null);
    }
    this.armDeadlines();
  }

  onResponse(ch: Channel, resp: Response): void {
    const sig = this.pending.get(resp.opaque);
    if (sig === undefined) return this.lateResponse(ch, resp);
    this.pending.delete(resp.opaque);
    sig.resolve(resp);
  }

  /**
   * A response whose request the caller gave up (timed out, removed from responseTable):
   * NettyRemotingAbstract.processResponseCommand warns of it with the response itself (a busy
   * reply's remark shows how long the request waited in the broker's send queue).
   */
  private lateResponse(ch: Channel, resp: Response): void {
    // RemotingCommand.toString (4.x, 5.x): a response's flag is 1 (RPC_TYPE), its serialization JSON.
    const cmd = `RemotingCommand [code=${resp.code}, language=JAVA, version=${ch.server.remotingVersion}, opaque=${resp.opaque}, flag(B)=1, remark=${resp.remark}, extFields=null, serializeTypeCurrentRPC=JSON]`;
    const addr = ch.remoteAddr;
    switch (this.o.profile.lateResponseForm) {
      case 'two-lines':
        this.o.log('WARN', renderMessage('late-response/not-matched', { addr }));
        this.o.log('WARN', cmd);
        return;
      case 'cmd':
        this.o.log('WARN', `receive response, cmd=${cmd}, but not matched any request, address=${addr}`);
        return;
      case 'cmd-channel':
        this.o.log('WARN', `receive response, cmd=${cmd}, but not matched any request, address=${addr}, channelId=${ch.shortId}`);
    }
  }

  // ---- channels ----------------------------------------------------------------------------

  private *getAndCreateChannel(addr: string | null): Co<{ ch: Channel | null } | { exc: JavaException }> {
    if (addr === null) return yield* this.getAndCreateNameserverChannel();
    const cw = this.channelTables.get(addr);
    if (cw !== undefined && cw.isOK()) return { ch: cw.ch };
    return { ch: yield* this.createChannel(addr) };
  }

  /** getAndCreateNameserverChannel: reuse the chosen name server while its channel is active; otherwise rotate the index. */
  private *getAndCreateNameserverChannel(): Co<{ ch: Channel | null } | { exc: JavaException }> {
    let addr = this.namesrvAddrChoosed;
    if (addr !== null) {
      const cw = this.channelTables.get(addr);
      if (cw !== undefined && cw.isOK()) return { ch: cw.ch };
    }
    const list = this.namesrvAddrList;
    yield* wait(this.nsLock.acquire());
    try {
      addr = this.namesrvAddrChoosed;
      if (addr !== null) {
        const cw = this.channelTables.get(addr);
        if (cw !== undefined && cw.isOK()) return { ch: cw.ch };
      }
      if (list.length === 0) return { ch: null };
      const tries = this.o.profile.namesrvLoopAll ? list.length : 1;
      for (let i = 0; i < tries; i++) {
        this.namesrvIndex = (this.namesrvIndex + 1) | 0;
        const newAddr = list[Math.abs(this.namesrvIndex) % list.length];
        this.namesrvAddrChoosed = newAddr;
        this.o.log('INFO', renderMessage('namesrv-chosen/chosen', { old: addr, new: newAddr, namesrvIndex: this.namesrvIndex }));
        this.o.onNamesrvChosen?.(addr, newAddr, this.namesrvIndex);
        const ch = yield* this.createChannel(newAddr);
        if (ch !== null) return { ch };
      }
      const what = this.o.profile.namesrvLoopAll ? `[${list.join(', ')}]` : 'null';
      return { exc: Exceptions.connect(what, this.o.profile.connectExceptionAngle) };
    } finally {
      this.nsLock.release();
    }
  }

  /** scanAvailableNameSrv (5.0.0-5.2.0): a channel to every name server of the list, made if missing. */
  scanAvailableNameSrv(): void {
    for (const addr of this.namesrvAddrList) spawn(this.getAndCreateChannel(addr));
  }

  /** createChannel: reuse an active channel, wait on a connect in progress, or connect. */
  private *createChannel(addr: string): Co<Channel | null> {
    const p = this.o.profile;
    let cw = this.channelTables.get(addr);
    if (cw !== undefined && cw.isOK()) return cw.ch;
    if (cw === undefined || !cw.connecting) {
      if (cw !== undefined) this.channelTables.delete(addr);
      this.o.log('INFO', `createChannel: begin to connect remote host[${addr}] asynchronously`);
      const fresh = new ChannelWrapper(addr, this.o.rng.uint32().toString(16));
      cw = fresh;
      this.channelTables.set(addr, fresh);
      const local = p.v[0] > 5 || (p.v[0] === 5 && (p.v[1] > 3 || (p.v[1] === 3 && p.v[2] >= 2))) ? this.o.proc.host.ip : 'UNKNOWN';
      this.o.log('INFO', renderMessage(local === 'UNKNOWN' ? 'pipeline/client-connect' : 'pipeline/client-connect-local', { local, addr }));
      this.o.proc.net.connect(this.o.proc, addr, this.o.connectTimeoutMs, (r) => {
        fresh.connecting = false;
        if (r.ok) {
          fresh.ch = r.ch;
          r.ch.handler = this;
          this.o.proc.net.watchIdle(r.ch, 'client', this.o.channelMaxIdleMs, () => this.onIdle(r.ch));
        } else fresh.refused = r.why === 'refused';
        fresh.done.resolve();
      });
    }
    const target = cw;
    const timedOut = yield* wait(this.waitFor(target.done, this.o.connectTimeoutMs));
    if (timedOut || (!target.isOK() && !target.refused)) {
      if (p.createChannelOutcomeLogs) {
        const text = renderMessage('connect-failed/create-channel-timeout', { addr, connectTimeoutMillis: this.o.connectTimeoutMs, channelFuture: this.future('incomplete') });
        this.o.log('WARN', text);
      }
      return null;
    }
    if (target.isOK()) {
      if (p.createChannelOutcomeLogs) this.o.log('INFO', `createChannel: connect remote host[${addr}] success, ${this.future('success')}`);
      return target.ch;
    }
    if (p.createChannelOutcomeLogs) {
      const cause = Exceptions.connectRefused(addr);
      const text = renderMessage('connect-failed/create-channel-failed', { addr, channelFuture: this.future(`failure: ${cause.cls}: ${cause.msg}`) });
      this.o.log('WARN', text, p.createChannelFailedStack ? cause : undefined);
    }
    return null;
  }

  /** Resolves true when ms passed before the signal. */
  private waitFor(s: Signal<void>, ms: number): Signal<boolean> {
    const out = new Signal<boolean>();
    s.then(() => out.resolve(false));
    if (!out.settled) this.o.proc.after(ms, () => out.resolve(true), Priority.timer);
    return out;
  }

  /** closeChannel(addr, channel), from the invoke paths. */
  closeChannel(addr: string | null, ch: Channel | null): void {
    if (ch === null) return;
    const addrRemote = addr ?? ch.remoteAddr;
    const prev = this.channelTables.get(addrRemote);
    const t = this.o.profile.channelIdForm ? `addr=${addrRemote}, id=${ch.shortId}` : addrRemote;
    this.o.log('INFO', `closeChannel: begin close the channel[${t}] Found: ${prev !== undefined}`);
    if (prev === undefined) {
      this.o.log('INFO', `closeChannel: the channel[${t}] has been removed from the channel table before`);
    } else if (prev.ch !== ch) {
      this.o.log('INFO', `closeChannel: the channel[${t}] has been closed before, and has been created again, nothing to do.`);
    } else {
      this.channelTables.delete(addrRemote);
      this.o.log('INFO', this.chanMessage('channel-closed/removed-531', 'channel-closed/removed', addrRemote, ch));
    }
    this.lowLevelClose(ch);
  }

  private lowLevelClose(ch: Channel): void {
    this.o.proc.net.close(ch, 'client');
    this.o.log('INFO', this.chanMessage('pipeline/client-close-531', 'pipeline/client-close', ch.remoteAddr, ch));
    this.o.log('INFO', renderMessage('channel-closed/connection-closed', { addr: ch.remoteAddr, result: true }));
    this.failFast(ch);
  }

  /**
   * NettyRemotingAbstract.failFast from the close handler: the requests still waiting on ch fail now
   * instead of at their deadlines. Their threads wake after the closing one has logged its own lines.
   */
  private failFast(ch: Channel): void {
    const waiting = this.pending.on(ch);
    if (waiting.length === 0) return;
    for (const [opaque] of waiting) this.pending.delete(opaque);
    this.o.proc.after(0, () => {
      for (const [, w] of waiting) w.resolve(FAILED_FAST);
    }, Priority.timer);
  }

  /** closeChannel(channel), from the pipeline handlers. */
  private closeByChannel(ch: Channel): void {
    let key: string | null = null;
    for (const [k, cw] of this.channelTables) {
      if (cw.ch === ch) {
        key = k;
        break;
      }
    }
    const p = this.o.profile;
    if (key === null) {
      const who = p.channelIdForm ? `addr=${ch.remoteAddr}, id=${ch.shortId}` : 'null';
      this.o.log('INFO', `eventCloseChannel: the channel[${who}] has been removed from the channel table before`);
    } else {
      this.channelTables.delete(key);
      this.o.log('INFO', this.chanMessage('channel-closed/removed-531', 'channel-closed/removed', key, ch));
    }
    this.lowLevelClose(ch);
  }

  /** The peer closed (FIN) or reset (RST) the channel (NettyConnectManageHandler). */
  onInactive(ch: Channel, why: 'fin' | 'rst'): void {
    const p = this.o.profile;
    if (why === 'rst') {
      if (p.channelIdForm) {
        this.o.log('WARN', renderMessage('pipeline/client-exception-531', { addr: ch.remoteAddr, channelId: ch.shortId }), Exceptions.connectionReset());
      } else {
        this.o.log('WARN', renderMessage('pipeline/client-exception', { addr: ch.remoteAddr }));
        this.o.log('WARN', 'NETTY CLIENT PIPELINE: exceptionCaught exception.', Exceptions.connectionReset());
      }
      this.closeByChannel(ch);
      return;
    }
    // A FIN passes no handler before 5.1.3: the dead wrapper stays until the next use finds it inactive.
    if (p.channelInactiveLog) {
      this.o.log('INFO', this.chanMessage('pipeline/client-inactive-531', 'pipeline/client-inactive', ch.remoteAddr, ch));
      this.closeByChannel(ch);
    }
  }

  private onIdle(ch: Channel): void {
    this.o.log('WARN', this.chanMessage('pipeline/client-idle-531', 'pipeline/client-idle', ch.remoteAddr, ch));
    this.closeByChannel(ch);
  }
}

/** Deadline i comes before deadline j: earlier, or at the same time with a lower opaque (scanResponseTable meets the table's entries in that order). */
function earlier(at: readonly number[], op: readonly number[], i: number, j: number): boolean {
  return at[i] < at[j] || (at[i] === at[j] && op[i] < op[j]);
}

function swap(at: number[], op: number[], i: number, j: number): void {
  const t = at[i];
  at[i] = at[j];
  at[j] = t;
  const o = op[i];
  op[i] = op[j];
  op[j] = o;
}
