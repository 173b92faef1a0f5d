import { describe, expect, it } from 'vitest';
import { Kernel } from '../../src/model/kernel.js';
import { finRetransmittedAt, Network, Process, TCP_ORPHAN_RETRIES, type Channel, type ChannelHandler, type ConnectResult, type Listener, type Request, type Response } from '../../src/model/network.js';

/** Answers every request at once. */
class Echo extends Process implements Listener {
  handled = 0;
  inactive: string[] = [];
  protected boot(): void {
    this.net.listen(this, 9876, this);
  }
  protected onKilled(): void {}
  onAccept(): void {}
  onRequest(ch: Channel, req: Request): void {
    this.handled++;
    this.net.reply(ch, { opaque: req.opaque, code: 0, remark: null, body: null });
  }
  onInactive(_ch: Channel, why: 'fin' | 'rst'): void {
    this.inactive.push(why);
  }
}

/** Connects, sends, and records what comes back. */
class Caller extends Process implements ChannelHandler {
  connects: Array<{ atMs: number; r: ConnectResult['ok'] | string }> = [];
  responses: number[] = [];
  inactive: Array<{ atMs: number; why: string }> = [];
  ch: Channel | null = null;
  protected boot(): void {}
  protected onKilled(): void {}
  connect(addr: string): void {
    this.net.connect(this, addr, 3000, (r) => {
      this.connects.push({ atMs: this.nowMs, r: r.ok ? true : r.why });
      if (r.ok) {
        this.ch = r.ch;
        r.ch.handler = this;
      }
    });
  }
  send(opaque: number): boolean {
    return this.net.send(this.ch!, { code: 105, opaque, body: null });
  }
  onResponse(_ch: Channel, resp: Response): void {
    this.responses.push(resp.opaque);
  }
  onInactive(_ch: Channel, why: 'fin' | 'rst'): void {
    this.inactive.push({ atMs: this.nowMs, why });
  }
}

function world() {
  const kernel = new Kernel();
  const net = new Network(kernel, { latencyMs: 1 });
  const server = new Echo(net, net.addHost('ns', '10.0.0.1'), 'echo');
  const caller = new Caller(net, net.addHost('app', '10.0.0.9'), 'caller');
  server.start();
  caller.start();
  return { kernel, net, server, caller };
}

