// A NameServer's own address from its own log: lines of lab recordings (gen-718: 5.2.0 NameServers
// bound to 0.0.0.0; a 5.3.3 boot line that prints its address).
import { describe, expect, it } from 'vitest';
import { namesrvOwnAddress } from '../../src/parse/namesrv-self.js';
import { SourceParser } from '../../src/parse/parser.js';
import { parseZone } from '../../src/parse/time.js';
import type { RmqEvent } from '../../src/parse/types.js';
import type { SourceKind } from '../../src/ingest/kinds.js';

function events(lines: string[], kindHint: SourceKind): RmqEvent[] {
  const out: RmqEvent[] = [];
  const p = new SourceParser({ file: 'namesrv.log', host: 'mq-ns-1', sourceIndex: 0, kindHint, kindForced: true, defaultZone: parseZone('+08:00') }, (e) => out.push(e));
  lines.forEach((l, i) => p.line(l, i + 1));
  p.end();
  return out;
}

const own = (lines: string[], kind: SourceKind = 'namesrv') => events(lines, kind).map(namesrvOwnAddress).filter((a) => a !== null);

describe('namesrvOwnAddress', () => {
  it("5.x: the NameServer's remoting client pointed at itself as it starts (NamesrvController.start)", () => {
    const lines = [
      '2026-12-05 06:09:13 INFO main - RemotingServer started, listening 0.0.0.0:9876',
      '2026-12-05 06:09:13 INFO main - name server address updated. NEW : [10.213.0.11:9876] , OLD: null',
      '2026-12-05 06:09:13 INFO main - The Name Server boot success. serializeType=JSON, address 0.0.0.0:9876',
    ];
    expect(own(lines)).toEqual(['10.213.0.11:9876']);
  });

  it('the boot line when it prints an address other than every interface', () => {
    expect(own(['2025-03-01 10:00:00 INFO main - The Name Server boot success. serializeType=JSON, address 192.168.0.7:9876'])).toEqual(['192.168.0.7:9876']);
    expect(own(['2025-03-01 10:00:00 INFO main - The Name Server boot success. serializeType=JSON, address 0.0.0.0:9876'])).toEqual([]);
  });

  it("not a list a client or broker was given, a change of list, another thread's, or a list of several", () => {
    const updated = '2026-12-05 06:09:13 INFO main - name server address updated. NEW : [10.213.0.11:9876] , OLD: null';
    expect(own([updated], 'broker')).toEqual([]);
    expect(own([updated], 'client')).toEqual([]);
    expect(own(['2026-12-05 06:09:13 INFO main - name server address updated. NEW : [10.213.0.11:9876] , OLD: [10.213.0.12:9876]'])).toEqual([]);
    expect(own([updated.replace(' main ', ' NettyClientScan_thread_1 ')])).toEqual([]);
    expect(own(['2026-12-05 06:09:13 INFO main - name server address updated. NEW : [10.213.0.11:9876, 10.213.0.12:9876] , OLD: null'])).toEqual([]);
  });
});
