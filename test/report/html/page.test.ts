import { describe, expect, it } from 'vitest';
import { parseZone } from '../../../src/parse/time.js';
import { h, htmlDocument, scriptJson, tableHtml, timeScale, tooltip } from '../../../src/report/html/page.js';

describe('HTML escaping', () => {
  it('escapes markup, control and bidi characters in text and attributes', () => {
    expect(h('</script><img src=x onerror="alert(1)">&\'')).toBe('&#60;/script&#62;&#60;img src=x onerror=&#34;alert(1)&#34;&#62;&#38;&#39;');
    expect(h('a\u001b[2J\u202eb')).toBe('a\\x1b[2J\\u202eb');
  });

  it('writes JSON that no </script> in it can end early, with the same values', () => {
    const value = [{ text: '</script><script>alert(1)</script> & \u2028' }];
    const json = scriptJson(value);
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual(value);
  });

  it('puts the evidence of a mark in its tooltip, escaped', () => {
    expect(tooltip({ title: 'a <b>', lines: [{ loc: 'x.log:3', time: '14:00:00.000', text: '<i>' }] })).toBe('<title>a &#60;b&#62;\nx.log:3  14:00:00.000  &#60;i&#62;</title>');
  });

  it('is one document whose only script reads the evidence JSON', () => {
    const doc = htmlDocument('t </title>', '<p>x</p>', [{ title: '</script>', lines: [] }]);
    expect(doc.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(doc).toContain('<title>t &#60;/title&#62;</title>');
    expect(doc.match(/<\/script>/g)).toHaveLength(2);
    expect(doc).not.toMatch(/https?:\/\//);
  });
});

describe('time axis', () => {
  it('puts ticks at round times of the output zone', () => {
    const zone = parseZone('+08:00');
    const from = Date.parse('2020-12-22T14:35:05+08:00');
    const s = timeScale(from, from + 25 * 60000, 100, 1100, zone);
    expect(s.ticks.map((t) => t.label)).toEqual(['14:40', '14:45', '14:50', '14:55', '15:00']);
    expect(s.x(from)).toBe(100);
    expect(s.x(from + 25 * 60000)).toBe(1100);
  });
});

describe('tables', () => {
  it('label every cell with its column (the narrow screen shows label/value rows) and scroll inside their block', () => {
    const t = tableHtml([{ label: 'client' }, { label: 'time <out>', cls: 'n' }], [['<strong>app</strong>', '423']], 'impact');
    expect(t).toMatch(/^<div class="wrap"><table class="impact reflow">/);
    expect(t).toContain('<th class="n">time &#60;out&#62;</th>');
    expect(t).toContain('<td data-label="client"><strong>app</strong></td><td class="n" data-label="time &#60;out&#62;">423</td>');
    expect(tableHtml([{ label: 'file', cls: 'mono' }], [['x']], 'accounting', false)).toContain('<table class="accounting"><thead><tr><th>file</th>');
  });
});
