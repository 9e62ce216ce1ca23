// Test ids with their outcome flags, in first-seen order, built for logs with millions of ids.
//
// A Map keyed by a million distinct ids costs about a microsecond per insert here (hashing into a big
// table misses the cache, and every key is a new string). Most ids of a log are new, so this table
// appends them to plain arrays and answers "seen before?" with a Bloom filter small enough to stay in
// cache. Only ids the filter may have seen are looked up exactly, in a small open-addressing index
// (`hot`, compared in place, so a repeat costs no new string). A repeat `hot` does not know yet is
// appended once and joins `hot`; its first occurrence, which went in unchecked, is merged into it by
// a compaction that runs when such ids pile up and at the end. So an id has at most two entries, and
// repeated ids (a rerun, `-count=N`) keep memory flat in the input size.
//
// Ids are often slices of an input chunk, and a slice keeps its whole chunk alive. `endChunk` keeps
// the slices when the chunk's new ids make up most of it (a `-rA` short summary) and copies them
// into one compact string otherwise, so what stays alive is at most about twice the ids' own text.
import { FAIL, PASS, SKIP } from "./lines.js";

const BLOOM_HASHES = 3;
// Bits per id before the filter doubles: about 1% false hits at worst, 0.15% just after doubling.
const BLOOM_BITS_PER_ID = 12;
const MAX_BLOOM_BITS = 1 << 28;
const MIN_COMPACTION = 4096;
// Shared by the tables that hold no id yet (never written: storage is allocated on the first id).
const NO_HASHES = new Int32Array(0);
const NO_FLAGS = new Uint8Array(0);

/**
 * FNV-1a over the UTF-16 code units of `text.slice(start, end)`, two at a time, then murmur3's finaliser. FNV's
 * multiply carries only upwards, so its low bits (the table slot) see only the low bits of each
 * character: ids that differ in high bits alone (`i` and `é`) would share a slot.
 */
export function hashRange(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5 | 0;
  // Two UTF-16 code units per step (they fit 32 bits): half the multiplications of plain FNV.
  let i = start;
  for (; i + 1 < end; i += 2) hash = Math.imul(hash ^ (text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16)), 16777619);
  if (i < end) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}

/** Ids -> outcome flags (PASS, FAIL, SKIP bits), merged per id, in first-seen order. */
export class IdTable {
  /** Flag of a pass (the same value as the parsers' PASS). */
  static readonly PASS = PASS;
  /** Flag of a failure or error in any phase. */
  static readonly FAIL = FAIL;
  /** Flag of a skip, xfail, non-strict xpass or expected failure. */
  static readonly SKIP = SKIP;

  // Allocated on the first id: a line of thousands of runs makes a table per run, most of them empty.
  private ids: string[] = [];
  private hashes = NO_HASHES;
  private flags = NO_FLAGS;
  private count = 0;
  private bloom = NO_HASHES;
  private bloomMask = (1 << 16) - 1;
  /** Hashes the filter has seen twice: their ids may be in the table more than once until compaction. */
  private readonly suspects = new Set<number>();
  /** Index + 1 of the entries whose hash is a suspect, by hash (open addressing; 0 is empty). */
  private hot = NO_HASHES;
  private hotCount = 0;
  private unmergedSuspects = 0;
  /** First id added since the last `endChunk`, and the characters added since. */
  private pendingFrom = 0;
  private pendingChars = 0;

  /** Adds `bits` to `id` (a new id is appended). */
  add(id: string, bits: number): void {
    this.insert(id, hashRange(id, 0, id.length), bits);
  }

  /** Adds `bits` to the id `text.slice(start, end)`, slicing only when `hot` does not know the id. */
  addRange(text: string, start: number, end: number, bits: number): void {
    this.insert(text, hashRange(text, start, end), bits, start, end);
  }

  private insert(text: string, hash: number, bits: number, start = 0, end = -1): void {
    if (this.bloom === NO_HASHES) {
      this.hashes = new Int32Array(1024);
      this.flags = new Uint8Array(1024);
      this.bloom = new Int32Array(1 << 11);
      this.hot = new Int32Array(64);
    }
    const to = end === -1 ? text.length : end;
    if (this.testAndSet(hash)) {
      const at = this.hotFind(text, start, to, hash);
      if (at !== -1) {
        this.flags[at]! |= bits;
        return;
      }
      this.suspects.add(hash);
      this.unmergedSuspects += 1;
      this.append(end === -1 ? text : text.slice(start, end), hash, bits);
      // Later repeats find this entry; the unchecked first occurrence is merged into it at compaction.
      this.hotAdd(hash, this.count - 1);
      if (this.unmergedSuspects >= Math.max(MIN_COMPACTION, this.count >>> 2)) this.compact();
      return;
    }
    this.append(end === -1 ? text : text.slice(start, end), hash, bits);
  }

