// Strings as bytes and back, for ids kept as bytes (ByteIdTable, PackedIds). UTF-8, except that a
// lone surrogate (a JavaScript string may hold one; TextEncoder would turn it into U+FFFD) is kept as
// its own three bytes, WTF-8 style, so every string comes back exactly. Valid UTF-8 never holds
// ED A0..BF, so those bytes mark a lone surrogate unambiguously.

// Code units per String.fromCharCode call: spreading more arguments can overflow the stack.
const DECODE_RUN = 4096;

/**
 * Writes `text.slice(start, end)` as WTF-8 into `out` from `at` (room for 3 bytes a code unit is
 * enough) and returns the end of what it wrote.
 */
export function encodeWtf8(text: string, start: number, end: number, out: Uint8Array, at: number): number {
  let w = at;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      out[w++] = c;
    } else if (c < 0x800) {
      out[w++] = 0xc0 | (c >> 6);
      out[w++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      const point = 0x10000 + ((c - 0xd800) << 10) + (text.charCodeAt(++i) - 0xdc00);
      out[w++] = 0xf0 | (point >> 18);
      out[w++] = 0x80 | ((point >> 12) & 0x3f);
      out[w++] = 0x80 | ((point >> 6) & 0x3f);
      out[w++] = 0x80 | (point & 0x3f);
    } else {
      // The rest of the BMP, lone surrogates included.
      out[w++] = 0xe0 | (c >> 12);
      out[w++] = 0x80 | ((c >> 6) & 0x3f);
      out[w++] = 0x80 | (c & 0x3f);
    }
  }
  return w;
}

// Ids are nearly always ASCII or valid UTF-8: a TextDecoder call per id measured faster than one
// String.fromCharCode call over its bytes (207 against 353 ms for a million ASCII ids of 62 bytes).
// ignoreBOM: an id may start with U+FEFF, which the default decoder would drop.
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** The string that {@link encodeWtf8} wrote as `bytes[from..to)`. */
export function decodeWtf8(bytes: Uint8Array, from: number, to: number): string {
  // TextDecoder would turn a lone surrogate's bytes (ED A0..BF ..) into U+FFFD.
  let lone = false;
  for (let k = from; k < to; k++) {
    if (bytes[k] === 0xed && bytes[k + 1]! >= 0xa0) {
      lone = true;
      break;
    }
  }
  if (!lone) return utf8.decode(bytes.subarray(from, to));
  const units: number[] = [];
  let text = "";
  for (let k = from; k < to;) {
    const b = bytes[k]!;
    if (b < 0x80) {
      units.push(b);
      k += 1;
    } else if (b < 0xe0) {
      units.push(((b & 0x1f) << 6) | (bytes[k + 1]! & 0x3f));
      k += 2;
    } else if (b < 0xf0) {
      units.push(((b & 0x0f) << 12) | ((bytes[k + 1]! & 0x3f) << 6) | (bytes[k + 2]! & 0x3f));
      k += 3;
    } else {
      const point = ((b & 0x07) << 18) | ((bytes[k + 1]! & 0x3f) << 12) | ((bytes[k + 2]! & 0x3f) << 6) | (bytes[k + 3]! & 0x3f);
      units.push(0xd800 + ((point - 0x10000) >> 10), 0xdc00 + ((point - 0x10000) & 0x3ff));
      k += 4;
    }
    if (units.length >= DECODE_RUN) {
      text += String.fromCharCode(...units);
      units.length = 0;
    }
  }
  return text + String.fromCharCode(...units);
}
