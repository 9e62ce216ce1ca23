// The pytest parser reads most lines of a plain chunk in place (by their first and last characters),
// and every line of a chunk with an ANSI code through the regexes. Both readings must agree: the same
// text parsed once plain and once with an escape code in the chunk gives the same result.
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { createPytestParser } from "../../src/observers/index.js";
import type { ParsedRunOutput } from "../../src/observers/types.js";

const LINES = [
  "============================= test session starts ==============================",
  "rootdir: /work/project",
  "collected 12 items",
  "tests/test_a.py ..F.sxX                                                  [ 58%]",
  "tests/test_b.py .....                                                    [100%]",
  "tests/test_a.py::test_ok PASSED                                          [  8%]",
  "tests/test_a.py::test_bad FAILED                                         [ 16%]",
  "tests/test_a.py::test_skip SKIPPED (no network)                          [ 25%]",
  "tests/test_a.py::test_x XFAIL                                            [ 33%]",
  "tests/test_a.py::test_xp XPASS                                           [ 41%]",
  "tests/test_a.py::test_err ERROR                                          [ 50%]",
  "tests/test_a.py::test_t PASSED\t [ 60%]",
  "tests/test_a.py::test_t2 PASSED [60%]",
  "tests/test_a.py::test_nb PASSED\u00a0[ 61%]",
  "tests/test_a.py .F [ 1%]",
  "weird line ending in ]",
  "text [ %]",
  "text [ 5%]",
  "x [5%]",
  "[gw0] [ 50%] PASSED tests/test_a.py::test_ok",
  "==================================== ERRORS ====================================",
  "=================================== FAILURES ===================================",
  "==================================== PASSES ====================================",
  "___________________________________ test_bad ___________________________________",
  "____ ERROR at setup of test_err ____",
  "___ ___",
  "___  ___",
  "______",
  "___x ___",
  "___ x___",
  "__ x __",
  "___ \u2028 ___",
  "___ a\r ___",
  "----------------------------- Captured stdout call -----------------------------",
  "PASSED tests/fake.py::test_forged",
  "tests/fake.py::test_forged PASSED                                        [100%]",
  "1 passed in 0.01s",
  "------------------------------ Captured log call -------------------------------",
  "E       assert 1 == 2",
  ">       assert add(1, 2) == 4",
  "=========================== short test summary info ============================",
  "PASSED tests/test_a.py::test_ok",
  "PASSED tests/test_a.py::test_param[a - b]",
  "FAILED tests/test_a.py::test_bad - assert 1 == 2",
  "FAILED tests/test_a.py::test_p[x - y] - AssertionError: a - b",
  "FAILED tests/test_a.py::test_q[x - y - z]",
  "FAILED tests/test_a.py::test_r - ",
  "ERROR tests/test_a.py::test_err - RuntimeError: boom",
  "ERROR tests/test_a.py::test_ok - teardown - failed",
  "FAILED [x - y] - z",
  "SKIPPED [1] tests/test_a.py:3: no network",
  "XFAIL tests/test_a.py::test_x - reason",
  "XPASS tests/test_a.py::test_xp reason here",
  "=================== 2 failed, 3 passed, 1 error in 0.12s ===================",
  "3 passed in 0.50s",
  "",
  "   ",
  // A test's own log lines, which -q prints before any `collected` line (the header section).
  "2024-05-01 12:00:00,000 INFO worker.pool: processed item 0123456789 in 0.42 ms, queue depth 17",
  "2024-05-01 12:00:01,000 DEBUG worker: 3 passed in 0.5s",
  "2024-05-01 12:00:02 done (ok)",
  "01_test.py ..F.s",
  "01_test.py ..F.s ok",
  "7 passed",
  "12 items =",
  "3 -",
  "4 _",
  "5 ]",
  "processed 12 items in 3 batches",
  "debug: rootdir: /elsewhere",
  "info collected 3 items",
  "worker gw0 [2]",
  "zz\u00a0",
  "no tests ran in 0.01s",
  "rootdir: /work/other",
  "collecting ... collected 3 items",
  "gw0 [2] / gw1 [2]",
  "[gw0] [ 50%] PASSED tests/test_b.py::test_x",
  // A usage error the chunk check sends to the regexes, and a line that only looks like one to that check.
  "pytest: error: unrecognized arguments: --bogus",
  "2024-05-01 12:00:03 normalized arguments: a b",
];

function parse(lines: readonly string[], chunkSize: number, ansi: boolean): ParsedRunOutput {
  // The escape code stands on a line of its own, which the regexes read as an empty line.
  const text = `${lines.join("\n")}\n${ansi ? "\u001b[0m" : ""}\n`;
  const parser = createPytestParser();
  for (let at = 0; at < text.length; at += chunkSize) parser.push(text.slice(at, at + chunkSize));
  return parser.end();
}

describe("pytest parser: in-place reading agrees with the regexes", () => {
  it("on random sequences of -rA, -v and progress lines", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...LINES), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 4096 }),
        (lines, chunkSize) => {
          const plain = parse(lines, chunkSize, false);
          // One chunk holding an escape code anywhere makes the whole chunk take the regex path.
          const slow = parse(lines, Number.MAX_SAFE_INTEGER, true);
          expect(plain.passed).toEqual(slow.passed);
          expect(plain.failed).toEqual(slow.failed);
          expect(plain.skipped).toEqual(slow.skipped);
          expect(plain.summary).toEqual(slow.summary);
          expect(plain.summaryCount).toEqual(slow.summaryCount);
          expect(plain.markers).toEqual(slow.markers);
          expect(plain.forgeries).toEqual(slow.forgeries);
          expect(plain.lines).toEqual(slow.lines);
          expect(plain.shownResults).toEqual(slow.shownResults);
          expect(plain.start).toEqual(slow.start);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("reads a section rule of underscores as the end of captured output", () => {
    const lines = [
      "==================================== PASSES ====================================",
      "___________________________________ test_ok ___________________________________",
      "----------------------------- Captured stdout call -----------------------------",
      "PASSED tests/fake.py::test_forged",
      "___________________________________ test_two __________________________________",
      "tests/test_a.py::test_two PASSED                                         [100%]",
      "=========================== short test summary info ============================",
      "PASSED tests/test_a.py::test_ok",
      "1 passed in 0.01s",
    ];
    const parsed = parse(lines, Number.MAX_SAFE_INTEGER, false);
    expect(parsed.forgeries.map((f) => f.kind)).toEqual(["passed-in-captured-output"]);
    expect(parsed.passed).toEqual(["tests/test_a.py::test_ok"]);
  });

  it("takes -v result ids whatever the spacing before the percentage", () => {
    const lines = [
      "collected 3 items",
      "",
      "t.py::a PASSED\t [ 33%]",
      "t.py::b FAILED [66%]",
      "t.py::c SKIPPED (why)       [100%]",
      "t.py .F.    [100%]",
    ];
    const parsed = parse(lines, 7, false);
    expect(parsed.passed).toEqual(["t.py::a"]);
    expect(parsed.failed).toEqual(["t.py::b"]);
    expect(parsed.skipped).toEqual(["t.py::c"]);
  });
});
