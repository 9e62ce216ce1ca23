// A list of test ids kept as bytes, for results of millions of ids. As JavaScript strings each id
// costs its characters plus about 40 bytes (a string header and an array slot), and a sliced id keeps
// its whole input chunk alive; the CLI never needs a string per id, it writes JSON bytes. So the ids'
// WTF-8 bytes (./wtf8.ts) stay in the arena ByteIdTable filled, and the list holds a position and a
// length per id (8 bytes). `jsonPieces` escapes straight from those bytes into pieces of about
// 64 KiB; strings are made only when asked for one.
//
// The arena is a linear space of bytes cut into blocks of 1 MiB (the first may be shorter while it is
// the only one): position p is byte p & BLOCK_MASK of block p >>> BLOCK_BITS, and an id may run on
// into the next block. No array is ever doubled in place (that would peak at three times the bytes).
import type { PackedIdList } from "../types.js";
import { decodeWtf8 } from "./wtf8.js";

/** Bits of a position below the block number: blocks of 1 MiB. */
export const BLOCK_BITS = 20;
/** Bytes of a full arena block. */
export const BLOCK_SIZE = 1 << BLOCK_BITS;
const BLOCK_MASK = BLOCK_SIZE - 1;
// Bytes a JSON piece gets; an id whose escaped form is longer gets a piece of its own size.
const PIECE_SIZE = 1 << 16;
const HEX = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102];
// The escapes JSON.stringify writes with a letter, by character code (0: none, so `\u00xx`).
const SHORT_ESCAPE = new Uint8Array(0x60);
SHORT_ESCAPE[0x08] = 0x62; // \b
SHORT_ESCAPE[0x09] = 0x74; // \t
SHORT_ESCAPE[0x0a] = 0x6e; // \n
SHORT_ESCAPE[0x0c] = 0x66; // \f
SHORT_ESCAPE[0x0d] = 0x72; // \r
SHORT_ESCAPE[0x22] = 0x22; // \"
SHORT_ESCAPE[0x5c] = 0x5c; // \\

/**
 * The `length` bytes at `position` of the arena `blocks`: a view into the block when they lie in one
 * (the common case), else a copy of the pieces.
 */
export function arenaBytes(blocks: readonly Uint8Array[], position: number, length: number): Uint8Array {
  let index = position >>> BLOCK_BITS;
  let offset = position & BLOCK_MASK;
  // An empty id may sit at the end of the arena, where no block is allocated yet.
  if (length === 0) return new Uint8Array(0);
  const block = blocks[index]!;
  if (offset + length <= block.length) return block.subarray(offset, offset + length);
  const bytes = new Uint8Array(length);
  for (let done = 0; done < length; index += 1, offset = 0) {
    const from = blocks[index]!;
    const take = Math.min(length - done, from.length - offset);
    bytes.set(from.subarray(offset, offset + take), done);
    done += take;
  }
  return bytes;
}

// Writes the JSON string body of the WTF-8 `bytes[from..to)` into `out` at `at` (room for 6 bytes
// a byte is enough), escaping as JSON.stringify does; returns the end of what it wrote.
function writeJsonBody(bytes: Uint8Array, from: number, to: number, out: Uint8Array, at: number): number {
  // Nearly every id needs no escape: one copy of its bytes (measured faster than copying byte by byte).
  let plain = from;
  while (plain < to) {
    const b = bytes[plain]!;
    if (b < 0x20 || b === 0x22 || b === 0x5c || b === 0xed) break;
    plain += 1;
  }
  out.set(bytes.subarray(from, plain), at);
  let w = at + plain - from;
  for (let k = plain; k < to; k++) {
    const b = bytes[k]!;
    if (b >= 0x20 && b !== 0x22 && b !== 0x5c && b !== 0xed) {
      out[w++] = b;
      continue;
    }
    let unit = b;
    if (b === 0xed) {
      // ED 80..9F starts an ordinary character; ED A0..BF a lone surrogate, written as \udxxx.
      if (bytes[k + 1]! < 0xa0) {
        out[w++] = b;
        continue;
      }
      unit = 0xd000 | ((bytes[k + 1]! & 0x3f) << 6) | (bytes[k + 2]! & 0x3f);
      k += 2;
    }
    out[w++] = 0x5c;
    const letter = unit < 0x60 ? SHORT_ESCAPE[unit]! : 0;
    if (letter !== 0) {
      out[w++] = letter;
      continue;
    }
    out[w++] = 0x75;
    out[w++] = HEX[unit >> 12]!;
    out[w++] = HEX[(unit >> 8) & 15]!;
    out[w++] = HEX[(unit >> 4) & 15]!;
    out[w++] = HEX[unit & 15]!;
  }
  return w;
}

