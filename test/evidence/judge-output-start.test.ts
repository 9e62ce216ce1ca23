// Where the shown output starts: a first line that is a piece of one of the runner's lines (a host cut
// the output inside it), a whole output that shows the runner printed lines before it, and the
// `tail`/`head` window that decides which of the two a missing head means. Real captured outputs are
// cut at every position in clipping.test.ts; these are the rules one by one, with the attacks on them.
import { describe, expect, it } from "vitest";

import { judge } from "../../src/evidence/judge.js";
import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { unittestStart } from "../../src/observers/django-start.js";
import { goTextStartCut } from "../../src/observers/go-start.js";
import { pytestStart, type PytestStartFacts } from "../../src/observers/pytest-start.js";
import { pytestRule } from "../support/pytest-text.js";

const lines = (...text: string[]): string => `${text.join("\n")}\n`;
const verdictOf = (command: string, output: string, exitCode: number | null = null): [string, string[]] => {
  const result = judge({ command, output, exitCode });
  return [result.verdict, result.reasons];
};

describe("the window between the runner and the output", () => {
  it.each([
    ["go test ./... | tail -5", { lines: 5 }],
    ["go test ./... | tail -n 5", { lines: 5 }],
    ["go test ./... | tail -n5", { lines: 5 }],
    ["go test ./... | tail --lines=7", { lines: 7 }],
    ["go test ./... | head", { lines: 10 }],
    ["go test ./... 2>&1 | tail -20 | head -3", { lines: 3 }],
    ["go test ./... | tail -n +2", { lines: null }],
    ["go test ./... | head -n -2", { lines: null }],
    ["go test ./... > log 2>&1; tail -3 log", { lines: 3 }],
    ["go test ./... > log 2>&1; tail -3 log; cat log", null],
    ["go test ./... | tee log", null],
    ["go test ./...", null],
  ])("%s -> %j", (line, window) => {
    expect(analyzeCommand(line).invocations[0]?.window).toEqual(window);
  });
});

describe("an output shorter than its window is the whole output", () => {
  const twoOk = lines("ok  \texample.com/m/a\t0.01s", "ok  \texample.com/m/b\t0.01s");

  it("go ./... through a window the output did not fill: every package line is in view", () => {
    expect(verdictOf("go test ./... 2>&1 | tail -20", twoOk)).toEqual(["passed", []]);
    expect(verdictOf("go test ./... 2>&1 | head -20", twoOk)).toEqual(["passed", []]);
    expect(verdictOf("go test ./...; echo done", `${twoOk}done\n`)).toEqual(["passed", []]);
  });

  it("attack: a window the output filled may have cut a failing package above it", () => {
    expect(verdictOf("go test ./... 2>&1 | tail -2", twoOk)).toEqual(["unknown", ["target-not-proven"]]);
    expect(verdictOf("go test ./... 2>&1 | tail -n +1", twoOk)).toEqual(["unknown", ["target-not-proven"]]);
  });

  it("attack: a fake padded summary under -q, shown whole, is not pytest's (it pads only with its session header)", () => {
    const fake = lines(pytestRule("5 passed in 0.10s"));
    expect(verdictOf("python -m pytest -q tests", fake, 0)).toEqual(["unknown", ["spoof-suspect"]]);
    expect(verdictOf("python -m pytest -q tests 2>&1 | tail -5", fake)).toEqual(["unknown", ["spoof-suspect"]]);
    // With its session header the padded summary is pytest's own (no -q, or -q cancelled by addopts -v).
    expect(
      verdictOf(
        "python -m pytest -q tests",
        lines(
          pytestRule("test session starts"),
          "collected 5 items",
          "",
          `${"tests/test_a.py .....".padEnd(73)}[100%]`,
          "",
          pytestRule("5 passed in 0.10s"),
        ),
        0,
      ),
    ).toEqual(["passed", []]);
  });

  it("a -q progress line that counts fewer tests than ran lost its start, when the output is whole", () => {
    const cut = lines("......                                                                  [100%]", "10 passed in 0.02s");
    expect(verdictOf("python -m pytest -q tests", cut, 0)).toEqual(["unknown", ["truncated"]]);
    // Through a window it filled, the earlier progress lines are simply out of view.
    expect(verdictOf("python -m pytest -q tests 2>&1 | tail -2", cut)).toEqual(["passed", []]);
  });

  it("a whole go -v output whose first result has no `=== RUN` lost its head; through a filled window it is fine", () => {
    const headless = lines("--- PASS: TestAdd (0.00s)", "PASS", "ok  \texample.com/m/calc\t0.01s");
    expect(verdictOf("go test -v ./calc", headless, 0)).toEqual(["unknown", ["truncated"]]);
    expect(verdictOf("go test -v ./calc | tail -3", headless)).toEqual(["passed", []]);
  });
});