  // The entry of `hot` holding `text.slice(start, end)`, or -1.
  private hotFind(text: string, start: number, end: number, hash: number): number {
    const hot = this.hot;
    const mask = hot.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = hot[slot]! - 1;
      if (at === -1) return -1;
      if (this.hashes[at] === hash) {
        const id = this.ids[at]!;
        if (id.length === end - start && text.startsWith(id, start)) return at;
      }
    }
  }

  private hotAdd(hash: number, at: number): void {
    if ((this.hotCount + 1) * 2 > this.hot.length) {
      const old = this.hot;
      this.hot = new Int32Array(old.length * 2);
      this.hotCount = 0;
      for (const entry of old) if (entry !== 0) this.hotAdd(this.hashes[entry - 1]!, entry - 1);
    }
    const mask = this.hot.length - 1;
    let slot = hash & mask;
    while (this.hot[slot] !== 0) slot = (slot + 1) & mask;
    this.hot[slot] = at + 1;
    this.hotCount += 1;
  }

  private append(id: string, hash: number, bits: number): void {
    const at = this.count;
    if (at === this.hashes.length) {
      const hashes = new Int32Array(at * 2);
      hashes.set(this.hashes);
      this.hashes = hashes;
      const flags = new Uint8Array(at * 2);
      flags.set(this.flags);
      this.flags = flags;
    }
    this.ids.push(id);
    this.hashes[at] = hash;
    this.flags[at] = bits;
    this.count = at + 1;
    this.pendingChars += id.length;
    if (this.count * BLOOM_BITS_PER_ID > this.bloomMask && this.bloomMask < MAX_BLOOM_BITS - 1) this.growBloom();
  }

  // Sets the hash's bits; true when all were set already (the id may have been seen).
  private testAndSet(hash: number): boolean {
    const step = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d) | 1;
    const mask = this.bloomMask;
    const bloom = this.bloom;
    let seen = true;
    for (let i = 0; i < BLOOM_HASHES; i++) {
      const bit = (hash + Math.imul(i, step)) & mask;
      const word = bit >>> 5;
      const flag = 1 << (bit & 31);
      if ((bloom[word]! & flag) === 0) {
        seen = false;
        bloom[word] = bloom[word]! | flag;
      }
    }
    return seen;
  }

  private growBloom(): void {
    const bits = (this.bloomMask + 1) * 2;
    this.bloom = new Int32Array(bits >>> 5);
    this.bloomMask = bits - 1;
    for (let i = 0; i < this.count; i++) this.testAndSet(this.hashes[i]!);
  }

  /** Merges the repeats of suspect ids into their first occurrence. */
  private compact(): void {
    this.unmergedSuspects = 0;
    if (this.suspects.size === 0) return;
    const { ids, hashes, flags, suspects } = this;
    // A bit per hash (low bits) in front of the Set: most entries are not suspects.
    const filterBits = Math.min(1 << 24, Math.max(1024, 1 << Math.ceil(Math.log2(suspects.size * 16))));
    const filter = new Int32Array(filterBits >>> 5);
    const filterMask = filterBits - 1;
    for (const hash of suspects) filter[(hash & filterMask) >>> 5] = filter[(hash & filterMask) >>> 5]! | (1 << (hash & 31));
    // `hot` is rebuilt as the entries move down: it then holds exactly the entries written so far.
    this.hot = new Int32Array(Math.max(64, this.hot.length));
    this.hotCount = 0;
    let write = 0;
    let pendingFrom = -1;
    for (let read = 0; read < this.count; read++) {
      if (read === this.pendingFrom) pendingFrom = write;
      const hash = hashes[read]!;
      if ((filter[(hash & filterMask) >>> 5]! & (1 << (hash & 31))) !== 0 && suspects.has(hash)) {
        const id = ids[read]!;
        const first = this.hotFind(id, 0, id.length, hash);
        if (first !== -1) {
          flags[first] = flags[first]! | flags[read]!;
          continue;
        }
        if (write !== read) {
          ids[write] = id;
          hashes[write] = hash;
          flags[write] = flags[read]!;
        }
        this.hotAdd(hash, write);
        write += 1;
        continue;
      }
      if (write !== read) {
        ids[write] = ids[read]!;
        hashes[write] = hash;
        flags[write] = flags[read]!;
      }
      write += 1;
    }
    this.pendingFrom = pendingFrom === -1 ? write : pendingFrom;
    ids.length = write;
    this.count = write;
  }

  /**
   * Call after each input chunk: ids added since the last call that are slices of `chunk` keep it
   * alive, so unless they make up most of it, they are copied into one compact string.
   */
  endChunk(chunkLength: number): void {
    const from = this.pendingFrom;
    if (from < this.count && this.pendingChars * 2 < chunkLength) {
      const { ids } = this;
      const joined = ids.slice(from, this.count).join("");
      let offset = 0;
      for (let i = from; i < this.count; i++) {
        const length = ids[i]!.length;
        ids[i] = joined.slice(offset, offset + length);
        offset += length;
      }
    }
    this.pendingFrom = this.count;
    this.pendingChars = 0;
  }

  /** Number of entries (repeats not yet merged count twice). */
  get size(): number {
    return this.count;
  }

  /** Splits the ids into the three lists: any failure wins, then a pass, then a skip. */
  classify(): { passed: string[]; failed: string[]; skipped: string[] } {
    this.endChunk(Number.POSITIVE_INFINITY);
    this.compact();
    const { ids, flags, count } = this;
    let failedCount = 0;
    let passedCount = 0;
    for (let i = 0; i < count; i++) {
      const bits = flags[i]!;
      if ((bits & FAIL) !== 0) failedCount += 1;
      else if ((bits & PASS) !== 0) passedCount += 1;
    }
    // Filled in order up to their exact length, so no hole is left.
    const passed = new Array<string>(passedCount);
    const failed = new Array<string>(failedCount);
    const skipped = new Array<string>(count - failedCount - passedCount);
    let p = 0;
    let f = 0;
    let s = 0;
    for (let i = 0; i < count; i++) {
      const bits = flags[i]!;
      if ((bits & FAIL) !== 0) failed[f++] = ids[i]!;
      else if ((bits & PASS) !== 0) passed[p++] = ids[i]!;
      else skipped[s++] = ids[i]!;
    }
    return { passed, failed, skipped };
  }
}

