// compareCandidates(): the mechanical part of choosing between two candidates from their records.
// Pure: records in, decision out.
import type { VerificationRecord } from "../types.js";

/** What two candidates' records are matched by: the exact target, runner and command (trimmed). */
export interface CandidateKey {
  target: string;
  runner: string;
  command: string;
}

/** Anything holding a candidate's records, e.g. a {@link RunCandidateResult}. */
export interface ComparableCandidate {
  testRecords: readonly VerificationRecord[];
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

/** Green: exited 0 and verified. Red: exited non-zero and not verified. Anything else never decides. */
export function recordColour(record: VerificationRecord): Colour | undefined {
  if (record.exitCode === 0 && record.verified) return "green";
  // A run without an exit code (timed out, killed) proves nothing either way.
  if (record.exitCode !== null && record.exitCode !== 0 && !record.verified) return "red";
  return undefined;
}

function keyOf(record: VerificationRecord): CandidateKey {
  return { target: record.target.trim(), runner: record.runner.trim(), command: record.command.trim() };
}

function keyId(key: CandidateKey): string {
  return JSON.stringify([key.target, key.runner, key.command]);
}

function renderKey(key: CandidateKey): string {
  return `${key.target} by \`${key.command}\``;
}

interface Colours {
  byKey: Map<string, { key: CandidateKey; colour: Colour }>;
  stale: number;
}

// The latest current record of each key speaks for it: earlier current runs of the same key were
// superseded without any edit in between.
function colours(records: readonly VerificationRecord[]): Colours {
  const latest = new Map<string, VerificationRecord>();
  let stale = 0;
  for (const record of records) {
    if (record.applicability !== "current") {
      stale += 1;
      continue;
    }
    const id = keyId(keyOf(record));
    const previous = latest.get(id);
    if (previous === undefined || record.seq >= previous.seq) latest.set(id, record);
  }
  const byKey = new Map<string, { key: CandidateKey; colour: Colour }>();
  for (const [id, record] of latest) {
    const colour = recordColour(record);
    if (colour !== undefined) byKey.set(id, { key: keyOf(record), colour });
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
  const left = colours(a.testRecords);
  const right = colours(b.testRecords);
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
  const staleNote = left.stale + right.stale > 0 ? [`stale-ignored: ${left.stale} record(s) of a and ${right.stale} of b no longer apply to the code and were ignored`] : [];
  const judge = (why: string[]): CandidateComparisonResult => ({ decision: "judge", mechanical: false, shared, agreeing, conflicting, reasons: [...why, ...staleNote] });
  if (left.byKey.size === 0 || right.byKey.size === 0) {
    const empty = [left.byKey.size === 0 ? "a" : undefined, right.byKey.size === 0 ? "b" : undefined].filter((side) => side !== undefined);
    return judge([`no-evidence: ${empty.join(" and ")} ha${empty.length === 1 ? "s" : "ve"} no current green or red record`]);
  }
  if (shared.length === 0) return judge(["no-shared-keys: the candidates ran no test target with the same runner and command"]);
  if (favour.a.length > 0 && favour.b.length > 0) {
    reasons.push(`conflict: ${favour.a.length} shared key(s) favour a and ${favour.b.length} favour b`);
    reasons.push(...favour.a.map((key) => `favours-a: ${renderKey(key)} is green in a and red in b`));
    reasons.push(...favour.b.map((key) => `favours-b: ${renderKey(key)} is green in b and red in a`));
    return judge(reasons);
  }
  if (conflicting.length === 0) return judge([`no-separating-key: all ${shared.length} shared key(s) have the same colour in both candidates`]);
  const winner = favour.a.length > 0 ? "a" : "b";
  const loser = winner === "a" ? "b" : "a";
  reasons.push(...conflicting.map((key) => `${winner}-wins: ${renderKey(key)} is green in ${winner} and red in ${loser}`));
  return { decision: winner, mechanical: true, shared, agreeing, conflicting, reasons: [...reasons, ...staleNote] };
}
