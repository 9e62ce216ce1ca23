// Every judging case of /work/shared/reference/tricky-cases.md (1-60, 66-67, 70-73), by number, with
// its command and output. Outputs are the short ones the reference quotes, in the runner's real shape.
import { describe, expect, it } from "vitest";

import { judge } from "../../src/evidence/judge.js";
import type { JudgeInput, JudgeResult } from "../../src/evidence/judge-types.js";
import type { Outcome } from "../../src/types.js";
import { pytestRule } from "../support/pytest-text.js";

interface Expected {
  verdict: Outcome;
  reasons: string[];
  /** Per run, in line order: outcome, and ids when the case is about ids. */
  runs: { outcome: Outcome; passed?: string[]; failed?: string[]; skipped?: string[]; baseline?: boolean }[];
}

function project(result: JudgeResult, expected: Expected): Expected {
  return {
    verdict: result.verdict,
    reasons: result.reasons,
    runs: result.runs.map((run, i) => {
      const want = expected.runs[i] ?? {};
      return {
        outcome: run.outcome,
        ...("passed" in want ? { passed: run.passed } : {}),
        ...("failed" in want ? { failed: run.failed } : {}),
        ...("skipped" in want ? { skipped: run.skipped } : {}),
        ...("baseline" in want ? { baseline: run.baseline } : {}),
      };
    }),
  };
}

const ESC = "\u001b";
const lines = (...text: string[]): string => `${text.join("\n")}\n`;
const bar = (title: string): string => pytestRule(title);
const ev = (action: string, pkg: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ Time: "2024-01-01T00:00:00Z", Action: action, Package: pkg, ...extra });

// A -q progress line as pytest prints it: one mark per test, the mark padded to the terminal's width.
const progress = (marks: string): string => `${marks.padEnd(73)}[100%]`;
const PASS_5 = lines(progress("....."), "5 passed in 0.10s");
const unknownNoRuns = (reason: string): Expected => ({ verdict: "unknown", reasons: [reason], runs: [] });
const one = (outcome: Outcome, reasons: string[], run: Partial<Expected["runs"][number]> = {}): Expected => ({
  verdict: outcome,
  reasons,
  runs: [{ outcome, ...run }],
});

