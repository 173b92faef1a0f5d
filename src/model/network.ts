// Hosts, processes and TCP channels.
//
// Host states (decided from the seed outage: a host that froze for a reboot with a long hardware
// self-test kept its TCP connections open, and nobody got a connection error):
// - up: normal.
// - hung: everything on the host is frozen. Established channels stay open and active at the peers;
//   what is sent to the host is never answered (callers time out), new connects get no SYN-ACK
//   (they time out) unless only its processes froze (acceptsWhileHung: SIGSTOP, a long pause): then
//   the OS completes them into the listen backlog and they get no answer either. Timers of its processes do not run; what reached it is held and handled if it
//   resumes ('up'), dropped if it reboots.
// - down: its processes are dead, the OS is alive: channels are closed (peers see the close at
//   once), connects are refused.
// - rebooting: the OS came back with a fresh TCP stack, which knows none of the old channels: a
//   peer's segment on one draws a RST (RFC 793), so a peer learns it when TCP retransmits what it
//   wrote while the host was dark, or else at its next write; a peer that never writes (a NameServer
//   holding a broker's channel) keeps it until its idle handler closes it. Each process boots after
//   its own delay, and connects to a port are refused until the process behind it has booted. The
//   host is 'up' again once all of them run.
// Partitions drop every packet between two hosts in both directions (no RST, no FIN). A FIN a
// partition dropped is retransmitted by the closing side's TCP, on the retransmission timer's
// backoff (TCP_RTO_MIN 200 ms, doubling) from its first unacknowledged segment, 8 times for a closed
// (orphaned) socket (tcp_orphan_retries 0 means 8, Linux tcp_timer.c): the peer learns of the close
// at the first retransmission after the heal, or never when the last one, about 51 s after that
// segment, went out before the heal (it then learns at its next write, or at its idle close).

import { assert, Kernel, Priority, type Call, type Gate, type Timer } from './kernel.js';

type HostState = 'up' | 'hung' | 'down' | 'rebooting';

export interface Request {
  /** RequestCode, e.g. 10 SEND_MESSAGE, 34 HEART_BEAT, 103 REGISTER_BROKER, 105 GET_ROUTEINFO_BY_TOPIC, 106 GET_BROKER_CLUSTER_INFO. */
  code: number;
  opaque: number;
  body: unknown;
  /** A SEND_MESSAGE's message (its UNIQ_KEY, the same in every attempt of one send: copies.ts); -1 otherwise. */
  msgKey?: number;
}

export interface Response {
  opaque: number;
  /** ResponseCode: 0 SUCCESS, 1 SYSTEM_ERROR, 2 SYSTEM_BUSY, 17 TOPIC_NOT_EXIST, ... */
  code: number;
  remark: string | null;
  body: unknown;
}

export const RequestCode = {
  SEND_MESSAGE: 10,
  HEART_BEAT: 34,
  REGISTER_BROKER: 103,
  GET_ROUTEINFO_BY_TOPIC: 105,
  GET_BROKER_CLUSTER_INFO: 106,
} as const;

export const ResponseCode = {
  SUCCESS: 0,
  SYSTEM_ERROR: 1,
  SYSTEM_BUSY: 2,
  SERVICE_NOT_AVAILABLE: 14,
  TOPIC_NOT_EXIST: 17,
} as const;

/** Linux's floor of the retransmission timeout (TCP_RTO_MIN): on a LAN the RTO sits at it. */
export const TCP_RTO_MIN_MS = 200;
/** Retransmissions of a closed socket's unacknowledged data and FIN (tcp_orphan_retries 0 means 8, tcp_timer.c). */
export const TCP_ORPHAN_RETRIES = 8;

/**
 * When a FIN whose first unacknowledged segment went out at sentMs, and which a partition dropped,
 * reaches the peer's side of the path once it is back at healMs: the first retransmission at or after
 * the heal (retransmission k at sentMs + RTO * (2^k - 1), the timer doubling each time), or null when
 * the last one went out before the heal (the orphaned socket gives up; nothing more is sent).
 */
