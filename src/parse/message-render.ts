// Writing a message as RocketMQ prints it, from its catalogue entry: the entry's `format` (its
// source's format string) with each placeholder filled by the argument its `args` names, so one
// entry both reads and writes its wording. What rmq-diag writes itself (the model's logs) goes
// through here, and test/parse/message-render.test.ts renders every entry and parses it back.

import { CATALOGUE } from './catalogue.js';
import type { CatalogueEntry, MessageArg, MessageForm } from './catalogue-entry.js';

/** An argument's value: text, a number, a boolean, Java's `null`, or a list (printed `[a, b]`). */
export type MessageValue = string | number | boolean | null | readonly (string | number | null)[];
export type MessageArgs = Readonly<Record<string, MessageValue | undefined>>;

type Part = string | ((a: MessageArgs) => string);

/** String.valueOf, and List.toString for a list. */
function javaText(v: MessageValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map((x) => (x === null ? 'null' : String(x))).join(', ')}]`;
  return String(v);
}

/**
 * `%.2f` as java.util.Formatter prints a double: the shortest decimal that reads back as it, rounded
 * half up (1.005 gives 1.01; toFixed rounds the binary value, 1.00).
 */
export function javaFixed2(v: number): string {
  const text = String(Math.abs(v));
  if (!Number.isFinite(v) || /e/i.test(text)) return v.toFixed(2);
  const [int, frac = ''] = text.split('.');
  let cents = BigInt(int) * 100n + BigInt((frac + '00').slice(0, 2));
  if (frac.length > 2 && frac[2] >= '5') cents += 1n;
  const digits = cents.toString().padStart(3, '0');
  const sign = v < 0 ? '-' : '';
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

function argPart(where: string, arg: MessageArg): (a: MessageArgs) => string {
  const name = typeof arg === 'string' ? arg : arg.name;
  const as = typeof arg === 'string' ? null : arg.as;
  const get = (a: MessageArgs): MessageValue => {
    const v = a[name];
    if (v === undefined) throw new Error(`message ${where}: no argument ${name}`);
    return v;
  };
  switch (as) {
    case null:
      return (a) => javaText(get(a));
    case 'socket':
      // InetSocketAddress.toString(): `hostname/ip:port`, `/ip:port` when unresolved to a name.
      return (a) => {
        const v = get(a);
        return v === null ? 'null' : `/${javaText(v)}`;
      };
    case 'semicolons':
      return (a) => {
        const v = get(a);
        return Array.isArray(v) ? v.join(';') : javaText(v);
      };
    case 'fixed2':
      return (a) => {
        const v = get(a);
        return typeof v === 'number' ? javaFixed2(v) : javaText(v);
      };
  }
}

/** SLF4J's `{}`; printf's `%s`, `%d`, `%.2f` (String.format, the C++ client's) and Go's `%v` (and `%%`). */
const SLF4J = /\{\}/g;
const PRINTF = /%(?:%|\.2f|[sdv])/g;

/** The placeholders' positions of a format: [index, length] each. */
export function placeholders(form: MessageForm): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const m of form.format.matchAll(form.printf ? PRINTF : SLF4J)) if (m[0] !== '%%') out.push([m.index, m[0].length]);
  return out;
}

function compile(where: string, form: MessageForm): Part[] {
  const slots = placeholders(form);
  if (slots.length !== form.args.length) throw new Error(`message ${where}: ${slots.length} placeholders, ${form.args.length} arguments`);
  const unescape = (s: string) => (form.printf ? s.replace(/%%/g, '%') : s);
  const parts: Part[] = [];
  let at = 0;
  slots.forEach(([i, len], k) => {
    if (i > at) parts.push(unescape(form.format.slice(at, i)));
    parts.push(argPart(where, form.args[k]));
    at = i + len;
  });
  if (at < form.format.length) parts.push(unescape(form.format.slice(at)));
  return parts;
}

/** The wordings an entry can write: its own (name null) first, then its `forms`. Empty when it has no `args`. */
export function messageForms(entry: CatalogueEntry): Array<[string | null, MessageForm]> {
  const out: Array<[string | null, MessageForm]> = [];
  if (entry.format !== undefined && entry.args !== undefined) out.push([null, { format: entry.format, args: entry.args, ...(entry.printf ? { printf: entry.printf } : {}) }]);
  for (const [name, form] of Object.entries(entry.forms ?? {})) out.push([name, form]);
  return out;
}

const ENTRY_BY_ID = new Map(CATALOGUE.map((e) => [e.id, e]));
const COMPILED = new Map<string, Part[]>();

function compiled(entryId: string, formName: string | null): Part[] {
  const key = formName === null ? entryId : `${entryId}#${formName}`;
  let parts = COMPILED.get(key);
  if (parts === undefined) {
    const entry = ENTRY_BY_ID.get(entryId);
    if (entry === undefined) throw new Error(`no catalogue entry ${entryId}`);
    const form = messageForms(entry).find(([n]) => n === formName)?.[1];
    if (form === undefined) throw new Error(`catalogue entry ${entryId} has no ${formName === null ? 'args' : `form ${formName}`}`);
    parts = compile(key, form);
    COMPILED.set(key, parts);
  }
  return parts;
}

/**
 * The message of catalogue entry `entryId` as RocketMQ prints it, from named arguments (event field
 * names where the placeholder prints a field); `form` picks one of the entry's other wordings.
 */
export function renderMessage(entryId: string, args: MessageArgs = {}, form: string | null = null): string {
  let s = '';
  for (const p of compiled(entryId, form)) s += typeof p === 'string' ? p : p(args);
  return s;
}

/**
 * The message of an MQBrokerException or an MQClientException built from a response:
 * `CODE: <code>  DESC: <remark>`, with ` BROKER: <addr>` when the MQBrokerException names its broker
 * (4.8.0+), as the catalogue's patterns read it before a remark. FAQUrl.attachDefaultURL's line
 * (MQBrokerException, MQClientException, 4.x and 5.x) is the caller's to add.
 */
export function responseExceptionMessage(code: number, remark: string | null, brokerAddr: string | null = null): string {
  const text = `CODE: ${code}  DESC: ${remark}`;
  return brokerAddr === null ? text : `${text} BROKER: ${brokerAddr}`;
}
