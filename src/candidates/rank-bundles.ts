// rankBundledWorktrees(): ranks candidate worktrees that runCandidate made on the evidence their
// bundles hold (`candidates rank` without `--verify`), nothing run. A bundle counts only while it
// re-hashes as its manifest says and the worktree's files are still the ones its evidence was
// recorded on; otherwise the candidate's records count as unknown, with the reason.
import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";

import { readRegularFile } from "../io/named-files.js";
import { verifyEvidenceBundle } from "../observation/bundle.js";
import type { VerificationRecord } from "../types.js";
import { rankCandidates } from "./rank.js";
import type { RankedWorktree } from "./rank-worktrees.js";
import type { CandidateBundleInfo } from "./run-candidate.js";
import { snapshotWorkingTree } from "./tree-snapshot.js";
import { CANDIDATE_BUNDLE_DIR, CANDIDATE_PARENT } from "./workspace.js";

/** A worktree given that runCandidate did not make (no bundle beside it). */
export class NotACandidateWorktreeError extends Error {
  constructor(readonly worktree: string) {
    super(`${worktree} is not a worktree runCandidate made (no evidence bundle beside it); rank it with --verify`);
    this.name = "NotACandidateWorktreeError";
  }
}

/**
 * Ranks runCandidate's worktrees on their bundles, without a base (the candidates' own failing and
 * passing ids decide, as rankCandidates does without one).
 * @example await rankBundledWorktrees(["/tmp/agent-evidence-candidate-a-x1/a", "/tmp/agent-evidence-candidate-b-y2/b"])
 */
export async function rankBundledWorktrees(worktrees: readonly string[]): Promise<RankedWorktree[]> {
  const candidates = await Promise.all(worktrees.map(async (worktree) => ({ label: worktree, ...(await readCandidate(worktree)) })));
  const ranked = rankCandidates(candidates);
  return ranked.map((candidate) => {
    const doubt = candidates.find((c) => c.label === candidate.label)?.doubt;
    return { ...candidate, worktree: candidate.label, reasons: doubt === undefined ? candidate.reasons : [doubt, ...candidate.reasons] };
  });
}

interface BundledCandidate {
  testRecords: VerificationRecord[];
  root: string | null;
  patch: string;
  /** Why the bundle's evidence does not count (its records are then unknown). */
  doubt?: string;
}

async function readCandidate(worktree: string): Promise<BundledCandidate> {
  const root = candidateRoot(worktree);
  const dir = join(dirname(root), CANDIDATE_BUNDLE_DIR);
  const checked = verifyEvidenceBundle(dir);
  if (!checked.ok) return { testRecords: [], root, patch: "", doubt: `bundle: ${checked.problems[0] ?? "does not verify"}` };
  const info = parseJson(join(dir, "candidate.json"), isBundleInfo);
  const records = parseJson(join(dir, "records.json"), isRecordList);
  const patch = checked.manifest?.files.some((f) => f.path === "patch.diff") === true ? (readText(join(dir, "patch.diff")) ?? "") : "";
  if (info === null || records === null)
    return { testRecords: [], root, patch, doubt: "bundle: candidate.json or records.json is not what runCandidate writes" };
  if (info.root !== root) return { testRecords: [], root, patch, doubt: `bundle: it was written for ${info.root}, not this worktree` };
  const now = await snapshotWorkingTree(info.root, info.base.tree, info.gitDir).catch(() => null);
  if (now === info.tree) return { testRecords: records, root: info.path, patch };
  const unknown = records.map((r) => ({
    ...r,
    applicability: "unknown" as const,
    verified: false,
    postTestEdits: [...r.postTestEdits, null],
  }));
  return {
    testRecords: unknown,
    root: info.path,
    patch,
    doubt: "changed-since-bundle: the worktree's files are not the ones its evidence was recorded on",
  };
}

// The worktree root whose parent is one of runCandidate's temporary directories.
function candidateRoot(worktree: string): string {
  let dir: string;
  try {
    dir = realpathSync(worktree);
  } catch {
    throw new NotACandidateWorktreeError(worktree);
  }
  for (; dirname(dir) !== dir; dir = dirname(dir)) {
    if (CANDIDATE_PARENT.test(basename(dirname(dir))) && existsSync(join(dirname(dir), CANDIDATE_BUNDLE_DIR, "manifest.json"))) return dir;
  }
  throw new NotACandidateWorktreeError(worktree);
}

// The largest bundle file read here: 256 MiB (records of a long session; a patch).
const MAX_BUNDLE_FILE = 256 << 20;

function readText(path: string): string | null {
  try {
    return readRegularFile(path, { cap: MAX_BUNDLE_FILE }).toString("utf8");
  } catch {
    return null;
  }
}

function parseJson<T>(path: string, guard: (value: unknown) => value is T): T | null {
  try {
    const value: unknown = JSON.parse(readText(path) ?? "");
    return guard(value) ? value : null;
  } catch {
    return null;
  }
}

const isString = (v: unknown): v is string => typeof v === "string";
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

function isBundleInfo(value: unknown): value is CandidateBundleInfo {
  const v = value as Partial<CandidateBundleInfo> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    isString(v.root) &&
    isString(v.path) &&
    isString(v.gitDir) &&
    isString(v.tree) &&
    typeof v.base === "object" &&
    v.base !== null &&
    isString(v.base.tree)
  );
}

function isRecordList(value: unknown): value is VerificationRecord[] {
  return (
    Array.isArray(value) &&
    value.every((item) => {
      const r = item as Partial<VerificationRecord> | null;
      return (
        typeof r === "object" &&
        r !== null &&
        typeof r.seq === "number" &&
        isString(r.target) &&
        isString(r.runner) &&
        isString(r.command) &&
        (r.workspace === null || isString(r.workspace)) &&
        (r.exitCode === null || typeof r.exitCode === "number") &&
        typeof r.verified === "boolean" &&
        (r.applicability === "current" || r.applicability === "unknown") &&
        (r.outcome === "passed" || r.outcome === "failed" || r.outcome === "unknown") &&
        isStringList(r.passed) &&
        isStringList(r.failed) &&
        isStringList(r.reasons) &&
        typeof r.filtered === "boolean" &&
        Array.isArray(r.postTestEdits) &&
        isStringList(r.postTestCommands)
      );
    })
  );
}
