// Git's C-quoted path form, and a lossless bytes <-> string mapping for names that are not UTF-8.
// Bytes that are not valid UTF-8 become one lone surrogate each (U+DC00 + byte, so U+DC80..U+DCFF,
// Python's "surrogateescape"); valid UTF-8 can never produce a lone surrogate, so the mapping is
// reversible by encodeGitBytes.

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = {
  a: 0x07,
  b: 0x08,
  t: 0x09,
  n: 0x0a,
  v: 0x0b,
  f: 0x0c,
  r: 0x0d,
  '"': 0x22,
  "\\": 0x5c,
};

const ESCAPE_FOR_BYTE: ReadonlyMap<number, string> = new Map(Object.entries(SIMPLE_ESCAPES).map(([letter, byte]) => [byte, `\\${letter}`]));

const strictDecoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Decodes bytes as UTF-8 without loss: each byte that is not part of a valid UTF-8 sequence becomes
 * one lone surrogate U+DC00 + byte (U+DC80..U+DCFF). {@link encodeGitBytes} rebuilds the bytes.
 * @example decodeGitBytes(new Uint8Array([0x61, 0xff])) // "a\udcff"
 */
export function decodeGitBytes(bytes: Uint8Array): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return decodeLossless(bytes);
  }
}

// The slow path, only for input that really holds invalid UTF-8.
function decodeLossless(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const length = validSequenceLength(bytes, i);
    if (length === 0) {
      out += String.fromCharCode(0xdc00 + bytes[i]!);
      i += 1;
      continue;
    }
    let end = i + length;
    // Extend over a run of valid sequences so TextDecoder handles most of the text.
    while (end < bytes.length) {
      const next = validSequenceLength(bytes, end);
      if (next === 0) break;
      end += next;
    }
    out += strictDecoder.decode(bytes.subarray(i, end));
    i = end;
  }
  return out;
}

// Length of the well-formed UTF-8 sequence starting at `i` (Unicode table 3-7), or 0.
function validSequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => {
    const b = bytes[i + k];
    return b !== undefined && b >= lo && b <= hi;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((b0 >= 0xe1 && b0 <= 0xec) || b0 === 0xee || b0 === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b0 === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (b0 === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b0 >= 0xf1 && b0 <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b0 === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

/**
 * The bytes a decoded name stands for: UTF-8, except that lone surrogates U+DC80..U+DCFF become the
 * single byte they carry (the inverse of {@link decodeGitBytes} and {@link decodeGitCPath}).
 */
export function encodeGitBytes(text: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) out.push(code);
    else if (code < 0x800) out.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      const point = 0x10000 + ((code - 0xd800) << 10) + (text.charCodeAt(i + 1) - 0xdc00);
      out.push(0xf0 | (point >> 18), 0x80 | ((point >> 12) & 0x3f), 0x80 | ((point >> 6) & 0x3f), 0x80 | (point & 0x3f));
      i += 1;
    } else if (code >= 0xdc80 && code <= 0xdcff) out.push(code - 0xdc00);
    else if (code >= 0xd800 && code <= 0xdfff)
      out.push(0xef, 0xbf, 0xbd); // any other lone surrogate has no bytes: U+FFFD
    else out.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
  }
  return Uint8Array.from(out);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function isOctal(code: number): boolean {
  return code >= 0x30 && code <= 0x37;
}

/**
 * Decodes one path in Git's C-quoted form. A value starting with `"` is read up to its closing
 * quote (anything after it is ignored); `\a \b \t \n \v \f \r \" \\` and octal byte escapes
 * (`\303\251`) are assembled as bytes and decoded as UTF-8, bytes that are not UTF-8 becoming lone
 * surrogates U+DC80..U+DCFF. Unknown escapes, out-of-range octals, a trailing backslash and a
 * missing closing quote are kept literally; nothing throws. Unquoted values are returned as given.
 * @example decodeGitCPath('"b/caf\\303\\251"') // "b/café"
 */
export function decodeGitCPath(value: string): string {
  if (value.charCodeAt(0) !== 0x22) return value;
  return decodeQuoted(value, 1).text;
}

/** Result of reading one quoted token: the decoded text and the index after the closing quote. */
export interface QuotedToken {
  /** The decoded name. */
  readonly text: string;
  /** Index just past the closing quote, or -1 when the quote was never closed. */
  readonly end: number;
}

/** Reads a C-quoted token whose opening quote is just before `start`. Internal to src/patches. */
export function decodeQuoted(value: string, start: number): QuotedToken {
  const bytes: number[] = [];
  let i = start;
  let plainStart = i;
  let text = "";
  const flushPlain = (to: number): void => {
    if (to > plainStart) {
      flushBytes();
      text += value.slice(plainStart, to);
    }
  };
  const flushBytes = (): void => {
    if (bytes.length > 0) {
      text += decodeGitBytes(Uint8Array.from(bytes));
      bytes.length = 0;
    }
  };
  while (i < value.length) {
    const code = value.charCodeAt(i);
    if (code === 0x22) {
      flushPlain(i);
      flushBytes();
      return { text, end: i + 1 };
    }
    if (code !== 0x5c) {
      i += 1;
      continue;
    }
    flushPlain(i);
    const next = value[i + 1];
    if (next === undefined) {
      // A trailing lone backslash is kept as written.
      plainStart = i;
      i += 1;
      continue;
    }
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      bytes.push(simple);
      i += 2;
    } else if (isOctal(value.charCodeAt(i + 1))) {
      let digits = 1;
      let byte = value.charCodeAt(i + 1) - 0x30;
      while (digits < 3 && isOctal(value.charCodeAt(i + 1 + digits))) {
        const wider = byte * 8 + value.charCodeAt(i + 1 + digits) - 0x30;
        if (wider > 0o377) break; // `\400` is `\40` followed by the digit `0`
        byte = wider;
        digits += 1;
      }
      bytes.push(byte);
      i += 1 + digits;
    } else {
      // Unknown escape: kept literally (backslash and character) so no information is lost.
      plainStart = i;
      i += 2;
      continue;
    }
    plainStart = i;
  }
  flushPlain(i);
  flushBytes();
  return { text, end: -1 };
}

