import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { triagePytestLog } from "../../src/audit/triage-pytest-log.js";
import { tempDirPath } from "../support/temp-dir.js";
import { runPythonReference } from "./python-reference.js";

// Inputs where Python and JavaScript text handling differ, or where the rules interact.
const TRICKY: [string, string][] = [
  ["empty log", ""],
  ["only line breaks", "\n\r\n\r\v\f"],
  ["the three rules", "FAILED t.py::test_a - assert 1 == 2\nE   assert 1 == 2\nAssertionError: boom"],
  ["two-character removal keeps further whitespace", "E     assert 1 == 2"],
  ["tab after E", "E\t\tvalue"],
  ["ERROR lines are not rule 2", "ERROR tests/test_a.py::test_x - RuntimeError"],
  ["bare E and E-space strip to E", "E\nE \nE\t"],
  ["E followed by a letter", "Expected something"],
  ["rule order: E line with AssertionError", "E   AssertionError: x"],
  ["rule order: FAILED line with AssertionError", "FAILED t.py::a - AssertionError: x"],
  ["FAILED is case-sensitive", "failed t.py::a\nFailed t.py::b"],
  ["FAILED as a prefix of a word", "FAILEDX whatever"],
  ["duplicates stay duplicates", "FAILED a\nFAILED a\nE  x\nE  x"],
  ["leading indentation is stripped first", "    E   indented\n\tFAILED tabbed"],
  ["line ending in U+0085", "FAILED t.py::a\x85E  next line"],
  ["U+0085 right after E is a line break", "E\x85x"],
  ["line ending in \\x1c", "FAILED t.py::a\x1cE  b\x1dE  c\x1eE  d"],
  ["\\x1f is whitespace but not a line break", "E\x1fmessage\n\x1fFAILED x\x1f"],
  ["leading U+00A0 is stripped", "\xa0FAILED t.py::a\n\xa0E\xa0nbsp"],
  ["U+FEFF is not Python whitespace", "\ufeffFAILED t.py::a\nE\ufeffx\n\ufeffE  y"],
  ["U+180E is not Python whitespace", "E\u180ex\n\u180eFAILED z"],
  ["U+2028 and U+2029 break lines", "FAILED a\u2028FAILED b\u2029E  c"],
  ["\\v and \\f break lines", "FAILED a\vFAILED b\fE  c"],
  ["\\r alone and \\r\\n", "FAILED a\rFAILED b\r\nFAILED c\n\rFAILED d"],
  ["ideographic and figure spaces after E", "E\u3000x\nE\u2007y\nE\u202fz\nE\u205fw\nE\u1680v"],
  ["trailing Python-only whitespace is stripped", "FAILED a\x1f\x1d"],
  ["U+200B is not whitespace", "E\u200bx\n\u200bFAILED y"],
  ["astral characters survive", "E  \u{1F600} done\nFAILED t.py::test_\u{1F600}"],
  ["lone surrogate", "E \ud800"],
  ["assertions only", "something AssertionError here\nraise AssertionError"],
  ["errors only", "E   x\nE   y\nE   z"],
  ["assertions beat errors for the count", "E  a\nE  b\nAssertionError"],
  ["failed beats assertions for the count", "AssertionError\nAssertionError\nFAILED one"],
];

describe("triagePytestLog", () => {
  const expected = runPythonReference(TRICKY.map(([, log]) => log));

  it.each(TRICKY.map(([name, log], index) => [name, log, index] as const))("matches the Python reference: %s", (_name, log, index) => {
    expect(triagePytestLog(log)).toEqual(expected[index]);
  });

  it.each([
    ["E   assert 1 == 2", { failed: [], errors: ["  assert 1 == 2"], assertions: [], failureCount: 1 }],
    ["x\x85E\tkept", { failed: [], errors: ["kept"], assertions: [], failureCount: 1 }],
    ["\xa0FAILED a", { failed: ["FAILED a"], errors: [], assertions: [], failureCount: 1 }],
    ["\ufeffFAILED a", { failed: [], errors: [], assertions: [], failureCount: 0 }],
    ["E\x1fx\x1cAssertionError", { failed: [], errors: ["x"], assertions: ["AssertionError"], failureCount: 1 }],
    ["ERROR t.py::a\nERROR t.py::b", { failed: [], errors: [], assertions: [], failureCount: 0 }],
    [
      "E  a\nE  b\nAssertionError: c\nAssertionError: d\nAssertionError: e",
      { failed: [], errors: [" a", " b"], assertions: ["AssertionError: c", "AssertionError: d", "AssertionError: e"], failureCount: 3 },
    ],
  ])("acceptance case %j", (log, result) => {
    expect(triagePytestLog(log)).toEqual(result);
  });

  it("agrees with the Python reference on 400 random logs built from tricky characters", () => {
    const alphabet = [
      "E",
      "F",
      "FAILED",
      "AssertionError",
      "ERROR",
      " ",
      "\t",
      "\n",
      "\r",
      "\r\n",
      "\v",
      "\f",
      "\x1c",
      "\x1d",
      "\x1e",
      "\x1f",
      "\x85",
      "\xa0",
      "\u1680",
      "\u180e",
      "\u2007",
      "\u2028",
      "\u2029",
      "\u202f",
      "\u3000",
      "\ufeff",
      "\u200b",
      "x",
      "::",
    ];
    const logs = fc.sample(
      fc.array(fc.constantFrom(...alphabet), { maxLength: 30 }).map((parts) => parts.join("")),
      { numRuns: 400, seed: 7 },
    );
    const reference = runPythonReference(logs);
    expect(logs.map((log) => triagePytestLog(log))).toEqual(reference);
  });

  it("agrees with the Python reference on output real pytest printed for a failing project", () => {
    const dir = tempDirPath("triage-");
    writeFileSync(
      join(dir, "test_sample.py"),
      [
        "import pytest",
        "def test_ok():\n    assert 1 + 1 == 2",
        "def test_compare():\n    assert [1, 2, 3] == [1, 2, 4]",
        "def test_raise():\n    raise AssertionError('explicit message')",
        "@pytest.fixture\ndef broken():\n    raise RuntimeError('fixture broke')",
        "def test_error(broken):\n    pass",
        "",
      ].join("\n\n"),
    );
    const run = spawnSync("python3", ["-m", "pytest", "-p", "no:cacheprovider", "-rA", dir], { cwd: dir, encoding: "utf8" });
    expect(run.status).toBe(1);
    const log = run.stdout;
    const result = triagePytestLog(log);
    expect(result).toEqual(runPythonReference([log])[0]);
    expect(result.failed).toEqual([
      expect.stringMatching(/^FAILED test_sample\.py::test_compare - assert \[1, 2, 3\] == \[1, 2, 4\]$/),
      expect.stringMatching(/^FAILED test_sample\.py::test_raise - AssertionError: explicit message$/),
    ]);
    expect(result.failureCount).toBe(2);
    // pytest indents `E` lines; only the `E` and one space are removed, the rest of the indentation stays.
    expect(result.errors).toEqual(expect.arrayContaining([expect.stringMatching(/^ {2,}RuntimeError: fixture broke$/)]));
    expect(result.failed.some((line) => line.includes("test_error"))).toBe(false);
  });
});

describe("parsePytestLog", () => {
  it("is the deprecated alias of triagePytestLog, exported by agent-evidence/audit", async () => {
    const audit = await import("../../src/entries/audit.js");
    expect(audit.parsePytestLog).toBe(audit.triagePytestLog);
    expect(audit.triagePytestLog).toBe(triagePytestLog);
  });
});
