// compareCandidates(): the mechanical part of choosing between two candidates from their records.
// Pure: records in, decision out.
import type { VerificationRecord } from "../types.js";
import { type CandidateKey, candidateKeyId, candidateKeyOf } from "./keys.js";

export type { CandidateKey } from "./keys.js";

/** Anything holding a candidate's records, e.g. a {@link RunCandidateResult}. */
export interface ComparableCandidate {
  testRecords: readonly VerificationRecord[];
  /** The candidate's worktree, that targets are made relative to (a RunCandidateResult's `workspace.path`). */
  root?: string | null;
  workspace?: { path: string };
}

/** The comparison's outcome. `mechanical` is true exactly when `decision` is not `"judge"`. */
export interface CandidateComparisonResult {
  decision: "a" | "b" | "judge";
  mechanical: boolean;
  /** Keys green or red in both candidates. */
  shared: CandidateKey[];
  /** Shared keys with the same colour in both: they do not separate the candidates. */
  agreeing: CandidateKey[];
  /** Shared keys green in one candidate and red in the other: the keys that decide, or disagree. */
  conflicting: CandidateKey[];
  /** One sentence per finding, each starting with a stable code (`a-wins:`, `conflict:`, ...). */
  reasons: string[];
}

type Colour = "green" | "red";

/**
 * Red: the runner proved a failure (`outcome: "failed"`), whatever the line's exit code (`pytest |
 * tail -5` exits with tail's 0). Green: passed and verified. Anything else (unknown, a filtered pass)
 * never decides.
 */
export function recordColour(record: VerificationRecord): Colour | undefined {
  if (record.outcome === "failed") return "red";
  if (record.outcome === "passed" && record.verified) return "green";
  return undefined;
}

function renderKey(key: CandidateKey): string {
  const selection = key.selection.length === 0 ? "" : ` (${key.selection.join(" ")})`;
  return `${key.target}${selection} by \`${key.command}\``;
}

/** A candidate's keys that decide, by key id, and how many records no longer apply. */
export interface CandidateColours {
  byKey: Map<string, { key: CandidateKey; colour: Colour }>;
  stale: number;
}

/**
 * The colour of each of a candidate's keys: the latest current record of a key speaks for it
 * (earlier current runs of the same key were superseded without any edit in between).
 */
export function candidateColours(candidate: ComparableCandidate): CandidateColours {
  const root = candidate.root ?? candidate.workspace?.path ?? null;
  const latest = new Map<string, { key: CandidateKey; record: VerificationRecord }>();
  let stale = 0;
  for (const record of candidate.testRecords) {
    if (record.applicability !== "current") {
      stale += 1;
      continue;
    }
    const key = candidateKeyOf(record, root);
    const id = candidateKeyId(key);
    const previous = latest.get(id);
    if (previous === undefined || record.seq >= previous.record.seq) latest.set(id, { key, record });
  }
  const byKey = new Map<string, { key: CandidateKey; colour: Colour }>();
  for (const [id, { key, record }] of latest) {
    const colour = recordColour(record);
    if (colour !== undefined) byKey.set(id, { key, colour });
  }
  return { byKey, stale };
}

/**
 * Compares two candidates' current records key by key. When every shared key that separates them
 * points the same way, that candidate wins mechanically; otherwise the result asks for a judgement.
 * @example
 * const verdict = compareCandidates(resultA, resultB);
 * if (verdict.decision === "judge") console.log(verdict.reasons.join("\n"));
 */
export function compareCandidates(a: ComparableCandidate, b: ComparableCandidate): CandidateComparisonResult {
  const left = candidateColours(a);
  const right = candidateColours(b);
  const shared: CandidateKey[] = [];
  const agreeing: CandidateKey[] = [];
  const conflicting: CandidateKey[] = [];
  const favour = { a: [] as CandidateKey[], b: [] as CandidateKey[] };
  for (const [id, mine] of left.byKey) {
    const theirs = right.byKey.get(id);
    if (theirs === undefined) continue;
    shared.push(mine.key);
    if (mine.colour === theirs.colour) agreeing.push(mine.key);
    else {
      conflicting.push(mine.key);
      favour[mine.colour === "green" ? "a" : "b"].push(mine.key);
    }
  }
  const reasons: string[] = [];
  const staleNote =
    left.stale + right.stale > 0
      ? [`stale-ignored: ${left.stale} record(s) of a and ${right.stale} of b no longer apply to the code and were ignored`]
      : [];
  const judge = (why: string[]): CandidateComparisonResult => ({
    decision: "judge",
    mechanical: false,
    shared,
    agreeing,
    conflicting,
    reasons: [...why, ...staleNote],
  });
  if (left.byKey.size === 0 || right.byKey.size === 0) {
    const empty = [left.byKey.size === 0 ? "a" : undefined, right.byKey.size === 0 ? "b" : undefined].filter((side) => side !== undefined);
    return judge([`no-evidence: ${empty.join(" and ")} ha${empty.length === 1 ? "s" : "ve"} no current green or red record`]);
  }
  if (shared.length === 0) return judge(["no-shared-keys: the candidates ran no test target with the same runner family and selection"]);
  if (favour.a.length > 0 && favour.b.length > 0) {
    reasons.push(`conflict: ${favour.a.length} shared key(s) favour a and ${favour.b.length} favour b`);
    reasons.push(...favour.a.map((key) => `favours-a: ${renderKey(key)} is green in a and red in b`));
    reasons.push(...favour.b.map((key) => `favours-b: ${renderKey(key)} is green in b and red in a`));
    return judge(reasons);
  }
  if (conflicting.length === 0)
    return judge([`no-separating-key: all ${shared.length} shared key(s) have the same colour in both candidates`]);
  const winner = favour.a.length > 0 ? "a" : "b";
  const loser = winner === "a" ? "b" : "a";
  reasons.push(...conflicting.map((key) => `${winner}-wins: ${renderKey(key)} is green in ${winner} and red in ${loser}`));
  return { decision: winner, mechanical: true, shared, agreeing, conflicting, reasons: [...reasons, ...staleNote] };
}
