// ByteIdTable against IdTable: the same lists for any ids, flags and chunking (strings of any code
// units, lone surrogates included; sizes past several compactions and arena blocks), and memory that
// stays at the distinct ids' bytes when the ids repeat.
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { ByteIdTable } from "../../src/observers/byte-id-table.js";
import { IdTable } from "../../src/observers/id-table.js";
import { FAIL, PASS, SKIP } from "../../src/observers/lines.js";
import type { PackedIds } from "../../src/observers/packed-ids.js";

type Op = { id: string; bits: number; viaRange: boolean };

// Any UTF-16 code unit: lone surrogates, controls, quotes and backslashes included.
const unitArb = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const idArb = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: unitArb, maxLength: 8 }),
  fc.string({ unit: "binary", maxLength: 8 }),
  fc.constantFrom("", '"', "\\", "\u0000\b\t\n\f\r\u001f\u007f", "\u2028", "\ud800", "\udfff", "\ud83d\ude00", "中::文", "t::é"),
);
const bitsArb = fc.constantFrom(PASS, FAIL, SKIP, PASS | FAIL, PASS | SKIP);
const opArb = fc.record({ id: idArb, bits: bitsArb, viaRange: fc.boolean() });

// Feeds `ops` to a table in chunks of `perChunk` lines; an id through addRange is sliced out of its
// chunk's text, where it sits between other text.
function feed(table: IdTable | ByteIdTable, ops: readonly Op[], perChunk: number, sparse: boolean): void {
  for (let at = 0; at < ops.length; at += perChunk) {
    const part = ops.slice(at, at + perChunk);
    const chunk = part.map((op) => `PASSED ${op.id}\n`).join("");
    let offset = 0;
    for (const op of part) {
      const start = offset + 7;
      if (op.viaRange) table.addRange(chunk, start, start + op.id.length, op.bits);
      else table.add(op.id, op.bits);
      offset = start + op.id.length + 1;
    }
    table.endChunk(sparse ? chunk.length * 10 : chunk.length);
  }
}

// Every way PackedIds gives its ids agrees with the strings.
function expectSameList(list: PackedIds, want: readonly string[]): void {
  expect(list.toArray()).toEqual(want);
  expect(list.length).toBe(want.length);
  expect([...list]).toEqual(want);
  for (let i = 0; i < want.length; i += Math.max(1, Math.floor(want.length / 50))) expect(list.at(i)).toBe(want[i]);
  expect(list.at(want.length)).toBeUndefined();
  const pieces = [...list.jsonPieces()];
  expect(Buffer.concat(pieces).equals(Buffer.from(JSON.stringify(want).slice(1, -1)))).toBe(true);
}

function compare(ops: readonly Op[], perChunk: number, sparse: boolean): void {
  const strings = new IdTable();
  const bytes = new ByteIdTable();
  feed(strings, ops, perChunk, sparse);
  feed(bytes, ops, perChunk, sparse);
  expect(bytes.size).toBe(strings.size);
  const want = strings.drain();
  const got = bytes.drain();
  expectSameList(got.passed, want.passed);
  expectSameList(got.failed, want.failed);
  expectSameList(got.skipped, want.skipped);
  expect(bytes.size).toBe(0);
}

