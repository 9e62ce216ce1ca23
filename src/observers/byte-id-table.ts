// IdTable's twin that keeps the ids as bytes: the same merge (any failure wins, then a pass, then a
// skip; each id once, in first-seen order) for callers that want the ids as JSON bytes, not strings
// (the CLI). IdTable's strings cost each id its characters plus about 40 bytes, and a sliced id keeps
// its input chunk alive; here an id costs its WTF-8 bytes in an arena (./packed-ids.ts) plus 9 bytes
// of entry (position, hash, flags), and no chunk is ever kept.
//
// Like IdTable the table only appends and merges repeats in compactions (./find-repeats.ts), and
// while the log repeats its ids an index of the kept entries lets a repeat only add its flags.
// `addRange` hashes the characters and copies them to the arena's tail in one loop; a repeat found
// through that index rolls the tail back, so it costs no bytes. The entries' bytes lie one after
// the other in entry order (the position of the next entry, or the tail, ends each), so an entry
// needs no length until `drain`; a compaction moves the kept ids' bytes down and drops the blocks
// past the new tail, so repeats hold no memory. `drain` hands the arena's blocks and the entry
// arrays to the three lists without copying a byte.
import { findRepeats, indexByHash, isCompactionDue, withCapacity } from "./find-repeats.js";
import type { OutcomeLists, OutcomeTable } from "./id-list.js";
import { hashRange } from "./id-table.js";
import { FAIL, PASS, SKIP } from "./lines.js";
import { BLOCK_BITS, BLOCK_SIZE, PackedIds } from "./packed-ids.js";
import { encodeWtf8 } from "./wtf8.js";

const BLOCK_MASK = BLOCK_SIZE - 1;
// Most tables hold a handful of ids (a judged tool call, one run of a line of many): the first block
// starts at 1 KiB and grows to a full block, and the entry arrays start at 16 entries.
const FIRST_BLOCK = 1024;
const FIRST_CAPACITY = 16;
// Entries a compaction sorts at a time (findRepeats): at most 8 MB of sorted copy, not 8 bytes an entry.
const COMPACTION_GROUP = 1 << 20;
// The positions are 32-bit.
const MAX_ARENA = 2 ** 32 - 1;
const NO_POSITIONS = new Uint32Array(1);
const NO_HASHES = new Int32Array(0);
const NO_FLAGS = new Uint8Array(0);
// Where an id that does not fit in the tail block is encoded first (grown up to 3 MiB).
let scratch = new Uint8Array(1024);

/** Ids -> outcome flags (PASS, FAIL, SKIP bits), merged per id, in first-seen order, kept as bytes. */
export class ByteIdTable implements OutcomeTable<PackedIds> {
  /** Flag of a pass (the same value as the parsers' PASS). */
  static readonly PASS = PASS;
  /** Flag of a failure or error in any phase. */
  static readonly FAIL = FAIL;
  /** Flag of a skip, xfail, non-strict xpass or expected failure. */
  static readonly SKIP = SKIP;

  private blocks: Uint8Array[] = [];
  /** End of the last entry's bytes: where the next id is written. */
  private tail = 0;
  /** Entry i's bytes start at positions[i] and end at positions[i + 1] (positions[count] is the tail). */
  private positions = NO_POSITIONS;
  private hashes = NO_HASHES;
  private flags = NO_FLAGS;
  private count = 0;
  /** Entries kept by the last compaction: no id among them is there twice. */
  private merged = 0;
  /** As in IdTable: while the log repeats its ids, the kept entries by hash (position + 1). */
  private known: Int32Array = NO_HASHES;

  /** Adds `bits` to `id` (appended; a repeat is merged into its first occurrence later). */
  add(id: string, bits: number): void {
    this.addRange(id, 0, id.length, bits);
  }

  /** Adds `bits` to the id `text.slice(start, end)` (its bytes are copied: `text` is not kept). */
  addRange(text: string, start: number, end: number, bits: number): void {
    const tail = this.tail;
    const offset = tail & BLOCK_MASK;
    const block = this.blocks[tail >>> BLOCK_BITS];
    let hash: number;
    let length: number;
    if (block !== undefined && offset + (end - start) * 3 <= block.length) {
      // hashRange's hash, with each pair of characters stored as it is read: ids are nearly always
      // ASCII, and any other character has them encoded again.
      hash = 0x811c9dc5 | 0;
      let seen = 0;
      let w = offset;
      let i = start;
      for (; i + 1 < end; i += 2) {
        const a = text.charCodeAt(i);
        const b = text.charCodeAt(i + 1);
        hash = Math.imul(hash ^ (a | (b << 16)), 16777619);
        block[w] = a;
        block[w + 1] = b;
        w += 2;
        seen |= a | b;
      }
      if (i < end) {
        const a = text.charCodeAt(i);
        hash = Math.imul(hash ^ a, 16777619);
        block[w++] = a;
        seen |= a;
      }
      hash ^= hash >>> 16;
      hash = Math.imul(hash, 0x85ebca6b);
      hash ^= hash >>> 13;
      hash = Math.imul(hash, 0xc2b2ae35);
      hash ^= hash >>> 16;
      if (seen >= 0x80) w = encodeWtf8(text, start, end, block, offset);
      length = w - offset;
    } else {
      hash = hashRange(text, start, end);
      length = this.writeSpilled(text, start, end);
    }
    if (this.known !== NO_HASHES && this.addKnown(length, hash, bits)) return;
    this.append(length, hash, bits);
  }

