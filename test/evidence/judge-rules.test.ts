// The judge's rule table (src/evidence/judge-rules.ts) row by row: one run's facts that pass, and for
// each rule the one change that makes it decide. The facts are data here; the judge tests feed the
// same rules real runner output.
import { describe, expect, it } from "vitest";

import { decideRun, type RunFacts, showsWhole } from "../../src/evidence/judge-rules.js";
import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import type { MarkerKind } from "../../src/observers/types.js";
import { builtinRunners } from "../../src/runners/registry.js";

const LINE = "python -m pytest -q tests/test_a.py";
const SUMMARY = "1 passed in 0.01s";

// A pytest run that proves its target: exit 0, its own summary, the target's test passed.
function passingFacts(line = LINE): RunFacts {
  const invocation = analyzeCommand(line, { cwd: "/w" }).invocations[0];
  if (invocation === undefined) throw new Error(`no test invocation in ${line}`);
  return {
    invocation,
    attribution: { status: "trusted", runnerExit: 0, reason: "single-command" },
    definition: builtinRunners.get("pytest"),
    parsed: {
      kind: "pytest",
      passed: ["tests/test_a.py::test_one"],
      failed: [],
      skipped: [],
      summary: { counts: { passed: 1 }, line: 2, text: SUMMARY },
      summaryCount: 1,
      markers: [],
      forgeries: [],
      gates: [],
      rootdir: "/w",
      lines: 2,
    },
    lastLine: SUMMARY,
    signals: { startError: null, hostTimeout: false },
    clipped: false,
    baseline: false,
    reports: { passed: [], failed: [], skipped: [], blockers: [], failedTests: false, provesPass: false },
    notAttributable: false,
    whole: true,
  };
}

const marker = (kind: MarkerKind) => ({ kind, line: 1, detail: kind });
const noSummary = (f: RunFacts): void => {
  f.parsed.summary = null;
  f.parsed.summaryCount = 0;
  f.lastLine = "";
};
const failingExit = (f: RunFacts): void => {
  f.attribution = { status: "trusted", runnerExit: 1, reason: "single-command" };
};

interface Row {
  rule: string;
  change: (facts: RunFacts) => void;
  line?: string;
  outcome: "passed" | "failed" | "unknown";
  reasons: string[];
}

