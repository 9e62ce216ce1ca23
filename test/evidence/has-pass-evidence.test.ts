// hasPassEvidence: one target, one captured result, the judge's rules; real captured outputs first.
import { beforeAll, describe, expect, it } from "vitest";

import { hasPassEvidence } from "../../src/evidence/has-pass-evidence.js";
import { ensureCaptured, loadCapture } from "../support/capture.js";
import { pytestRule } from "../support/pytest-text.js";

beforeAll(async () => {
  await ensureCaptured();
});

// A -q output as pytest prints it: a progress line (one mark per test) before the bare summary.
const Q_PASS_5 = `${".....".padEnd(73)}[100%]\n5 passed in 0.10s\n`;
const RA_PASS = [
  pytestRule("test session starts"),
  `${"tests/test_pass.py .".padEnd(73)}[100%]`,
  pytestRule("short test summary info"),
  "PASSED tests/test_pass.py::test_param[a b-c]",
  pytestRule("1 passed in 0.01s"),
  "",
].join("\n");

describe("hasPassEvidence on real captured runs", () => {
  // [case, runner, target, expected]: the runner text and target the caller holds for that output.
  it.each([
    ["py9-q-pass", "python3 -m pytest -q", "tests/test_pass.py", true],
    ["py9-rA-pass", "python3 -m pytest -rA", "tests/test_pass.py", true],
    ["py9-q-all", "python3 -m pytest -q", "tests", false],
    ["py9-deselect-all", "python3 -m pytest -q -k nothing_matches", "tests/test_pass.py", false],
    ["py9-collect-only-q", "python3 -m pytest --collect-only -q", "tests", false],
    ["py9-usage-error", "python3 -m pytest -q --no-such-flag", "tests", false],
    ["py7-cov-gate", "/usr/bin/python3 -m pytest -q --cov=calc --cov-fail-under=100", "tests/test_pass.py", true],
    ["go-v-calc", "go test -v", "./calc", true],
    ["go-json-calc", "go test -json", "./calc", true],
    ["go-text-all", "go test", "./...", false],
    ["go-json-broken", "go test -json", "./broken", false],
    ["go-no-test-files", "go test", "./notests", false],
    ["dj-v2-basic", "/usr/bin/python3 tests/runtests.py -v 2", "basic", true],
    ["dj-dots-basic", "/usr/bin/python3 tests/runtests.py", "basic", true],
    ["dj-v2-mixed", "/usr/bin/python3 tests/runtests.py -v 2", "mixed", false],
    ["dj-v2-empty", "/usr/bin/python3 tests/runtests.py -v 2", "empty", false],
  ])("%s (%s %s) -> %s", (name, runner, target, expected) => {
    const run = loadCapture(name);
    expect(hasPassEvidence(run.exitCode, run.output, { runner, target })).toBe(expected);
  });

  it("a clipped copy of a passing output proves nothing", () => {
    const run = loadCapture("py9-q-pass");
    expect([
      hasPassEvidence(run.exitCode, run.output, { runner: "python3 -m pytest -q", target: "tests/test_pass.py" }),
      hasPassEvidence(run.exitCode, run.output, { runner: "python3 -m pytest -q", target: "tests/test_pass.py", outputTruncated: true }),
    ]).toEqual([true, false]);
  });
});

describe("hasPassEvidence rules", () => {
  it.each([
    ["a passing summary, exit 0", 0, Q_PASS_5, { runner: "python -m pytest", target: "tests/test_a.py" }, true],
    ["no target: the whole workspace", 0, Q_PASS_5, { runner: "python -m pytest" }, true],
    ["no exit status, a passing summary", null, Q_PASS_5, { runner: "python -m pytest", target: "tests/test_a.py" }, true],
    // A lone summary, with no progress mark before it: a test printed it (-s) and ended the process.
    ["attack: a lone summary", 0, "5 passed in 0.10s\n", { runner: "python -m pytest", target: "tests/test_a.py" }, false],
    ["a failing summary", 1, "1 failed, 4 passed in 0.10s\n", { runner: "python -m pytest", target: "tests/test_a.py" }, false],
    ["passes reported, runner exit 1", 1, "5 passed in 0.10s\n", { runner: "python -m pytest", target: "tests/test_a.py" }, false],
    ["all skipped", 0, "3 skipped in 0.01s\n", { runner: "pytest", target: "tests/test_a.py" }, false],
    ["exit 0 and no output", 0, "", { runner: "pytest", target: "tests/test_a.py" }, false],
    ["clipped", 0, "5 passed in 0.10s\n", { runner: "pytest", target: "tests/test_a.py", outputTruncated: true }, false],
    [
      "a clipping note in the output",
      0,
      "...\n[output truncated]\n5 passed in 0.10s\n",
      { runner: "pytest", target: "tests/test_a.py" },
      false,
    ],
    ["two summaries", 0, "5 passed in 0.10s\n5 passed in 0.10s\n", { runner: "pytest", target: "tests/test_a.py" }, false],
    [
      "a node id with spaces and brackets",
      0,
      RA_PASS,
      { runner: "python -m pytest -rA", target: "tests/test_pass.py::test_param[a b-c]" },
      true,
    ],
    [
      "cargo: a summary libtest does not print (no counts, no `running N tests`)",
      0,
      "test result: ok. 5 passed\n",
      { runner: "cargo test", target: "src/lib.rs" },
      false,
    ],
    ["an echo pretending to be a runner", 0, "5 passed in 0.10s\n", { runner: "echo", target: "5 passed" }, false],
    ["go: an ok line", 0, "ok  \texample.com/m/calc\t0.01s\n", { runner: "go test", target: "./calc" }, true],
    ["go: FAIL", 1, "FAIL\texample.com/m/calc\t0.01s\nFAIL\n", { runner: "go test", target: "./calc" }, false],
    ["unittest: OK", 0, "Ran 3 tests in 0.001s\n\nOK\n", { runner: "python -m unittest", target: "app.tests" }, true],
    ["unittest: Ran 0 tests", 0, "Ran 0 tests in 0.000s\n\nOK\n", { runner: "python -m unittest", target: "app.tests" }, false],
  ])("%s", (_name, exitCode, output, options, expected) => {
    expect(hasPassEvidence(exitCode, output, options)).toBe(expected);
  });
});
