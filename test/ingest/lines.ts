// The line count of an input by the reader's documented rules (src/ingest/reader.ts), computed the
// slow and obvious way on the whole input at once, for the property tests to compare with.

const NUL_RUN = 8;

/** The bytes after a UTF-16 byte-order mark, as UTF-8; other inputs unchanged. */
export function asUtf8(bytes: Uint8Array): Uint8Array {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    let b = Buffer.from(bytes);
    if (bytes[0] === 0xfe) {
      b = Buffer.from(b.subarray(0, b.length & ~1));
      b.swap16();
      if (bytes.length % 2) b = Buffer.concat([b, Buffer.from([bytes[bytes.length - 1]])]);
    }
    return Buffer.from(new TextDecoder('utf-16le').decode(b), 'utf8');
  }
  return bytes;
}

/** Lines: '\n' ends one; so does a lone '\r' when the input's first line end is one; a last line without an end counts. */
export function expectedLines(input: Uint8Array): number {
  const bytes = asUtf8(input);
  const n = bytes.length;
  // Runs of NUL_RUN or more NUL bytes are cut out: they are no part of any line.
  const cut = new Uint8Array(n);
  for (let i = 0; i < n; ) {
    if (bytes[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < n && bytes[j] === 0) j++;
    if (j - i >= NUL_RUN) cut.fill(1, i, j);
    i = j;
  }
  const lone = (i: number) => bytes[i] === 13 && (i + 1 >= n || bytes[i + 1] !== 10);
  let crLines = false;
  for (let i = 0; i < n; i++) {
    if (bytes[i] === 10) break;
    if (bytes[i] === 13) {
      crLines = lone(i);
      break;
    }
  }
  let lines = 0;
  let open = false;
  for (let i = 0; i < n; i++) {
    if (cut[i]) continue;
    if (bytes[i] === 10 || (crLines && lone(i))) {
      lines++;
      open = false;
    } else open = true;
  }
  return lines + (open ? 1 : 0);
}