export function finRetransmittedAt(sentMs: number, healMs: number): number | null {
  for (let k = 1; k <= TCP_ORPHAN_RETRIES; k++) {
    const at = sentMs + TCP_RTO_MIN_MS * (2 ** k - 1);
    if (at >= healMs) return at;
  }
  return null;
}

/** What a process that listens on a port does with its server-side channels. */
export interface Listener {
  onAccept(ch: Channel): void;
  onRequest(ch: Channel, req: Request): void;
  /** The peer closed (fin) or reset (rst) the channel. */
  onInactive(ch: Channel, why: 'fin' | 'rst'): void;
}

/** What a process that opened a channel does with its events. */
export interface ChannelHandler {
  onResponse(ch: Channel, resp: Response): void;
  onInactive(ch: Channel, why: 'fin' | 'rst'): void;
}

export class Host {
  state: HostState = 'up';
  /** While hung: the OS is alive (only the processes froze), so new connects complete into the listen backlog. */
  acceptsWhileHung = false;
  /** Since when the host is hung, or null: what peers wrote to it since may be unacknowledged, and TCP retransmits it. */
  hungSinceMs: number | null = null;
  readonly processes: Process[] = [];
  private held: Array<() => void> = [];
  /** Held callbacks that run before the others on resume (the timers Netty finds overdue). */
  private heldFirst: Array<() => void> = [];
  private nextPort = 50000;

  constructor(
    readonly name: string,
    readonly ip: string,
  ) {}

  /** The host hangs: its processes only (the OS still completes connects), or the whole host. */
  hang(nowMs: number, processesOnly: boolean): void {
    if (this.state !== 'hung') this.hungSinceMs = nowMs;
    this.state = 'hung';
    this.acceptsWhileHung = processesOnly;
  }

  /** Hold a callback until the host resumes (it is dropped if the host reboots or goes down). */
  hold(fn: () => void): void {
    this.held.push(fn);
  }

  /** Hold a callback that runs before every other held one when the host resumes. */
  holdFirst(fn: () => void): void {
    this.heldFirst.push(fn);
  }

  takeHeld(): Array<() => void> {
    const h = [...this.heldFirst, ...this.held];
    this.held = [];
    this.heldFirst = [];
    return h;
  }

  dropHeld(): void {
    this.held = [];
    this.heldFirst = [];
  }

  ephemeralPort(): number {
    const p = this.nextPort++;
    if (this.nextPort > 65000) this.nextPort = 50000;
    return p;
  }
}

/**
 * A process on a host (NameServer, broker, client JVM). Its callbacks go through `gate`: they are
 * dropped once the process died (incarnation changed), held while the host is hung, run otherwise.
 */
export abstract class Process implements Gate {
  incarnation = 0;
  alive = false;
  /** The `version` of the RemotingCommands it answers with (MQVersion.Version's ordinal); 0 for a process that answers nothing. */
  remotingVersion = 0;

  constructor(
    readonly net: Network,
    readonly host: Host,
    readonly label: string,
  ) {
    host.processes.push(this);
  }

  get kernel(): Kernel {
    return this.net.kernel;
  }

  get nowMs(): number {
    return this.net.kernel.nowMs;
  }

  /** Start the process (boot). */
  start(): void {
    assert(!this.alive, `${this.label}: started twice`);
    this.alive = true;
    this.boot();
  }

  /**
   * The process dies (crash, host down or reboot): its state is lost, its callbacks are dropped, its
   * channels are gone and the peers see `fin` (the OS closed the sockets) or `rst` (a new TCP stack).
   */
  kill(why: 'fin' | 'rst'): void {
    if (!this.alive) return;
    this.alive = false;
    this.incarnation++;
    this.net.unlistenAll(this);
    this.net.dropProcessChannels(this, why);
    this.onKilled();
  }

  protected abstract boot(): void;
  protected abstract onKilled(): void;

  /** Gate: run only in the incarnation that scheduled it; hold while the host is hung. */
  admit(inc: number, fn: Call, a?: unknown, b?: unknown): boolean {
    if (inc !== this.incarnation || !this.alive) return false;
    if (this.host.state === 'hung') {
      this.holdTask(inc, fn, a, b);
      return false;
    }
    return true;
  }

