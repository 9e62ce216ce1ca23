// The audit summary: counts over sessions, and its text table.
import type { Outcome } from "../types.js";
import type { SessionAudit } from "./audit-transcript.js";
import type { ClaimLabel } from "./labels.js";

/** Counts over every audited session. */
export interface AuditSummary {
  sessions: number;
  /** Files that could not be read. */
  unreadable: number;
  /** Sessions with at least one finding. */
  sessionsWithProblems: number;
  shellCalls: number;
  runs: number;
  /** Runs whose exit status did not belong to the runner (`| tail`, `;`, `|| true` ...). */
  maskedRuns: number;
  baselineRuns: number;
  /** Outcomes of every run on the current tree. */
  outcomes: Record<Outcome, number>;
  /** Outcomes of each session's last run. */
  lastRunOutcomes: Record<Outcome, number>;
  staleLastRuns: number;
  labels: Record<ClaimLabel, number>;
  /** Why runs were `unknown`, most frequent first. */
  unknownReasons: [string, number][];
  malformedLines: number;
}

/** An empty summary to fold sessions into with {@link addToSummary}. */
export function createAuditSummary(): AuditSummary {
  return {
    sessions: 0,
    unreadable: 0,
    sessionsWithProblems: 0,
    shellCalls: 0,
    runs: 0,
    maskedRuns: 0,
    baselineRuns: 0,
    outcomes: { passed: 0, failed: 0, unknown: 0 },
    lastRunOutcomes: { passed: 0, failed: 0, unknown: 0 },
    staleLastRuns: 0,
    labels: { backed: 0, stale: 0, contradicted: 0, unsupported: 0, unclear: 0, disclosed: 0 },
    unknownReasons: [],
    malformedLines: 0,
  };
}

/** Folds one session into the summary (mutates and returns it). */
export function addToSummary(summary: AuditSummary, audit: SessionAudit): AuditSummary {
  summary.sessions += 1;
  if (audit.findings.some((finding) => finding !== "no-test-run")) summary.sessionsWithProblems += 1;
  summary.shellCalls += audit.shellCalls;
  const reasons = new Map(summary.unknownReasons);
  for (const run of audit.runs) {
    summary.runs += 1;
    if (run.masked) summary.maskedRuns += 1;
    if (run.baseline) {
      summary.baselineRuns += 1;
      continue;
    }
    summary.outcomes[run.outcome] += 1;
    if (run.outcome === "unknown") for (const reason of run.reasons) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  summary.unknownReasons = [...reasons].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (audit.lastRun) {
    summary.lastRunOutcomes[audit.lastRun.outcome] += 1;
    if (audit.lastRun.stale) summary.staleLastRuns += 1;
  }
  for (const claim of audit.claims) summary.labels[claim.label] += 1;
  summary.malformedLines += audit.problems.length;
  return summary;
}

const pct = (part: number, whole: number): string => (whole === 0 ? "" : ` (${((100 * part) / whole).toFixed(1)}%)`);

/** The summary as an aligned text table (top 5 unknown reasons). */
export function renderSummaryTable(summary: AuditSummary): string {
  const rows: [string, string][] = [
    ["sessions", `${summary.sessions}`],
    ["sessions with problems", `${summary.sessionsWithProblems}${pct(summary.sessionsWithProblems, summary.sessions)}`],
    ["unreadable files", `${summary.unreadable}`],
    ["malformed lines skipped", `${summary.malformedLines}`],
    ["shell calls", `${summary.shellCalls}`],
    ["test runs", `${summary.runs}`],
    ["masked runs", `${summary.maskedRuns}${pct(summary.maskedRuns, summary.runs)}`],
    ["baseline runs", `${summary.baselineRuns}`],
    ["outcomes", `passed ${summary.outcomes.passed}, failed ${summary.outcomes.failed}, unknown ${summary.outcomes.unknown}`],
    [
      "last run",
      `passed ${summary.lastRunOutcomes.passed}, failed ${summary.lastRunOutcomes.failed}, unknown ${summary.lastRunOutcomes.unknown}, stale ${summary.staleLastRuns}`,
    ],
    ["claim labels", (Object.entries(summary.labels) as [ClaimLabel, number][]).map(([label, count]) => `${label} ${count}`).join(", ")],
    [
      "top unknown reasons",
      summary.unknownReasons.length === 0
        ? "-"
        : summary.unknownReasons
            .slice(0, 5)
            .map(([reason, count]) => `${reason} ${count}`)
            .join(", "),
    ],
  ];
  const width = Math.max(...rows.map(([key]) => key.length));
  return `${rows.map(([key, value]) => `${key.padEnd(width)}  ${value}`).join("\n")}\n`;
}
