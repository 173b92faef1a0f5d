// The schema an events file's lines are held to (src/timeline/events-check.ts): the field names and
// types are event-fields.ts's table, which is docs/events.md's, and real events pass while damaged
// ones do not.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_FIELDS } from '../../src/parse/catalogue.js';
import { EVENT_FIELD_TABLE } from '../../src/parse/event-fields.js';
import { EVENT_TYPES } from '../../src/parse/types.js';
import { FIELD_TYPES, eventLineProblem, summaryProblem } from '../../src/timeline/events-check.js';
import { runBin } from '../cli/helpers.js';

/** Each type's fields and their types as docs/events.md's tables write them (`string \| null`). */
function documentedTypes(): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  let type: string | null = null;
  for (const line of readFileSync(new URL('../../docs/events.md', import.meta.url), 'utf8').split('\n')) {
    const head = /^## `([a-z-]+)`/.exec(line);
    if (head) {
      type = head[1];
      out[type] = {};
      continue;
    }
    if (line.startsWith('## ')) type = null;
    const row = type === null ? null : /^\| `(\w+)` \| ((?:[^|\\]|\\\|)+?) \|/.exec(line);
    if (row && !(row[1] in out[type!])) out[type!][row[1]] = row[2].replace(/\\\|/g, '|').trim();
  }
  return out;
}

describe('the field types an events file is held to', () => {
  it("are docs/events.md's, for every field of every type", () => {
    const doc = documentedTypes();
    for (const t of EVENT_TYPES) {
      if (t === 'other') continue;
      const ours = EVENT_FIELD_TABLE[t];
      expect(Object.fromEntries(Object.entries(ours).map(([f, spec]) => [f, spec.kinds.join(' | ')])), t).toEqual(doc[t]);
    }
  });

  it("are read by the checker and by catalogue.ts's EVENT_FIELDS from that one table", () => {
    for (const t of EVENT_TYPES) {
      if (t === 'other') {
        expect(EVENT_FIELDS[t]).toEqual({ required: [] });
        continue;
      }
      const table = Object.entries(EVENT_FIELD_TABLE[t]);
      expect(FIELD_TYPES[t], t).toEqual(Object.fromEntries(table.map(([f, spec]) => [f, spec.kinds])));
      expect(EVENT_FIELDS[t].required, t).toEqual(table.filter(([, s]) => !s.optional).map(([f]) => f));
      expect(EVENT_FIELDS[t].optional ?? [], t).toEqual(table.filter(([, s]) => s.optional).map(([f]) => f));
    }
    // An optional field may be left out of a line; a required one may not.
    const e = { type: 'disk-full', time: null, host: 'h', file: 'f', kind: 'broker', line: 1, level: null, thread: null, logger: null, text: 't', fields: { ratio: 0.9, code: 14 } };
    expect(eventLineProblem(e, null)).toBeNull();
    expect(eventLineProblem({ ...e, fields: { ratio: 0.9 } }, null)).toBe('fields.code of disk-full is missing, not number or null');
  });
});

describe('eventLineProblem and summaryProblem', () => {
  const r = runBin(['events', 'samples/lab/hang-5x/app-pay-01', 'samples/lab/hang-5x/mq-ns-1', '--format', 'events']);
  const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
  const events = lines.filter((o) => o.type !== 'summary');
  const summary = lines[lines.length - 1];

  it('pass every line rmq-diag writes', () => {
    expect(r.code, r.stderr).toBe(0);
    expect(events.length).toBeGreaterThan(500);
    expect(new Set(events.map((o) => o.type)).size).toBeGreaterThan(5);
    for (const o of events) expect(eventLineProblem(o, o.time === null ? null : Date.parse(o.time)), JSON.stringify(o)).toBeNull();
    expect(summaryProblem(summary.summary)).toBeNull();
  });

  it('name what is wrong with a line of another shape', () => {
    const e = events.find((o) => o.type === 'channel-closed')!;
    const ts = Date.parse(e.time);
    const { fields: _f, ...noFields } = e;
    expect(eventLineProblem(noFields, ts)).toBe('fields is missing');
    expect(eventLineProblem({ ...e, fields: { ...e.fields, reason: 5 } }, ts)).toBe('fields.reason of channel-closed is number, not string');
    expect(eventLineProblem({ ...e, fields: { ...e.fields, addr: undefined } }, ts)).toBe('fields.addr of channel-closed is missing, not string or null');
    expect(eventLineProblem({ ...e, type: 'later-type' }, ts)).toMatch(/^event type "later-type" is none/);
    expect(eventLineProblem({ ...e, line: '7' }, ts)).toBe('line is string, not number');
    expect(eventLineProblem({ ...e, kind: 'toaster' }, ts)).toMatch(/^kind "toaster" is none of client/);
    expect(eventLineProblem({ ...e, time: 'yesterday' }, NaN)).toBe('time "yesterday" is no date');
    const s = summary.summary;
    expect(summaryProblem({ ...s, inputs: 5 })).toBe('inputs is number, not a list');
    expect(summaryProblem({ ...s, issues: 5 })).toBe('issues is number, not a list');
    expect(summaryProblem({ ...s, defaultZone: 'Mars/Base' })).toBe('defaultZone "Mars/Base" is no time zone');
    expect(summaryProblem({ ...s, inputs: [{ ...s.inputs[0], path: 7 }] })).toBe('inputs[0].path is number, not string');
    expect(summaryProblem({ ...s, inputs: [{ ...s.inputs[0], zone: '+99:00' }] })).toBe('inputs[0].zone "+99:00" is no time zone');
    expect(summaryProblem({ ...s, inputs: [{ ...s.inputs[0], lines: s.inputs[0].lines + 1 }] })).toBe('inputs[0].lines is not records + continuation + unknown + unreadable');
  });
});
