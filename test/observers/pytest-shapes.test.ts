// pytest line shapes from public reports (tricky-cases.md) that the fixture runs cannot all print.
import { describe, expect, it } from "vitest";

import { parsePytest, parsePytestSummaryBody, splitPytestIdMessage } from "../../src/observers/index.js";

describe("final summary bodies", () => {
  it.each([
    ["1 failed, 4 passed in 0.50s", { failed: 1, passed: 4 }],
    ["1 passed in 65.00s (0:01:05)", { passed: 1 }],
    ["3 passed, 1 xfailed, 2 warnings in 0.3s", { passed: 3, xfailed: 1, warnings: 2 }],
    ["1 passed, 1 error in 0.12s", { passed: 1, errors: 1 }],
    ["2 passed, 1 rerun in 0.1s", { passed: 2, rerun: 1 }],
    ["5 passed, 3 subtests passed in 0.1s", { passed: 5, "subtests passed": 3 }],
    ["12 tests collected in 0.05s", { collected: 12 }],
    ["no tests ran in 0.01s", {}],
    ["log line: 2 failed logins", null],
    ["5 passed", null],
  ])("%s", (body, counts) => {
    expect(parsePytestSummaryBody(body)).toEqual(counts);
  });
});

describe("ids in -rA lines", () => {
  it.each([
    ["tests/x.py::test_y - AssertionError: expected 1 - got 2", "tests/x.py::test_y"],
    ["tests/x.py::test_z[a - b] - assert 0", "tests/x.py::test_z[a - b]"],
    [
      "sklearn/t.py::test_cb[file-AttributeError-'str' object has no attribute 'read'-CountVectorizer]",
      "sklearn/t.py::test_cb[file-AttributeError-'str' object has no attribute 'read'-CountVectorizer]",
    ],
  ])("%s -> %s", (text, id) => {
    expect(splitPytestIdMessage(text)).toEqual(id);
  });
});

describe("whole outputs", () => {
  it.each([
    [
      "coloured summary after ANSI stripping",
      "\x1b[31m\x1b[1m1 failed\x1b[0m, \x1b[32m4 passed\x1b[0m\x1b[31m in 0.5s\x1b[0m\n",
      { summary: { failed: 1, passed: 4 }, summaries: 1, passed: [], failed: [] },
    ],
    [
      "a summary-shaped log line before the real summary does not count",
      "log line: 2 failed logins\n5 passed in 0.10s\n",
      { summary: { passed: 5 }, summaries: 1, passed: [], failed: [] },
    ],
    [
      "an appended second summary is counted",
      "5 passed in 0.10s\n5 passed in 0.10s\n",
      { summary: { passed: 5 }, summaries: 2, passed: [], failed: [] },
    ],
    [
      "a tail-clipped -rA summary keeps its ids; SKIPPED [1] is not an id",
      "PASSED tests/a.py::test_ok\nSKIPPED [1] tests/a.py:12: needs network\nFAILED tests/a.py::test_bad - assert 0\n1 failed, 1 passed, 1 skipped in 0.1s\n",
      { summary: { failed: 1, passed: 1, skipped: 1 }, summaries: 1, passed: ["tests/a.py::test_ok"], failed: ["tests/a.py::test_bad"] },
    ],
    [
      "result lines before a section header are not summary lines",
      "PASSED tests/a.py::test_forged\n=== short test summary info ===\nPASSED tests/a.py::test_ok\n1 passed in 0.1s\n",
      { summary: { passed: 1 }, summaries: 1, passed: ["tests/a.py::test_ok"], failed: [] },
    ],
  ])("%s", (_name, text, expected) => {
    const parsed = parsePytest(text);
    expect({
      summary: parsed.summary?.counts ?? null,
      summaries: parsed.summaryCount,
      passed: parsed.passed,
      failed: parsed.failed,
    }).toEqual(expected);
  });
});