  /** Apart from admit: a closure in admit made V8 allocate its context on every call, hung or not. */
  private holdTask(inc: number, fn: Call, a: unknown, b: unknown): void {
    this.host.hold(() => {
      if (this.admit(inc, fn, a, b)) fn(a, b);
    });
  }

  /** Wrap a callback so that it obeys the process's life and its host's state. */
  guard(fn: () => void): () => void {
    const inc = this.incarnation;
    return () => {
      if (this.admit(inc, fn)) fn();
    };
  }

  after(delayMs: number, fn: () => void, priority: number = Priority.process): Timer {
    return this.kernel.schedule(this.kernel.nowMs + delayMs, priority, fn, this, this.incarnation);
  }

  at(atMs: number, fn: () => void, priority: number = Priority.process): Timer {
    return this.kernel.schedule(atMs, priority, fn, this, this.incarnation);
  }

  /** at(atMs, () => fn(a, b), priority) without the closure (hot paths). */
  at2<A, B>(atMs: number, fn: (a: A, b: B) => void, a: A, b: B, priority: number = Priority.process): Timer {
    return this.kernel.schedule2(atMs, priority, fn, a, b, this, this.incarnation);
  }

  /** at2 for a callback nobody cancels (Kernel.post2: no Timer, no allocation). */
  post2<A, B>(atMs: number, fn: (a: A, b: B) => void, a: A, b: B, priority: number = Priority.process): void {
    this.kernel.post2(atMs, priority, fn, a, b, this, this.incarnation);
  }

  /**
   * A fixed-rate timer of this process. Runs missed while the host is hung collapse into one run
   * when it resumes; the timer stops when the process dies.
   */
  every(periodMs: number, initialDelayMs: number, fn: () => void): Timer {
    const inc = this.incarnation;
    let heldRun = false;
    const handle = this.kernel.every(periodMs, initialDelayMs, () => {
      if (inc !== this.incarnation || !this.alive) {
        handle.cancel();
        return;
      }
      if (this.host.state === 'hung') {
        if (!heldRun) {
          heldRun = true;
          this.host.hold(() => {
            heldRun = false;
            if (inc === this.incarnation && this.alive) fn();
          });
        }
        return;
      }
      fn();
    });
    return handle;
  }
}

/** A TCP connection from a client process to a listening address. */
export class Channel {
  clientOpen = true;
  serverOpen = true;
  clientLastIoMs: number;
  serverLastIoMs: number;
  handler: ChannelHandler | null = null;
  /** The first write of each side that a partition dropped (TCP would retransmit it from then), or null. */
  clientLostSinceMs: number | null = null;
  serverLostSinceMs: number | null = null;
  /**
   * A FIN of each side that a partition dropped: when its first unacknowledged segment went out (the
   * first write the cut dropped, which the FIN follows in the send queue, else the close), or null.
   */
  clientFinMs: number | null = null;
  serverFinMs: number | null = null;
  /** Incarnations of the two processes when the channel was made: a restarted process does not inherit it. */
  readonly clientInc: number;
  readonly serverInc: number;

  constructor(
    readonly id: number,
    readonly client: Process,
    readonly server: Process,
    readonly listener: Listener,
    /** `ip:port` the client connected to. */
    readonly remoteAddr: string,
    /** `ip:ephemeralPort` of the client side, as the server prints it. */
    readonly localAddr: string,
    nowMs: number,
  ) {
    this.clientLastIoMs = nowMs;
    this.serverLastIoMs = nowMs;
    this.clientInc = client.incarnation;
    this.serverInc = server.incarnation;
  }

  /** Netty's isActive() as the client sees it. */
  get active(): boolean {
    return this.clientOpen;
  }

  /** Netty's short channel id (8 hex digits). */
  get shortId(): string {
    return ((Math.imul(this.id, 0x9e3779b1) | 0x10000000) >>> 0).toString(16).padStart(8, '0');
  }
}

