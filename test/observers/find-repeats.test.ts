// findRepeats, the repeat finding IdTable and ByteIdTable share, on tables past the size it sorts at
// a time (so in several groups of partitions) and all at once, against a Map.
import { describe, expect, it } from "vitest";

import { findRepeats } from "../../src/observers/find-repeats.js";
import { hashRange } from "../../src/observers/id-table.js";

describe("findRepeats", () => {
  it("marks every later occurrence of an id and merges its flags into the first, past a million entries", () => {
    const count = 2_500_000;
    // Ids as numbers: about a third of the entries repeat an earlier id, near or far; the hash of
    // an id is hashRange of its decimal form, and ids 2k and 2k+1 share a hash (equal hashes that
    // are not the same id).
    const ids = new Int32Array(count);
    const hashes = new Int32Array(count);
    const flags = new Uint8Array(count);
    let seed = 12345;
    for (let i = 0; i < count; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) | 0;
      const pick = (seed >>> 8) % 3 === 0 && i > 0 ? ids[(seed >>> 4) % i]! : i;
      ids[i] = pick;
      const key = String(pick >> 1);
      hashes[i] = hashRange(key, 0, key.length);
      flags[i] = 1 << (i % 3);
    }
    const want = new Map<number, number>();
    const wantRepeat = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      const first = want.get(ids[i]!);
      if (first === undefined) want.set(ids[i]!, i);
      else wantRepeat[i] = 1;
    }
    // A repeat keeps its own flags; a first occurrence gets its repeats' too.
    const wantFlags = Uint8Array.from(flags);
    for (let i = 0; i < count; i++) {
      const first = want.get(ids[i]!)!;
      wantFlags[first] = wantFlags[first]! | flags[i]!;
    }
    // All at once (IdTable) and in groups of partitions (ByteIdTable).
    for (const groupSize of [count, 1 << 20, 1 << 18]) {
      const merged = Uint8Array.from(flags);
      const repeat = findRepeats(hashes, merged, count, (first, at) => ids[first] === ids[at], groupSize);
      expect(Buffer.from(repeat).equals(Buffer.from(wantRepeat))).toBe(true);
      expect(Buffer.from(merged).equals(Buffer.from(wantFlags))).toBe(true);
    }
  });
});
