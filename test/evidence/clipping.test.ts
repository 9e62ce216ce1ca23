// The one clipping rule (src/evidence/clipping.ts): the note table, the chunked scanner, and the
// property that no host note inserted into a real passing output leaves it `passed`, through `judge`,
// `agent-evidence run`'s scanner and the transcript readers alike.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { CLIPPING_NEEDLES, CLIPPING_NOTES, containsClippingNote, createClippingScanner, isClippingNoteLine } from "../../src/evidence/clipping.js";
import { judge } from "../../src/evidence/judge.js";
import { CAPTURE_CASES } from "../support/capture-cases.js";
import { ensureCaptured, loadCapture, type CapturedRun } from "../support/capture.js";

describe("the note table", () => {
  it.each(CLIPPING_NOTES.map((note) => [note.host, note.example, note] as const))("%s: %j is a note and holds a needle", (_host, example, note) => {
    expect(note.pattern.test(example)).toBe(true);
    expect(CLIPPING_NEEDLES.some((needle) => example.includes(needle))).toBe(true);
    expect(isClippingNoteLine(example)).toBe(true);
    // Inline too, except the notes that are a whole line of their own (Codex's header).
    if (!note.pattern.source.startsWith("^")) expect(isClippingNoteLine(`some output ${example} more output`)).toBe(true);
  });

  it.each([
    ["[truncated]", true],
    ["[output truncated]", true],
    ["some text ... (truncated)", true],
    ["Output exceeded max output length; the rest was dropped", true],
    ["... [12,345 characters truncated] ...", true],
    ["<truncated 200 lines>", true],
    ["E       ...Full output truncated (12 lines hidden), use '-vv' to show", false],
    ["tests/test_a.py::test_truncated_name PASSED", false],
    ["tests/test_a.py::test_output_clipped_at_limit PASSED", false],
    ["PASSED tests/test_render.py::test_omitted_fields", false],
    ["10 passed in 0.10s", false],
    ["Total output lines: many", false],
  ])("%j -> %s", (line, clipped) => {
    expect(isClippingNoteLine(line)).toEqual(clipped);
  });

  it("containsClippingNote reads every line of a tool result", () => {
    expect(containsClippingNote("a\nb\nTotal output lines: 4210\n\nc")).toBe(true);
    expect(containsClippingNote("a\nE   ...Full output truncated (3 lines hidden)\n5 passed in 0.1s")).toBe(false);
  });
});

describe("the chunked scanner (agent-evidence run)", () => {
  it.each([
    ["a marker split across chunks", ["ok\n[output tru", "ncated]\n10 passed in 0.1s\n"], { clipped: true, endsWithNewline: true }],
    ["no marker, final newline", ["10 passed", " in 0.1s\n"], { clipped: false, endsWithNewline: true }],
    ["no final newline", ["10 passed in 0.1s"], { clipped: false, endsWithNewline: false }],
    ["pytest's own truncation notice", ["E   ...Full output truncated (3 lines hidden), use '-vv' to show\n"], { clipped: false, endsWithNewline: true }],
    ["a Codex header split across chunks", ["Total output li", "nes: 12\n\n5 passed in 0.1s\n"], { clipped: true, endsWithNewline: true }],
  ])("%s", (_name, chunks, expected) => {
    const scanner = createClippingScanner();
    for (const chunk of chunks) scanner.push(chunk);
    scanner.end();
    expect({ clipped: scanner.clipped, endsWithNewline: scanner.endsWithNewline }).toEqual(expected);
  });
});

describe("no host note inserted into a real passing output leaves it passed", () => {
  let passing: CapturedRun[] = [];
  beforeAll(async () => {
    await ensureCaptured();
    passing = CAPTURE_CASES.map((c) => loadCapture(c.name)).filter((run) => judge({ command: run.line, output: run.output, exitCode: run.exitCode, cwd: run.cwd }).verdict === "passed");
  });

  it("there are passing captures to attack", () => {
    expect(passing.length).toBeGreaterThan(30);
  });

  it("any note, on its own line, anywhere: judge, run's scanner and containsClippingNote all see it", () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(CLIPPING_NOTES.length - 1), fc.nat(), (which, noteIndex, at) => {
        const run = passing[which % passing.length];
        const note = CLIPPING_NOTES[noteIndex];
        if (run === undefined || note === undefined) throw new Error("empty table");
        const lines = run.output.split("\n");
        const position = at % (lines.length + 1);
        const output = [...lines.slice(0, position), note.example, ...lines.slice(position)].join("\n");
        const result = judge({ command: run.line, output, exitCode: run.exitCode, cwd: run.cwd });
        const scanner = createClippingScanner();
        scanner.push(output);
        scanner.end();
        return result.verdict !== "passed" && scanner.clipped && containsClippingNote(output);
      }),
      { numRuns: 3_000 },
    );
  });
});

describe("a go -json stream cut inside its first event is clipped", () => {
  let streams: CapturedRun[] = [];
  beforeAll(async () => {
    await ensureCaptured();
    streams = CAPTURE_CASES.filter((c) => c.project === "go" && / -json\b/.test(c.line))
      .map((c) => loadCapture(c.name))
      .filter((run) => judge({ command: run.line, output: run.output, exitCode: run.exitCode, cwd: run.cwd }).verdict === "passed");
  });

  it("there are passing go -json captures", () => {
    expect(streams.length).toBeGreaterThan(2);
  });

  it("cutting the first line anywhere inside it never yields passed", () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (which, at) => {
        const run = streams[which % streams.length];
        if (run === undefined) throw new Error("no streams");
        const first = run.output.indexOf("\n");
        const cut = 1 + (at % Math.max(1, first - 1));
        const output = run.output.slice(cut);
        return judge({ command: run.line, output, exitCode: run.exitCode, cwd: run.cwd }).verdict !== "passed";
      }),
      { numRuns: 500 },
    );
  });
});

// A stream written to test2json's documented schema (not captured: the cut is the point of it). Its
// first line is the tail of an `output` event; everything after it would pass on its own.
it("a go -json stream whose first line is the tail of an event is truncated, not passed", () => {
  const events = [
    'ut","Package":"example.com/m","Output":"=== RUN   TestEarlier\\n"}',
    '{"Action":"run","Package":"example.com/m","Test":"TestA"}',
    '{"Action":"pass","Package":"example.com/m","Test":"TestA","Elapsed":0}',
    '{"Action":"pass","Package":"example.com/m","Elapsed":0.01}',
  ];
  const whole = judge({ command: "go test -json ./...", output: `${events.slice(1).join("\n")}\n`, exitCode: 0 });
  const cut = judge({ command: "go test -json ./...", output: `${events.join("\n")}\n`, exitCode: 0 });
  expect([whole.verdict, cut.verdict, cut.runs[0]?.reasons]).toEqual(["passed", "unknown", ["truncated"]]);
});
