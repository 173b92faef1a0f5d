// What one entry of the message catalogue holds. Apart from the matcher (catalogue.ts), so that the
// data files (catalogue-data.ts, catalogue-clients.ts) and the matcher that indexes them do not
// import each other.

import type { EventFields, EventType } from './types.js';

export interface CatalogueEntry {
  /** Unique, `<type>/<variant>`, e.g. 'busy-reply/timeout-clean-queue'. */
  id: string;
  type: EventType;
  /** Literal substrings; a line must contain at least one of them before `pattern` is tried. */
  keywords: string[];
  /** Not anchored at the start (the text may sit inside a stack line or after an app prefix). No g/y flag. */
  pattern: RegExp;
  /** Versions that print this wording, e.g. '4.3.0-5.0.0', '>=5.1.0', 'all'. */
  versions: string;
  /** Class that logs or throws it, e.g. 'broker/latency/BrokerFastFailure'. */
  source: string;
  /** The message as written in the source (`{}` SLF4J placeholder, `%s`/`%d` String.format), for docs. */
  format?: string;
  /** Converts the named groups to typed fields (numbers as numbers). */
  fields: (g: Record<string, string | undefined>, text: string) => EventFields;
  /** Set when this wording pins a version range. */
  versionHint?: string;
  /** The event's `cause` (and `addr` for route-update-failed) comes from the exception on the next lines. */
  causeFromNext?: boolean;
  /** The wording is the same in the broker and the NameServer: `role` is set from the source's kind. */
  roleFromKind?: boolean;
  /** Lines built from the real format strings and real excerpts; the tests run them all. */
  samples: Array<{ text: string; fields?: Partial<EventFields> }>;
}
