// What one entry of the message catalogue holds. Apart from the matcher (catalogue.ts), so that the
// data files (catalogue-data.ts, catalogue-clients.ts) and the matcher that indexes them do not
// import each other.

import type { EventFields, EventType } from './types.js';

/**
 * How one placeholder prints its argument: Java's String.valueOf unless `as` says otherwise
 * (`socket`: InetSocketAddress.toString(), `/` before the address; `semicolons`: a list joined by `;`
 * as namesrvAddr is; `fixed2`: `%.2f`). A list prints as List.toString(), `[a, b]`.
 */
export type MessageArg = string | { name: string; as: 'socket' | 'semicolons' | 'fixed2' };

/** One wording: its format and the arguments of its placeholders (see CatalogueEntry.format). */
export interface MessageForm {
  format: string;
  args: readonly MessageArg[];
  printf?: true;
}

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
  /**
   * The message as written in the source: an SLF4J format (`{}`; a concatenation `"a[" + x + "]"` is
   * written so too) or, with `printf`, a printf one (`%s`, `%d`, `%.2f`, Go's `%v`). With `args` it is the
   * text rmq-diag writes (message-render.ts); without, it only documents the wording.
   */
  format?: string;
  /** The argument that fills each placeholder of `format`, in order: an event field's name or a named argument. */
  args?: readonly MessageArg[];
  /** `format` is printf's (String.format, the C++ client's, Go's fmt), not SLF4J's. */
  printf?: true;
  /**
   * The other wordings of the same entry, by name (a version's, or each literal where the source
   * throws several that differ in one word); rendered when asked for by that name.
   */
  forms?: Readonly<Record<string, MessageForm>>;
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
