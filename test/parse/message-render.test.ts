// A catalogue entry both reads and writes its message: every wording of every entry is rendered from
// the fields of the samples it matches and parsed back through the real matcher.
import { describe, expect, it } from 'vitest';
import { CATALOGUE, EVENT_FIELDS, matchMessage } from '../../src/parse/catalogue.js';
import type { CatalogueEntry, MessageForm } from '../../src/parse/catalogue-entry.js';
import { javaFixed2, messageForms, placeholders, renderMessage, responseExceptionMessage, type MessageArgs, type MessageValue } from '../../src/parse/message-render.js';
import type { FieldValue } from '../../src/parse/types.js';

// Entries whose message cannot be written from a format, and why: none today. (The other clients'
// entries write their message alone: the Go clients' logrus and zap fields and the C++ client's
// `[function:line]` are their layouts', which rmq-diag only reads, render.test.ts.)
const NOT_RENDERED: Readonly<Record<string, string>> = {};

const argName = (a: MessageForm['args'][number]) => (typeof a === 'string' ? a : a.name);

function fieldNames(entry: CatalogueEntry): Set<string> {
  const f = EVENT_FIELDS[entry.type];
  return new Set([...f.required, ...(f.optional ?? [])]);
}

/**
 * The form as regexes over a sample: its literal text, each placeholder a group (the last one up to
 * the end of the line), the groups lazy in one and greedy in the other (`The broker channel expired,
 * {} {}ms` splits `BrokerIdentityInfo [a, b] 120000ms` only greedily).
 */
function formRegexes(form: MessageForm): RegExp[] {
  const esc = (s: string) => (form.printf ? s.replace(/%%/g, '%') : s).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const slots = placeholders(form);
  return ['(.*?)', '(.*)'].map((group) => {
    let src = '';
    let at = 0;
    slots.forEach(([i, len], k) => {
      src += esc(form.format.slice(at, i)) + (k === slots.length - 1 && i + len === form.format.length ? '(.*?)\\s*$' : group);
      at = i + len;
    });
    return new RegExp(src + esc(form.format.slice(at)));
  });
}

/**
 * The arguments a sample was printed with: a placeholder that prints an event field takes the
 * field's value as parsed (so rendering proves the field reads back into the same text), except
 * where the field is null and the text was not Java's `null` (a redacted `xxx`, an empty address):
 * that one is written as printed. Named arguments take the text as printed.
 */
function argsOf(entry: CatalogueEntry, form: MessageForm, raw: string[], fields: Record<string, FieldValue>): { args: Record<string, MessageValue>; bound: string[] } {
  const names = fieldNames(entry);
  const args: Record<string, MessageValue> = {};
  const bound: string[] = [];
  form.args.forEach((a, k) => {
    const name = argName(a);
    const v = fields[name];
    if (names.has(name) && v !== undefined && (v !== null || raw[k] === 'null')) {
      args[name] = v as MessageValue;
      bound.push(name);
    } else args[name] = raw[k];
  });
  return { args, bound };
}

const renderable = CATALOGUE.filter((e) => messageForms(e).length > 0);

describe('catalogue messages render and parse back', () => {
  it('every entry renders, or is listed with the reason it cannot', () => {
    for (const e of CATALOGUE) expect(messageForms(e).length > 0 || e.id in NOT_RENDERED, `${e.id}: args, or NOT_RENDERED`).toBe(true);
    for (const id of Object.keys(NOT_RENDERED)) {
      const e = CATALOGUE.find((x) => x.id === id);
      expect(e, id).toBeDefined();
      expect(messageForms(e!), id).toEqual([]);
    }
  });

  for (const entry of renderable) {
    it(`${entry.id}: each wording renders a sample from its fields, and the text parses back`, () => {
      for (const [name, form] of messageForms(entry)) {
        const where = `${entry.id}${name === null ? '' : `#${name}`}`;
        let printed = 0;
        for (const sample of entry.samples) {
          const parsed = matchMessage(sample.text);
          expect(parsed?.entry.id, sample.text).toBe(entry.id);
          for (const re of formRegexes(form)) {
            const m = re.exec(sample.text);
            if (m === null) continue;
            const { args, bound } = argsOf(entry, form, m.slice(1), parsed!.fields);
            const text = renderMessage(entry.id, args as MessageArgs, name);
            // Another wording's sample may fit this form's literals and not its values (`topic: {} client address: {}` in `topic: T tags: A client address: h`).
            if (!sample.text.includes(text)) continue;
            printed++;
            // The message after what printed it in the sample (an exception's class, a header), without what followed it.
            const line = sample.text.slice(0, m.index) + text;
            const back = matchMessage(line);
            expect(back?.entry.id, `${where}: ${line}`).toBe(entry.id);
            for (const f of bound) expect(back!.fields[f], `${line}: ${f}`).toEqual(args[f]);
            break;
          }
        }
        expect(printed, `${where}: a sample printed from ${JSON.stringify(form.format)}`).toBeGreaterThan(0);
      }
    });
  }

  it('a remark in an MQBrokerException or MQClientException reads back with its code and broker', () => {
    const remarks: Array<[string, MessageArgs]> = [
      ['busy-reply/timeout-clean-queue', { waitMs: 207, queueSize: 31 }],
      ['busy-reply/pcbusy-clean-queue', { waitMs: 12, queueSize: 301 }],
      ['busy-reply/pc-synchronized', {}],
      ['disk-full/service-not-available', { diskUtil: 'CL:  0.97 CQ:  0.97 INDEX:  0.97' }],
    ];
    for (const [id, args] of remarks) {
      for (const [code, broker] of [[2, null], [14, '10.0.0.7:10911']] as const) {
        const text = `org.apache.rocketmq.client.exception.MQBrokerException: ${responseExceptionMessage(code, renderMessage(id, args), broker)}`;
        const m = matchMessage(text);
        expect(m?.entry.id, text).toBe(id);
        expect(m!.fields.code, text).toBe(code);
        expect(m!.fields.brokerAddr ?? null, text).toBe(broker);
      }
    }
    const route = matchMessage(`MQClientException: ${responseExceptionMessage(17, renderMessage('route-update-failed/code-17', { topic: 'TopicPay' }))}`);
    expect([route?.entry.id, route?.fields.topic]).toEqual(['route-update-failed/code-17', 'TopicPay']);
  });

  it('a missing argument or an unknown entry is an error, not a text with a hole', () => {
    const entry = renderable.find((e) => messageForms(e)[0][1].args.length > 0)!;
    expect(() => renderMessage(entry.id, {})).toThrow(/no argument/);
    expect(() => renderMessage('no-such/entry', {})).toThrow(/no catalogue entry/);
  });
});

describe('%.2f as java.util.Formatter prints it', () => {
  it('rounds the shortest decimal half up and pads to two places', () => {
    const cases: Array<[number, string]> = [
      [1.005, '1.01'],
      [2, '2.00'],
      [1.94, '1.94'],
      [0.125, '0.13'],
      [0.994, '0.99'],
      [9.995, '10.00'],
      [-1.255, '-1.26'],
      [1234567.891, '1234567.89'],
    ];
    for (const [v, want] of cases) expect(javaFixed2(v), String(v)).toBe(want);
  });
});
