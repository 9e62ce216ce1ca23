// The one list of reason codes: every code the library puts in a `reasons` list or an exit
// attribution, with what it means and an example. The docs tables are checked against it
// (test/docs/reason-codes.test.ts) and each code is produced by a test (test/reasons.test.ts).

/** Where a reason code can appear. */
export type ReasonScope =
  /** A run's reasons (`RunEvidence.reasons`, `VerificationRecord.reasons`), and so the line's and the verdict's. */
  | "run"
  /** A judged line's reasons only (`JudgeResult.reasons`), and the verdict's. */
  | "line"
  /** A ledger record's reasons only (`VerificationRecord.reasons`), added to its run's. */
  | "record"
  /** `verdict.json`'s reasons only (`agent-evidence run`). */
  | "verdict"
  /** A transcript run's reasons only (`SessionRun.reasons`, the audit). */
  | "session";

/** What a reason code means, and one input that produces it. */
export interface ReasonDefinition {
  scope: ReasonScope;
  /** One line: why the outcome is not `passed`. */
  meaning: string;
  /** A command line, output or report that produces the code. */
  example: string;
}

/** Every reason code, with its definition (the docs tables in docs/runners.md, docs/verdict.md and docs/audit.md list the same). */
export const REASON_DEFINITIONS = {
  // The line as a whole (judge).
  "not-a-test-command": { scope: "line", meaning: "the line runs no recognised test runner", example: 'echo "12 passed"' },
  "opaque-command": { scope: "line", meaning: "the shell grammar cannot read the line", example: "pytest -q 'unterminated" },
  "report-not-attributed": {
    scope: "line",
    meaning: "a report was given that no run of the line wrote",
    example: "a JUnit report for `pytest a; pytest b` with no matching --junitxml",
  },
  // One run (judge): the rule table, in order.
  "shadowed-runner": {
    scope: "run",
    meaning: "the runner may not be the real one, or not on the workspace's code",
    example: "pytest(){ echo 5 passed; }; pytest",
  },
  "output-transformed": {
    scope: "run",
    meaning: "a command that can rewrite text stands between the runner and the output",
    example: "pytest 2>&1 | sed 's/failed/passed/'",
  },
  "output-not-shown": {
    scope: "run",
    meaning: "the runner's output never reaches the output shown",
    example: 'pytest > /dev/null; echo "3 passed in 0.1s"',
  },
  "collect-only": { scope: "run", meaning: "the run only collected tests", example: "pytest --collect-only -q" },
  "not-a-run": { scope: "run", meaning: "a mode of the runner that runs no test", example: "pytest --version" },
  "usage-error": { scope: "run", meaning: "the runner never got to run tests (a usage or start error)", example: "pytest --foo (exit 4)" },
  "tests-failed": { scope: "run", meaning: "the runner reported failing tests", example: "1 failed, 4 passed in 0.50s" },
  "collection-error": {
    scope: "run",
    meaning: "the runner could not collect its tests",
    example: "!!! Interrupted: 1 error during collection !!!",
  },
  "build-failure": { scope: "run", meaning: "the tests did not build", example: "FAIL example.com/m/broken [build failed]" },
  "runner-exit-nonzero": {
    scope: "run",
    meaning: "no failure shown, but the runner's own status is a failure",
    example: "set -euo pipefail; pytest -q | tail -1, empty output, exit 1",
  },
  "report-failed": { scope: "run", meaning: "a JUnit report shows failures", example: 'a report with <failure> or errors="1"' },
  truncated: {
    scope: "run",
    meaning: "the output is not the runner's whole output (clipped, cut, or its head lost)",
    example: "outputTruncated: true; a host's [output truncated] note",
  },
  timeout: { scope: "run", meaning: "the run was killed by a timeout", example: "timeout 1 pytest (exit 124)" },
  interrupted: { scope: "run", meaning: "the run was interrupted", example: "!!! KeyboardInterrupt !!!" },
  "internal-error": { scope: "run", meaning: "the runner crashed", example: "pytest INTERNALERROR> (exit 3)" },
  "no-tests-ran": { scope: "run", meaning: "the run selected or ran no test", example: "no tests ran in 0.01s (exit 5)" },
  "spoof-suspect": {
    scope: "run",
    meaning: "the output imitates the runner: a pass its own status or shape contradicts",
    example: "5 passed in 0.10s with the runner's own exit 1",
  },
  "masked-exit-no-summary": {
    scope: "run",
    meaning: "no summary shown and the runner's status is hidden",
    example: "pytest -q 2>&1 | tail -3 with empty output",
  },
  "no-summary": {
    scope: "run",
    meaning: "the runner's status is known but no summary is shown: a status alone proves nothing",
    example: "set -o pipefail; pytest | tail -1 printing nothing, exit 0",
  },
  "multiple-summaries": { scope: "run", meaning: "one run shows two final summaries", example: "a replayed or appended log" },
  "target-not-proven": {
    scope: "run",
    meaning: "a target no printed id or summary proves",
    example: "pytest -q tests/a.py tests/b.py | tail -1",
  },
  "report-stale": { scope: "run", meaning: "a JUnit report older than the run", example: "a report older than --started-at" },
  "report-invalid": { scope: "run", meaning: "a JUnit report that cannot be read", example: "a truncated JUnit report" },
  "report-count-mismatch": {
    scope: "run",
    meaning: "a JUnit suite's counts disagree with its test cases",
    example: 'tests="3" with one <testcase>',
  },
  "output-not-attributable": {
    scope: "run",
    meaning: "the run's share of the output cannot be told apart from another run's",
    example: "for f in a b; do pytest $f; done; pytest c",
  },
  "harness-changed": {
    scope: "run",
    meaning: "live tools: a harness file of the runner changed since the session began",
    example: "a conftest.py with pytest_runtest_makereport written by the agent",
  },
  "link-outside-workspace": {
    scope: "run",
    meaning: "live tools: a link in the workspace points outside it",
    example: "ln -sf /tmp/good_mod.py mod.py",
  },
  "mtime-reset": {
    scope: "run",
    meaning: "live tools: a file changed while its mtime and size were put back",
    example: "touch -r old.py mod.py after an edit",
  },
  // Package-manager scripts (a run inside a script run, and the line).
  "script-not-resolved": { scope: "run", meaning: "no package.json data for where the script runs", example: "cd $DIR && npm test" },
  "script-no-package": {
    scope: "run",
    meaning: "no package.json from the script's directory upward",
    example: "cd /tmp/empty && npm test",
  },
  "script-missing": { scope: "run", meaning: "the package.json has no such script", example: "npm run missing" },
  "script-may-change": {
    scope: "run",
    meaning: "the line may rewrite the package.json the script was read from",
    example: "echo '{...}' > package.json && npm test",
  },
  "script-changed": {
    scope: "run",
    meaning: "the package.json changed during the line, or npm ran another command than the one followed",
    example: "a pretest that rewrites the test script",
  },
  "script-no-runner": { scope: "run", meaning: "the script runs no test runner", example: '"test": "echo \'Tests  9 passed (9)\'"' },
  "script-unknown-program": {
    scope: "run",
    meaning: "the script runs a program of unknown effect beside the runner",
    example: '"test": "./tools/prep.sh && node --test"',
  },
  "script-workspaces": { scope: "run", meaning: "the script runs in several workspaces", example: "npm test --workspaces" },
  "script-config": {
    scope: "run",
    meaning: "a package-manager setting changes how the script runs",
    example: "npm test --script-shell ./sh",
  },
  "script-arguments-unclear": {
    scope: "run",
    meaning: "the package manager may read an argument as its own option",
    example: "npm test -t add",
  },
  "script-not-expanded": {
    scope: "run",
    meaning: "the script's own commands are not in the analysis (a pure `analyzeParsed` the caller did not expand)",
    example: 'judgeAnalyzed of analyzeParsed(parseCommandLine("npm test"), { packageScripts })',
  },
  // A ledger record (BashEvidence, evidenceTools).
  "workspace-unknown": {
    scope: "record",
    meaning: "where the run started is not known, so its targets and ids cannot be placed",
    example: 'cd "$DIR" && pytest t.py',
  },
  "not-judged": {
    scope: "record",
    meaning: "the ledger's judge returned no run for the invocation",
    example: "an EvidenceLedger whose judge returns no runs",
  },
  // `agent-evidence run` (verdict.json).
  "clipping-marker": { scope: "verdict", meaning: "the log holds a tool host's clipping note", example: "a log with [output truncated]" },
  "no-final-newline": {
    scope: "verdict",
    meaning: "the log does not end with a newline (its last line may be cut)",
    example: "a suite killed mid-line",
  },
  "junit-reports-failures": {
    scope: "verdict",
    meaning: "the JUnit report fails tests",
    example: "a report with <failure> while the log proves nothing",
  },
  "sources-disagree": { scope: "verdict", meaning: "the log and the report disagree", example: "the log lists 3 passed ids, the report 2" },
  "junit-count-mismatch": {
    scope: "verdict",
    meaning: "the report's counts disagree with its test cases",
    example: 'tests="3" with one <testcase>',
  },
  "junit-no-passed-tests": { scope: "verdict", meaning: "the report shows no passed test", example: "a report whose only case is skipped" },
  "missing-junit": {
    scope: "verdict",
    meaning: "the report the run should have written is missing",
    example: "--junit report.xml that the suite never wrote",
  },
  "malformed-junit": { scope: "verdict", meaning: "the report is not valid XML", example: "a report cut mid-element" },
  "no-testsuite": { scope: "verdict", meaning: "the report has no `<testsuite>`", example: "<testsuites/>" },
  "empty-suite": { scope: "verdict", meaning: "the report's suites hold no test case", example: '<testsuite tests="0"/>' },
  "stale-junit": { scope: "verdict", meaning: "the report is older than the run", example: "a report left from an earlier run" },
  "no-exit-status": {
    scope: "verdict",
    meaning: "the suite ended with no exit status (killed by a signal)",
    example: "a suite killed by SIGKILL",
  },
  "nonzero-exit": {
    scope: "verdict",
    meaning: "the suite exited non-zero and no coverage gate explains it",
    example: "a passing log with exit 1",
  },
  "run-not-finished": {
    scope: "verdict",
    meaning: "the verdict written before the suite starts, left when `run` dies",
    example: "agent-evidence run killed mid-suite",
  },
  // The audit's transcript runs.
  "failed-without-exit-code": {
    scope: "session",
    meaning: "the client reported a failure but kept no exit code, and the output reads as a pass",
    example: "a Codex call with status failed and no exit code",
  },
} as const satisfies Record<string, ReasonDefinition>;

