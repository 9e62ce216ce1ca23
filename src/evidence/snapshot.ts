// Workspace snapshots for the `snapshot` invalidation mode: what a non-test command really changed.
// Inside a Git repository: a private index (GIT_INDEX_FILE in a temp dir, seeded from the real one so
// `git add -A` only rehashes what changed) and `git write-tree`; two trees compare with `git diff-tree`.
// Outside Git: a content hash per file.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { readdir, readFile, readlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { trackTempDir } from "../tools/process-registry.js";

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
  const top = await git(workspace, ["rev-parse", "--show-toplevel"]).then((out) => out.trim(), () => null);
  return top === null ? fileSnapshotter(workspace) : gitSnapshotter(workspace, top);
}

function git(cwd: string, args: string[], env?: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", ["-c", "core.quotePath=false", ...args], { cwd, env: env ?? process.env, maxBuffer: 256 * 1024 * 1024, encoding: "utf8" }, (error, stdout) => {
      if (error === null) resolve(stdout);
      else reject(new Error(`git ${args.join(" ")} failed: ${error.message}`));
    });
  });
}

async function gitSnapshotter(workspace: string, top: string): Promise<WorkspaceSnapshotter> {
  const dir = mkdtempSync(join(tmpdir(), "ae-snapshot-"));
  trackTempDir(dir);
  const index = join(dir, "index");
  const realIndex = await git(workspace, ["rev-parse", "--path-format=absolute", "--git-path", "index"]).then((out) => out.trim(), () => null);
  if (realIndex !== null) {
    try {
      copyFileSync(realIndex, index);
    } catch {
      // A repository without an index yet: start empty.
    }
  }
  const env = { ...process.env, GIT_INDEX_FILE: index, GIT_OPTIONAL_LOCKS: "0" };
  const prefix = relative(top, workspace);
  return {
    async take() {
      await git(workspace, ["add", "-A", "--ignore-errors", "--", "."], env);
      const tree = (await git(workspace, ["write-tree"], env)).trim();
      return { kind: "git", tree };
    },
    async changedPaths(before, after) {
      if (before.kind !== "git" || after.kind !== "git") throw new Error("snapshots of different kinds");
      if (before.tree === after.tree) return [];
      const out = await git(workspace, ["diff-tree", "-r", "-z", "--name-only", "--no-renames", before.tree, after.tree]);
      return out
        .split("\0")
        .filter((p) => p !== "")
        .map((p) => (prefix === "" ? p : relative(prefix, p)))
        .sort();
    },
    close() {
      rmSync(dir, { recursive: true, force: true });
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
