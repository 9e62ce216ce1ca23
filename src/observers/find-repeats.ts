// What IdTable and ByteIdTable share, chiefly the repeat finding: both only append (an id, its hash,
// its flags) and merge repeats in a compaction. Sorting the entries into partitions by the top bits of their
// hash (two sequential passes) and finding the repeats of each partition in a small table that stays
// in cache costs about two looks at each entry; a table over all the entries missed the cache on
// every probe. Only the equality test differs between the two tables (strings or bytes), so it is a
// callback, called only on equal hashes.

/** Entries added since the last compaction that trigger the next one, at the least. */
export const MIN_COMPACTION = 4096;
// Entries per partition of a compaction: its table (two slots an entry) stays in the core's cache.
const PARTITION_SIZE = 2048;

/** A copy of `array` with room for `size` entries (the entries past `array`'s end are zero). */
export function withCapacity<T extends Int32Array | Uint32Array | Uint8Array>(array: T, size: number): T {
  const grown = new (array.constructor as new (length: number) => T)(size);
  grown.set(array.subarray(0, Math.min(array.length, size)));
  return grown;
}

/** A power of two at least twice `entries` (and at least 16). */
export function tableSize(entries: number): number {
  return Math.max(16, 1 << Math.ceil(Math.log2(entries * 2)));
}

/** Positions + 1 of the first `count` hashes, by hash (open addressing, at most half full). */
export function indexByHash(hashes: Int32Array, count: number): Int32Array {
  const index = new Int32Array(tableSize(count));
  const mask = index.length - 1;
  for (let at = 0; at < count; at++) {
    let slot = hashes[at]! & mask;
    while (index[slot] !== 0) slot = (slot + 1) & mask;
    index[slot] = at + 1;
  }
  return index;
}

/**
 * Whether a table of `count` entries, `merged` of them kept by its last compaction, is due for the
 * next: when the entries added since reach the number kept (at least {@link MIN_COMPACTION}), so each
 * entry is compacted about twice over the whole input.
 */
export function isCompactionDue(count: number, merged: number): boolean {
  return count - merged >= Math.max(MIN_COMPACTION, merged);
}

/**
 * Finds the repeats among the first `count` entries: `same(first, at)` (called only on equal hashes)
 * says whether entry `at` holds the same id as the earlier entry `first`. The first occurrence takes
 * the flags of its repeats; the result marks each repeat with 1.
 *
 * The partitions are sorted a group of at most `groupSize` entries at a time (or one partition), so
 * the sorted copy costs 8 bytes an entry of a group, not of the whole table, for one more sequential
 * pass over the hashes per group: 9% more time on 4.3 M entries in groups of 1 Mi, so IdTable (whose
 * strings dwarf the copy) sorts all at once and ByteIdTable in groups.
 */
export function findRepeats(
  hashes: Int32Array,
  flags: Uint8Array,
  count: number,
  same: (first: number, at: number) => boolean,
  groupSize = count,
): Uint8Array {
  const n = count;
  // Partitions by the hash's top bits (the tables below index by its low bits).
  const partitionBits = n > PARTITION_SIZE ? Math.ceil(Math.log2(n / PARTITION_SIZE)) : 0;
  const partitions = 1 << partitionBits;
  const shift = 32 - partitionBits;
  const partitionOf = (hash: number): number => (partitionBits === 0 ? 0 : hash >>> shift);
  const starts = new Int32Array(partitions + 1);
  for (let i = 0; i < n; i++) {
    const p = partitionOf(hashes[i]!) + 1;
    starts[p] = starts[p]! + 1;
  }
  let largest = 0;
  for (let p = 0; p < partitions; p++) {
    largest = Math.max(largest, starts[p + 1]!);
    starts[p + 1] = starts[p + 1]! + starts[p]!;
  }
  const repeat = new Uint8Array(n);
  // Open addressing over positions in `sorted` + 1 (0 is empty), at most half full.
  const table = new Int32Array(tableSize(largest));
  const groupEntries = Math.max(groupSize, largest);
  const order = new Int32Array(Math.min(n, groupEntries));
  const sorted = new Int32Array(order.length);
  for (let firstPartition = 0; firstPartition < partitions;) {
    let endPartition = firstPartition + 1;
    while (endPartition < partitions && starts[endPartition + 1]! - starts[firstPartition]! <= groupEntries) endPartition += 1;
    const base = starts[firstPartition]!;
    // Each partition's entries in input order, with their hashes beside them (read in sequence below).
    const next = starts.slice(firstPartition, endPartition);
    for (let i = 0; i < n; i++) {
      const hash = hashes[i]!;
      const p = partitionOf(hash);
      if (p < firstPartition || p >= endPartition) continue;
      const k = next[p - firstPartition]!++ - base;
      order[k] = i;
      sorted[k] = hash;
    }
    for (let p = firstPartition; p < endPartition; p++) {
      const from = starts[p]! - base;
      const to = starts[p + 1]! - base;
      if (to - from < 2) continue;
      const mask = tableSize(to - from) - 1;
      table.fill(0, 0, mask + 1);
      for (let k = from; k < to; k++) {
        const hash = sorted[k]!;
        for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
          const other = table[slot]! - 1;
          if (other === -1) {
            table[slot] = k + 1;
            break;
          }
          if (sorted[other] === hash) {
            const first = order[other]!;
            const at = order[k]!;
            if (same(first, at)) {
              flags[first] = flags[first]! | flags[at]!;
              repeat[at] = 1;
              break;
            }
          }
        }
      }
    }
    firstPartition = endPartition;
  }
  return repeat;
}