export type ConnectResult = { ok: true; ch: Channel } | { ok: false; why: 'refused' | 'timeout' };

interface NetworkOptions {
  /** One-way latency between two hosts, ms. */
  latencyMs: number;
}

export class Network {
  readonly hosts = new Map<string, Host>();
  private readonly byIp = new Map<string, Host>();
  private readonly listeners = new Map<string, { proc: Process; listener: Listener }>();
  /** Host pairs cut off from each other, and since when. */
  private readonly partitions = new Map<string, number>();
  private readonly channels = new Set<Channel>();
  private nextChannelId = 1;
  readonly latencyMs: number;

  constructor(
    readonly kernel: Kernel,
    opts: NetworkOptions,
  ) {
    assert(opts.latencyMs >= 0, 'latency must not be negative');
    this.latencyMs = opts.latencyMs;
  }

  addHost(name: string, ip: string): Host {
    assert(!this.hosts.has(name), `host ${name} defined twice`);
    assert(!this.byIp.has(ip), `ip ${ip} used by two hosts`);
    const h = new Host(name, ip);
    this.hosts.set(name, h);
    this.byIp.set(ip, h);
    return h;
  }

  host(name: string): Host {
    const h = this.hosts.get(name);
    assert(h !== undefined, `unknown host ${name}`);
    return h;
  }

  hostOfAddr(addr: string): Host | undefined {
    return this.byIp.get(addr.slice(0, addr.lastIndexOf(':')));
  }

  listen(proc: Process, port: number, listener: Listener): void {
    const addr = `${proc.host.ip}:${port}`;
    assert(!this.listeners.has(addr), `${addr} is already listening`);
    this.listeners.set(addr, { proc, listener });
  }

  unlistenAll(proc: Process): void {
    for (const [addr, l] of this.listeners) if (l.proc === proc) this.listeners.delete(addr);
  }

  partition(a: string, b: string): void {
    if (!this.partitions.has(pairKey(a, b))) this.partitions.set(pairKey(a, b), this.kernel.nowMs);
  }

  /**
   * The path between the two hosts is back. A channel one side closed meanwhile is still open at
   * the other. The open side learns it:
   * - at the heal with a RST when it wrote during the cut: its retransmitted writes meet a closed
   *   socket (gen-705: app-order-01's channel to the NameServer on mq-node-c, idle-closed by it during
   *   the partition, `Connection reset` 0.4 s after the heal; its next route poll chose another
   *   NameServer). Its own retransmission timer puts that at its next expiry after the heal, which
   *   replay's inference takes as the heal itself (it ends a cut at the first reset a client logged);
   * - else by the closing side's FIN, retransmitted on its backoff (finRetransmittedAt): the first
   *   retransmission after the heal, or never when the orphaned socket gave up before it (gen-715:
   *   the NameServers saw broker-b's channels, closed on timeouts during the cut, close 13-21 s after
   *   the heal).
   *   A side that closed without a FIN (a process gone with a reboot) sends none.
   */
  heal(a: string, b: string): void {
    const key = pairKey(a, b);
    const since = this.partitions.get(key);
    if (since === undefined) return;
    this.partitions.delete(key);
    const now = this.kernel.nowMs;
    for (const ch of [...this.channels]) {
      if (pairKey(ch.client.host.name, ch.server.host.name) !== key) continue;
      if (ch.clientOpen && !ch.serverOpen) {
        if (ch.clientLastIoMs >= since) this.notifyClient(ch, 'rst');
        else if (ch.serverFinMs !== null) this.retransmitFin(ch, 'server', ch.serverFinMs, now);
      } else if (ch.serverOpen && !ch.clientOpen) {
        if (ch.serverLastIoMs >= since) this.notifyServer(ch, 'rst');
        else if (ch.clientFinMs !== null) this.retransmitFin(ch, 'client', ch.clientFinMs, now);
      }
      // What the cut dropped on a channel both sides kept is lost (see send); TCP starts afresh.
      if (ch.clientOpen) ch.clientLostSinceMs = null;
      if (ch.serverOpen) ch.serverLostSinceMs = null;
    }
  }

