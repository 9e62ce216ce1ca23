// rankCandidates(): N candidates ranked by their evidence, per test against the base as SWE-bench
// grades (fail-to-pass, pass-to-pass, pass-to-fail, fail-to-fail), then by their keys' colours and
// their patch size. Pure: records and patches in, ranking out.
import { testView } from "../evidence/test-view.js";
import { parsePatch } from "../patches/index.js";
import type { VerificationRecord } from "../types.js";
import { candidateColours, type ComparableCandidate } from "./compare.js";
import type { CandidateKey } from "./keys.js";

/** A candidate to rank: its records (and worktree), its label and its patch. */
export interface RankableCandidate extends ComparableCandidate {
  label: string;
  /** The candidate's patch (`RunCandidateResult.patch`); its size breaks ties. */
  patch?: string;
}

/** Each test id's outcome on the base and on the candidate, as SWE-bench grades them. */
export interface CandidateTestTable {
  failToPass: string[];
  passToPass: string[];
  /** Regressions: passed on the base, fail on the candidate. */
  passToFail: string[];
  failToFail: string[];
  /** Ids with evidence on the candidate only (all of them when no base was given). */
  candidateOnly: { passed: string[]; failed: string[] };
  /** Ids with evidence on the base only (the candidate never ran them, or they are gone). */
  baseOnly: string[];
}

/** One ranked candidate. */
export interface RankedCandidate {
  label: string;
  /** 1 for the best; candidates that tie share a rank (1, 1, 3). */
  rank: number;
  /** green: every current key green (at least one); red: a key red; unknown: neither. */
  status: "green" | "red" | "unknown";
  keys: { green: CandidateKey[]; red: CandidateKey[] };
  tests: CandidateTestTable;
  patch: { paths: string[]; added: number; removed: number };
  /** Why it stands where it does, each starting with a stable code. */
  reasons: string[];
}

type TestOutcome = "passed" | "failed";

const STATUS_ORDER = { green: 0, unknown: 1, red: 2 } as const;

/**
 * Ranks candidates: fewest regressions (pass-to-fail), then red last (a run on the final code failed),
 * most fail-to-pass, all keys green before unknown, then the smaller patch. Without a base, the
 * candidate's own failing and passing ids stand in for the regressions and the fixes. Ties stay ties.
 * A fix counts only by its id: a passing run that printed no ids (pytest `-q`) proves its target, not
 * which of the base's failing tests it still holds (the candidate may have deleted them).
 * @example rankCandidates([a, b, c], { base })[0] // { label: "fix-all", rank: 1, status: "green", ... }
 */
export function rankCandidates(candidates: readonly RankableCandidate[], options: { base?: ComparableCandidate } = {}): RankedCandidate[] {
  const base = options.base === undefined ? null : testOutcomes(options.base.testRecords);
  const scored = candidates.map((candidate) => score(candidate, base));
  const better = (a: Score, b: Score): boolean => compareScores(a, b) < 0;
  const ranked = scored.map((s) => {
    const ties = scored.filter((other) => other !== s && compareScores(other, s) === 0).map((other) => other.label);
    const rank = 1 + scored.filter((other) => better(other, s)).length;
    return { ...s.result, rank, reasons: [...s.result.reasons, ...(ties.length > 0 ? [`tied-with: ${ties.join(", ")}`] : [])] };
  });
  return ranked.sort((a, b) => a.rank - b.rank || a.label.localeCompare(b.label));
}

interface Score {
  label: string;
  regressions: number;
  fixes: number;
  statusOrder: number;
  size: number;
  result: Omit<RankedCandidate, "rank">;
}

function compareScores(a: Score, b: Score): number {
  // Red before the fixes: a candidate with a failing run on its final code is not done, however many
  // ids it turned green, and a green one whose runs printed no ids would otherwise rank below it.
  const red = (s: Score): number => (s.statusOrder === STATUS_ORDER.red ? 1 : 0);
  return a.regressions - b.regressions || red(a) - red(b) || b.fixes - a.fixes || a.statusOrder - b.statusOrder || a.size - b.size;
}

