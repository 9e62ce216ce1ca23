// The judge reads a log the same way however it arrives: the same output pushed in one piece and in
// random pieces (cut inside lines, inside ids, inside ANSI codes and host notes) gives the same
// result, field by field. The logs mix pytest -rA result lines with ids that repeat at any distance
// (so the id table's compactions run between and across chunks), usage errors, ANSI colour, host
// clipping notes and start errors.
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { createJudgeStream, judge } from "../../src/evidence/judge.js";
import { analyzeCommand } from "../../src/grammar/analyze-command.js";

const COMMAND = "python -m pytest -rA tests";

const OTHER_LINES = [
  "tests/test_a.py ..F.sxX                                                  [ 58%]",
  "tests/test_a.py::test_ok PASSED                                          [  8%]",
  "----------------------------- Captured stdout call -----------------------------",
  "PASSED tests/fake.py::test_forged",
  "___________________________________ test_bad ___________________________________",
  "E       assert 1 == 2",
  "\u001b[32mPASSED\u001b[0m tests/test_c.py::test_green",
  "pytest: error: unrecognized arguments: --bogus",
  "2024-05-01 12:00:03 normalized arguments: a b",
  "... [638 lines truncated] ...",
  "Total output lines: 4210",
  "bash: pytest: command not found",
  "/usr/bin/python: No module named pytest",
  "line with a carriage return\r",
  "",
];

const idArb = fc.oneof(
  fc.integer({ min: 0, max: 40 }).map((n) => `tests/test_m.py::test_${n}`),
  fc.integer({ min: 0, max: 100_000 }).map((n) => `tests/b${n % 97}/test_p.py::TestT::test_case[param-${n}]`),
  fc.constantFrom("tests/test_a.py::test_x[caf\\xe9]", "tests/test_a.py::test_é", "tests/test_a.py::test_q[x - y]"),
);
const resultArb = fc
  .tuple(fc.constantFrom("PASSED", "FAILED", "ERROR", "XFAIL", "SKIPPED"), idArb)
  .map(([status, id]) => (status === "FAILED" || status === "ERROR" ? `${status} ${id} - AssertionError: boom` : `${status} ${id}`));
const bodyArb = fc.array(fc.oneof({ weight: 8, arbitrary: resultArb }, { weight: 1, arbitrary: fc.constantFrom(...OTHER_LINES) }), {
  maxLength: 400,
});

function logOf(body: readonly string[], ids: number): string {
  return [
    "============================= test session starts ==============================",
    "rootdir: /work/project",
    `collected ${ids} items`,
    "",
    "=========================== short test summary info ============================",
    ...body,
    `======================== 3 failed, ${ids} passed in 12.34s ========================`,
    "",
  ].join("\n");
}

function judgeInPieces(output: string, cuts: readonly number[]): unknown {
  const stream = createJudgeStream(analyzeCommand(COMMAND, { cwd: "/work/project" }), { exitCode: 1 });
  let at = 0;
  for (const cut of cuts) {
    if (at >= output.length) break;
    stream.push(output.slice(at, at + cut));
    at += cut;
  }
  stream.push(output.slice(at));
  return stream.end();
}

describe("the judge over random chunkings", () => {
  it("gives the result it gives for the whole output, field by field", () => {
    fc.assert(
      fc.property(bodyArb, fc.array(fc.integer({ min: 1, max: 3000 }), { maxLength: 60 }), (body, cuts) => {
        const output = logOf(body, body.length);
        const whole = judge({ command: COMMAND, output, exitCode: 1, cwd: "/work/project" });
        expect(judgeInPieces(output, cuts)).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps every id once, in first-seen order, across the id table's compactions", () => {
    fc.assert(
      fc.property(
        fc.array(resultArb, { minLength: 5_000, maxLength: 12_000 }),
        fc.array(fc.integer({ min: 1, max: 70_000 }), { maxLength: 40 }),
        (body, cuts) => {
          const output = logOf(body, body.length);
          const whole = judge({ command: COMMAND, output, exitCode: 1, cwd: "/work/project" });
          expect(judgeInPieces(output, cuts)).toEqual(whole);
          // The lists against a Map that merges the short summary's lines: a failure wins, then a pass, then a skip.
          const flags = new Map<string, number>();
          for (const line of body) {
            const [status = "", ...rest] = line.split(" ");
            const text = rest.join(" ");
            const id = status === "FAILED" || status === "ERROR" ? text.slice(0, text.lastIndexOf(" - AssertionError")) : text;
            const bit = status === "PASSED" ? 1 : status === "FAILED" || status === "ERROR" ? 2 : 4;
            flags.set(id, (flags.get(id) ?? 0) | bit);
          }
          const run = whole.runs[0]!;
          expect(run.failed).toEqual([...flags].filter(([, bits]) => (bits & 2) !== 0).map(([id]) => id));
          expect(run.passed).toEqual([...flags].filter(([, bits]) => (bits & 3) === 1).map(([id]) => id));
          expect(run.skipped).toEqual([...flags].filter(([, bits]) => bits === 4).map(([id]) => id));
        },
      ),
      { numRuns: 8 },
    );
  });
});
