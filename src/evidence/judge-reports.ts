// Report files given to the judge: read them (JUnit XML) and hand each to the run that wrote it.
import { type JunitReport, parseJunit } from "../observers/junit.js";
import type { RunReasonCode } from "../reasons.js";
import type { TestInvocation } from "../shell/types.js";
import type { JudgeReport } from "./judge-types.js";

/** A report attached to a run. */
export interface AttachedReport {
  report: JunitReport;
}

function readReport(report: JudgeReport): { report: JunitReport; path: string | undefined } {
  if ("kind" in report && report.kind === "junit") {
    return { report: parseJunit(report.xml, { mtime: report.mtime, startedAt: report.startedAt }), path: report.path };
  }
  return { report: report as JunitReport, path: (report as { path?: string }).path };
}

function samePath(written: string, given: string): boolean {
  const a = written.replace(/^\.\//, "");
  const b = given.replace(/^\.\//, "");
  return a === b || b.endsWith(`/${a}`) || a.endsWith(`/${b}`);
}

/**
 * Attaches each report to one invocation: the one whose `--junitxml` names its path, else the
 * line's only test-running invocation. Reports that fit no run are counted as unattributed.
 */
export function attachReports(
  reports: readonly JudgeReport[],
  invocations: readonly TestInvocation[],
): { byRun: Map<number, AttachedReport[]>; unattributed: number } {
  const byRun = new Map<number, AttachedReport[]>();
  let unattributed = 0;
  const running = invocations.flatMap((inv, index) => (inv.runsTests && !inv.shadowed ? [index] : []));
  for (const given of reports) {
    const { report, path } = readReport(given);
    let index = path === undefined ? -1 : invocations.findIndex((inv) => inv.reportFiles.some((file) => samePath(file, path)));
    if (index === -1 && running.length === 1) index = running[0]!;
    if (index === -1) {
      unattributed += 1;
      continue;
    }
    const list = byRun.get(index) ?? [];
    list.push({ report });
    byRun.set(index, list);
  }
  return { byRun, unattributed };
}

/** What a run's reports add to its judgement. */
export interface ReportFacts {
  passed: string[];
  failed: string[];
  skipped: string[];
  /** Reasons the reports forbid a pass (`report-invalid`, `report-stale`, `report-count-mismatch`). */
  blockers: Extract<RunReasonCode, `report-${string}`>[];
  /** A failure the reports show (`<failure>`/`<error>` children, or error counts with no children). */
  failedTests: boolean;
  /** At least one valid, fresh report shows a pass and no failure. */
  provesPass: boolean;
}

/** Combines a run's reports. */
export function reportFacts(attached: readonly AttachedReport[]): ReportFacts {
  const facts: ReportFacts = { passed: [], failed: [], skipped: [], blockers: [], failedTests: false, provesPass: false };
  for (const { report } of attached) {
    if (report.stale) {
      facts.blockers.push("report-stale");
      continue;
    }
    if (report.status === "invalid") {
      facts.blockers.push("report-invalid");
      continue;
    }
    facts.passed.push(...report.passed);
    facts.failed.push(...report.failed);
    facts.skipped.push(...report.skipped);
    if (report.failed.length > 0 || report.totals.failures + report.totals.errors > 0) facts.failedTests = true;
    if (report.countMismatch) facts.blockers.push("report-count-mismatch");
    else if (report.passed.length > 0 && report.failed.length === 0) facts.provesPass = true;
  }
  return facts;
}