/** A read-only list of test ids kept as bytes (built by ByteIdTable). */
export class PackedIds implements PackedIdList {
  /** The list of no ids. */
  static readonly EMPTY = new PackedIds([], new Uint32Array(0), new Uint32Array(0), 0);

  /**
   * A list over the arena `blocks`: id `i` is the WTF-8 bytes at `positions[i]`, `lengths[i]` long,
   * for `i` below `count`. The list takes the arrays as they are (no copy); nobody may write them
   * after.
   */
  constructor(
    private readonly blocks: readonly Uint8Array[],
    private readonly positions: Uint32Array,
    private readonly lengths: Uint32Array,
    private readonly count: number,
  ) {}

  /** Number of ids. */
  get length(): number {
    return this.count;
  }

  /** The id at `index` as a string (counted from the end when negative, like Array.prototype.at). */
  at(index: number): string | undefined {
    let i = Math.trunc(index);
    if (i < 0) i += this.count;
    if (!(i >= 0 && i < this.count)) return undefined;
    const length = this.lengths[i]!;
    if (length === 0) return "";
    const position = this.positions[i]!;
    const block = this.blocks[position >>> BLOCK_BITS]!;
    const offset = position & BLOCK_MASK;
    if (offset + length <= block.length) return decodeWtf8(block, offset, offset + length);
    return decodeWtf8(arenaBytes(this.blocks, position, length), 0, length);
  }

  /** The ids as strings, in order. */
  *[Symbol.iterator](): IterableIterator<string> {
    for (let i = 0; i < this.count; i++) yield this.at(i)!;
  }

  /** The ids as an array of strings. */
  toArray(): string[] {
    const ids = new Array<string>(this.count);
    for (let i = 0; i < this.count; i++) ids[i] = this.at(i)!;
    return ids;
  }

  /**
   * The ids as JSON strings joined by commas, no brackets: the pieces put together are the UTF-8 of
   * `JSON.stringify(this.toArray()).slice(1, -1)`, byte for byte. Each piece is a fresh array of
   * about 64 KiB (larger only for an id that does not fit in one), valid for as long as it is kept.
   */
  *jsonPieces(): IterableIterator<Uint8Array> {
    const { blocks, positions, lengths, count } = this;
    let piece = new Uint8Array(PIECE_SIZE);
    let w = 0;
    for (let i = 0; i < count; i++) {
      const length = lengths[i]!;
      // A comma, two quotes and at most 6 bytes a byte (`\u001f` for a control character).
      const room = length * 6 + 3;
      if (w + room > piece.length) {
        if (w > 0) yield piece.subarray(0, w);
        piece = new Uint8Array(Math.max(PIECE_SIZE, room));
        w = 0;
      }
      if (i > 0) piece[w++] = 0x2c;
      piece[w++] = 0x22;
      if (length !== 0) {
        const position = positions[i]!;
        const block = blocks[position >>> BLOCK_BITS]!;
        const offset = position & BLOCK_MASK;
        if (offset + length <= block.length) w = writeJsonBody(block, offset, offset + length, piece, w);
        else w = writeJsonBody(arenaBytes(blocks, position, length), 0, length, piece, w);
      }
      piece[w++] = 0x22;
    }
    if (w > 0) yield piece.subarray(0, w);
  }
}
