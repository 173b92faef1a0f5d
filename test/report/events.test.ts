import { describe, expect, it } from 'vitest';
import { encodeEvent } from '../../src/parse/event-codec.js';
import { formatIso, parseZone } from '../../src/parse/time.js';
import type { RmqEvent } from '../../src/parse/types.js';
import { eventJsonLine } from '../../src/report/events.js';

const base: RmqEvent = {
  ts: 0,
  host: 'h',
  kind: 'client',
  file: 'f.log',
  line: 3,
  level: 'WARN',
  thread: null,
  logger: 'RocketmqClient',
  type: 'rpc-timeout',
  fields: { addr: '10.0.0.1:9876', timeoutMs: 3000 },
  text: 'x',
  source: 0,
  seq: 0,
};

describe('event JSON lines', () => {
  it('put the time first, in the output zone, with correct millis while reusing the second', () => {
    for (const zone of [parseZone('+08:00'), parseZone('-03:30'), parseZone('UTC')]) {
      const start = Date.UTC(2024, 4, 20, 6, 3, 7, 0);
      for (const ms of [0, 5, 50, 500, 999, 1000, 1005, 61999]) {
        const ts = start + ms;
        const o = JSON.parse(eventJsonLine(ts, encodeEvent({ ...base, ts }), zone));
        expect(o.time).toBe(formatIso(ts, zone));
        expect(Object.keys(o).slice(0, 3)).toEqual(['time', 'host', 'kind']);
        expect(o.fields).toEqual(base.fields);
      }
    }
  });
  it('write null for events without a date', () => {
    expect(JSON.parse(eventJsonLine(null, encodeEvent({ ...base, ts: null, clock: '10:52:07,674' }), parseZone('UTC')))).toMatchObject({
      time: null,
      clock: '10:52:07,674',
    });
  });
});