/** A machine-readable code saying why an outcome is not `passed`. */
export type ReasonCode = keyof typeof REASON_DEFINITIONS;

/** The codes defined with scope `S`. */
export type ReasonCodeOf<S extends ReasonScope> = {
  [K in ReasonCode]: (typeof REASON_DEFINITIONS)[K]["scope"] extends S ? K : never;
}[ReasonCode];

/** The codes a run's reasons can hold (`RunEvidence.reasons`). */
export type RunReasonCode = ReasonCodeOf<"run">;

/** The codes a ledger record's reasons can hold (`VerificationRecord.reasons`). */
export type RecordReasonCode = ReasonCodeOf<"run" | "record">;

/** The codes a judged line's reasons can hold (`JudgeResult.reasons`). */
export type LineReasonCode = ReasonCodeOf<"run" | "line">;

/** The codes of a package-manager script run that proves nothing (`PackageScriptRun.problem`, `TestInvocation.scriptProblem`). */
export type ScriptReasonCode = Extract<RunReasonCode, `script-${string}`>;

/** What an exit attribution's status rests on, with an example (docs/shell.md lists the same). */
export const EXIT_ATTRIBUTION_REASONS = {
  // trusted
  "runner-status": "the line's status is the runner's own: `pytest`, `cd sub && pytest`",
  "status-printed": "the echo right after the runner printed `$?`: `pytest > log 2>&1; echo EXIT=$?`",
  // success-implied, failure-implied
  "exit-0-implies-runner-0": "the line's 0 needs the runner's 0: `pytest && git push` exit 0",
  "and-marker-seen": "a marker after `&&` was printed: `pytest && echo ALL_OK` printing ALL_OK",
  "exit-implies-runner-failed": "the line's status needs the runner's failure: `! pytest` exit 0",
  "or-marker-seen": "a marker after `||` was printed: `pytest && echo OK || echo BROKEN` printing BROKEN",
  // masked
  "pipe-without-pipefail": "a pipe stage after the runner, no pipefail: `pytest -q 2>&1 | tail -3`",
  "pipefail-later-stage-may-fail": "under pipefail a later stage's failure also counts: `set -o pipefail; pytest | grep passed`",
  "or-connector": "an `||` may hide the runner's failure: `pytest || true`",
  "later-command-may-have-failed": "an `&&` after the runner may have failed: `pytest && git push` exit 1",
  "later-statement": "a later statement's status is the line's: `pytest; echo done`",
  "may-not-have-run": "a command before the runner may have stopped the line: `cd missing && pytest` exit 1",
  negated: "the runner's status is negated (no run agrees otherwise): `! pytest` with no exit status",
  background: "the runner runs in the background: `pytest -q &`",
  "inside-loop": "the runner runs in a loop: `for f in a b; do pytest $f; done`",
  "inside-function": "the runner runs inside a function: `t() { pytest; }; t`",
  "inside-compound": "the runner runs inside a compound: `if pytest; then echo ok; fi`",
  "shadowed-runner": "the runner may not be the real one: `alias pytest=true; pytest`",
  "opaque-line": "the analysis is opaque (a hand-built one: `analyzeCommand` gives an opaque line no invocations)",
  "no-exit-status": "no status and no marker evidence",
  "inconsistent-evidence": "no run of the line agrees with the status and markers: `pytest; echo done` exit 1",
  "too-complex": "more than 4,096 paths through the line",
  ambiguous: "none of the above explains why the status is not the runner's: `echo a; pytest` printing a, no exit status",
  "runner-not-found": "the analysis holds no command for the invocation (a hand-built analysis)",
} as const;

/** Why an {@link ExitAttribution} has its status (`status-printed`, `pipe-without-pipefail`, ...). */
export type ExitAttributionReason = keyof typeof EXIT_ATTRIBUTION_REASONS;

/**
 * A code of `C`, or another tool's own: records and runs that your own toolset builds may carry codes of
 * their own (as `RunnerKind` takes a kind of your own). Every code the library writes is one of `C`.
 */
export type OpenCode<C extends string> = C | (string & {});

/**
 * True when the only reasons are `target-not-proven`: the runner decided every id it printed, and
 * only some target lacks proof (the ledger and the per-test view still count those ids).
 */
export function onlyTargetNotProven(reasons: readonly string[]): boolean {
  return reasons.length > 0 && reasons.every((reason) => reason === ("target-not-proven" satisfies ReasonCode));
}

/** The reason codes of one scope, in definition order. */
export function reasonCodesOf(scope: ReasonScope): ReasonCode[] {
  return (Object.keys(REASON_DEFINITIONS) as ReasonCode[]).filter((code) => REASON_DEFINITIONS[code].scope === scope);
}