describe('Network', () => {
  it('connects in one round trip and answers requests', () => {
    const { kernel, caller, server } = world();
    caller.connect('10.0.0.1:9876');
    kernel.run(10);
    expect(caller.connects).toEqual([{ atMs: 2, r: true }]);
    caller.send(1);
    kernel.run(20);
    expect(server.handled).toBe(1);
    expect(caller.responses).toEqual([1]);
  });

  it('a hung host keeps the channel open and answers nothing; what it received is handled if it resumes', () => {
    const { kernel, net, caller, server } = world();
    caller.connect('10.0.0.1:9876');
    kernel.run(10);
    net.host('ns').state = 'hung';
    expect(caller.send(7)).toBe(true);
    kernel.run(60000);
    expect(caller.ch!.clientOpen).toBe(true);
    expect(server.handled).toBe(0);
    expect(caller.responses).toEqual([]);
    // A new connect gets no SYN-ACK: it times out.
    caller.connect('10.0.0.1:9876');
    kernel.run(70000);
    expect(caller.connects[1]).toEqual({ atMs: 63000, r: 'timeout' });
    net.host('ns').state = 'up';
    for (const fn of net.host('ns').takeHeld()) fn();
    kernel.run(70010);
    expect(server.handled).toBe(1);
    expect(caller.responses).toEqual([7]);
  });

  it('a dead process refuses connects; after a reboot a peer learns it at its next write (a RST)', () => {
    const { kernel, caller, server } = world();
    caller.connect('10.0.0.1:9876');
    kernel.run(10);
    server.kill('rst');
    kernel.run(20);
    // The new TCP stack knows nothing of the channel and the caller wrote nothing: it still holds it.
    expect(caller.inactive).toEqual([]);
    expect(caller.send(1)).toBe(true);
    kernel.run(25);
    expect(caller.inactive).toEqual([{ atMs: 22, why: 'rst' }]);
    expect(caller.send(2)).toBe(false);
    caller.connect('10.0.0.1:9876');
    kernel.run(30);
    expect(caller.connects[1]).toEqual({ atMs: 27, r: 'refused' });
    server.start();
    caller.connect('10.0.0.1:9876');
    kernel.run(40);
    expect(caller.connects[2].r).toBe(true);
  });

  it('a host rebooted after it hung: a peer that wrote while it hung is reset at once (TCP retransmits what was not acknowledged), one that did not at its next write; a server peer that never writes keeps the channel (gen-711)', () => {
    const run = (writes: boolean) => {
      const { kernel, net, caller, server } = world();
      caller.connect('10.0.0.1:9876');
      kernel.run(10);
      net.host('ns').hang(kernel.nowMs, false);
      if (writes) caller.send(1);
      kernel.run(100);
      net.host('ns').dropHeld();
      server.kill('rst');
      kernel.run(200);
      return caller.inactive;
    };
    expect(run(true)).toEqual([{ atMs: 101, why: 'rst' }]);
    expect(run(false)).toEqual([]);
    // The rebooted process was the client: the server (a NameServer holding a broker's channel) is not told.
    const { kernel, net, caller, server } = world();
    caller.connect('10.0.0.1:9876');
    kernel.run(10);
    net.host('app').hang(kernel.nowMs, false);
    kernel.run(100);
    caller.kill('rst');
    kernel.run(60_000);
    expect(server.inactive).toEqual([]);
  });

  it('a partition drops packets both ways without closing anything', () => {
    const { kernel, net, caller, server } = world();
    caller.connect('10.0.0.1:9876');
    kernel.run(10);
    net.partition('app', 'ns');
    caller.send(3);
    kernel.run(5000);
    expect(server.handled).toBe(0);
    expect(caller.ch!.clientOpen).toBe(true);
    net.heal('app', 'ns');
    caller.send(4);
    kernel.run(5010);
    expect(caller.responses).toEqual([4]);
  });

  it('a side closed during a partition: the other learns it when the path is back, a reset if it wrote meanwhile (gen-705)', () => {
    /** A connection cut at 10 ms, and one side's close in the cut at `closeAt`. */
    const cut = (side: 'server' | 'client', closeAt: number) => {
      const w = world();
      w.caller.connect('10.0.0.1:9876');
      w.kernel.run(10);
      w.net.partition('app', 'ns');
      w.kernel.run(closeAt);
      w.net.close(w.caller.ch!, side);
      return w;
    };
    // The server closes (its idle close), the client writes (a route poll): both lost in the cut.
    const wrote = cut('server', 1000);
    wrote.caller.send(3);
    wrote.kernel.run(60000);
    expect(wrote.caller.ch!.clientOpen).toBe(true);
    expect(wrote.caller.inactive).toEqual([]);
    wrote.net.heal('app', 'ns');
    wrote.kernel.run(60010);
    expect(wrote.caller.inactive).toEqual([{ atMs: 60001, why: 'rst' }]);
    expect(wrote.caller.ch!.clientOpen).toBe(false);
    // Nothing written by the client since the cut: the server's FIN, retransmitted 200 ms after it
    // went out (the first retransmission at or after the heal), reaches the client a hop later.
    const quiet = cut('server', 1000);
    quiet.net.heal('app', 'ns');
    quiet.kernel.run(1200);
    expect(quiet.caller.inactive).toEqual([]);
    quiet.kernel.run(1210);
    expect(quiet.caller.inactive).toEqual([{ atMs: 1201, why: 'fin' }]);
    // The client closed during the cut (closeSocketIfTimeout): the server learns it when the FIN's
    // retransmission next goes out after the heal (10 ms + 200 ms x 31, the fifth), not at the heal.
    const closed = cut('client', 10);
    closed.kernel.run(5000);
    expect(closed.server.inactive).toEqual([]);
    closed.net.heal('app', 'ns');
    closed.kernel.run(6210);
    expect(closed.server.inactive).toEqual([]);
    closed.kernel.run(6220);
    expect(closed.server.inactive).toEqual(['fin']);
  });

  it("a FIN a partition dropped follows TCP's backoff from the first segment the cut dropped, and an orphaned socket gives up after 8 retransmissions (gen-715, gen-185)", () => {
    // Retransmission k at t0 + 200 ms x (2^k - 1): 0.2, 0.6, 1.4, 3.0, 6.2, 12.6, 25.4, 51.0 s.
    expect(finRetransmittedAt(0, 0)).toBe(200);
    expect(finRetransmittedAt(0, 3000)).toBe(3000);
    expect(finRetransmittedAt(0, 3001)).toBe(6200);
    expect(finRetransmittedAt(1000, 30_000)).toBe(1000 + 51_000);
    expect(finRetransmittedAt(1000, 52_001)).toBeNull();
    // The 8th is the last (tcp_orphan_retries): a heal after it gets nothing.
    expect(finRetransmittedAt(0, 200 * (2 ** TCP_ORPHAN_RETRIES - 1) + 1)).toBeNull();

    /** The client's request lost in a cut at `writeAt`, its close on the timeout at `closeAt`, the heal at `healAt`. */
    const timedOut = (writeAt: number, closeAt: number, healAt: number) => {
      const w = world();
      w.caller.connect('10.0.0.1:9876');
      w.kernel.run(10);
      w.net.partition('app', 'ns');
      w.kernel.run(writeAt);
      w.caller.send(7);
      w.kernel.run(closeAt);
      w.net.close(w.caller.ch!, 'client');
      w.kernel.run(healAt);
      w.net.heal('app', 'ns');
      return w;
    };
    // gen-715's shape: a registration written 2 s into the cut, closed 24 s later on its timeout, the
    // heal 33 s after the write: the FIN rides the request's retransmissions, the 8th at write + 51 s.
    const late = timedOut(2000, 26_000, 35_000);
    late.kernel.run(2000 + 51_000);
    expect(late.server.inactive).toEqual([]);
    late.kernel.run(2000 + 51_000 + 10);
    expect(late.server.inactive).toEqual(['fin']);
    expect(late.server.handled).toBe(0); // what the cut dropped is not delivered
    // gen-185's shape: the heal comes after the last retransmission (write + 51 s): never delivered;
    // the server learns nothing until it writes or its idle handler closes the channel.
    const given = timedOut(2000, 5000, 2000 + 51_001);
    given.kernel.run(400_000);
    expect(given.server.inactive).toEqual([]);
    expect(given.caller.ch!.serverOpen).toBe(true);
    // The process gone with a reboot of its host sent no FIN: nothing comes at the heal.
    const rebooted = world();
    rebooted.caller.connect('10.0.0.1:9876');
    rebooted.kernel.run(10);
    rebooted.net.partition('app', 'ns');
    rebooted.kernel.run(1000);
    rebooted.caller.kill('rst');
    rebooted.kernel.run(2000);
    rebooted.net.heal('app', 'ns');
    rebooted.kernel.run(60_000);
    expect(rebooted.server.inactive).toEqual([]);
  });

  it('reports ALL_IDLE after the idle time without reads or writes', () => {
    const { kernel, net, caller } = world();
    caller.connect('10.0.0.1:9876');
    kernel.run(10);
    const idleAt: number[] = [];
    net.watchIdle(caller.ch!, 'client', 120000, () => idleAt.push(kernel.nowMs));
    kernel.run(60000);
    caller.send(1); // a write at 60 s moves the deadline
    kernel.run(400000);
    expect(idleAt).toEqual([180002]);
  });

  it('a server hung past its idle time finds the channel idle when it resumes, before it reads what reached it meanwhile (ns-hang-resume-4x)', () => {
    const { kernel, net, server, caller } = world();
    caller.connect('10.0.0.1:9876');
    kernel.run(10);
    const seen: string[] = [];
    net.watchIdle(caller.ch!, 'server', 120000, () => {
      seen.push(`idle at ${kernel.nowMs}, ${server.handled} handled`);
      net.close(caller.ch!, 'server');
    });
    server.host.state = 'hung';
    kernel.run(30000);
    caller.send(1); // held in the hung server's socket
    kernel.run(150000);
    server.host.state = 'up';
    for (const fn of server.host.takeHeld()) fn();
    kernel.run(150100);
    // The idle check first (its last read 150 s back), then the request on a closed channel: no answer.
    expect(seen).toEqual(['idle at 150000, 0 handled']);
    expect(server.handled).toBe(0);
    expect(caller.responses).toEqual([]);
  });
});
