// PackedIds: the ids come back as the same strings for every UTF-16 code unit (WTF-8 keeps lone
// surrogates), and the JSON pieces are JSON.stringify's bytes, in pieces of bounded size.
import { describe, expect, it } from "vitest";

import { ByteIdTable } from "../../src/observers/byte-id-table.js";
import { PASS } from "../../src/observers/lines.js";
import { PackedIds } from "../../src/observers/packed-ids.js";
import { decodeWtf8, encodeWtf8 } from "../../src/observers/wtf8.js";

// Distinct ids, so the table keeps them all in order.
function pack(ids: readonly string[]): PackedIds {
  const table = new ByteIdTable();
  for (const id of ids) table.add(id, PASS);
  return table.drain().passed;
}

function jsonOf(list: PackedIds): Buffer {
  return Buffer.concat([...list.jsonPieces()]);
}

describe("WTF-8", () => {
  it("round-trips every code unit alone, and every surrogate pair", () => {
    const out = new Uint8Array(8);
    for (let c = 0; c <= 0xffff; c++) {
      const text = String.fromCharCode(c);
      const end = encodeWtf8(text, 0, 1, out, 0);
      expect(decodeWtf8(out, 0, end)).toBe(text);
    }
    for (let high = 0xd800; high <= 0xdbff; high += 7) {
      for (let low = 0xdc00; low <= 0xdfff; low += 13) {
        const text = String.fromCharCode(high, low);
        const end = encodeWtf8(text, 0, 2, out, 0);
        expect(end).toBe(4);
        expect(Buffer.from(out.subarray(0, end)).equals(Buffer.from(text))).toBe(true);
        expect(decodeWtf8(out, 0, end)).toBe(text);
      }
    }
  });

  it("writes valid text as UTF-8, like TextEncoder", () => {
    const text = "tests/t.py::test[é-中-\u{1f600}-\u2028-\u007f]";
    const out = new Uint8Array(text.length * 3);
    const end = encodeWtf8(text, 0, text.length, out, 0);
    expect(Buffer.from(out.subarray(0, end)).equals(Buffer.from(new TextEncoder().encode(text)))).toBe(true);
  });
});

describe("PackedIds", () => {
  it.each([
    ["plain ids", ["tests/a.py::test_x", "tests/a.py::test_y[1-2]"]],
    ["the empty id", ["", "a", " "]],
    ["quotes and backslashes", ['"', "\\", 'a\\"b', '\\\\""']],
    [
      "every control character, DEL and U+2028 (not escaped)",
      [Array.from({ length: 32 }, (_, c) => String.fromCharCode(c)).join(""), "\u007f", "\u2028\u2029"],
    ],
    ["non-ASCII and astral characters", ["é", "中::文", "\u{1f600}", "a\u{10ffff}b"]],
    ["a byte order mark at the start (kept)", ["\ufeff", "\ufefftests/a.py::t"]],
    ["lone surrogates (written as lowercase \\udxxx)", ["\ud800", "\udfff", "x\udbffy", "\ude00\ud83d", "\ud83d\ud83d\ude00"]],
  ])("gives %s back as strings and as JSON.stringify's bytes", (_name, ids) => {
    const list = pack(ids);
    expect(list.toArray()).toEqual(ids);
    expect([...list]).toEqual(ids);
    expect(jsonOf(list).equals(Buffer.from(JSON.stringify(ids).slice(1, -1)))).toBe(true);
  });

  it("answers at() like Array.prototype.at", () => {
    const ids = ["a", "b", "c"];
    const list = pack(ids);
    for (const index of [0, 1, 2, 3, 100, -1, -3, -4, 1.5]) expect(list.at(index)).toBe(ids.at(index));
    expect(PackedIds.EMPTY.at(0)).toBeUndefined();
    expect(PackedIds.EMPTY.length).toBe(0);
    expect([...PackedIds.EMPTY.jsonPieces()]).toEqual([]);
  });

  it("cuts the JSON into pieces of about 64 KiB, and never keeps a piece for another", () => {
    const ids = Array.from({ length: 50_000 }, (_, i) => `tests/test_mod.py::TestThing::test_case[param-${i}]`);
    const list = pack(ids);
    const pieces = [...list.jsonPieces()];
    expect(pieces.length).toBeGreaterThan(20);
    for (const piece of pieces.slice(0, -1)) {
      expect(piece.length).toBeLessThanOrEqual(1 << 16);
      expect(piece.length).toBeGreaterThan((1 << 16) - 400);
    }
    expect(new Set(pieces.map((piece) => piece.buffer)).size).toBe(pieces.length);
    expect(Buffer.concat(pieces).equals(Buffer.from(JSON.stringify(ids).slice(1, -1)))).toBe(true);
  });

  it("gives an id whose JSON is longer than a piece a piece of its own", () => {
    const ids = ["before", "\u0001".repeat(100_000), "after"];
    const pieces = [...pack(ids).jsonPieces()];
    expect(pieces.map((piece) => piece.length)).toEqual([8, 600_003, 8]);
    expect(Buffer.concat(pieces).equals(Buffer.from(JSON.stringify(ids).slice(1, -1)))).toBe(true);
  });
});
