// The bytes that make text look binary: C0 controls but \t \n \f \r ESC, and DEL. The reader judges
// lines and blocks by them (reader.ts); the keyword scan's WebAssembly tells whether a block holds
// one (src/parse/keyword-scan.wat, `controls`: a test holds the two equal).

/** 1 for a control byte, by byte value. */
export const CONTROL = new Uint8Array(256);
for (let b = 0; b < 0x20; b++) CONTROL[b] = 1;
for (const b of [0x09, 0x0a, 0x0c, 0x0d, 0x1b]) CONTROL[b] = 0;
CONTROL[0x7f] = 1;
const CONTROL_BYTES: number[] = [];
for (let b = 0; b < 256; b++) if (CONTROL[b]) CONTROL_BYTES.push(b);

/** Any control byte in bytes [from, to)? One native memchr per byte value beats a regex by ~4x. */
export function hasControlByte(bytes: Uint8Array, from = 0, to = bytes.length): boolean {
  const sub = from === 0 && to === bytes.length ? bytes : bytes.subarray(from, to);
  for (let i = 0; i < CONTROL_BYTES.length; i++) {
    if (sub.indexOf(CONTROL_BYTES[i]) !== -1) return true;
  }
  return false;
}
