// createCandidateWorkspace(): a detached worktree that starts from exactly what the source holds now.
import { realpathSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";

import { EvidenceError } from "../errors.js";
import { adoptCandidatePatch } from "./adopt.js";
import { captureCandidateChange } from "./capture.js";
import { CandidateCaptureError, CandidateSourceError } from "./errors.js";
import { readGit, runGit } from "./git.js";
import { findSubmoduleChanges, renderSubmoduleChanges, type SubmoduleChange } from "./submodule-guard.js";
import { initialiseSubmodules } from "./submodule-init.js";
import { snapshotWorkingTree } from "./tree-snapshot.js";

/** Options for {@link createCandidateWorkspace}. */
export interface CandidateWorkspaceOptions {
  /** A name for the candidate, used in the temporary directory name and in error messages. */
  label: string;
}

/** What a candidate started from. */
export interface CandidateBase {
  /** The source HEAD commit. */
  revision: string;
  /** The tree of the source's working files at creation (HEAD plus uncommitted changes). */
  tree: string;
}

/** A candidate's Git worktree. Nothing is removed until {@link CandidateWorkspace.dispose}. */
export interface CandidateWorkspace {
  readonly label: string;
  /** The directory matching `repo` inside the worktree (the worktree root when `repo` was the root). */
  readonly path: string;
  /** The worktree root. */
  readonly root: string;
  /** The source repository's root. */
  readonly source: string;
  readonly base: CandidateBase;
  /** The change against `base` as a binary Git patch ("" when unchanged); throws CandidateCaptureError. */
  capture(): Promise<string>;
  /** The same patch, and the tree object of the working files it was taken from. */
  captureChange(): Promise<{ patch: string; tree: string }>;
  /** The worktree's git directory as created (not the `.git` file the candidate could rewrite). */
  readonly gitDir: string;
  /** Applies a captured patch to the source atomically; throws when the source HEAD moved or it conflicts. */
  adopt(patch: string): Promise<void>;
  /** Removes the worktree, its admin entry and its temporary directory. Safe to call twice. */
  dispose(): Promise<void>;
}

/** The worktree-local ref that keeps the base tree reachable (and findable) while the candidate lives. */
export const CANDIDATE_BASE_REF = "refs/worktree/agent-evidence/base";

async function resolveSource(repo: string): Promise<{ root: string; prefix: string; revision: string }> {
  const dir = resolve(repo);
  const top = await runGit(dir, ["rev-parse", "--show-toplevel", "--show-prefix"], { allowFailure: true }).catch((error: unknown) => {
    throw new CandidateSourceError(dir, `cannot create a candidate from ${dir}: it is not a readable directory`, { cause: error });
  });
  if (top.exitCode !== 0) throw new CandidateSourceError(dir, `cannot create a candidate from ${dir}: it is not inside a Git working tree`);
  const [root = "", prefix = ""] = Buffer.from(top.stdout).toString("utf8").split("\n");
  const head = await runGit(root, ["rev-parse", "--verify", "-q", "HEAD^{commit}"], { allowFailure: true });
  if (head.exitCode !== 0) throw new CandidateSourceError(root, `cannot create a candidate from ${root}: the repository has no commit yet`);
  return { root, prefix, revision: Buffer.from(head.stdout).toString("utf8").trim() };
}

// Reading the source can fail on broken module metadata; that is a refusal, reported as one.
async function inspectSource(source: string, revision: string, label: string): Promise<{ tree: string; changes: SubmoduleChange[] }> {
  try {
    const tree = await snapshotWorkingTree(source, revision);
    return { tree, changes: await findSubmoduleChanges(source, revision, tree) };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new CandidateSourceError(
      source,
      `cannot create candidate ${label}: reading the source ${source} failed (${why}). No worktree was created.`,
      { cause: error },
    );
  }
}

// `git worktree add` and `remove` of one repository must not overlap: git lists the existing worktrees
// while it adds one, and reads a half-made admin directory of a parallel add ("failed to read
// .git/worktrees/x1/commondir"). Parallel candidates of one source take turns for these two commands.
const worktreeTurns = new Map<string, Promise<unknown>>();
function inWorktreeTurn<T>(source: string, step: () => Promise<T>): Promise<T> {
  const previous = worktreeTurns.get(source) ?? Promise.resolve();
  const next = previous.then(step, step);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  worktreeTurns.set(source, settled);
  void settled.then(() => {
    if (worktreeTurns.get(source) === settled) worktreeTurns.delete(source);
  });
  return next;
}

// A directory name: never "." or "..", never hidden (the parent's `.evidence` is the bundle's).
function safeLabel(label: string): string {
  return (
    label
      .replace(/[^A-Za-z0-9._-]/g, "_")
      .replace(/^\./, "_")
      .slice(0, 40) || "candidate"
  );
}

/** The name of every candidate's temporary directory (`agent-evidence-candidate-<label>-XXXXXX`): one of the two signs a worktree is ours. */
export const CANDIDATE_PARENT = /^agent-evidence-candidate-/;

/** Where runCandidate writes a candidate's evidence bundle: beside its worktree, in the same temporary directory. */
export const CANDIDATE_BUNDLE_DIR = ".evidence";

/**
 * Creates a detached worktree at the source HEAD with the source's uncommitted changes (tracked and
 * untracked-not-ignored) applied and staged, and the source's checked-out submodules initialised from
 * the source checkout. A source with submodule changes is refused before anything is created.
 * @example
 * const ws = await createCandidateWorkspace("/repo", { label: "a" });
 * // ... let an agent edit ws.path ...
 * const patch = await ws.capture();
 * await ws.adopt(patch);
 * await ws.dispose();
 */
export async function createCandidateWorkspace(repo: string, options: CandidateWorkspaceOptions): Promise<CandidateWorkspace> {
  const label = options.label as unknown;
  if (typeof label !== "string" || label.trim() === "") {
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `createCandidateWorkspace option "label" is ${JSON.stringify(label)}; accepted: a non-empty string.`,
    );
  }
  const { root: source, prefix, revision } = await resolveSource(repo);
  const { tree, changes } = await inspectSource(source, revision, label);
  if (changes.length > 0) {
    throw new CandidateSourceError(
      source,
      `cannot create candidate ${label}: the source ${source} has submodule changes (${renderSubmoduleChanges(changes)}); commit them in the module and the superproject first. No worktree was created.`,
    );
  }
  const parent = realpathSync(await mkdtemp(join(tmpdir(), `agent-evidence-candidate-${safeLabel(label)}-`)));
  const root = join(parent, safeLabel(label));
  let gitDir: string | undefined;
  const removeAll = async (): Promise<void> => {
    const removed = await inWorktreeTurn(source, () =>
      runGit(source, ["worktree", "remove", "--force", "--force", root], { allowFailure: true }),
    );
    // git refuses to remove worktrees with populated submodules; the manual removal is what prune does.
    if (removed.exitCode !== 0) {
      await rm(root, { recursive: true, force: true });
      if (gitDir !== undefined && basename(dirname(gitDir)) === "worktrees") await rm(gitDir, { recursive: true, force: true });
    }
    await rm(parent, { recursive: true, force: true });
  };
  try {
    await inWorktreeTurn(source, () => runGit(source, ["worktree", "add", "--quiet", "--detach", root, revision]));
    gitDir = await readGit(root, ["rev-parse", "--absolute-git-dir"]);
    if (tree !== (await readGit(root, ["rev-parse", "HEAD^{tree}"]))) await runGit(root, ["read-tree", "-m", "-u", "HEAD", tree]);
    await runGit(root, ["update-ref", CANDIDATE_BASE_REF, tree]);
    await initialiseSubmodules(source, root, gitDir);
  } catch (error) {
    await removeAll();
    throw error;
  }
  let disposed = false;
  const createdGitDir = gitDir;
  const base: CandidateBase = { revision, tree };
  const workspace: CandidateWorkspace = {
    label,
    path: prefix === "" ? root : join(root, prefix.replace(/\/$/, "")),
    root,
    source,
    base,
    capture: async () => (await workspace.captureChange()).patch,
    captureChange: async () => {
      try {
        return await captureCandidateChange({ label, root, baseTree: tree, gitDir });
      } catch (error) {
        if (error instanceof CandidateCaptureError) error.workspace = workspace;
        throw error;
      }
    },
    gitDir: createdGitDir,
    adopt: (patch) => adoptCandidatePatch({ label, source, revision }, patch),
    dispose: async () => {
      if (disposed) return;
      disposed = true;
      await removeAll();
    },
  };
  return workspace;
}