const ROWS: Row[] = [
  {
    rule: "1. a shadowed runner proves nothing",
    change: (f) => void (f.invocation.shadowed = true),
    outcome: "unknown",
    reasons: ["shadowed-runner"],
  },
  {
    rule: "1b. hidden output with the runner's printed failing status is a failure",
    change: (f) => {
      f.invocation.output = "hidden";
      f.attribution = { status: "trusted", runnerExit: 1, reason: "status-printed" };
    },
    outcome: "failed",
    reasons: ["runner-exit-nonzero"],
  },
  {
    rule: "1b. output through a transforming command",
    change: (f) => void (f.invocation.output = "transformed"),
    outcome: "unknown",
    reasons: ["output-transformed"],
  },
  {
    rule: "1b. output never shown",
    change: (f) => void (f.invocation.output = "hidden"),
    outcome: "unknown",
    reasons: ["output-not-shown"],
  },
  { rule: "2. a mode that runs no test", change: (f) => void (f.invocation.runsTests = false), outcome: "unknown", reasons: ["not-a-run"] },
  { rule: "2. --collect-only", line: `${LINE} --collect-only`, change: () => undefined, outcome: "unknown", reasons: ["collect-only"] },
  {
    rule: "2. a collect-only marker",
    change: (f) => void f.parsed.markers.push(marker("collect-only")),
    outcome: "unknown",
    reasons: ["collect-only"],
  },
  {
    rule: "3. a usage error the runner printed",
    change: (f) => void f.parsed.markers.push(marker("usage-error")),
    outcome: "unknown",
    reasons: ["usage-error"],
  },
  {
    rule: "3. a start error while the runner shows no sign of a run",
    change: (f) => {
      noSummary(f);
      f.parsed.passed = [];
      f.signals.startError = "bash: pytest: command not found";
    },
    outcome: "unknown",
    reasons: ["usage-error"],
  },
  {
    rule: "4. a failed test",
    change: (f) => {
      f.parsed.failed = ["tests/test_a.py::test_two"];
      f.parsed.summary = { counts: { passed: 1, failed: 1 }, line: 2, text: "1 failed, 1 passed in 0.01s" };
      failingExit(f);
    },
    outcome: "failed",
    reasons: ["tests-failed"],
  },
  {
    rule: "4. a collection error",
    change: (f) => void f.parsed.markers.push(marker("collection-error")),
    outcome: "failed",
    reasons: ["collection-error"],
  },
  {
    rule: "4. a build failure",
    change: (f) => void f.parsed.markers.push(marker("build-failure")),
    outcome: "failed",
    reasons: ["build-failure"],
  },
  {
    rule: "4. a failure only a report shows",
    change: (f) => void (f.reports.failedTests = true),
    outcome: "failed",
    reasons: ["report-failed"],
  },
  {
    rule: "4. no output at all and the runner's failing exit",
    change: (f) => {
      noSummary(f);
      f.parsed.passed = [];
      failingExit(f);
    },
    outcome: "failed",
    reasons: ["runner-exit-nonzero"],
  },
  {
    rule: "4. a failure in clipped output stays a failure, marked truncated",
    change: (f) => {
      f.parsed.failed = ["tests/test_a.py::test_two"];
      f.clipped = true;
    },
    outcome: "failed",
    reasons: ["tests-failed", "truncated"],
  },
  { rule: "5. clipped output", change: (f) => void (f.clipped = true), outcome: "unknown", reasons: ["truncated"] },
  {
    rule: "5. an incomplete stream",
    change: (f) => void f.parsed.markers.push(marker("incomplete")),
    outcome: "unknown",
    reasons: ["truncated"],
  },
  {
    rule: "6. the runner's timeout",
    change: (f) => void f.parsed.markers.push(marker("timeout")),
    outcome: "unknown",
    reasons: ["timeout"],
  },
  { rule: "6. the tool host's timeout", change: (f) => void (f.signals.hostTimeout = true), outcome: "unknown", reasons: ["timeout"] },
  {
    rule: "6. a `timeout` wrapper's 124",
    line: `timeout 60 ${LINE}`,
    change: (f) => void (f.attribution = { status: "trusted", runnerExit: 124, reason: "single-command" }),
    outcome: "unknown",
    reasons: ["timeout"],
  },
  {
    rule: "6. an interrupted run",
    change: (f) => void f.parsed.markers.push(marker("interrupted")),
    outcome: "unknown",
    reasons: ["interrupted"],
  },
  {
    rule: "6. the runner's internal error",
    change: (f) => void f.parsed.markers.push(marker("internal-error")),
    outcome: "unknown",
    reasons: ["internal-error"],
  },
  {
    rule: "7. nothing ran (marker)",
    change: (f) => void f.parsed.markers.push(marker("no-tests-ran")),
    outcome: "unknown",
    reasons: ["no-tests-ran"],
  },
  {
    rule: "7. a summary that counts no pass",
    change: (f) => {
      f.parsed.passed = [];
      f.parsed.summary = { counts: { deselected: 1 }, line: 2, text: "1 deselected in 0.01s" };
    },
    outcome: "unknown",
    reasons: ["no-tests-ran"],
  },
  { rule: "8. a failing status with no failure shown", change: failingExit, outcome: "unknown", reasons: ["spoof-suspect"] },
  {
    rule: "8. a failing coverage gate explains the failing status",
    change: (f) => {
      failingExit(f);
      f.parsed.gates = [{ kind: "coverage", passed: false, detail: "FAIL Required test coverage of 90% not reached" }];
    },
    outcome: "passed",
    reasons: [],
  },
  {
    rule: "8. a go result for a test that never ran",
    change: (f) => void f.parsed.forgeries.push({ kind: "result-without-run", line: 1, detail: "" }),
    outcome: "unknown",
    reasons: ["spoof-suspect"],
  },
  {
    rule: "8. a bare summary of the wrong shape",
    change: (f) => {
      noSummary(f);
      f.parsed.forgeries.push({ kind: "summary-shape-mismatch", line: 1, detail: "" });
    },
    outcome: "unknown",
    reasons: ["spoof-suspect"],
  },
  {
    rule: "8. shown whole, fewer results than the summary counts",
    change: (f) => {
      f.parsed.summary = { counts: { passed: 2 }, line: 2, text: "2 passed in 0.01s" };
      f.parsed.shownResults = 1;
    },
    outcome: "unknown",
    reasons: ["spoof-suspect"],
  },
  { rule: "9. no summary", change: noSummary, outcome: "unknown", reasons: ["no-summary"] },
  {
    rule: "9. no summary behind a masked exit",
    change: (f) => {
      noSummary(f);
      f.attribution = { status: "masked", runnerExit: null, reason: "pipe-without-pipefail" };
    },
    outcome: "unknown",
    reasons: ["masked-exit-no-summary"],
  },
  {
    rule: "9. more than one summary",
    change: (f) => void (f.parsed.summaryCount = 2),
    outcome: "unknown",
    reasons: ["multiple-summaries"],
  },
  {
    rule: "9. more passes than the summary counts",
    change: (f) => void f.parsed.forgeries.push({ kind: "ids-exceed-summary", line: 1, detail: "" }),
    outcome: "unknown",
    reasons: ["spoof-suspect"],
  },
  {
    rule: "9. a report that forbids a pass",
    change: (f) => void f.reports.blockers.push("report-stale"),
    outcome: "unknown",
    reasons: ["report-stale"],
  },
  {
    rule: "9. output that cannot be told apart from another run's",
    change: (f) => void (f.notAttributable = true),
    outcome: "unknown",
    reasons: ["output-not-attributable"],
  },
  {
    rule: "10. two targets, one no passed id covers, the runner's exit unknown",
    line: `${LINE} tests/test_b.py`,
    change: (f) => void (f.attribution = { status: "masked", runnerExit: null, reason: "pipe-without-pipefail" }),
    outcome: "unknown",
    reasons: ["target-not-proven"],
  },
  {
    rule: "10. a target the line never spells out (`$f`)",
    line: "python -m pytest -q $f",
    change: () => undefined,
    outcome: "unknown",
    reasons: ["target-not-proven"],
  },
  { rule: "10. every target covered", change: () => undefined, outcome: "passed", reasons: [] },
  {
    rule: "doubt: a changed harness undoes a pass",
    change: (f) => void (f.invocation.harnessChanged = ["conftest.py"]),
    outcome: "unknown",
    reasons: ["harness-changed"],
  },
  {
    rule: "doubt: a link outside the workspace undoes a pass",
    change: (f) => void (f.invocation.linksOutside = ["mod.py"]),
    outcome: "unknown",
    reasons: ["link-outside-workspace"],
  },
  {
    rule: "doubt: an mtime reset undoes a pass",
    change: (f) => void (f.invocation.statResets = ["mod.py"]),
    outcome: "unknown",
    reasons: ["mtime-reset"],
  },
  {
    rule: "doubt: a failure still counts through a changed harness",
    change: (f) => {
      f.invocation.harnessChanged = ["conftest.py"];
      f.parsed.failed = ["tests/test_a.py::test_two"];
    },
    outcome: "failed",
    reasons: ["tests-failed"],
  },
];

describe("decideRun: the first rule that applies decides", () => {
  it.each(ROWS)("$rule", ({ line, change, outcome, reasons }) => {
    const facts = passingFacts(line);
    change(facts);
    const decided = decideRun(facts);
    expect({ outcome: decided.outcome, reasons: decided.reasons }).toEqual({ outcome, reasons });
  });

  it("several targets, one with no visible id, exit 0: passed, the uncovered target listed", () => {
    const facts = passingFacts(`${LINE} tests/test_b.py`);
    const decided = decideRun(facts);
    expect({ outcome: decided.outcome, unprovenTargets: decided.unprovenTargets }).toEqual({
      outcome: "passed",
      unprovenTargets: ["tests/test_b.py"],
    });
  });
});

// Two lines printed: a window of 5 shows them all, a window of 1 does not.
describe("showsWhole", () => {
  it.each([
    ["pytest -q", true],
    ["pytest -q > log.txt", false],
    ["pytest -q | tail -n 5", true],
    ["pytest -q | tail -n 1", false],
  ])("%s: %s", (line, whole) => {
    const facts = passingFacts(line);
    expect(showsWhole(facts.invocation, facts.parsed)).toBe(whole);
  });
});