/** Lists of ids by outcome, as the parsers and reports give them. */
export interface OutcomeIds {
  passed: readonly string[];
  failed: readonly string[];
  skipped: readonly string[];
}

/**
 * Merges outcome lists: an id failed anywhere is failed, else passed anywhere is passed, else
 * skipped; each id once, in first-seen order (failures first, then passes, then skips).
 */
export function mergeOutcomeIds(lists: readonly OutcomeIds[]): { passed: string[]; failed: string[]; skipped: string[] } {
  const table = new IdTable();
  for (const list of lists) for (const id of list.failed) table.add(id, FAIL);
  for (const list of lists) for (const id of list.passed) table.add(id, PASS);
  for (const list of lists) for (const id of list.skipped) table.add(id, SKIP);
  return table.classify();
}

/**
 * Distinct names with a value each, found by {@link hashRange} in an open-addressing table: for sets
 * of names too big for a Map to stay fast (every package of a `go test -json ./...` log).
 */
export class NameIndex<T> {
  private slots = new Int32Array(64).fill(-1);
  private hashes: number[] = [];
  private readonly names: string[] = [];
  private readonly values: T[] = [];

  /** Number of names. */
  get size(): number {
    return this.names.length;
  }

  // The last name looked up and its hash: `set` after a missed `get` does not hash the name again.
  private lastName: string | null = null;
  private lastHash = 0;

  private hashOf(name: string): number {
    if (name !== this.lastName) {
      this.lastName = name;
      this.lastHash = hashRange(name, 0, name.length);
    }
    return this.lastHash;
  }

  /** The value kept for `name`, or undefined. */
  get(name: string): T | undefined {
    const at = this.find(name, this.hashOf(name));
    return at < 0 ? undefined : this.values[at];
  }

  /** Keeps `value` for `name` (replacing the one it had). */
  set(name: string, value: T): void {
    const hash = this.hashOf(name);
    const at = this.find(name, hash);
    if (at >= 0) {
      this.values[at] = value;
      return;
    }
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== -1) slot = (slot + 1) & mask;
    this.slots[slot] = this.names.length;
    this.names.push(name);
    this.hashes.push(hash);
    this.values.push(value);
    if (this.names.length * 2 > this.slots.length) this.grow();
  }

  /** The values in the order their names were first set. */
  /** The names in the order they were first set. */
  namesInOrder(): readonly string[] {
    return this.names;
  }

  valuesInOrder(): readonly T[] {
    return this.values;
  }

  private find(name: string, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = this.slots[slot]!;
      if (at === -1) return -1;
      if (this.hashes[at] === hash && this.names[at] === name) return at;
    }
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = slots.length - 1;
    for (let at = 0; at < this.hashes.length; at++) {
      let slot = this.hashes[at]! & mask;
      while (slots[slot] !== -1) slot = (slot + 1) & mask;
      slots[slot] = at;
    }
    this.slots = slots;
  }
}