describe("a first line the runner did not print stays harmless", () => {
  it.each([
    [
      "pytest after a Python warning",
      "python -m pytest -q tests",
      lines(
        "/usr/lib/python3/dist-packages/x.py:3: DeprecationWarning: old",
        "..                                                                       [100%]",
        "2 passed in 0.01s",
      ),
    ],
    ["pytest -q -s whose test prints first", "python -m pytest -q -s tests", lines("hello from a test", "..", "2 passed in 0.01s")],
    ["go after a module download", "go test ./calc", lines("go: downloading example.com/dep v1.0.0", "ok  \texample.com/m/calc\t0.01s")],
    [
      "Django's manage.py",
      "python manage.py test app",
      lines(
        "Found 2 test(s).",
        "System check identified no issues (0 silenced).",
        "..",
        "----------------------------------------------------------------------",
        "Ran 2 tests in 0.001s",
        "",
        "OK",
      ),
    ],
  ])("%s", (_name, command, output) => {
    expect(verdictOf(command, output, 0)).toEqual(["passed", []]);
  });
});

const pytestFacts = (first: string, second = "", more: Partial<PytestStartFacts> = {}): PytestStartFacts => ({
  first,
  second,
  ruleWidth: 80,
  progressWidth: 0,
  ran: 10,
  padded: true,
  sawSessionHeader: true,
  ...more,
});

describe("pytest: pieces of its lines", () => {
  it.each([
    // Whole lines: never a cut.
    [pytestRule("test session starts"), "", null],
    [pytestRule("short test summary info"), "PASSED tests/a.py::t", null],
    [`${pytestRule("a title far too long to fit the terminal width of eighty columns, so pytest gives it a fill of one")}`, "", null],
    ["PASSED tests/test_a.py::test_x[a - b]", "PASSED tests/test_a.py::test_y", null],
    ["SKIPPED [1] tests/test_a.py:3: needs network", "", null],
    [`${"tests/test_a.py::test_x PASSED".padEnd(73)}[ 10%]`, "", null],
    ["10 passed in 0.02s", "", null],
    ["bringing up nodes...", "", null],
    ["hello from a test", "", null],
    // Pieces.
    ["\u001b[1m===".slice(1), "", "the line starts inside a colour code"],
    ["st session starts " + "=".repeat(30), "", "a rule cut inside its title or its left fill"],
    ["= test session starts " + "=".repeat(30), "", "a rule cut inside its title or its left fill"],
    [pytestRule("test session starts").slice(3), "", "a rule cut inside its title or its left fill"],
    [pytestRule("ab").slice(1), "", "a rule shorter than the run's other rules"],
    ["=".repeat(12), "", "a bare run of a rule's fill"],
    ["0%]", "", "the end of a progress mark"],
    ["]", "", "the end of a progress mark"],
    ["est_a.py::test_x PASSED                                          [ 10%]", "", "a progress line shorter than the run's others"],
    ["ASSED tests/test_a.py::test_x", "", "a result line cut inside its status word"],
    ["D tests/test_a.py::test_x", "", "a result line cut inside its status word"],
    ["[1] tests/test_a.py:3: needs network", "", "a `SKIPPED [N] path:line:` line without its status word"],
    ["tests/test_a.py::test_x", "", "the end of a node id"],
    ["param[café]", "PASSED tests/test_a.py::test_y", "a line cut before a short-summary result line"],
    ["assed in 0.02s", "", "the end of a final summary"],
    ["0.02s", "", "the end of a final summary"],
    ["ging up nodes...", "", "an xdist line cut at its start"],
    ["..", "bringing up nodes...", "an opening line cut down to dots"],
    ["atform linux -- Python 3.11.7, pytest-9.0.3", "", "a session header line cut at its start"],
  ])("%j -> %j", (first, second, cut) => {
    expect(pytestStart(pytestFacts(first, second)).cut).toBe(cut);
  });

  it("a rule one column short, with no other line to show the width, is a rule for a narrower terminal (undecidable, not a cut)", () => {
    const rule = pytestRule("generated xml file: /tmp/r.xml", "-", 100);
    expect(pytestStart(pytestFacts(rule.slice(1), "", { ruleWidth: 0 })).cut).toBeNull();
    expect(pytestStart(pytestFacts(rule.slice(1), "", { ruleWidth: 100 })).cut).toBe("a rule shorter than the run's other rules");
  });
});