  /** The closed side's FIN reaches the peer at its first retransmission after the heal, if it has one left. */
  private retransmitFin(ch: Channel, from: 'client' | 'server', sentMs: number, healMs: number): void {
    const at = finRetransmittedAt(sentMs, healMs);
    if (at === null) return; // given up: the peer learns at its next write or its idle close
    // A cut again by then drops it once more (notify* keeps the FIN's first send for the next heal).
    this.kernel.schedule(at, Priority.network, () => (from === 'client' ? this.notifyServer(ch, 'fin') : this.notifyClient(ch, 'fin')));
  }

  /** Packets can flow between the two hosts (no partition; a hung host still receives into its buffers). */
  linked(a: Host, b: Host): boolean {
    return a === b || this.partitions.size === 0 || !this.partitions.has(pairKey(a.name, b.name));
  }

  private hopMs(a: Host, b: Host): number {
    return a === b ? 0 : this.latencyMs;
  }

  /**
   * Open a channel. cb is called once, on the caller's process: connected, refused (nobody listens on
   * a live OS), or timeout after timeoutMs (hung host, partition, unknown address).
   */
  connect(proc: Process, addr: string, timeoutMs: number, cb: (r: ConnectResult) => void): void {
    const target = this.hostOfAddr(addr);
    const from = proc.host;
    let result: ConnectResult | null = null;
    const deliver = proc.guard(() => cb(result!));
    const settle = (r: ConnectResult): void => {
      if (result !== null) return;
      result = r;
      deliver();
    };
    if (target === undefined || !this.linked(from, target) || (target.state === 'hung' && !target.acceptsWhileHung)) {
      this.kernel.after(timeoutMs, Priority.network, () => settle({ ok: false, why: 'timeout' }));
      return;
    }
    const rtt = 2 * this.hopMs(from, target);
    const l = this.listeners.get(addr);
    if (l === undefined || target.state === 'down' || !l.proc.alive) {
      this.kernel.after(rtt, Priority.network, () => settle({ ok: false, why: 'refused' }));
      return;
    }
    const ch = new Channel(
      this.nextChannelId++,
      proc,
      l.proc,
      l.listener,
      addr,
      `${from.ip}:${from.ephemeralPort()}`,
      this.kernel.nowMs,
    );
    this.channels.add(ch);
    this.kernel.after(this.hopMs(from, target), Priority.network, () => {
      if (!this.serverLive(ch)) return;
      ch.server.guard(() => {
        if (ch.serverOpen) ch.listener.onAccept(ch);
      })();
    });
    this.kernel.after(rtt, Priority.network, () => settle(ch.clientOpen ? { ok: true, ch } : { ok: false, why: 'refused' }));
  }

  private serverLive(ch: Channel): boolean {
    return ch.server.incarnation === ch.serverInc && ch.server.alive;
  }

  private clientLive(ch: Channel): boolean {
    return ch.client.incarnation === ch.clientInc && ch.client.alive;
  }

  /** Client writes a request. Returns false when the client side is already closed. */
  send(ch: Channel, req: Request): boolean {
    if (!ch.clientOpen) return false;
    ch.clientLastIoMs = this.kernel.nowMs;
    const from = ch.client.host;
    const to = ch.server.host;
    if (!this.linked(from, to)) {
      ch.clientLostSinceMs ??= this.kernel.nowMs;
      return true; // lost on the way: the caller will time out
    }
    // The server process is gone and its host runs a new TCP stack (a reboot): the segment draws a RST.
    if (!ch.serverOpen && !this.serverLive(ch)) {
      if (to.state !== 'hung') this.kernel.after(this.hopMs(from, to), Priority.network, () => this.resetClientSide(ch));
      return true;
    }
    this.kernel.post2(this.kernel.nowMs + this.hopMs(from, to), Priority.network, this.requestArrivedFn, ch, req, ch.server, ch.serverInc);
    return true;
  }

