// The fail-closed verdict rule: `passed` only when every source of evidence agrees on a complete
// observation. Pure: takes the facts, returns status, reasons and counts.
import type { JunitReport } from "../observers/junit.js";
import type { OpenCode, ReasonCode } from "../reasons.js";
import type { GateFinding, RunEvidence } from "../types.js";
import type { Verdict } from "./schema.js";

/** Everything the rule looks at. */
export interface VerdictFacts {
  /** The judge's line verdict on the complete log. */
  judged: { verdict: "passed" | "failed" | "unknown"; reasons: OpenCode<ReasonCode>[]; runs: RunEvidence[] };
  runnerExit: number | null;
  timedOut: boolean;
  /** A host clipping marker in the log. */
  clippingMarker: boolean;
  /** The log is non-empty and does not end with a newline. */
  missingFinalNewline: boolean;
  /** The JUnit state and, when readable, the report. */
  junit: Verdict["junit"];
  report: JunitReport | null;
}

/** The decided part of a verdict. */
export interface VerdictDecision {
  status: Verdict["status"];
  reasons: OpenCode<ReasonCode>[];
  truncatedLog: boolean;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  gates: GateFinding[];
}

/** Decides the verdict status from the facts (see docs/verdict.md for the table). */
export function decideVerdict(facts: VerdictFacts): VerdictDecision {
  const reasons: OpenCode<ReasonCode>[] = [];
  const add = (code: ReasonCode): void => void reasons.push(code);
  const gates = facts.judged.runs.flatMap((run) => run.gates);
  // Clipped: a host's marker, a last line cut short, a killed run, or a run without its final summary.
  const judgeReasons = [...facts.judged.reasons, ...facts.judged.runs.flatMap((r) => r.reasons)];
  const truncatedLog =
    facts.clippingMarker || facts.missingFinalNewline || facts.timedOut || judgeReasons.some((r) => CLIPPED_REASONS.has(r));
  if (facts.clippingMarker) add("clipping-marker");
  if (facts.missingFinalNewline) add("no-final-newline");
  if (facts.timedOut) add("timeout");

  const counts = countTests(facts);
  const report = facts.report?.status === "ok" ? facts.report : null;
  const reportFailed = report !== null && report.failed.length > 0;
  const logFailed = facts.judged.verdict === "failed";

  // A failure the runner itself reported is a failure, whatever else is missing.
  if (logFailed || reportFailed) {
    if (reportFailed && !logFailed) add("junit-reports-failures");
    if (logFailed || (reportFailed && facts.judged.verdict !== "passed")) {
      // The failing runs' own codes (tests-failed, collection-error, build-failure, ...) say why.
      const failedRuns = facts.judged.runs.filter((r) => r.outcome === "failed").flatMap((r) => r.reasons);
      const why = failedRuns.length > 0 ? failedRuns : (["tests-failed"] satisfies ReasonCode[]);
      return { status: "failed", reasons: unique([...why, ...reasons.filter((r) => !why.includes(r))]), truncatedLog, ...counts, gates };
    }
    // The report fails tests the log calls passed: the sources disagree.
    add("sources-disagree");
    return { status: "incomplete", reasons: unique(reasons), truncatedLog, ...counts, gates };
  }

  if (facts.judged.verdict !== "passed") reasons.push(...facts.judged.reasons, ...facts.judged.runs.flatMap((r) => r.reasons));
  if (facts.judged.runs.length === 0) add("not-a-test-command");
  switch (facts.junit) {
    case "ok":
      if (report !== null && report.countMismatch) add("junit-count-mismatch");
      if (report !== null && report.passed.length === 0) add("junit-no-passed-tests");
      if (report !== null && !agreesWithLog(report.passed.length, facts.judged.runs)) add("sources-disagree");
      break;
    case "not_applicable":
      break;
    case "missing_junit":
    case "malformed_junit":
    case "no_testsuite":
    case "empty_suite":
    case "stale_junit":
      add(JUNIT_REASONS[facts.junit]);
      break;
    default: {
      const never: never = facts.junit;
      return never;
    }
  }
  const exitOk = facts.runnerExit === 0 || (facts.runnerExit !== null && gates.some((g) => !g.passed));
  if (!exitOk && !facts.timedOut) add(facts.runnerExit === null ? "no-exit-status" : "nonzero-exit");
  if (truncatedLog && !reasons.includes("truncated")) add("truncated");
  const status = reasons.length === 0 && facts.judged.verdict === "passed" ? "passed" : "incomplete";
  return { status, reasons: unique(reasons), truncatedLog, ...counts, gates };
}

// A report state that forbids a pass, as its reason code.
const JUNIT_REASONS = {
  missing_junit: "missing-junit",
  malformed_junit: "malformed-junit",
  no_testsuite: "no-testsuite",
  empty_suite: "empty-suite",
  stale_junit: "stale-junit",
} as const satisfies Record<Exclude<Verdict["junit"], "ok" | "not_applicable">, ReasonCode>;

// Judge reasons that mean the log does not hold the run's complete output.
const CLIPPED_REASONS = new Set<string>(["truncated", "no-summary", "masked-exit-no-summary"] satisfies ReasonCode[]);

// The log's own pass list (printed by -rA or -v) must count what the report counts; a log with
// only a summary line (-q) lists no ids and has nothing to compare.
function agreesWithLog(reportPassed: number, runs: readonly RunEvidence[]): boolean {
  const run = runs[0];
  if (runs.length !== 1 || run === undefined || run.passed.length === 0) return true;
  return run.passed.length === reportPassed;
}

function countTests(facts: VerdictFacts): Pick<VerdictDecision, "tests" | "failures" | "errors" | "skipped"> {
  const report = facts.report?.status === "ok" ? facts.report : null;
  if (report !== null) {
    // Cases only say failed; the suites' error count splits them when the counts are consistent.
    const failedCases = report.cases.filter((c) => c.outcome === "failed").length;
    const errors = report.countMismatch ? 0 : Math.min(report.totals.errors, failedCases);
    const skipped = report.cases.filter((c) => c.outcome === "skipped").length;
    return { tests: report.cases.length, failures: failedCases - errors, errors, skipped };
  }
  const runs = facts.judged.runs;
  const passed = runs.reduce((n, r) => n + r.passed.length, 0);
  const failed = runs.reduce((n, r) => n + r.failed.length, 0);
  const skipped = runs.reduce((n, r) => n + r.skipped.length, 0);
  return { tests: passed + failed + skipped, failures: failed, errors: 0, skipped };
}

function unique<T extends string>(values: T[]): T[] {
  return [...new Set(values)];
}
