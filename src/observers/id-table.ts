// Test ids with their outcome flags, in first-seen order, built for logs with millions of ids.
//
// A Map keyed by a million distinct ids costs about a microsecond per insert here (hashing into a big
// table misses the cache, and every key is a new string); so did a Bloom filter in front of plain
// arrays (three probes of a filter of megabytes per id, and setting every id's bits again as it grew).
// This table only appends: the id, its hash and its flags go to plain arrays, in order. Repeats are
// merged by a compaction that runs when the entries added since the last one reach the number kept
// then (at least MIN_COMPACTION), and at the end: it sorts the entries into partitions by the top bits
// of their hash (two sequential passes) and finds the repeats of each partition in a small table that
// stays in cache. The first occurrence keeps its place and takes the flags of its repeats. So each
// entry is looked at about twice over the whole input. When a compaction finds that the log repeats
// its ids (a rerun, `-count=N`), the kept entries get an index by hash until the next compaction, and
// a repeat of one of them only adds its flags (no new string, no entry). So memory stays flat in the
// input size: at most twice the distinct ids plus MIN_COMPACTION entries, and no garbage per repeat.
//
// Ids are often slices of an input chunk, and a slice keeps its whole chunk alive. `endChunk` keeps
// the slices when the chunk's new ids make up most of it (a `-rA` short summary) and copies them
// into one compact string otherwise, so what stays alive is at most about twice the ids' own text.
import type { IdList } from "../types.js";
import { findRepeats, indexByHash, isCompactionDue, withCapacity } from "./find-repeats.js";
import type { OutcomeLists, OutcomeTable } from "./id-list.js";
import { FAIL, PASS, SKIP } from "./lines.js";

// Entries the hash and flag arrays get first, doubled as they fill: most tables hold a handful of ids
// (a judged tool call, one run of a line of many), and 1,024 made 5 KB per table.
const FIRST_CAPACITY = 16;
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
export class IdTable implements OutcomeTable<string[]> {
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
  /** Entries kept by the last compaction: no id among them is there twice. */
  private merged = 0;
  /**
   * While the log repeats its ids (the last compaction found at least half of the new entries to be
   * repeats: a rerun, `-count=N`), an index of the kept entries by hash (position + 1, open
   * addressing): a repeat of one of them only adds its flags, with no new string or entry.
   */
  private known: Int32Array = NO_HASHES;
  /** First id added since the last `endChunk`, and the characters added since. */
  private pendingFrom = 0;
  private pendingChars = 0;

  /** Adds `bits` to `id` (appended; a repeat is merged into its first occurrence later). */
  add(id: string, bits: number): void {
    const hash = hashRange(id, 0, id.length);
    if (this.known === NO_HASHES || !this.addKnown(id, 0, id.length, hash, bits)) this.append(id, hash, bits);
  }

  /** Adds `bits` to the id `text.slice(start, end)`. */
  addRange(text: string, start: number, end: number, bits: number): void {
    const hash = hashRange(text, start, end);
    if (this.known === NO_HASHES || !this.addKnown(text, start, end, hash, bits)) this.append(text.slice(start, end), hash, bits);
  }

  // Adds `bits` to the kept entry holding `text.slice(start, end)`; false when `known` has none.
  private addKnown(text: string, start: number, end: number, hash: number, bits: number): boolean {
    const known = this.known;
    const mask = known.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = known[slot]! - 1;
      if (at === -1) return false;
      if (this.hashes[at] === hash) {
        const id = this.ids[at]!;
        if (id.length === end - start && text.startsWith(id, start)) {
          this.flags[at] = this.flags[at]! | bits;
          return true;
        }
      }
    }
  }

  private append(id: string, hash: number, bits: number): void {
    const at = this.count;
    if (at === this.hashes.length) {
      const size = Math.max(FIRST_CAPACITY, at * 2);
      this.hashes = withCapacity(this.hashes, size);
      this.flags = withCapacity(this.flags, size);
    }
    this.ids.push(id);
    this.hashes[at] = hash;
    this.flags[at] = bits;
    this.count = at + 1;
    this.pendingChars += id.length;
    if (isCompactionDue(this.count, this.merged)) this.compact();
  }

  /** Merges every repeat into its first occurrence and drops it, keeping the order of the rest. */
  private compact(): void {
    const n = this.count;
    if (n === this.merged) return;
    const added = n - this.merged;
    const { ids, hashes, flags } = this;
    const repeat = findRepeats(hashes, flags, n, (first, at) => ids[first] === ids[at]);
    let write = 0;
    let pendingFrom = -1;
    for (let read = 0; read < n; read++) {
      if (read === this.pendingFrom) pendingFrom = write;
      if (repeat[read] === 1) continue;
      if (write !== read) {
        ids[write] = ids[read]!;
        hashes[write] = hashes[read]!;
        flags[write] = flags[read]!;
      }
      write += 1;
    }
    this.pendingFrom = pendingFrom === -1 ? write : pendingFrom;
    ids.length = write;
    this.count = write;
    this.merged = write;
    this.known = (n - write) * 2 >= added ? indexByHash(hashes, write) : NO_HASHES;
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

  /** Splits the ids into the three lists: any failure wins, then a pass, then a skip. The table is left as it was. */
  classify(): OutcomeLists<string[]> {
    return this.split(false);
  }

  /**
   * {@link classify} for the table's last use (a parser's `end()`): the passes are moved down inside
   * the table's own array, which becomes `passed` (no second array of millions of slots at the peak),
   * and the table is left empty.
   */
  drain(): OutcomeLists<string[]> {
    return this.split(true);
  }

  private split(inPlace: boolean): OutcomeLists<string[]> {
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
    const passed = inPlace ? ids : new Array<string>(passedCount);
    const failed = new Array<string>(failedCount);
    const skipped = new Array<string>(count - failedCount - passedCount);
    let p = 0;
    let f = 0;
    let s = 0;
    // In place, a pass is written at or before the position it is read from.
    for (let i = 0; i < count; i++) {
      const bits = flags[i]!;
      if ((bits & FAIL) !== 0) failed[f++] = ids[i]!;
      else if ((bits & PASS) !== 0) passed[p++] = ids[i]!;
      else skipped[s++] = ids[i]!;
    }
    if (inPlace) {
      passed.length = passedCount;
      this.ids = [];
      this.hashes = NO_HASHES;
      this.flags = NO_FLAGS;
      this.known = NO_HASHES;
      this.count = 0;
      this.merged = 0;
      this.pendingFrom = 0;
      this.pendingChars = 0;
    }
    return { passed, failed, skipped };
  }
}

/** Lists of ids by outcome, as the parsers and reports give them (arrays or packed). */
export type OutcomeIds = OutcomeLists<IdList>;

/**
 * Merges outcome lists: an id failed anywhere is failed, else passed anywhere is passed, else
 * skipped; each id once, in first-seen order (failures first, then passes, then skips).
 */
export function mergeOutcomeIds(lists: readonly OutcomeIds[]): OutcomeLists<string[]> {
  const table = new IdTable();
  for (const list of lists) for (const id of list.failed) table.add(id, FAIL);
  for (const list of lists) for (const id of list.passed) table.add(id, PASS);
  for (const list of lists) for (const id of list.skipped) table.add(id, SKIP);
  return table.drain();
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

  /** The names in the order they were first set. */
  namesInOrder(): readonly string[] {
    return this.names;
  }

  /** The values in the order their names were first set. */
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