const CASES: [string, JudgeInput, Expected][] = [
  // Pipelines and connectors
  [
    "1 tail masks a failing summary",
    { command: "pytest -q 2>&1 | tail -3", output: lines("1 failed, 4 passed in 0.50s"), exitCode: 0 },
    one("failed", ["tests-failed"]),
  ],
  ["2 tail, empty output", { command: "pytest -q 2>&1 | tail -3", output: "", exitCode: 0 }, one("unknown", ["masked-exit-no-summary"])],
  [
    "3 head cut the summary off",
    { command: "pytest -q 2>&1 | head -20", output: lines("...."), exitCode: 0 },
    one("unknown", ["masked-exit-no-summary"]),
  ],
  [
    "4 ; echo done keeps the summary",
    { command: "pytest -q; echo done", output: lines("1 failed in 0.10s", "done"), exitCode: 0 },
    one("failed", ["tests-failed"]),
  ],
  ["5 || true, empty output", { command: "pytest -q || true", output: "", exitCode: 0 }, one("unknown", ["masked-exit-no-summary"])],
  [
    "6 && git push fails after a passing run",
    {
      command: "pytest -q && git push",
      output: lines(progress("....."), "5 passed in 0.10s", "error: failed to push some refs"),
      exitCode: 1,
    },
    one("passed", []),
  ],
  [
    "7 pipefail exit 0 with no summary",
    { command: "set -o pipefail; pytest | tail -1", output: "", exitCode: 0 },
    one("unknown", ["no-summary"]),
  ],
  [
    "7 pipefail exit 0 with the summary",
    { command: "set -o pipefail; pytest | tail -1", output: lines("1 passed in 0.1s"), exitCode: 0 },
    one("passed", []),
  ],
  [
    "8 set -euo pipefail, exit 1, empty",
    { command: "set -euo pipefail\npytest -q | tail -1", output: "", exitCode: 1 },
    one("failed", ["runner-exit-nonzero"]),
  ],
  ["9 && echo marker alone", { command: "pytest -q && echo ALL_OK", output: lines("ALL_OK") }, one("unknown", ["no-summary"])],
  [
    "9 && echo marker under the summary",
    { command: "pytest -q && echo ALL_OK", output: lines(progress("....."), "5 passed in 0.1s", "ALL_OK") },
    one("passed", []),
  ],
  [
    "10 || echo BROKEN printed",
    { command: "pytest -q && echo OK || echo BROKEN", output: lines("BROKEN"), exitCode: 0 },
    one("failed", ["runner-exit-nonzero"]),
  ],
  [
    "11 marker after tail proves only tail",
    { command: "pytest -q 2>&1 | tail -1 && echo ALL_OK", output: lines("ALL_OK"), exitCode: 0 },
    one("unknown", ["masked-exit-no-summary"]),
  ],
  [
    "12 ruff failed, pytest never ran",
    { command: "ruff check . && pytest -q", output: lines("app.py:1:8: F401 [*] `os` imported but unused", "Found 1 error."), exitCode: 1 },
    one("unknown", ["masked-exit-no-summary"]),
  ],
  [
    "13 && echo ok after a failing run",
    {
      command: "pytest -q && echo ok",
      output: lines("F.", "FAILED tests/test_a.py::test_x - assert 1 == 2", "1 failed, 1 passed in 0.10s"),
      exitCode: 1,
    },
    one("failed", ["tests-failed"], { failed: ["tests/test_a.py::test_x"] }),
  ],
  [
    "14 cd missing",
    { command: "cd missing && pytest", output: lines("bash: line 1: cd: missing: No such file or directory"), exitCode: 1 },
    one("unknown", ["usage-error"]),
  ],
  [
    "15 tee masks like tail",
    { command: "pytest 2>&1 | tee out.log", output: lines(bar("2 failed, 10 passed in 1.00s")), exitCode: 0 },
    one("failed", ["tests-failed"]),
  ],
  [
    "16 || true inside bash -c",
    { command: 'bash -c "pytest || true"', output: "", exitCode: 0 },
    one("unknown", ["masked-exit-no-summary"]),
  ],
  ["17 background run", { command: "pytest -q &", output: lines("[1] 4242"), exitCode: 0 }, one("unknown", ["masked-exit-no-summary"])],
  // cargo is judged now: the failing summary grep kept is a failure (grep's exit 0 says nothing).
  [
    "18 cargo through grep",
    { command: 'cargo test 2>&1 | grep -E "^test result|FAILED"', output: lines("test result: FAILED. 4 passed; 1 failed"), exitCode: 0 },
    one("failed", ["tests-failed"]),
  ],
  [
    "18 cargo through grep, the whole line",
    {
      command: 'cargo test 2>&1 | grep -E "^test result|FAILED"',
      output: lines(
        "test tests::sub ... FAILED",
        "test result: FAILED. 4 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s",
      ),
      exitCode: 0,
    },
    one("failed", ["tests-failed"]),
  ],
  [
    "18 cargo through grep, a passing summary proves nothing",
    {
      command: 'cargo test 2>&1 | grep -E "^test result|FAILED"',
      output: lines("test result: ok. 5 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s"),
      exitCode: 0,
    },
    one("unknown", ["truncated"]),
  ],
  [
    "19 npm test without its package.json is not judged",
    { command: "npm test 2>&1 | grep -v PASS", output: lines("Tests: 1 failed, 3 total"), exitCode: 0 },
    unknownNoRuns("script-not-resolved"),
  ],
  [
    "20 tsc is not a test runner",
    { command: 'npx tsc --noEmit 2>&1 | tail -10; echo "EXIT=$?"', output: lines("tsc: not found", "EXIT=0"), exitCode: 0 },
    unknownNoRuns("not-a-test-command"),
  ],
  [
    "21 two runs, the first failed",
    {
      command: "pytest a -q; pytest b -q",
      output: lines(progress("F"), "1 failed in 0.1s", progress("..."), "3 passed in 0.1s"),
      exitCode: 0,
    },
    { verdict: "failed", reasons: ["tests-failed"], runs: [{ outcome: "failed" }, { outcome: "passed" }] },
  ],
  [
    "22 npm's failure banner",
    { command: "npm test 2>&1 | tail", output: lines("npm error Lifecycle script `test` failed with error:"), exitCode: 0 },
    unknownNoRuns("script-not-resolved"),
  ],
  // pytest summaries
  [
    "23 coloured summary",
    { command: "pytest --color=yes -q", output: lines(`${ESC}[31m1 failed${ESC}[0m, ${ESC}[32m4 passed${ESC}[0m in 0.5s`), exitCode: 1 },
    one("failed", ["tests-failed"]),
  ],
  [
    "24 only the final summary counts",
    { command: "pytest -q", output: lines("log line: 2 failed logins", progress("....."), "5 passed in 0.10s"), exitCode: 0 },
    one("passed", []),
  ],
  [
    "25 coverage gate",
    {
      command: "pytest -q --cov=app --cov-fail-under=90",
      output: lines(progress(".........."), "FAIL Required test coverage of 90% not reached. Total coverage: 85.00%", "10 passed in 1.20s"),
      exitCode: 1,
    },
    one("passed", []),
  ],
  [
    "26 collected 0 items",
    { command: "pytest", output: lines(bar("test session starts"), "collected 0 items", "", bar("no tests ran in 0.01s")), exitCode: 5 },
    one("unknown", ["no-tests-ran"]),
  ],
  [
    "27 -k nothing || true",
    { command: "uv run pytest -q -k nothing || true", output: lines("no tests ran in 0.01s"), exitCode: 0 },
    one("unknown", ["no-tests-ran"]),
  ],
  [
    "27 all deselected, exit 5",
    { command: "pytest -q -k nothing", output: lines("5 deselected in 0.02s"), exitCode: 5 },
    one("unknown", ["no-tests-ran"]),
  ],
  [
    "28 --collect-only",
    { command: "pytest --collect-only -q", output: lines("tests/test_a.py::test_x", "", "12 tests collected in 0.05s"), exitCode: 0 },
    one("unknown", ["collect-only"]),
  ],
  [
    "29 usage error",
    {
      command: "pytest --foo",
      output: lines("ERROR: usage: pytest [options] [file_or_dir] [file_or_dir] [...]", "pytest: error: unrecognized arguments: --foo"),
      exitCode: 4,
    },
    one("unknown", ["usage-error"]),
  ],
  [
    "30 collection error",
    { command: "pytest", output: lines("!!!!! Interrupted: 1 error during collection !!!!!", bar("1 error in 0.31s")), exitCode: 2 },
    one("failed", ["collection-error"]),
  ],
  ["31 all skipped", { command: "pytest -q", output: lines("3 skipped in 0.01s"), exitCode: 0 }, one("unknown", ["no-tests-ran"])],
  [
    "32 -x early stop",
    { command: "pytest -x -q", output: lines("...F", "!!!!! stopping after 1 failures !!!!!", "1 failed, 3 passed in 0.2s"), exitCode: 1 },
    one("failed", ["tests-failed"]),
  ],
  [
    "33 xfail is not a failure",
    { command: "pytest -q", output: lines(progress("...x"), "3 passed, 1 xfailed in 0.3s"), exitCode: 0 },
    one("passed", []),
  ],
  [
    "33 strict XPASS fails",
    {
      command: "pytest -q",
      output: lines(bar("short test summary info"), "FAILED tests/test_a.py::test_x", "1 failed, 3 passed in 0.3s"),
      exitCode: 1,
    },
    one("failed", ["tests-failed"], { failed: ["tests/test_a.py::test_x"] }),
  ],
  [
    "34 SKIPPED [1] is a count, not an id",
    {
      command: "pytest -rA tests/test_a.py",
      output: lines(
        bar("test session starts"),
        progress("tests/test_a.py .s"),
        bar("short test summary info"),
        "PASSED tests/test_a.py::test_b",
        "SKIPPED [1] tests/test_a.py:12: needs network",
        bar("1 passed, 1 skipped in 0.10s"),
      ),
      exitCode: 0,
    },
    one("passed", [], { passed: ["tests/test_a.py::test_b"], skipped: [] }),
  ],
  [
    "35 the message is not part of the id",
    {
      command: "pytest -rA",
      output: lines(
        bar("short test summary info"),
        "FAILED tests/x.py::test_y - AssertionError: expected 1 - got 2",
        bar("1 failed in 0.10s"),
      ),
      exitCode: 1,
    },
    one("failed", ["tests-failed"], { failed: ["tests/x.py::test_y"] }),
  ],
  [
    "36 an id with spaces stays whole",
    {
      command: "pytest -rA sklearn/feature_extraction/tests/test_text.py",
      output: lines(
        bar("test session starts"),
        progress("sklearn/feature_extraction/tests/test_text.py ."),
        bar("short test summary info"),
        "PASSED sklearn/feature_extraction/tests/test_text.py::test_callable_analyzer_error[file-AttributeError-'str' object has no attribute 'read'-CountVectorizer]",
        bar("1 passed in 0.10s"),
      ),
      exitCode: 0,
    },
    one("passed", [], {
      passed: [
        "sklearn/feature_extraction/tests/test_text.py::test_callable_analyzer_error[file-AttributeError-'str' object has no attribute 'read'-CountVectorizer]",
      ],
    }),
  ],
  [
    "37 clipped by the tool, no summary",
    { command: "pytest -q 2>&1 | tail -200", output: lines("....", "... [1234 characters truncated] ...", ".."), exitCode: 0 },
    one("unknown", ["truncated"]),
  ],
  [
    "38 tool timeout",
    { command: "pytest -q", output: lines("....", "Command timed out after 2m 0.0s"), exitCode: null },
    one("unknown", ["timeout"]),
  ],
  [
    "38 a failure before the timeout",
    {
      command: "pytest -v",
      output: lines("collected 4 items", "", "tests/test_a.py::test_x FAILED                    [ 25%]", "Command timed out after 2m 0.0s"),
      exitCode: null,
    },
    one("failed", ["tests-failed"], { failed: ["tests/test_a.py::test_x"] }),
  ],
  [
    "39 interrupted by the user",
    {
      command: "pytest -rA",
      output: lines(
        bar("test session starts"),
        "!!!!! KeyboardInterrupt !!!!!",
        "/repo/tests/test_a.py:7: KeyboardInterrupt",
        bar("1 passed in 2.05s"),
      ),
      exitCode: 2,
    },
    one("unknown", ["interrupted"]),
  ],
  [
    "40 passes printed, runner exit 1",
    { command: "pytest -q", output: lines("PASSED tests/test_a.py::test_a", "5 passed in 0.10s"), exitCode: 1 },
    one("unknown", ["spoof-suspect"]),
  ],
  // Go
  [
    "41 go ok + FAIL through tail",
    { command: "go test ./... | tail", output: lines("ok  \texample.com/a\t0.1s", "FAIL\texample.com/b\t0.2s"), exitCode: 0 },
    one("failed", ["tests-failed"]),
  ],
  [
    "42 go -json build failure",
    {
      command: "go test -json ./...",
      output: lines(
        JSON.stringify({ ImportPath: "example.com/b [example.com/b.test]", Action: "build-output", Output: "# example.com/b\n" }),
        JSON.stringify({ ImportPath: "example.com/b [example.com/b.test]", Action: "build-fail" }),
        ev("start", "example.com/b"),
        ev("output", "example.com/b", { Output: "FAIL\texample.com/b [build failed]\n" }),
        ev("fail", "example.com/b", { Elapsed: 0, FailedBuild: "example.com/b [example.com/b.test]" }),
      ),
      exitCode: 1,
    },
    one("failed", ["build-failure"]),
  ],
  [
    "43 go test with run and panic but no fail event",
    {
      command: "go test -json ./...",
      output: lines(
        ev("run", "example.com/w", { Test: "TestWaitOn_WithCompare" }),
        ev("output", "example.com/w", { Test: "TestWaitOn_WithCompare", Output: "panic: runtime error: index out of range\n" }),
        ev("output", "example.com/w", { Output: "FAIL\texample.com/w\t0.01s\n" }),
        ev("fail", "example.com/w", { Elapsed: 0.01 }),
      ),
      exitCode: 1,
    },
    one("failed", ["tests-failed"], { failed: ["example.com/w::TestWaitOn_WithCompare"] }),
  ],
  [
    "44 test2json timeout",
    {
      command: "go test -json -timeout 1s ./...",
      output: lines(
        ev("run", "example.com/s", { Test: "TestSlow" }),
        ev("output", "example.com/s", { Output: "panic: test timed out after 1s\n" }),
        ev("fail", "example.com/s", { Elapsed: 1.01 }),
      ),
      exitCode: 1,
    },
    one("failed", ["tests-failed"], { failed: ["example.com/s::TestSlow"] }),
  ],
  [
    "45 -json stream ends after run",
    { command: "go test -json ./...", output: lines(ev("run", "example.com/a", { Test: "TestA" })), exitCode: null },
    one("unknown", ["truncated"]),
  ],
  [
    "46 no tests to run",
    {
      command: "go test ./... -run TestNope",
      output: lines("testing: warning: no tests to run", "ok  \texample.com/pkg\t0.01s [no tests to run]"),
      exitCode: 0,
    },
    one("unknown", ["no-tests-ran"]),
  ],
  [
    "47 no test files anywhere",
    { command: "go test ./...", output: lines("?   \texample.com/cmd\t[no test files]"), exitCode: 0 },
    one("unknown", ["no-tests-ran"]),
  ],
  [
    "48 parent fails while its subtests pass",
    {
      command: "go test -json ./...",
      output: lines(
        ev("run", "example.com/m", { Test: "TestOutputWithSubtest" }),
        ev("run", "example.com/m", { Test: "TestOutputWithSubtest/sub_1" }),
        ev("pass", "example.com/m", { Test: "TestOutputWithSubtest/sub_1" }),
        ev("output", "example.com/m", { Test: "TestOutputWithSubtest", Output: "    --- FAIL: TestOutputWithSubtest (0.00s)\n" }),
        ev("fail", "example.com/m", { Test: "TestOutputWithSubtest" }),
        ev("fail", "example.com/m"),
      ),
      exitCode: 1,
    },
    one("failed", ["tests-failed"], {
      passed: ["example.com/m::TestOutputWithSubtest/sub_1"],
      failed: ["example.com/m::TestOutputWithSubtest"],
    }),
  ],
  [
    "49 a non-JSON line inside the stream",
    {
      command: "go test -json ./...",
      output: lines(
        ev("run", "example.com/m", { Test: "TestA" }),
        "|||This line is not valid test2json output.|||",
        ev("pass", "example.com/m", { Test: "TestA" }),
        ev("pass", "example.com/m"),
      ),
      exitCode: 0,
    },
    one("passed", [], { passed: ["example.com/m::TestA"] }),
  ],
  ["50 cached ok", { command: "go test ./calc", output: lines("ok  \texample.com/m/calc\t(cached)"), exitCode: 0 }, one("passed", [])],
  // Django / unittest
  [
    "51 the docstring line is not an id",
    {
      command: "python tests/runtests.py -v 2 migrations",
      output: lines(
        "test_showmigrations_no_migrations (migrations.test_commands.MigrateTests)",
        "Tests --plan output of showmigrations command without migrations ... ok",
        "",
        "-".repeat(70),
        "Ran 1 test in 0.101s",
        "",
        "OK",
      ),
      exitCode: 0,
    },
    one("passed", [], { passed: ["migrations.test_commands.MigrateTests.test_showmigrations_no_migrations"] }),
  ],
  [
    "52 output between ... and ok",
    {
      command: "python tests/runtests.py -v 2 expressions.tests.SimpleExpressionTests.test_hash",
      output: lines(
        "test_hash (expressions.tests.SimpleExpressionTests) ... Testing against Django installed in '/testbed/django'",
        "Importing application expressions",
        "Operations to perform:",
        "  Apply all migrations: admin, sites",
        "System check identified no issues (0 silenced).",
        "ok",
        "",
        "Ran 1 test in 0.002s",
        "",
        "OK",
      ),
      exitCode: 0,
    },
    one("passed", [], { passed: ["expressions.tests.SimpleExpressionTests.test_hash"] }),
  ],
  [
    "53 a subTest error has no ... ERROR line",
    {
      command: "python tests/runtests.py -v 2 expressions",
      output: lines(
        "test_order_by_multiline_sql (expressions.tests.BasicExpressionsTests) ... test_order_of_operations (expressions.tests.BasicExpressionsTests) ... ok",
        "",
        "=".repeat(70),
        "ERROR: test_order_by_multiline_sql (expressions.tests.BasicExpressionsTests) (qs=<QuerySet []>)",
        "-".repeat(70),
        "Traceback (most recent call last):",
        "TypeError: boom",
        "",
        "Ran 2 tests in 0.010s",
        "",
        "FAILED (failures=1, errors=1)",
      ),
      exitCode: 1,
    },
    one("failed", ["tests-failed"], { failed: ["expressions.tests.BasicExpressionsTests.test_order_by_multiline_sql"] }),
  ],
  [
    "54 OK (skipped=2)",
    { command: "python -m unittest", output: lines("Ran 12 tests in 1.204s", "", "OK (skipped=2)"), exitCode: 0 },
    one("passed", []),
  ],
  [
    "55 Ran 0 tests",
    { command: "python -m unittest", output: lines("Ran 0 tests in 0.000s", "", "OK"), exitCode: 0 },
    one("unknown", ["no-tests-ran"]),
  ],
  [
    "55 NO TESTS RAN",
    { command: "python -m unittest", output: lines("Ran 0 tests in 0.000s", "", "NO TESTS RAN"), exitCode: 5 },
    one("unknown", ["no-tests-ran"]),
  ],
  [
    "56 import error",
    {
      command: "python -m unittest tests.test_x",
      output: lines(
        "E",
        "=".repeat(70),
        "ERROR: test_x (unittest.loader._FailedTest)",
        "ImportError: Failed to import test module: tests.test_x",
        "ModuleNotFoundError: No module named 'foo'",
        "",
        "Ran 1 test in 0.000s",
        "",
        "FAILED (errors=1)",
      ),
      exitCode: 1,
    },
    one("failed", ["tests-failed"]),
  ],
  // Baselines and gaming
  [
    "57 a stashed run is a baseline",
    {
      command: "git stash && pytest tests/t.py; git stash pop",
      output: lines("Saved working directory and index state WIP on main: 1a2b3c4 msg", "1 failed in 0.10s"),
      exitCode: 0,
    },
    one("failed", ["tests-failed"], { baseline: true }),
  ],
  [
    "58 nothing was stashed",
    {
      command: "git stash && pytest tests/t.py; git stash pop",
      output: lines("No local changes to save", progress("."), "1 passed in 0.10s"),
      exitCode: 0,
    },
    one("passed", [], { baseline: false }),
  ],
  [
    "59 the stash failed",
    {
      command: "git stash push -- a.py new_file.py ; pytest ; git stash pop",
      output: lines(
        "error: pathspec 'new_file.py' did not match any file(s) known to git",
        "Did you forget to 'git add'?",
        bar("test session starts"),
        progress("tests/test_a.py ....."),
        bar("5 passed in 0.10s"),
      ),
      exitCode: 0,
    },
    one("passed", [], { baseline: false }),
  ],
  [
    "60 a green baseline is about the old tree",
    {
      command: "git stash && pytest t.py && git stash pop",
      output: lines("Saved working directory and index state WIP on main: 1a2b3c4 msg", progress("..."), "3 passed in 0.10s"),
      exitCode: 0,
    },
    one("passed", [], { baseline: true }),
  ],
  ["66 echo of a summary", { command: 'echo "12 passed"', output: lines("12 passed"), exitCode: 0 }, unknownNoRuns("not-a-test-command")],
  [
    "66 python -c printing a summary",
    { command: `python -c 'print("5 passed")'`, output: lines("5 passed"), exitCode: 0 },
    unknownNoRuns("not-a-test-command"),
  ],
  [
    "67 a function named pytest",
    { command: "pytest(){ echo 5 passed in 0.1s; }; pytest", output: PASS_5, exitCode: 0 },
    one("unknown", ["shadowed-runner"]),
  ],
  ["67 an alias", { command: "alias pytest=true; pytest", output: PASS_5, exitCode: 0 }, one("unknown", ["shadowed-runner"])],
  ["67 a PATH prepend", { command: "PATH=./fake:$PATH pytest", output: PASS_5, exitCode: 0 }, one("unknown", ["shadowed-runner"])],
];

