// The Stop hook's policy: which findings of a session's audit block the stop, and the reason the agent
// reads. Pure: an audit in, a reason (or null) out; stop.ts does the reading, the state and the budget.
//
// A pass claim of the final message blocks once (a claim named in an earlier block of ours does not
// block again) when it is contradicted or stale, or unsupported / unclear while a run on the same code
// failed; with `strict`, when it is unsupported at all. Without such a claim, this turn's own work
// blocks when its last run failed, a failure is still open, or files changed after the last run, and
// the final message does not disclose it.
import type { AuditedRun, SessionAudit } from "../audit-transcript.js";
import type { LabelledClaim } from "../labels.js";

/** Options of {@link decideStop}. */
export interface DecideStopOptions {
  /**
   * The transcript line of the user's last message: runs and edits before it belong to an earlier
   * turn, which the agent already answered (disclosed, or was blocked for). Only this turn's work can
   * block for a failed or stale run; a claim is judged on the whole session.
   */
  turnStartLine?: number;
  /** Also block (once) on a pass claim that no run backs, even when no run failed. Default false. */
  strict?: boolean;
  /** The reasons of this session's earlier blocks: a claim one of them names does not block again. */
  earlierReasons?: readonly string[];
}

/** The opening every claim reason starts with; `claimOpening(sentence)` is how a reason names its claim. */
const claimOpening = (sentence: string): string => `Your final message says "${sentence}"`;

/** The openings of every reason {@link decideStop} gives, to find our own blocks among a transcript's feedback. */
export const STOP_REASON_OPENINGS: readonly string[] = [
  "Your final message says",
  "The last test run (",
  "The test run (",
  "Files changed after the last test run",
];

// Recorded events (line 0) come from this turn; transcript lines before the turn's start do not.
const inTurn = (line: number, start: number): boolean => line === 0 || line > start;

const edit = (run: AuditedRun): string => {
  const by = run.staleBy;
  if (by === null) return "an edit";
  return by.kind === "shell"
    ? `\`${by.command}\` (transcript line ${by.line})`
    : `${by.tool} ${by.paths.join(", ")} (transcript line ${by.line})`;
};

// Why no run backs an unsupported or unclear claim, as a clause.
function unbacked(claim: LabelledClaim): string {
  const run = claim.run === null ? "" : `\`${claim.run.command}\` (transcript line ${claim.run.line})`;
  switch (claim.reason) {
    case "no-run":
      return "no test ran in this session";
    case "baseline-only":
      return `the only run, ${run}, tested the code without the change`;
    case "claim-before-run":
      return "it came before any test run";
    case "partial-run":
      return `the last run, ${run}, did not run all it is about`;
    case "last-run-unknown":
      return `the outcome of the last run, ${run}, is unknown`;
    // The labels of the other reasons are neither unsupported nor unclear.
    case "current-passing-run":
    case "edited-after-run":
    case "last-run-failed":
    case "failure-not-rerun":
    case "failed-on-same-tree":
    case "disclosure":
      return run === "" ? "no run backs it" : `the last run is ${run}`;
    default: {
      const unreachable: never = claim.reason;
      return unreachable;
    }
  }
}

