// The one clipping rule (src/evidence/clipping.ts): the note table, the judge stream's reading of it chunk
// by chunk (which `agent-evidence run` uses), and the property that no host note inserted into a real
// passing output leaves it `passed`, through `judge`, the judge stream and the transcript readers alike.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

import { CLIPPING_NEEDLES, CLIPPING_NOTES, containsClippingNote, isClippingNoteLine } from "../../src/evidence/clipping.js";
import { createJudgeStream, judge } from "../../src/evidence/judge.js";
import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { stripAnsi } from "../../src/observers/lines.js";
import { pytestRuleFill } from "../../src/observers/pytest-start.js";
import { type CapturedRun, ensureCaptured, loadCapture } from "../support/capture.js";
import { CAPTURE_CASES } from "../support/capture-cases.js";

describe("the note table", () => {
  it.each(CLIPPING_NOTES.map((note) => [note.host, note.example, note] as const))(
    "%s: %j is a note and holds a needle",
    (_host, example, note) => {
      expect(note.pattern.test(example)).toBe(true);
      expect(CLIPPING_NEEDLES.some((needle) => example.includes(needle))).toBe(true);
      expect(isClippingNoteLine(example)).toBe(true);
      // Inline too, except the notes that are a whole line of their own (Codex's header).
      if (!note.pattern.source.startsWith("^")) expect(isClippingNoteLine(`some output ${example} more output`)).toBe(true);
    },
  );

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

// The judge stream is the one reader of the clipping rule over output (`agent-evidence run` asks it too):
// every line is read for a note, whichever run reads it, or none.
function clippingSeen(command: string, chunks: readonly string[]): boolean {
  const stream = createJudgeStream(analyzeCommand(command, { cwd: "/work/project" }), { exitCode: 0 });
  for (const chunk of chunks) stream.push(chunk);
  stream.end();
  return stream.clippingNoteSeen;
}

describe("the judge stream's clipping note, read chunk by chunk", () => {
  it.each([
    ["a marker split across chunks", ["ok\n[output tru", "ncated]\n10 passed in 0.1s\n"], true],
    ["no marker, final newline", ["10 passed", " in 0.1s\n"], false],
    ["no final newline", ["10 passed in 0.1s"], false],
    ["pytest's own truncation notice", ["E   ...Full output truncated (3 lines hidden), use '-vv' to show\n"], false],
    ["a Codex header split across chunks", ["Total output li", "nes: 12\n\n5 passed in 0.1s\n"], true],
  ])("%s", (_name, chunks, expected) => {
    for (const command of ["pytest -q", "pytest -q tests/a.py; pytest -q tests/b.py", "echo done", "npm test"])
      expect(clippingSeen(command, chunks)).toBe(expected);
  });

  // A note inside a line too long to hold (a test printed 200 KB on one line, and the host cut its middle),
  // in 64 KiB chunks: the pieces of the line that are not held are read for it too, with an overlap.
  it.each([
    ["one run (chunks parsed as they come)", "pytest -q"],
    ["two runs (line by line)", "pytest -q tests/a.py; pytest -q tests/b.py"],
    ["a script run (package-manager lines dropped first)", "npm test"],
    ["no test run", "make check"],
  ])("a note in the middle of an over-long line: %s", (_name, command) => {
    for (const before of [1_000, 65_000, 65_536 - 10, 140_000, 300_000]) {
      const output = `..  [100%]\n${"z".repeat(before)}[... 1234 characters truncated ...]${"z".repeat(70_000)}\n2 passed in 0.01s\n`;
      const chunks: string[] = [];
      for (let at = 0; at < output.length; at += 65_536) chunks.push(output.slice(at, at + 65_536));
      expect(clippingSeen(command, chunks)).toBe(true);
      expect(clippingSeen(command, [output])).toBe(true);
      expect(judge({ command, output, exitCode: 0 }).verdict).not.toBe("passed");
    }
  });

  it("a note in a package manager's own line, which the runners never read", () => {
    expect(clippingSeen("npm test", ["> pkg@1.0.0 test\n> vitest run\n\n", "npm error [output truncated]\n"])).toBe(true);
  });
});

describe("no host note inserted into a real passing output leaves it passed", () => {
  let passing: CapturedRun[] = [];
  beforeAll(async () => {
    await ensureCaptured();
    passing = CAPTURE_CASES.map((c) => loadCapture(c.name)).filter(
      (run) => judge({ command: run.line, output: run.output, exitCode: run.exitCode, cwd: run.cwd }).verdict === "passed",
    );
  });

  it("there are passing captures to attack", () => {
    expect(passing.length).toBeGreaterThan(30);
  });

  it("any note, on its own line, anywhere: judge, the judge stream's clippingNoteSeen and containsClippingNote all see it", () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(CLIPPING_NOTES.length - 1), fc.nat(), (which, noteIndex, at) => {
        const run = passing[which % passing.length];
        const note = CLIPPING_NOTES[noteIndex];
        if (run === undefined || note === undefined) throw new Error("empty table");
        const lines = run.output.split("\n");
        const position = at % (lines.length + 1);
        const output = [...lines.slice(0, position), note.example, ...lines.slice(position)].join("\n");
        const result = judge({ command: run.line, output, exitCode: run.exitCode, cwd: run.cwd });
        return result.verdict !== "passed" && clippingSeen(run.line, [output]) && containsClippingNote(output);
      }),
      { numRuns: 3_000 },
    );
  });
});

