// pruneCandidates(): removes the candidate worktrees this library left behind (a process killed
// mid-run never disposed them), and nothing else. Ours by two signs: the worktree lies in a temporary
// directory named `agent-evidence-candidate-*`, and its git directory holds the marker ref
// CANDIDATE_BASE_REF. A worktree missing one of them is someone else's and is never touched.
import { existsSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";

import { readGit, runGit } from "./git.js";
import { CANDIDATE_BASE_REF, CANDIDATE_PARENT } from "./workspace.js";

/** What {@link pruneCandidates} removed. */
export interface PruneCandidatesResult {
  /** Worktree roots removed (with their temporary directories and admin entries). */
  removed: string[];
}

/**
 * Removes this library's leftover candidate worktrees of `repo` (run it when no candidate of the
 * repository is running: a live one would be removed too).
 * @example await pruneCandidates("/repo") // { removed: ["/tmp/agent-evidence-candidate-a-x1/a"] }
 */
export async function pruneCandidates(repo: string): Promise<PruneCandidatesResult> {
  const top = await readGit(resolve(repo), ["rev-parse", "--show-toplevel"]);
  const common = await readGit(top, ["rev-parse", "--path-format=absolute", "--git-common-dir"]);
  const admin = join(common, "worktrees");
  const entries = existsSync(admin) ? await readdir(admin) : [];
  const removed: string[] = [];
  for (const entry of entries) {
    const gitDir = join(admin, entry);
    const gitdirFile = await readFile(join(gitDir, "gitdir"), "utf8").catch(() => null);
    if (gitdirFile === null) continue;
    const root = dirname(gitdirFile.trim());
    const parent = dirname(root);
    // The marker: the worktree-local base ref, kept in the worktree's own git directory.
    const marked = existsSync(join(gitDir, ...CANDIDATE_BASE_REF.split("/")));
    if (!CANDIDATE_PARENT.test(basename(parent)) || !marked) continue;
    const result = await runGit(top, ["worktree", "remove", "--force", "--force", root], { allowFailure: true });
    if (result.exitCode !== 0) {
      await rm(root, { recursive: true, force: true });
      await rm(gitDir, { recursive: true, force: true });
    }
    await rm(parent, { recursive: true, force: true });
    removed.push(root);
  }
  return { removed: removed.sort() };
}