/** Options for {@link encodeGitCPath}. */
export interface EncodeGitCPathOptions {
  /** Git's `core.quotePath` (default true): also escape bytes >= 0x80 as octal. */
  readonly quotePath?: boolean;
}

/**
 * Quotes a name the way Git prints it: unchanged when no byte needs escaping, otherwise wrapped in
 * `"` with C escapes and octal bytes. Lone surrogates U+DC80..U+DCFF are written as the byte they
 * carry, so `decodeGitCPath(encodeGitCPath(name)) === name` for every decoded name.
 * @example encodeGitCPath("café") // '"caf\\303\\251"'
 */
export function encodeGitCPath(name: string, options: EncodeGitCPathOptions = {}): string {
  const quotePath = options.quotePath ?? true;
  const bytes = encodeGitBytes(name);
  let needs = false;
  for (const byte of bytes) {
    if (byte < 0x20 || byte === 0x22 || byte === 0x5c || byte === 0x7f || (byte >= 0x80 && quotePath)) {
      needs = true;
      break;
    }
  }
  // A name carrying raw non-UTF-8 bytes cannot be printed unquoted in a JS string.
  if (!needs && !/[\udc80-\udcff]/.test(name)) return name;
  let out = '"';
  let run: number[] = [];
  const flushRun = (): void => {
    if (run.length > 0) {
      out += decodeGitBytes(Uint8Array.from(run));
      run = [];
    }
  };
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    const escape = ESCAPE_FOR_BYTE.get(byte);
    const raw = byte >= 0x80 && !quotePath ? validSequenceLength(bytes, i) : 0;
    if (escape !== undefined) {
      flushRun();
      out += escape;
    } else if (raw > 0) {
      // With quotePath off Git prints UTF-8 as is; bytes that are not UTF-8 are still escaped here.
      for (let k = 0; k < raw; k++) run.push(bytes[i + k]!);
      i += raw - 1;
    } else if (byte < 0x20 || byte >= 0x7f) {
      flushRun();
      out += `\\${byte.toString(8).padStart(3, "0")}`;
    } else run.push(byte);
  }
  flushRun();
  return `${out}"`;
}
