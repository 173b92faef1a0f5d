import { describe, expect, it } from 'vitest';
import { clip, escapeText } from '../../src/report/escape.js';

/** The characters escapeText shows escaped (escape.ts): C0 controls, DEL and C1, and the line and bidirectional marks. */
const escaped = (code: number) =>
  code <= 0x1f || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 || code === 0x061c || code === 0x200e || code === 0x200f || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);

/** The same, one character at a time. */
function reference(text: string): string {
  let out = '';
  for (const c of text.split('')) {
    const code = c.charCodeAt(0);
    if (!escaped(code)) out += c;
    else if (c === '\t') out += '\\t';
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else out += code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return out;
}

describe('escapeText', () => {
  it('escapes every character of the set, wherever it stands, and nothing else', () => {
    for (let code = 0; code < 0x2100; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const c = String.fromCharCode(code);
      for (const text of [c, `a${c}`, `${c}b`, `broker-a ${c} 10.0.0.1:10911`]) expect(escapeText(text), `U+${code.toString(16)}`).toBe(reference(text));
    }
  });
  it('gives a text with none of them back as it is', () => {
    const text = '2026-12-01 10:00:00,123 WARN RocketmqClient - sendKernelImpl exception, resend at once, InvokeID: 1, RT: 3001ms, Broker: [broker-a]';
    expect(escapeText(text)).toBe(text);
    expect(escapeText('')).toBe('');
  });
});

describe('clip', () => {
  it('cuts to the width with an ellipsis, after escaping', () => {
    expect(clip('abcdef', 4)).toBe('abc…');
    expect(clip('abcd', 4)).toBe('abcd');
    expect(clip('abc', 0)).toBe('');
    expect(clip('a\tbcdef', 4)).toBe('a\\t…');
    expect(clip('ab', 4)).toBe('ab');
  });
});