describe("ByteIdTable", () => {
  it("gives IdTable's lists for any sequence of ids, flags and chunks", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 300 }), fc.integer({ min: 1, max: 40 }), fc.boolean(), (ops, perChunk, sparse) => {
        compare(ops, perChunk, sparse);
      }),
      { numRuns: 1000 },
    );
  });

  it("gives IdTable's lists across compactions and arena blocks, with repeats near and far and a rerun", () => {
    // A pool of long ids (about 2 MB of them) picked at random, each pick repeated at once or later,
    // then a rerun of the first picks (the table's index of known ids), then more picks.
    const poolArb = fc.array(idArb, { minLength: 30_000, maxLength: 30_000 });
    const pickArb = fc.record({ index: fc.nat(29_999), bits: bitsArb, viaRange: fc.boolean(), again: fc.boolean() });
    fc.assert(
      fc.property(
        poolArb,
        fc.array(pickArb, { minLength: 30_000, maxLength: 30_000 }),
        fc.integer({ min: 50, max: 3000 }),
        (pool, picks, perChunk) => {
          const ids = pool.map((id, i) => `tests/test_module_${i % 97}.py::TestThing::test_case_${i}[${id}]`);
          const ops: Op[] = [];
          for (const pick of picks) {
            const op = { id: ids[pick.index]!, bits: pick.bits, viaRange: pick.viaRange };
            ops.push(op);
            if (pick.again) ops.push({ ...op, bits: SKIP });
          }
          const rerun = ops.slice(0, 20_000).map((op) => ({ ...op, bits: PASS }));
          compare([...ops.slice(0, 25_000), ...rerun, ...ops.slice(25_000)], perChunk, perChunk % 2 === 0);
        },
      ),
      { numRuns: 3 },
    );
  });

  it("keeps an id longer than an arena block, and ids on either side of it", () => {
    const long = "x".repeat(1_500_000) + "\ud800" + "é".repeat(300_000);
    const ops: Op[] = [];
    for (let i = 0; i < 20_000; i++) ops.push({ id: `t::case_${i}`, bits: PASS, viaRange: i % 2 === 0 });
    ops.push({ id: long, bits: FAIL, viaRange: true }, { id: "t::case_7", bits: FAIL, viaRange: false });
    for (let i = 0; i < 20_000; i++) ops.push({ id: `t::after_${i}`, bits: SKIP, viaRange: true });
    ops.push({ id: long, bits: PASS, viaRange: false });
    compare(ops, 997, false);
  });

  it("holds about the distinct ids' bytes when the same ids repeat (flat in the input)", () => {
    const table = new ByteIdTable();
    let distinctBytes = 0;
    for (let i = 0; i < 1000; i++) distinctBytes += `tests/test_mod.py::test_case[param-${i}]`.length;
    for (let round = 0; round < 200; round++) {
      const text = Array.from({ length: 1000 }, (_, i) => `PASSED tests/test_mod.py::test_case[param-${i}]\n`).join("");
      let offset = 0;
      for (let i = 0; i < 1000; i++) {
        const end = text.indexOf("\n", offset);
        table.addRange(text, offset + 7, end, round === 150 && i === 7 ? FAIL : PASS);
        offset = end + 1;
      }
      table.endChunk(text.length);
      // Once the first compaction (at 4,096 entries) has found the repeats, they add no bytes; the
      // arena's first block grows by doubling, so it is at most twice the bytes it holds.
      if (round >= 4) expect(table.arenaBytes).toBeLessThanOrEqual(2 * distinctBytes);
    }
    expect(table.size).toBeLessThan(1000 + 4096 + 1);
    const { passed, failed } = table.drain();
    expect(failed.toArray()).toEqual(["tests/test_mod.py::test_case[param-7]"]);
    expect(passed).toHaveLength(999);
  });

  it("drops the bytes of repeats found by a compaction (ids that repeat far apart)", () => {
    const table = new ByteIdTable();
    // 40,000 distinct ids of 40 bytes (1.6 MB), then the same ids four more times in another order.
    const id = (i: number): string => `tests/t.py::test_${String(i).padStart(8, "0")}[p-${i % 10}]xxxxx`;
    for (let i = 0; i < 40_000; i++) table.add(id(i), PASS);
    for (let round = 1; round < 5; round++) for (let i = 0; i < 40_000; i++) table.add(id((i * 7919 + round) % 40_000), PASS);
    const { passed } = table.drain();
    expect(passed).toHaveLength(40_000);
    expect(passed.at(-1)).toBe(id(39_999));
  });
});
