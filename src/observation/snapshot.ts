// Workspace snapshots: what a command (a test run included) really changed.
// Inside a Git repository: a shadow git directory with a private index and `git write-tree`
// (snapshot-git.ts); files the repository ignores are fingerprinted by lstat (snapshot-stat.ts).
// Outside Git: a content hash per file. Runner by-products (`__pycache__`, `.pytest_cache`, coverage
// data) are left out everywhere.
import { createHash } from "node:crypto";
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { join, relative } from "node:path";

import { isRunnerByproduct, RUNNER_BYPRODUCT_EXCLUDES } from "../evidence/byproducts.js";
import { createShadowRepository } from "../tools/host-git.js";
import { createGitSnapshotter } from "./snapshot-git.js";
import { differingKeys, fingerprintOf, statOfFingerprint } from "./snapshot-stat.js";

/**
 * One snapshot: a Git tree id plus the ignored files' fingerprints, or a map of relative paths to
 * content hashes. `stats` holds each file's mtime and size (what Python's bytecode cache and go's
 * test cache trust), to tell a change whose mtime was put back ({@link mtimeResets}).
 */
export type WorkspaceSnapshot = (
  { kind: "git"; tree: string; ignored: Map<string, string> } | { kind: "files"; hashes: Map<string, string> }
) & { stats: Map<string, string> };

/** Takes snapshots of one workspace and lists the paths that differ between two of them. */
export interface WorkspaceSnapshotter {
  take(): Promise<WorkspaceSnapshot>;
  /** Workspace-relative paths that differ, sorted. */
  changedPaths(before: WorkspaceSnapshot, after: WorkspaceSnapshot): Promise<string[]>;
  /** Waits for snapshots in flight, then removes the private index; never rejects. */
  close(): Promise<void>;
}

/** More ignored files than this and a snapshot gives up (the effect is then unknown: fail closed). */
export { MAX_IGNORED_FILES } from "./snapshot-stat.js";

/** Creates a snapshotter for `workspace` (Git when it lies inside a work tree, content hashes otherwise). */
export async function createWorkspaceSnapshotter(workspace: string): Promise<WorkspaceSnapshotter> {
  const shadow = await createShadowRepository(workspace, { extraExcludes: RUNNER_BYPRODUCT_EXCLUDES });
  return shadow === null ? fileSnapshotter(workspace) : createGitSnapshotter(workspace, shadow);
}

/**
 * The changed paths (`changed`, from {@link WorkspaceSnapshotter.changedPaths}) whose mtime (to the
 * second) and size are what they were before: the content changed and the stat was put back (`touch
 * -r`, `cp -p` of a same-size file), or a same-size edit landed in the same second as the last look
 * (`a + b` to `a - b` right after a run). Python's bytecode cache keys on exactly these (whole
 * seconds and the size), go's test cache on the mtime and size of the files a test opens, so they may
 * still answer for the old content.
 * @example mtimeResets(before, after, ["mod.py"]) // ["mod.py"] after a same-size edit and `touch -r`
 */
export function mtimeResets(before: WorkspaceSnapshot, after: WorkspaceSnapshot, changed: readonly string[]): string[] {
  return changed.filter((path) => {
    const old = before.stats.get(path);
    const now = after.stats.get(path);
    return old !== undefined && now !== undefined && cacheStat(old) === cacheStat(now);
  });
}

/** What the caches compare of a `seconds:nanoseconds:size` stat: the whole seconds and the size. */
export function cacheStat(stat: string): string {
  const [seconds = "", , size = ""] = stat.split(":");
  return `${seconds}:${size}`;
}

function fileSnapshotter(workspace: string): WorkspaceSnapshotter {
  return {
    async take() {
      const hashes = new Map<string, string>();
      const stats = new Map<string, string>();
      await hashTree(workspace, workspace, hashes, stats);
      return { kind: "files", hashes, stats };
    },
    changedPaths(before, after) {
      if (before.kind !== "files" || after.kind !== "files") return Promise.reject(new Error("snapshots of different kinds"));
      return Promise.resolve(differingKeys(before.hashes, after.hashes).sort());
    },
    close() {
      return Promise.resolve(); // nothing kept on disk
    },
  };
}

// Symlinks are hashed by their target text, never followed (a link may leave the workspace).
async function hashTree(root: string, dir: string, hashes: Map<string, string>, stats: Map<string, string>): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  await Promise.all(
    entries.map(async (entry) => {
      if (entry.name === ".git") return;
      const path = join(dir, entry.name);
      if (isRunnerByproduct(relative(root, path))) return;
      if (entry.isDirectory()) return hashTree(root, path, hashes, stats);
      const content = entry.isSymbolicLink()
        ? Buffer.from(`link:${await readlink(path).catch(() => "")}`)
        : await readFile(path).catch(() => null);
      if (content !== null) hashes.set(relative(root, path), createHash("sha1").update(content).digest("hex"));
      const info = await lstat(path, { bigint: true }).catch(() => null);
      if (info !== null) stats.set(relative(root, path), statOfFingerprint(fingerprintOf(info)));
      return undefined;
    }),
  );
}