describe("go: pieces of its lines", () => {
  it.each([
    ["=== RUN   TestAdd", "=== RUN   TestAdd/small", null],
    ["--- PASS: ExampleAdd (0.00s)", "PASS", null],
    ["    --- PASS: TestAdd/small (0.00s)", "", null],
    ["ok  \texample.com/m/calc\t0.01s", "", null],
    ["?   \texample.com/m/none\t[no test files]", "", null],
    ["PASS", "ok  \texample.com/m/calc\t0.01s", null],
    ["hello", "", null],
    ["N   TestAdd", "", "a `=== RUN` line cut at its start"],
    ["TestAdd", "=== RUN   TestAdd/small", "the end of a test name or status word"],
    ["SS", "ok  \texample.com/m/calc\t0.01s", "the end of a test name or status word"],
    ["  --- PASS: TestAdd/small (0.00s)", "", "a result line cut inside its indentation"],
    ["PASS: ExampleAdd (0.00s)", "", "a result line cut at its start"],
    ["ExampleAdd (0.00s)", "", "the end of a result line"],
    ["s)", "", "the end of a result line"],
    ["k  \texample.com/m/calc\t0.01s", "", "a package line cut at its start"],
    ["xample.com/m/calc\t0.01s", "", "a package line cut at its start"],
    [".01s", "", "the end of a package line"],
    ["ached)", "", "the end of a package line"],
    ["fuzz: elapsed: 12s, execs: 3400 (283/sec), new interesting: 2 (total: 4)", "", null],
    ["zz: elapsed: 0s, gathering baseline coverage: 0/2 completed", "", "a fuzz progress line cut at its start"],
    ["2 completed, now fuzzing with 1 workers", "", "a fuzz progress line cut at its start"],
  ])("%j -> %j", (first, second, cut) => {
    expect(goTextStartCut(first, second)).toBe(cut);
  });
});

describe("unittest and Django: pieces of their lines", () => {
  it.each([
    ["test_alpha (mixed.tests.PassingOnly.test_alpha) ... ok", 2, { cut: null, headMissing: null }],
    ["test_alpha (mixed.tests.PassingOnly) ... ok", 2, { cut: null, headMissing: null }],
    ["Testing against Django installed in '/usr/lib/python3/dist-packages/django'", 5, { cut: null, headMissing: null }],
    ["..", 2, { cut: null, headMissing: null }],
    ["est_alpha (mixed.tests.PassingOnly.test_alpha) ... ok", 2, { cut: "a result line cut inside the test's name", headMissing: null }],
    ["alpha (mixed.tests.PassingOnly) ... ok", 2, { cut: "a result line cut inside the test's name", headMissing: null }],
    ["(mixed.tests.PassingOnly.test_alpha) ... ok", 2, { cut: "a result line cut before its status", headMissing: null }],
    [". ok", 2, { cut: "a result line cut before its status", headMissing: null }],
    [
      "esting against Django installed in '/usr/lib/python3/dist-packages/django'",
      5,
      { cut: "a line cut at its start", headMissing: null },
    ],
    [".", 2, { cut: "1 progress marks for 2 tests", headMissing: null }],
    ["-".repeat(40), 2, { cut: "a rule shorter than unittest's", headMissing: null }],
    ["Beta has a docstring. ... ok", 2, { cut: null, headMissing: "a docstring result line without its test's id line" }],
  ])("%j -> %j", (first, ran, start) => {
    expect(unittestStart(first, "", ran)).toEqual({ ...start, summaryMismatch: null });
  });

  it("the end of Django's opening line, right before Django's next one", () => {
    expect(unittestStart("ib/python3/dist-packages/django'", "System check identified no issues (0 silenced).", 5).cut).toBe(
      "the end of Django's `Testing against` line",
    );
    expect(unittestStart("a quote: 'x'", "hello", 5).cut).toBeNull();
  });
});