  // Encodes an id that does not fit in the tail block, then copies it there, growing the first block
  // or adding blocks; returns its length in bytes.
  private writeSpilled(text: string, start: number, end: number): number {
    const room = (end - start) * 3;
    // The scratch array is kept for ids up to a block; a longer id gets one of its own, dropped after.
    if (scratch.length < room && room <= 3 * BLOCK_SIZE) scratch = new Uint8Array(room);
    const encoded = scratch.length < room ? new Uint8Array(room) : scratch;
    const length = encodeWtf8(text, start, end, encoded, 0);
    if (this.tail + length > MAX_ARENA)
      throw new RangeError("ByteIdTable: the ids' bytes passed 4 GiB, more than 32-bit positions address.");
    let at = this.tail;
    for (let done = 0; done < length;) {
      const index = at >>> BLOCK_BITS;
      const offset = at & BLOCK_MASK;
      let block = this.blocks[index];
      if (block === undefined || (block.length < BLOCK_SIZE && offset + length - done > block.length))
        block = this.growBlock(index, offset + length - done);
      const take = Math.min(length - done, block.length - offset);
      block.set(encoded.subarray(done, done + take), offset);
      done += take;
      at += take;
    }
    return length;
  }

  // The block `index` with room for `needed` bytes (a full block at most): the first block grows by
  // doubling until it is full; any other is allocated full.
  private growBlock(index: number, needed: number): Uint8Array {
    const old = this.blocks[index];
    let size = index === 0 ? (old?.length ?? FIRST_BLOCK) : BLOCK_SIZE;
    while (size < needed && size < BLOCK_SIZE) size *= 2;
    const block = new Uint8Array(Math.min(size, BLOCK_SIZE));
    if (old !== undefined) block.set(old);
    this.blocks[index] = block;
    return block;
  }

