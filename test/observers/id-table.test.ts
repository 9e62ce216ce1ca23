// IdTable against a Map that does the same merge: any failure wins, then a pass, then a skip; each
// id once, first-seen order. Sizes go past the compaction thresholds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { hashRange, IdTable, mergeOutcomeIds, NameIndex } from "../../src/observers/id-table.js";
import { classifyIds, FAIL, PASS, SKIP } from "../../src/observers/lines.js";

type Op = { id: string; bits: number };

function reference(ops: readonly Op[]): ReturnType<typeof classifyIds> {
  const flags = new Map<string, number>();
  for (const { id, bits } of ops) flags.set(id, (flags.get(id) ?? 0) | bits);
  return classifyIds(flags);
}

// Feeds the ops as lines of chunks, half through addRange on the chunk and half through add.
function viaTable(ops: readonly Op[], perChunk: number): ReturnType<IdTable["classify"]> {
  const table = new IdTable();
  for (let at = 0; at < ops.length; at += perChunk) {
    const part = ops.slice(at, at + perChunk);
    const chunk = part.map((op) => `PASSED ${op.id}\n`).join("");
    let offset = 0;
    part.forEach((op, k) => {
      const start = offset + 7;
      if (k % 2 === 0) table.addRange(chunk, start, start + op.id.length, op.bits);
      else table.add(op.id, op.bits);
      offset = start + op.id.length + 1;
    });
    // Dense and sparse chunks both: the ids are most of `chunk`, or a small part of a longer one.
    table.endChunk(at % 2 === 0 ? chunk.length : chunk.length * 10);
  }
  return table.classify();
}

const bitsArb = fc.constantFrom(PASS, FAIL, SKIP, PASS | FAIL, PASS | SKIP);

describe("IdTable", () => {
  it("merges like a Map for any sequence of ids and flags", () => {
    const idArb = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("t::a", "t::b", "t::a[x y]", "t::caf\\xe9", "t::é", "中::文", ""));
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: idArb, bits: bitsArb }), { maxLength: 300 }),
        fc.integer({ min: 1, max: 40 }),
        (ops, perChunk) => {
          expect(viaTable(ops, perChunk)).toEqual(reference(ops));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("keeps first-seen order and merges repeats across a hundred thousand ids", () => {
    const ops: Op[] = [];
    for (let i = 0; i < 100_000; i++) ops.push({ id: `tests/b${i % 997}/test_m.py::test_${i}[p-${i % 7}]`, bits: PASS });
    // Teardown errors of passed tests, a rerun of a slice of them, and skips that never win.
    for (let i = 0; i < 100_000; i += 13) ops.push({ id: `tests/b${i % 997}/test_m.py::test_${i}[p-${i % 7}]`, bits: FAIL });
    for (let i = 0; i < 30_000; i++) ops.push({ id: `tests/b${i % 997}/test_m.py::test_${i}[p-${i % 7}]`, bits: PASS });
    for (let i = 0; i < 5_000; i++) ops.push({ id: `tests/b${i % 997}/test_m.py::test_${i}[p-${i % 7}]`, bits: SKIP });
    const got = viaTable(ops, 500);
    const want = reference(ops);
    expect(got.failed).toEqual(want.failed);
    expect(got.passed).toEqual(want.passed);
    expect(got.skipped).toEqual(want.skipped);
    expect(got.passed.length + got.failed.length).toBe(100_000);
  });

  it("holds one entry per id when the same ids repeat without end (flat in the input)", () => {
    const table = new IdTable();
    for (let round = 0; round < 200; round++) {
      for (let i = 0; i < 1000; i++) table.add(`pkg::Test${i}`, round === 150 && i === 7 ? FAIL : PASS);
      table.endChunk(1 << 16);
    }
    // Repeats are merged as they come once their ids are known: never more than a compaction's worth.
    expect(table.size).toBeLessThan(1000 + 4096 + 1);
    const { passed, failed } = table.classify();
    expect(failed).toEqual(["pkg::Test7"]);
    expect(passed).toHaveLength(999);
  });

  it("merges like a Map when the log repeats its ids (repeats of kept ids are merged as they come)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6000 }),
        fc.array(bitsArb, { minLength: 40_000, maxLength: 40_000 }),
        fc.integer({ min: 1, max: 700 }),
        (distinct, bits, perChunk) => {
          // The same ids over and over (a rerun, `-count=N`), some of them only later, with any flags.
          const ops = bits.map((b, i) => ({
            id: `pkg/t${(i * 7919) % distinct}::Test${i % 5 === 0 ? i % 97 : (i * 31) % distinct}`,
            bits: b,
          }));
          expect(viaTable(ops, perChunk)).toEqual(reference(ops));
        },
      ),
      { numRuns: 12 },
    );
  });

  it("returns ids equal to the text they were read from, after copying sparse chunks", () => {
    const table = new IdTable();
    const chunk = `${"x".repeat(5000)}\nPASSED tests/test_a.py::test_one[a b-c]\n${"y".repeat(5000)}\n`;
    const start = chunk.indexOf("tests/");
    table.addRange(chunk, start, chunk.indexOf("\n", start), PASS);
    table.endChunk(chunk.length);
    expect(table.classify().passed).toEqual(["tests/test_a.py::test_one[a b-c]"]);
  });

  it("drains to the same lists as classify, and is empty after", () => {
    for (const seed of [1, 2, 3]) {
      let state = seed;
      const next = (): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
      const ops: Op[] = Array.from({ length: 20_000 }, () => ({ id: `t::${next() % 5000}`, bits: [PASS, FAIL, SKIP][next() % 3]! }));
      const a = new IdTable();
      const b = new IdTable();
      for (const { id, bits } of ops) {
        a.add(id, bits);
        b.add(id, bits);
      }
      const classified = a.classify();
      // classify leaves the table as it was: asked again, it answers the same.
      expect(a.classify()).toEqual(classified);
      expect(b.drain()).toEqual(classified);
      expect(classified).toEqual(reference(ops));
      expect(b.size).toBe(0);
      expect(b.drain()).toEqual({ passed: [], failed: [], skipped: [] });
    }
  });

  it("hashes a range like the same text on its own", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (a, b, c) => {
        expect(hashRange(a + b + c, a.length, a.length + b.length)).toBe(hashRange(b, 0, b.length));
      }),
    );
  });
});