const SUITE = (attrs: string, body: string): string =>
  `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" ${attrs}>${body}</testsuite></testsuites>`;
const GOOD_XML = SUITE(
  'tests="1" failures="0" errors="0" skipped="0"',
  '<testcase classname="tests.test_a" name="test_a" file="tests/test_a.py" time="0.01"/>',
);

const REPORT_CASES: [string, JudgeInput, Expected][] = [
  [
    "70 a report older than the run is stale",
    {
      command: "pytest --junitxml=junit.xml",
      output: "",
      exitCode: 0,
      reports: [{ kind: "junit", xml: GOOD_XML, mtime: "2024-01-01T00:00:00Z", startedAt: "2024-01-01T00:05:00Z" }],
    },
    one("unknown", ["no-summary"]),
  ],
  [
    "70 a stale report next to a passing summary",
    {
      command: "pytest --junitxml=junit.xml",
      output: PASS_5,
      exitCode: 0,
      reports: [{ kind: "junit", xml: GOOD_XML, mtime: "2024-01-01T00:00:00Z", startedAt: "2024-01-01T00:05:00Z" }],
    },
    one("unknown", ["report-stale"]),
  ],
  [
    "71 a report with no closing tags",
    {
      command: "pytest --junitxml=junit.xml",
      output: PASS_5,
      exitCode: 0,
      reports: [{ kind: "junit", xml: '<testsuite tests="10"><testcase name="a" classname="t">' }],
    },
    one("unknown", ["report-invalid"]),
  ],
  [
    "72 a collection error in the counts only",
    {
      command: "pytest --junitxml=junit.xml",
      output: "",
      exitCode: 2,
      reports: [{ kind: "junit", xml: SUITE('errors="1" failures="0" tests="0"', "") }],
    },
    one("failed", ["report-failed"]),
  ],
  [
    "73 a failing child wins over zero counts",
    {
      command: "go test ./... 2>&1 | go-junit-report > junit.xml",
      output: "",
      exitCode: 0,
      reports: [
        {
          kind: "junit",
          xml: SUITE('tests="0" failures="0"', '<testcase classname="pkg" name="TestMain"><failure message="exit 1"/></testcase>'),
        },
      ],
    },
    one("failed", ["report-failed"], { failed: ["pkg::TestMain"] }),
  ],
  [
    "a fresh report proves what the output does not show",
    {
      command: "pytest --junitxml=junit.xml tests/test_a.py",
      output: "",
      exitCode: 0,
      reports: [{ kind: "junit", xml: GOOD_XML, mtime: 2_000, startedAt: 1_000 }],
    },
    one("passed", [], { passed: ["tests/test_a.py::test_a"] }),
  ],
];

describe("judge: tricky cases", () => {
  it.each(CASES)("%s", (_name, input, expected) => {
    expect(project(judge(input), expected)).toEqual(expected);
  });
});

describe("judge: report files", () => {
  it.each(REPORT_CASES)("%s", (_name, input, expected) => {
    expect(project(judge(input), expected)).toEqual(expected);
  });
});
