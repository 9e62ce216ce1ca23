// Workspace snapshots for the `snapshot` invalidation mode: what a non-test command really changed.
// Inside a Git repository: a shadow git directory with a private index (seeded from the real one so
// `git add -A` only rehashes what changed) and `git write-tree`; two trees compare with `git diff-tree`.
// The blobs it writes go to the shadow's own object store, never into the agent's repository.
// Outside Git: a content hash per file.
import { createHash } from "node:crypto";
import { readdir, readFile, readlink } from "node:fs/promises";
import { join, relative } from "node:path";
import { createShadowRepository, runHostGit, type ShadowRepository } from "../tools/host-git.js";

/** One snapshot of a workspace: a Git tree id, or a map of relative paths to content hashes. */
export type WorkspaceSnapshot = { kind: "git"; tree: string } | { kind: "files"; hashes: Map<string, string> };

/** Takes snapshots of one workspace and lists the paths that differ between two of them. */
export interface WorkspaceSnapshotter {
  take(): Promise<WorkspaceSnapshot>;
  /** Workspace-relative paths that differ, sorted. */
  changedPaths(before: WorkspaceSnapshot, after: WorkspaceSnapshot): Promise<string[]>;
  /** Removes the private index. */
  close(): void;
}

/** Creates a snapshotter for `workspace` (Git when it lies inside a work tree, content hashes otherwise). */
export async function createWorkspaceSnapshotter(workspace: string): Promise<WorkspaceSnapshotter> {
  const shadow = await createShadowRepository(workspace);
  return shadow === null ? fileSnapshotter(workspace) : gitSnapshotter(workspace, shadow);
}

// Git runs against a shadow of the repository (src/tools/host-git.ts), so a filter, fsmonitor or hook
// that the agent configured never runs, and never decides what the snapshot sees.
async function git(workspace: string, shadow: ShadowRepository, args: string[]): Promise<string> {
  const result = await runHostGit(workspace, args, { env: shadow.env, config: ["core.quotePath=false"] });
  if (result.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr.trim() || `exit ${result.exitCode}`}`);
  return result.stdout.toString("utf8");
}

function gitSnapshotter(workspace: string, shadow: ShadowRepository): WorkspaceSnapshotter {
  const prefix = relative(shadow.location.top, workspace);
  return {
    async take() {
      await git(workspace, shadow, ["add", "-A", "--ignore-errors", "--", "."]);
      const tree = (await git(workspace, shadow, ["write-tree"])).trim();
      return { kind: "git", tree };
    },
    async changedPaths(before, after) {
      if (before.kind !== "git" || after.kind !== "git") throw new Error("snapshots of different kinds");
      if (before.tree === after.tree) return [];
      const out = await git(workspace, shadow, ["diff-tree", "-r", "-z", "--name-only", "--no-renames", before.tree, after.tree]);
      return out
        .split("\0")
        .filter((p) => p !== "")
        .map((p) => (prefix === "" ? p : relative(prefix, p)))
        .sort();
    },
    close() {
      void shadow.close();
    },
  };
}

function fileSnapshotter(workspace: string): WorkspaceSnapshotter {
  return {
    async take() {
      const hashes = new Map<string, string>();
      await hashTree(workspace, workspace, hashes);
      return { kind: "files", hashes };
    },
    changedPaths(before, after) {
      if (before.kind !== "files" || after.kind !== "files") return Promise.reject(new Error("snapshots of different kinds"));
      const paths = new Set<string>();
      for (const [path, hash] of before.hashes) if (after.hashes.get(path) !== hash) paths.add(path);
      for (const path of after.hashes.keys()) if (!before.hashes.has(path)) paths.add(path);
      return Promise.resolve([...paths].sort());
    },
    close() {
      // Nothing kept on disk.
    },
  };
}

// Symlinks are hashed by their target text, never followed (a link may leave the workspace).
async function hashTree(root: string, dir: string, hashes: Map<string, string>): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  await Promise.all(
    entries.map(async (entry) => {
      if (entry.name === ".git") return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return hashTree(root, path, hashes);
      const content = entry.isSymbolicLink() ? Buffer.from(`link:${await readlink(path).catch(() => "")}`) : await readFile(path).catch(() => null);
      if (content !== null) hashes.set(relative(root, path), createHash("sha1").update(content).digest("hex"));
      return undefined;
    }),
  );
}