  private readonly requestArrivedFn = (ch: Channel, req: Request): void => this.requestArrived(ch, req);
  private readonly responseArrivedFn = (ch: Channel, resp: Response): void => this.responseArrived(ch, resp);

  private requestArrived(ch: Channel, req: Request): void {
    if (!ch.serverOpen) {
      // The far end no longer knows this connection: it answers with a RST.
      this.resetClientSide(ch);
      return;
    }
    ch.serverLastIoMs = this.kernel.nowMs;
    ch.listener.onRequest(ch, req);
  }

  /** Server writes a response. */
  reply(ch: Channel, resp: Response): void {
    if (!ch.serverOpen) return;
    ch.serverLastIoMs = this.kernel.nowMs;
    const from = ch.server.host;
    const to = ch.client.host;
    if (!this.linked(from, to)) {
      ch.serverLostSinceMs ??= this.kernel.nowMs;
      return;
    }
    // The client process is gone with a reboot of its host: the new TCP stack answers with a RST.
    if (!ch.clientOpen && !this.clientLive(ch)) {
      if (to.state !== 'hung') this.resetServerSide(ch);
      return;
    }
    this.kernel.post2(this.kernel.nowMs + this.hopMs(from, to), Priority.network, this.responseArrivedFn, ch, resp, ch.client, ch.clientInc);
  }

  private responseArrived(ch: Channel, resp: Response): void {
    if (!ch.clientOpen) return;
    ch.clientLastIoMs = this.kernel.nowMs;
    ch.handler?.onResponse(ch, resp);
  }

  /** One side closes the channel (FIN to the other side). */
  close(ch: Channel, side: 'client' | 'server'): void {
    if (side === 'client') {
      if (!ch.clientOpen) return;
      ch.clientOpen = false;
      this.notifyServer(ch, 'fin');
    } else {
      if (!ch.serverOpen) return;
      ch.serverOpen = false;
      this.notifyClient(ch, 'fin');
    }
    if (!ch.clientOpen && !ch.serverOpen) this.channels.delete(ch);
  }

  private notifyServer(ch: Channel, why: 'fin' | 'rst'): void {
    const from = ch.client.host;
    const to = ch.server.host;
    if (!this.linked(from, to)) {
      if (why === 'fin') ch.clientFinMs ??= ch.clientLostSinceMs ?? this.kernel.nowMs;
      return;
    }
    this.kernel.after(this.hopMs(from, to), Priority.network, () => {
      if (!this.serverLive(ch)) return;
      ch.server.guard(() => {
        if (!ch.serverOpen) return;
        ch.serverOpen = false;
        this.channels.delete(ch);
        ch.listener.onInactive(ch, why);
      })();
    });
  }

  private notifyClient(ch: Channel, why: 'fin' | 'rst'): void {
    const from = ch.server.host;
    const to = ch.client.host;
    if (!this.linked(from, to)) {
      if (why === 'fin') ch.serverFinMs ??= ch.serverLostSinceMs ?? this.kernel.nowMs;
      return;
    }
    this.kernel.after(this.hopMs(from, to), Priority.network, () => {
      if (!this.clientLive(ch)) return;
      ch.client.guard(() => {
        if (!ch.clientOpen) return;
        ch.clientOpen = false;
        this.channels.delete(ch);
        ch.handler?.onInactive(ch, why);
      })();
    });
  }

  private resetServerSide(ch: Channel): void {
    const from = ch.client.host;
    const to = ch.server.host;
    this.kernel.after(2 * this.hopMs(from, to), Priority.network, () => {
      if (!this.serverLive(ch) || !this.linked(from, to)) return;
      ch.server.guard(() => {
        if (!ch.serverOpen) return;
        ch.serverOpen = false;
        this.channels.delete(ch);
        ch.listener.onInactive(ch, 'rst');
      })();
    });
  }

  private resetClientSide(ch: Channel): void {
    const from = ch.server.host;
    const to = ch.client.host;
    if (!this.linked(from, to)) return;
    this.kernel.after(this.hopMs(from, to), Priority.network, () => {
      if (!this.clientLive(ch)) return;
      ch.client.guard(() => {
        if (!ch.clientOpen) return;
        ch.clientOpen = false;
        this.channels.delete(ch);
        ch.handler?.onInactive(ch, 'rst');
      })();
    });
  }