function score(candidate: RankableCandidate, base: Map<string, TestOutcome> | null): Score {
  const own = testOutcomes(candidate.testRecords);
  const tests = table(own, base);
  const keys = keyColours(candidate);
  const status = keys.red.length > 0 ? "red" : keys.green.length > 0 ? "green" : "unknown";
  const patch = patchSize(candidate.patch ?? "");
  const regressions = base === null ? tests.candidateOnly.failed.length : tests.passToFail.length;
  const fixes = base === null ? tests.candidateOnly.passed.length : tests.failToPass.length;
  const reasons = [
    base === null
      ? `failing: ${regressions} test(s) fail (no base to tell regressions from old failures)`
      : `regressions: ${regressions} pass-to-fail${regressions > 0 ? ` (${tests.passToFail.join(", ")})` : ""}`,
    base === null ? `passing: ${fixes} test(s) pass` : `fixes: ${fixes} fail-to-pass`,
    `status: ${status} (${keys.green.length} green key(s), ${keys.red.length} red)`,
    `patch: +${patch.added} -${patch.removed} in ${patch.paths.length} file(s)`,
  ];
  const silent = candidate.testRecords.filter((r) => r.applicability === "current" && r.verified && r.passed.length === 0).length;
  if (silent > 0)
    reasons.push(
      `no-ids: ${silent} verified run(s) printed no test ids, so their tests count in no table (run pytest with -rA or -v, go test with -v, or add a verify step)`,
    );
  return {
    label: candidate.label,
    regressions,
    fixes,
    statusOrder: STATUS_ORDER[status],
    size: patch.added + patch.removed,
    result: { label: candidate.label, status, keys, tests, patch, reasons },
  };
}

// Each id's outcome now, as the per-test view of the evidence has it (passing or failing; stale and
// unknown ids have none).
function testOutcomes(records: readonly VerificationRecord[]): Map<string, TestOutcome> {
  const out = new Map<string, TestOutcome>();
  for (const entry of testView(records).tests)
    if (entry.state === "passing" || entry.state === "failing") out.set(entry.key, entry.state === "passing" ? "passed" : "failed");
  return out;
}

function table(own: Map<string, TestOutcome>, base: Map<string, TestOutcome> | null): CandidateTestTable {
  const result: CandidateTestTable = {
    failToPass: [],
    passToPass: [],
    passToFail: [],
    failToFail: [],
    candidateOnly: { passed: [], failed: [] },
    baseOnly: [],
  };
  for (const [id, outcome] of own) {
    const before = base?.get(id);
    if (before === undefined) result.candidateOnly[outcome].push(id);
    else if (before === "failed") (outcome === "passed" ? result.failToPass : result.failToFail).push(id);
    else (outcome === "passed" ? result.passToPass : result.passToFail).push(id);
  }
  for (const id of base?.keys() ?? []) if (!own.has(id)) result.baseOnly.push(id);
  for (const list of [
    result.failToPass,
    result.passToPass,
    result.passToFail,
    result.failToFail,
    result.candidateOnly.passed,
    result.candidateOnly.failed,
    result.baseOnly,
  ])
    list.sort();
  return result;
}

function keyColours(candidate: ComparableCandidate): RankedCandidate["keys"] {
  const keys: RankedCandidate["keys"] = { green: [], red: [] };
  for (const { key, colour } of candidateColours(candidate).byKey.values()) keys[colour].push(key);
  return keys;
}

function patchSize(patch: string): RankedCandidate["patch"] {
  if (patch === "") return { paths: [], added: 0, removed: 0 };
  const files = parsePatch(patch);
  const paths = [...new Set(files.map((file) => file.newPath || file.oldPath))].sort();
  let added = 0;
  let removed = 0;
  for (const file of files)
    for (const hunk of file.hunks) {
      added += hunk.added;
      removed += hunk.removed;
    }
  return { paths, added, removed };
}