describe("mergeOutcomeIds", () => {
  it("lets a failure in any list win, then a pass, and never lists an id twice", () => {
    const merged = mergeOutcomeIds([
      { passed: ["a", "b", "a"], failed: ["c"], skipped: ["d", "b"] },
      { passed: ["c", "e"], failed: ["b"], skipped: ["f", "f"] },
    ]);
    expect(merged).toEqual({ failed: ["c", "b"], passed: ["a", "e"], skipped: ["d", "f"] });
  });
});

describe("NameIndex", () => {
  it("finds every name it was given, and only those, across growth", () => {
    const index = new NameIndex<number>();
    for (let i = 0; i < 5000; i++) index.set(`example.com/m/b${i}/pkg`, i);
    index.set("example.com/m/b7/pkg", -7);
    expect(index.size).toBe(5000);
    expect(index.get("example.com/m/b7/pkg")).toBe(-7);
    expect(index.get("example.com/m/b4999/pkg")).toBe(4999);
    expect(index.get("example.com/m/b5000/pkg")).toBeUndefined();
    expect(index.valuesInOrder()[8]).toBe(8);
  });

  it("spreads names over the low bits of the hash (the slot) even when they differ only in high bits", () => {
    // 4096 ids whose characters differ only in bit 7 (`i` is 0x69, `é` is 0xE9): plain FNV-1a would
    // give them all the same low 7 bits; the finaliser spreads them like any other ids.
    const slots = new Set<number>();
    for (let i = 0; i < 4096; i++) {
      let name = "t::test_";
      for (let bit = 0; bit < 12; bit++) name += (i >> bit) & 1 ? "é" : "i";
      slots.add(hashRange(name, 0, name.length) & 0xffff);
    }
    // 4096 names in 65536 slots: a uniform hash leaves about 3970 distinct slots.
    expect(slots.size).toBeGreaterThan(3900);
  });
});

describe("IdTable with its flags", () => {
  it("merges like the parsers do", async () => {
    const api = await import("../../src/observers/id-table.js");
    const table = new api.IdTable();
    table.add("t::a", api.IdTable.PASS);
    table.add("t::b", api.IdTable.SKIP);
    table.add("t::a", api.IdTable.FAIL);
    expect(table.classify()).toEqual({ passed: [], failed: ["t::a"], skipped: ["t::b"] });
  });
});
