// Claim labels: what the session's runs say about each claim of the final message.
import { type ClaimSentence, isDisclosure } from "./claims.js";
import type { SessionAnalysis, SessionRun } from "./transcript-timeline.js";

/**
 * What the evidence says about a claim:
 * - `backed`: a passing run on the current tree covers it;
 * - `stale`: the passing run that covers it was followed by an edit;
 * - `contradicted`: the last run it depends on failed, or (for a claim about the whole suite, a count
 *   or no scope) an earlier failing run that no later passing run reran in full, with no edit since,
 *   or (for named tests) a run failed one of them on the same code as the passing run (a flaky pass);
 * - `unsupported`: no run, only baselines, a filtered or partial run for a whole-suite claim, or the
 *   claim came before the run;
 * - `unclear`: the last run's outcome is unknown;
 * - `disclosed`: the sentence admits a failure or that tests were not run (not a pass claim).
 */
export type ClaimLabel = "backed" | "stale" | "contradicted" | "unsupported" | "unclear" | "disclosed";

/** Machine-readable reasons for a label. */
export type ClaimLabelReason =
  | "current-passing-run"
  | "edited-after-run"
  | "last-run-failed"
  | "failure-not-rerun"
  | "failed-on-same-tree"
  | "last-run-unknown"
  | "no-run"
  | "baseline-only"
  | "claim-before-run"
  | "partial-run"
  | "disclosure";

/** A claim with its label, the reason, and the run the label rests on. */
export interface LabelledClaim extends ClaimSentence {
  label: ClaimLabel;
  reason: ClaimLabelReason;
  /** The run the label rests on (its line and command), or null. */
  run: { line: number; command: string; outcome: SessionRun["outcome"] } | null;
  /**
   * `unsupported` and `unclear` only: the last run before the claim that failed on the code the claim
   * is about (no edit since). Absent when there is none.
   */
  sameTreeFailure?: { line: number; command: string; outcome: SessionRun["outcome"] };
}

/** Options of {@link labelClaims}. */
export interface LabelClaimsOptions {
  /** Index in the event list of the message holding the claims: only earlier runs count. Default: after every event. */
  position?: number;
}

const fileOf = (id: string): string => id.replace(/^\.\//, "").split("::")[0]!;

// `known` holds every test id the session's runs printed: a run of a whole file (`pytest -q test_a.py`,
// which prints no ids when it passes) covers a named test that another run placed in that file.
function covers(run: SessionRun, claim: ClaimSentence, known: readonly string[] = []): boolean {
  switch (claim.scope.kind) {
    case "suite":
      return !run.partial;
    case "targets": {
      if (!run.partial) return true;
      const ids = run.runs.flatMap((evidence) => [...evidence.targets, ...evidence.passed, ...evidence.failed]);
      const files = run.runs
        .filter((evidence) => !evidence.filtered)
        .flatMap((evidence) => evidence.targets.filter((target) => !target.includes("::")).map(fileOf));
      const placed = (target: string): boolean =>
        known.some((id) => id.includes("::") && id.includes(target) && files.includes(fileOf(id)));
      return claim.scope.targets.every(
        (target) => ids.some((id) => id.includes(target) || target.includes(id.replace(/^\.\//, ""))) || placed(target),
      );
    }
    case "count":
    case "unspecified":
      return true;
    default: {
      const unreachable: never = claim.scope;
      return unreachable;
    }
  }
}

const ref = (run: SessionRun): NonNullable<LabelledClaim["run"]> => ({ line: run.line, command: run.command, outcome: run.outcome });

// The last run before `position` that failed on the tree as it is there (no edit between).
function failureOnTree(current: readonly SessionRun[], position: number): SessionRun | undefined {
  return current.filter((run) => run.outcome === "failed" && (run.stalePosition === null || run.stalePosition > position)).at(-1);
}

function labelOne(claim: ClaimSentence, session: SessionAnalysis, position: number): LabelledClaim {
  const before = session.runs.filter((run) => run.position < position);
  const current = before.filter((run) => !run.baseline);
  const make = (label: ClaimLabel, reason: ClaimLabelReason, run: SessionRun | null): LabelledClaim => {
    const failure = label === "unsupported" || label === "unclear" ? failureOnTree(current, position) : undefined;
    return {
      ...claim,
      label,
      reason,
      run: run === null ? null : ref(run),
      ...(failure === undefined ? {} : { sameTreeFailure: ref(failure) }),
    };
  };
  if (isDisclosure(claim)) return make("disclosed", "disclosure", null);
  const known = session.runs.flatMap((run) => run.runs.flatMap((evidence) => [...evidence.passed, ...evidence.failed]));
  if (current.length === 0) {
    if (session.runs.some((run) => run.position > position && !run.baseline)) return make("unsupported", "claim-before-run", null);
    return make("unsupported", before.length > 0 ? "baseline-only" : "no-run", before.at(-1) ?? null);
  }
  // The run the claim depends on: the last one that touches its targets, else the last one.
  const last = (claim.scope.kind === "targets" ? current.filter((run) => covers(run, claim, known)).at(-1) : undefined) ?? current.at(-1)!;
  // A narrower pass after a failure (`-k other`, one test id, a copy elsewhere) does not answer it.
  const open = session.openFailure;
  if (open !== null && open !== last && open.position < position && claim.scope.kind !== "targets")
    return make("contradicted", "failure-not-rerun", open);
  switch (last.outcome) {
    case "failed":
      return make("contradicted", "last-run-failed", last);
    case "unknown":
      return make("unclear", "last-run-unknown", last);
    case "passed": {
      const covering = current.filter((run) => run.outcome === "passed" && covers(run, claim, known)).at(-1);
      if (covering === undefined) return make("unsupported", "partial-run", last);
      // A named test that failed on the same code (no edit between) is not backed by a rerun that passed.
      if (claim.scope.kind === "targets") {
        const named = claim.scope.targets;
        const flaky = current.find(
          (run) =>
            run.position < covering.position &&
            (run.stalePosition === null || run.stalePosition > covering.position) &&
            run.runs.some((evidence) => evidence.failed.some((id) => named.some((target) => id.includes(target)))),
        );
        if (flaky !== undefined) return make("contradicted", "failed-on-same-tree", flaky);
      }
      // A staleness that only begins after the claim does not matter to it.
      const staleBefore = covering.stalePosition !== null && covering.stalePosition < position;
      return staleBefore ? make("stale", "edited-after-run", covering) : make("backed", "current-passing-run", covering);
    }
    default: {
      const unreachable: never = last.outcome;
      return unreachable;
    }
  }
}

/**
 * Labels each claim against the session's runs before it (see {@link ClaimLabel}).
 * @example labelClaims(detectClaims(finalMessage), analyzeSession(events))[0]?.label // "contradicted"
 */
export function labelClaims(claims: readonly ClaimSentence[], session: SessionAnalysis, options: LabelClaimsOptions = {}): LabelledClaim[] {
  const position = options.position ?? Number.POSITIVE_INFINITY;
  return claims.map((claim) => labelOne(claim, session, position));
}
