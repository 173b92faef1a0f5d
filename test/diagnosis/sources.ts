// A source's accounting as the collector's tests give it: a file of a host and kind that read nothing.
import type { SourceAccounting } from '../../src/parse/types.js';

export const sourceOf = (path: string, host: string, kind: SourceAccounting['kind']): SourceAccounting => ({
  path,
  kind,
  host,
  layout: 'x',
  zone: '+08:00',
  lines: 0,
  records: 0,
  continuation: 0,
  unknown: 0,
  unreadable: 0,
  events: {},
});