  // Adds `bits` to the kept entry whose bytes equal the `length` just written at the tail; false when
  // `known` has none.
  private addKnown(length: number, hash: number, bits: number): boolean {
    const { known, positions } = this;
    const mask = known.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = known[slot]! - 1;
      if (at === -1) return false;
      if (this.hashes[at] === hash && positions[at + 1]! - positions[at]! === length && this.sameBytes(positions[at]!, this.tail, length)) {
        this.flags[at] = this.flags[at]! | bits;
        return true;
      }
    }
  }

  // Whether the `length` bytes at positions `a` and `b` are the same.
  private sameBytes(a: number, b: number, length: number): boolean {
    const { blocks } = this;
    const offsetA = a & BLOCK_MASK;
    const offsetB = b & BLOCK_MASK;
    const blockA = blocks[a >>> BLOCK_BITS];
    const blockB = blocks[b >>> BLOCK_BITS];
    if (length === 0) return true;
    if (offsetA + length <= blockA!.length && offsetB + length <= blockB!.length) {
      for (let k = 0; k < length; k++) if (blockA![offsetA + k] !== blockB![offsetB + k]) return false;
      return true;
    }
    for (let k = 0; k < length; k++) if (this.byteAt(a + k) !== this.byteAt(b + k)) return false;
    return true;
  }

  private byteAt(position: number): number {
    return this.blocks[position >>> BLOCK_BITS]![position & BLOCK_MASK]!;
  }

  private append(length: number, hash: number, bits: number): void {
    const at = this.count;
    if (at === this.hashes.length) this.grow();
    this.hashes[at] = hash;
    this.flags[at] = bits;
    this.tail += length;
    this.positions[at + 1] = this.tail;
    this.count = at + 1;
    if (isCompactionDue(this.count, this.merged)) this.compact();
  }

  // Entry arrays 1.5 times as large (less than doubling keeps the peak of the copy lower).
  private grow(): void {
    const size = Math.max(FIRST_CAPACITY, Math.ceil(this.count * 1.5));
    this.positions = withCapacity(this.positions, size + 1);
    this.hashes = withCapacity(this.hashes, size);
    this.flags = withCapacity(this.flags, size);
  }

  /** Merges every repeat into its first occurrence and drops it (and its bytes), keeping the order of the rest. */
  private compact(): void {
    const n = this.count;
    if (n === this.merged) return;
    const added = n - this.merged;
    const { positions, hashes, flags } = this;
    const repeat = findRepeats(
      hashes,
      flags,
      n,
      (first, at) => {
        const length = positions[first + 1]! - positions[first]!;
        return length === positions[at + 1]! - positions[at]! && this.sameBytes(positions[first]!, positions[at]!, length);
      },
      COMPACTION_GROUP,
    );
    // Kept entries move down with their bytes; runs of bytes that stay together move in one copy.
    let write = 0;
    let to = 0;
    let runFrom = 0;
    let runTo = 0;
    let runLength = 0;
    for (let read = 0; read < n; read++) {
      if (repeat[read] === 1) continue;
      const from = positions[read]!;
      const length = positions[read + 1]! - from;
      if (from !== runFrom + runLength) {
        this.moveBytes(runFrom, runTo, runLength);
        runFrom = from;
        runTo = to;
        runLength = 0;
      }
      runLength += length;
      if (write !== read) {
        hashes[write] = hashes[read]!;
        flags[write] = flags[read]!;
      }
      positions[write] = to;
      to += length;
      write += 1;
    }
    this.moveBytes(runFrom, runTo, runLength);
    positions[write] = to;
    this.tail = to;
    // Blocks past the one the tail is in hold nothing now; a first block that is the only one gets
    // a smaller copy when it is more than twice what it holds (a small table whose ids repeat).
    this.blocks.length = Math.min(this.blocks.length, (to >>> BLOCK_BITS) + 1);
    const first = this.blocks[0];
    if (this.blocks.length === 1 && first!.length > FIRST_BLOCK && first!.length > 2 * to) {
      const size = Math.max(FIRST_BLOCK, 2 ** Math.ceil(Math.log2(to)));
      this.blocks[0] = first!.slice(0, size);
    }
    this.count = write;
    this.merged = write;
    this.known = (n - write) * 2 >= added ? indexByHash(hashes, write) : NO_HASHES;
  }

  // Copies `length` bytes from `from` down to `to` (to <= from), block piece by block piece, in order.
  private moveBytes(from: number, to: number, length: number): void {
    if (from === to || length === 0) return;
    const { blocks } = this;
    for (let done = 0; done < length;) {
      const source = blocks[(from + done) >>> BLOCK_BITS]!;
      const target = blocks[(to + done) >>> BLOCK_BITS]!;
      const sourceOffset = (from + done) & BLOCK_MASK;
      const targetOffset = (to + done) & BLOCK_MASK;
      const take = Math.min(length - done, source.length - sourceOffset, target.length - targetOffset);
      if (source === target) target.copyWithin(targetOffset, sourceOffset, sourceOffset + take);
      else target.set(source.subarray(sourceOffset, sourceOffset + take), targetOffset);
      done += take;
    }
  }

  /** Kept for IdTable's surface: the bytes are copied as they are added, so no chunk is ever kept. */
  endChunk(chunkLength: number): void {
    void chunkLength;
  }

  /** Number of entries (repeats not yet merged count twice). */
  get size(): number {
    return this.count;
  }

  /** Bytes of the arena's blocks (for tests and benches: repeats must not hold memory). */
  get arenaBytes(): number {
    let bytes = 0;
    for (const block of this.blocks) bytes += block.length;
    return bytes;
  }

  /**
   * Splits the ids into the three lists: any failure wins, then a pass, then a skip. The lists share
   * the arena; the passes move down inside the table's own arrays, and the table is left empty.
   */
  drain(): OutcomeLists<PackedIds> {
    this.compact();
    const { blocks, positions, flags, count } = this;
    // The hashes are not needed any more: their array becomes the lengths.
    const lengths = new Uint32Array(this.hashes.buffer, this.hashes.byteOffset, this.hashes.length);
    let failedCount = 0;
    let passedCount = 0;
    for (let i = 0; i < count; i++) {
      lengths[i] = positions[i + 1]! - positions[i]!;
      const bits = flags[i]!;
      if ((bits & FAIL) !== 0) failedCount += 1;
      else if ((bits & PASS) !== 0) passedCount += 1;
    }
    const skippedCount = count - failedCount - passedCount;
    const failedAt = new Uint32Array(failedCount);
    const failedLengths = new Uint32Array(failedCount);
    const skippedAt = new Uint32Array(skippedCount);
    const skippedLengths = new Uint32Array(skippedCount);
    let p = 0;
    let f = 0;
    let s = 0;
    // A pass is written at or before the position it is read from.
    for (let i = 0; i < count; i++) {
      const bits = flags[i]!;
      if ((bits & FAIL) !== 0) {
        failedAt[f] = positions[i]!;
        failedLengths[f++] = lengths[i]!;
      } else if ((bits & PASS) !== 0) {
        positions[p] = positions[i]!;
        lengths[p++] = lengths[i]!;
      } else {
        skippedAt[s] = positions[i]!;
        skippedLengths[s++] = lengths[i]!;
      }
    }
    this.blocks = [];
    this.tail = 0;
    this.positions = NO_POSITIONS;
    this.hashes = NO_HASHES;
    this.flags = NO_FLAGS;
    this.known = NO_HASHES;
    this.count = 0;
    this.merged = 0;
    return {
      passed: passedCount === 0 ? PackedIds.EMPTY : new PackedIds(blocks, positions, lengths, passedCount),
      failed: failedCount === 0 ? PackedIds.EMPTY : new PackedIds(blocks, failedAt, failedLengths, failedCount),
      skipped: skippedCount === 0 ? PackedIds.EMPTY : new PackedIds(blocks, skippedAt, skippedLengths, skippedCount),
    };
  }
}