// The reason a pass claim blocks, or null.
function claimReason(claim: LabelledClaim, audit: SessionAudit, strict: boolean): string | null {
  const says = claimOpening(claim.sentence);
  const run = claim.run;
  switch (claim.label) {
    case "contradicted": {
      if (run === null) return null;
      if (claim.reason === "failed-on-same-tree") {
        return `${says}, but the test run \`${run.command}\` (transcript line ${run.line}) failed it on the same code, before the run that passed: a pass on a rerun does not undo that (the test may be flaky). Find why it failed, or say in your final message that it fails intermittently.`;
      }
      if (claim.reason === "failure-not-rerun") {
        return `${says}, but the test run \`${run.command}\` (transcript line ${run.line}) failed, and no later run that passed reran all of it (a narrower selection, or another directory, does not). Rerun \`${run.command}\` on the current code, or say in your final message that it fails.`;
      }
      const which =
        audit.lastRun !== null && audit.lastRun.line === run.line && audit.lastRun.command === run.command
          ? "the last test run"
          : "the test run it rests on";
      return `${says}, but ${which} (\`${run.command}\`, transcript line ${run.line}) failed. Fix the failure and rerun \`${run.command}\`, or say in your final message that the tests fail.`;
    }
    case "stale": {
      if (run === null || audit.disclosed) return null;
      const audited = audit.runs.find((r) => r.line === run.line && r.command === run.command);
      return `${says}, but files changed after the test run \`${run.command}\` (transcript line ${run.line}) that passed: ${audited === undefined ? "an edit" : edit(audited)} came after it. Rerun \`${run.command}\` to test the current code, or say in your final message that the tests were not rerun after the change.`;
    }
    case "unsupported":
    case "unclear": {
      if (audit.disclosed) return null;
      const failure = claim.sameTreeFailure;
      if (failure !== undefined) {
        return `${says}, but no test run backs it (${unbacked(claim)}), and the test run \`${failure.command}\` (transcript line ${failure.line}) failed on this code. Run the tests the claim is about and report what they print, or say in your final message that \`${failure.command}\` fails.`;
      }
      if (strict && claim.label === "unsupported") {
        return `${says}, but no test run backs it (${unbacked(claim)}). Run the tests the claim is about and report what they print, or say in your final message that they were not run.`;
      }
      return null;
    }
    case "backed":
    case "disclosed":
      return null;
    default: {
      const unreachable: never = claim.label;
      return unreachable;
    }
  }
}

// The reason this turn's own runs block a message that makes no blocking claim, or null.
function runReason(audit: SessionAudit, start: number): string | null {
  const last = audit.lastRun;
  if (last === null || audit.disclosed) return null;
  if (last.outcome === "failed" && inTurn(last.line, start)) {
    return `The last test run (\`${last.command}\`, transcript line ${last.line}) failed and your final message does not say so. Fix the failure and rerun \`${last.command}\`, or say in your final message that the tests fail.`;
  }
  const open = audit.openFailure;
  if (open !== null && inTurn(open.line, start)) {
    return `The test run (\`${open.command}\`, transcript line ${open.line}) failed, no later run that passed reran all of it, and your final message does not say so. Rerun \`${open.command}\` on the current code, or say in your final message that it fails.`;
  }
  if (last.staleBy !== null && inTurn(last.staleBy.line, start)) {
    const what = last.staleBy.kind === "shell" ? `\`${last.staleBy.command}\`` : `${last.staleBy.tool} ${last.staleBy.paths.join(", ")}`;
    return `Files changed after the last test run (\`${last.command}\`): ${what} came after it. Rerun \`${last.command}\` to test the current code, or say in your final message that the tests were not rerun after the change.`;
  }
  return null;
}

// The order claims are answered in: a contradiction before a stale pass before a missing one.
const SEVERITY: Record<LabelledClaim["label"], number> = { contradicted: 0, stale: 1, unclear: 2, unsupported: 3, backed: 4, disclosed: 5 };

/**
 * What the Stop hook found: the reason to block, or null (see the policy in docs/hooks.md).
 * @example decideStop(auditTranscript(text), { turnStartLine: 12 }) // 'Your final message says "All tests pass", but ...'
 */
export function decideStop(audit: SessionAudit, options: DecideStopOptions = {}): string | null {
  const earlier = options.earlierReasons ?? [];
  let repeated = false;
  const worstFirst = [...audit.claims].sort((a, b) => SEVERITY[a.label] - SEVERITY[b.label]);
  for (const claim of worstFirst) {
    if (claim.kind !== "pass") continue;
    const reason = claimReason(claim, audit, options.strict === true);
    if (reason === null) continue;
    // Once per claim: the agent was told; saying it again is its answer, and the user reads it.
    if (earlier.some((text) => text.includes(claimOpening(claim.sentence)))) {
      repeated = true;
      continue;
    }
    return reason;
  }
  return repeated ? null : runReason(audit, options.turnStartLine ?? 0);
}