// A host that keeps the end of a long output can cut it inside a line and say nothing. Every captured
// passing output, cut at every position inside the runner's first line, must not stay passed. Three
// kinds of cut are exempt, each because it loses nothing a judge could miss:
// - one that removes only a colour code (the line's text is unchanged);
// - one that leaves a line the runner prints whole there: a pytest rule one column narrower, in an
//   output with no other rule or progress line to show the width (pytest fills a rule to the terminal's);
// - one inside another command's output before the runner's (`git stash`): the cut is then made into
//   the runner's first line instead, as a host that cut deeper would.
describe("an output cut inside the runner's first line is not passed", () => {
  let passing: CapturedRun[] = [];
  beforeAll(async () => {
    await ensureCaptured();
    passing = CAPTURE_CASES.map((c) => loadCapture(c.name)).filter(
      (run) => judge({ command: run.line, output: run.output, exitCode: run.exitCode, cwd: run.cwd }).verdict === "passed",
    );
  });

  const GIT_LINE_RE = /^(?:Saved working directory|No local changes to save|error: pathspec|HEAD is now at|Did you forget)/;
  const runnerStart = (output: string): number => {
    let at = 0;
    while (GIT_LINE_RE.test(output.slice(at, output.indexOf("\n", at)))) at = output.indexOf("\n", at) + 1;
    return at;
  };
  const otherRulesFixWidth = (output: string): boolean =>
    output
      .split("\n")
      .slice(1)
      .some((line) => pytestRuleFill(stripAnsi(line).trimEnd()) >= 2 || /\[\s*\d+%\]$/.test(stripAnsi(line).trimEnd()));

  it("there are passing captures of every runner to cut", () => {
    expect(passing.length).toBeGreaterThan(60);
    expect(new Set(passing.map((run) => run.project))).toEqual(
      new Set(["py", "app", "go", "django", "node", "vitest", "jest", "mocha", "cargo"]),
    );
  });

  it("every cut inside the first line leaves the verdict short of passed", () => {
    const passedCuts: string[] = [];
    let cuts = 0;
    for (const run of passing) {
      const from = runnerStart(run.output);
      const lineEnd = run.output.indexOf("\n", from);
      const first = run.output.slice(from, lineEnd === -1 ? undefined : lineEnd);
      for (let cut = 1; cut < first.length; cut++) {
        const left = first.slice(cut);
        if (stripAnsi(left) === stripAnsi(first)) continue;
        const visible = stripAnsi(left).trimEnd();
        if (
          pytestRuleFill(visible) > 0 &&
          visible.length === stripAnsi(first).trimEnd().length - 1 &&
          !otherRulesFixWidth(run.output.slice(from))
        )
          continue;
        cuts += 1;
        const output = run.output.slice(from + cut);
        if (judge({ command: run.line, output, exitCode: run.exitCode, cwd: run.cwd }).verdict === "passed")
          passedCuts.push(`${run.name} @${cut}: ${JSON.stringify(left.slice(0, 40))}`);
      }
    }
    expect(cuts).toBeGreaterThan(4_000);
    expect(passedCuts).toEqual([]);
  });

  it("the same outputs uncut still pass (the check reads whole lines as whole)", () => {
    for (const run of passing)
      expect(
        judge({ command: run.line, output: run.output.slice(runnerStart(run.output)), exitCode: run.exitCode, cwd: run.cwd }).verdict,
        run.name,
      ).toBe("passed");
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