  /**
   * A process died (with its host, or alone): its ends of every channel are gone. On a live OS the
   * peers learn it at once (`fin`: the OS closes the sockets). After a reboot (`rst`) a peer on
   * another host learns it only when a segment of its reaches the new TCP stack: now when it wrote
   * while the host was dark (TCP retransmits that data; the model tells it at the reboot, not at the
   * retransmission timer's next expiry), else at its next write (send, reply). gen-711: the
   * NameServers holding rebooted broker-a's channels removed nothing; its broker registered again
   * on a new channel before their 120 s expiry.
   */
  dropProcessChannels(proc: Process, why: 'fin' | 'rst'): void {
    const host = proc.host;
    // A host hung with its OS alive (processes stopped) acknowledged what peers wrote until its OS
    // went dark, at an instant no log gives (a reboot is placed at the first reset a peer logged):
    // a peer that wrote since the hang began is told at once in either case.
    const since = why === 'rst' && host.hungSinceMs !== null ? host.hungSinceMs : this.kernel.nowMs;
    const tellsNow = (peer: Process, peerLastIoMs: number): boolean => why === 'fin' || peer.host === host || peerLastIoMs >= since;
    for (const ch of [...this.channels]) {
      const clientHere = ch.client === proc;
      const serverHere = ch.server === proc;
      if (!clientHere && !serverHere) continue;
      if (clientHere && ch.clientOpen) {
        ch.clientOpen = false;
        if (ch.serverOpen && tellsNow(ch.server, ch.serverLastIoMs)) this.notifyServer(ch, why);
      }
      if (serverHere && ch.serverOpen) {
        ch.serverOpen = false;
        if (ch.clientOpen && tellsNow(ch.client, ch.clientLastIoMs)) this.notifyClient(ch, why);
      }
      if (!ch.clientOpen && !ch.serverOpen) this.channels.delete(ch);
    }
  }

  /**
   * Watch one side of a channel for ALL_IDLE (no read and no write for idleMs), Netty's
   * IdleStateHandler(0, 0, idle). onIdle runs on the owning process.
   */
  watchIdle(ch: Channel, side: 'client' | 'server', idleMs: number, onIdle: () => void): void {
    const owner = side === 'client' ? ch.client : ch.server;
    // A check that falls due while the host is hung runs first when it resumes, before what reached
    // the host meanwhile is read: IdleStateHandler's task is on the pipeline's executor
    // (NettyRemotingServer's defaultEventExecutorGroup), which runs its overdue scheduled tasks
    // before the reads the selector thread hands it afterwards. A resumed 4.9.4 NameServer logs
    // `IDLE exception` for a client channel that had requests waiting in its socket, and the 4.7.1
    // client, which never closes a timed-out channel itself, then switches NameServer
    // (ns-hang-resume-4x).
    const inc = owner.incarnation;
    const due = (): void => {
      if (owner.incarnation !== inc || !owner.alive) return;
      if (owner.host.state === 'hung') owner.host.holdFirst(due);
      else check();
    };
    const check = (): void => {
      const open = side === 'client' ? ch.clientOpen : ch.serverOpen;
      if (!open) return;
      const last = side === 'client' ? ch.clientLastIoMs : ch.serverLastIoMs;
      const dueMs = last + idleMs;
      if (this.kernel.nowMs >= dueMs) onIdle();
      else this.kernel.schedule(dueMs, Priority.timer, due);
    };
    // Netty's IdleStateHandler starts counting when the channel becomes active on its side: a
    // connection a stopped server accepts only when it runs again (its last I/O long before) is
    // idle from then, not from its last I/O (ns-hang-resume-5x, replayed, scheduled into the past).
    const lastIo = side === 'client' ? ch.clientLastIoMs : ch.serverLastIoMs;
    this.kernel.schedule(Math.max(lastIo, this.kernel.nowMs) + idleMs, Priority.timer, due);
  }
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}
