// rankWorktrees(): the pipeline form of rankCandidates for worktrees that already exist (made by
// runCandidate, or by any other tool): one fixed verify command in each, through a fresh observed
// toolset, and once on the base commit in a temporary worktree; then the ranking. The CLI's
// `candidates rank` calls it.
import { realpathSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { EvidenceError } from "../errors.js";
import type { VerificationRecord } from "../types.js";
import { readGit, runGit } from "./git.js";
import { rankCandidates, type RankedCandidate } from "./rank.js";
import { bashToolOf, type CandidateToolset, type CandidateVerifyStep } from "./run-candidate.js";
import { snapshotWorkingTree } from "./tree-snapshot.js";
import { CANDIDATE_BASE_REF } from "./workspace.js";

/** Options of {@link rankWorktrees}. */
export interface RankWorktreesOptions<Tools> {
  /** The candidates' worktrees (each inside a Git work tree), as given; they are only read. */
  worktrees: readonly string[];
  verify: CandidateVerifyStep;
  /** A revision of the first worktree's repository: verified once as the base, and what patches are taken against (default: each worktree's HEAD, no base run). */
  base?: string;
  /** A fresh observed toolset for a directory (`evidenceTools(["bash"], { cwd })`). */
  createToolset: (dir: string) => CandidateToolset<Tools>;
}

/** A ranked worktree. */
export interface RankedWorktree extends RankedCandidate {
  /** The worktree as given. */
  worktree: string;
}

/**
 * Verifies and ranks existing worktrees.
 * @example await rankWorktrees({ worktrees: ["/tmp/a", "/tmp/b"], verify: { command: "pytest -rA tests" }, base: "main", createToolset })
 */
export async function rankWorktrees<Tools>(options: RankWorktreesOptions<Tools>): Promise<RankedWorktree[]> {
  const roots = await Promise.all(options.worktrees.map((dir) => readGit(dir, ["rev-parse", "--show-toplevel"])));
  const baseRecords = options.base === undefined ? undefined : await verifyBase(roots[0]!, options.base, options);
  const candidates = [];
  for (const [i, worktree] of options.worktrees.entries()) {
    const root = realpathSync(worktree);
    const testRecords = await verifyIn(root, options);
    const against = options.base ?? "HEAD";
    const tree = await snapshotWorkingTree(roots[i]!, await readGit(roots[i]!, ["rev-parse", "--verify", `${against}^{commit}`]));
    const patch = Buffer.from(
      (await runGit(roots[i]!, ["diff", "--binary", "--no-color", "--no-ext-diff", `${against}^{tree}`, tree])).stdout,
    ).toString("utf8");
    candidates.push({ label: worktree, testRecords, root, patch });
  }
  const ranked = rankCandidates(candidates, baseRecords === undefined ? {} : { base: { testRecords: baseRecords } });
  return ranked.map((candidate) => ({ ...candidate, worktree: candidate.label }));
}

async function verifyIn<Tools>(dir: string, options: RankWorktreesOptions<Tools>): Promise<VerificationRecord[]> {
  const toolset = options.createToolset(dir);
  try {
    const bash = bashToolOf(toolset.tools);
    if (bash === null) throw new EvidenceError("E_INVALID_OPTION", "the toolset has no bash tool");
    await bash.execute({
      command: options.verify.command,
      ...(options.verify.timeoutMs === undefined ? {} : { timeoutMs: options.verify.timeoutMs }),
    });
    return structuredClone(toolset.evidence.verificationRecords);
  } finally {
    await toolset.evidence.close?.().catch(() => undefined);
  }
}

// The base revision in a temporary detached worktree, marked as ours (pruneCandidates removes it
// after a crash), verified, then removed.
async function verifyBase<Tools>(repo: string, revision: string, options: RankWorktreesOptions<Tools>): Promise<VerificationRecord[]> {
  const commit = await readGit(repo, ["rev-parse", "--verify", `${revision}^{commit}`]);
  const parent = realpathSync(await mkdtemp(join(tmpdir(), "agent-evidence-candidate-base-")));
  const root = join(parent, "base");
  try {
    await runGit(repo, ["worktree", "add", "--quiet", "--detach", root, commit]);
    await runGit(root, ["update-ref", CANDIDATE_BASE_REF, `${commit}^{tree}`]);
    return await verifyIn(root, options);
  } finally {
    await runGit(repo, ["worktree", "remove", "--force", "--force", root], { allowFailure: true });
    await rm(parent, { recursive: true, force: true });
  }
}
