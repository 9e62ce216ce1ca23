// Host clipping markers versus pytest's own "Full output truncated", fed whole and in odd chunks.
import { describe, expect, it } from "vitest";
import { createClippingScanner, isClippingMarkerLine } from "../../src/verdict/clipping.js";

describe("clipping markers", () => {
  it.each([
    ["[truncated]", true],
    ["[output truncated]", true],
    ["some text ... (truncated)", true],
    ["Output exceeded max output length; the rest was dropped", true],
    ["... [12,345 characters truncated] ...", true],
    ["<truncated 200 lines>", true],
    ["E       ...Full output truncated (12 lines hidden), use '-vv' to show", false],
    ["tests/test_a.py::test_truncated_name PASSED", false],
    ["10 passed in 0.10s", false],
  ])("%j -> %s", (line, clipped) => {
    expect(isClippingMarkerLine(line)).toEqual(clipped);
  });

  it.each([
    ["a marker split across chunks", ["ok\n[output tru", "ncated]\n10 passed in 0.1s\n"], { clipped: true, endsWithNewline: true }],
    ["no marker, final newline", ["10 passed", " in 0.1s\n"], { clipped: false, endsWithNewline: true }],
    ["no final newline", ["10 passed in 0.1s"], { clipped: false, endsWithNewline: false }],
    ["pytest's own truncation notice", ["E   ...Full output truncated (3 lines hidden), use '-vv' to show\n"], { clipped: false, endsWithNewline: true }],
  ])("scanner: %s", (_name, chunks, expected) => {
    const scanner = createClippingScanner();
    for (const chunk of chunks) scanner.push(chunk);
    scanner.end();
    expect({ clipped: scanner.clipped, endsWithNewline: scanner.endsWithNewline }).toEqual(expected);
  });
});
