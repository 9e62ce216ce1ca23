// Workspace snapshots: what a command (a test run included) really changed.
// Inside a Git repository: a shadow git directory with a private index (seeded from the real one so
// `git add -A` only rehashes what changed) and `git write-tree`; two trees compare with `git diff-tree`.
// Files the repository ignores are no less read by runners (an ignored `conftest.py`, a generated
// module), so they are fingerprinted too: by lstat (inode, size, mode, mtime and ctime in ns; a change
// of content always moves ctime, which no unprivileged process can set back). The blobs go to the
// shadow's own object store, never into the agent's repository. Outside Git: a content hash per file.
// Runner by-products (`__pycache__`, `.pytest_cache`, coverage data) are left out everywhere.
import { createHash } from "node:crypto";
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { join, relative } from "node:path";
import { createShadowRepository, runHostGit, type ShadowRepository } from "../tools/host-git.js";
import { isRunnerByproduct, RUNNER_BYPRODUCT_EXCLUDES } from "./byproducts.js";

/**
 * One snapshot: a Git tree id plus the ignored files' fingerprints, or a map of relative paths to
 * content hashes. `stats` holds each file's mtime and size (what Python's bytecode cache and go's
 * test cache trust), to tell a change whose mtime was put back ({@link mtimeResets}).
 */
export type WorkspaceSnapshot = ({ kind: "git"; tree: string; ignored: Map<string, string> } | { kind: "files"; hashes: Map<string, string> }) & { stats: Map<string, string> };

/** Takes snapshots of one workspace and lists the paths that differ between two of them. */
export interface WorkspaceSnapshotter {
  take(): Promise<WorkspaceSnapshot>;
  /** Workspace-relative paths that differ, sorted. */
  changedPaths(before: WorkspaceSnapshot, after: WorkspaceSnapshot): Promise<string[]>;
  /** Waits for snapshots in flight, then removes the private index; never rejects. */
  close(): Promise<void>;
}

/** More ignored files than this and a snapshot gives up (the effect is then unknown: fail closed). */
export const MAX_IGNORED_FILES = 100_000;

/** Creates a snapshotter for `workspace` (Git when it lies inside a work tree, content hashes otherwise). */
export async function createWorkspaceSnapshotter(workspace: string): Promise<WorkspaceSnapshotter> {
  const shadow = await createShadowRepository(workspace, { extraExcludes: RUNNER_BYPRODUCT_EXCLUDES });
  return shadow === null ? fileSnapshotter(workspace) : gitSnapshotter(workspace, shadow);
}

// Git runs against a shadow of the repository (src/tools/host-git.ts), so a filter, fsmonitor or hook
// that the agent configured never runs, and never decides what the snapshot sees. The stat-cache
// settings are fixed too: ctime is trusted and every stat field checked, whatever the agent set.
const SNAPSHOT_GIT_CONFIG = ["core.quotePath=false", "core.checkStat=default", "core.trustctime=true", "core.ignoreStat=false", "core.symlinks=true"];

async function git(workspace: string, shadow: ShadowRepository, args: string[], input?: Buffer): Promise<Buffer> {
  const result = await runHostGit(workspace, args, { env: shadow.env, config: SNAPSHOT_GIT_CONFIG, ...(input === undefined ? {} : { input }) });
  if (result.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr.trim() || `exit ${result.exitCode}`}`);
  return result.stdout;
}

function gitSnapshotter(workspace: string, shadow: ShadowRepository): WorkspaceSnapshotter {
  const prefix = relative(shadow.location.top, workspace);
  // Entries whose recorded ctime falls in a second a snapshot refreshed them in (null: check all).
  let atRisk: Set<string> | null = null;
  // Git work runs one operation at a time (two would race for the shadow's index.lock), and close
  // waits for the last, or its writes into the shadow race the removal.
  let queue: Promise<unknown> = Promise.resolve();
  const queued = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
  const snapshotter: WorkspaceSnapshotter = {
    take: () => queued(take),
    changedPaths: (before, after) => queued(() => changedPaths(before, after)),
    close: () => queued(() => shadow.close()).catch(() => undefined),
  };
  return snapshotter;

  async function take(): Promise<WorkspaceSnapshot> {
    const started = BigInt(Math.floor(Date.now() / 1000));
    await git(workspace, shadow, ["add", "-A", "--ignore-errors", "--", "."]);
    // git compares ctime and mtime to the second: a change made in the second its entry's ctime
    // was recorded, with the mtime put back, looks clean. Such an entry can only be one whose
    // ctime fell in the second of a snapshot that recorded it (or, the first time, any entry of
    // the seeded index): its stat is compared with the file's to the nanosecond, and if it
    // differs the entry is taken out and added again, which hashes its content.
    let listing = await git(workspace, shadow, ["ls-files", "-z", "--debug", "--", "."]);
    let index = parseIndex(listing.toString("utf8"));
    const stale = await staleEntries(workspace, index, atRisk);
    if (stale.length > 0) {
      const paths = Buffer.from(stale.join("\0") + "\0");
      await git(workspace, shadow, ["rm", "--cached", "-q", "--ignore-unmatch", "--pathspec-from-file=-", "--pathspec-file-nul"], paths);
      await git(workspace, shadow, ["add", "-A", "--ignore-errors", "--pathspec-from-file=-", "--pathspec-file-nul"], paths);
      listing = await git(workspace, shadow, ["ls-files", "-z", "--debug", "--", "."]);
      index = parseIndex(listing.toString("utf8"));
    }
    atRisk = new Set([...index].filter(([, entry]) => BigInt(entry.ctime.slice(0, entry.ctime.indexOf(":"))) >= (started - 1n) % 4_294_967_296n).map(([path]) => path));
    const tree = (await git(workspace, shadow, ["write-tree"])).toString("utf8").trim();
    const listed = (await git(workspace, shadow, ["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--", "."])).toString("utf8");
    const paths = listed.split("\0").filter((p) => p !== "" && !isRunnerByproduct(p));
    if (paths.length > MAX_IGNORED_FILES) throw new Error(`more than ${MAX_IGNORED_FILES} ignored files`);
    const ignored = await fingerprints(workspace, paths);
    // The private index holds every other file's stat as `git add` just saw it.
    const stats = new Map([...index].map(([path, entry]) => [path, `${entry.mtime}:${entry.size}`]));
    for (const [path, fingerprint] of ignored) stats.set(path, statOfFingerprint(fingerprint));
    return { kind: "git", tree, ignored, stats };
  }

  async function changedPaths(before: WorkspaceSnapshot, after: WorkspaceSnapshot): Promise<string[]> {
    if (before.kind !== "git" || after.kind !== "git") throw new Error("snapshots of different kinds");
    const paths = new Set(differingKeys(before.ignored, after.ignored));
    if (before.tree !== after.tree) {
      const out = (await git(workspace, shadow, ["diff-tree", "-r", "-z", "--name-only", "--no-renames", before.tree, after.tree])).toString("utf8");
      for (const path of out.split("\0")) if (path !== "") paths.add(prefix === "" ? path : relative(prefix, path));
    }
    return [...paths].sort();
  }
}

// lstat fingerprints, a bounded number at a time; a file gone between the listing and the lstat is left out.
async function fingerprints(workspace: string, paths: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < paths.length; i += 256) {
    await Promise.all(
      paths.slice(i, i + 256).map(async (path) => {
        const info = await lstat(join(workspace, path), { bigint: true }).catch(() => null);
        if (info !== null) out.set(path, `${info.ino}:${info.mode}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`);
      }),
    );
  }
  return out;
}

interface IndexEntry {
  /** `seconds:nanoseconds`. */
  ctime: string;
  mtime: string;
  size: string;
}

// `git ls-files -z --debug` (paths relative to the workspace, like the other listings): each path, a
// NUL, then indented `ctime:`, `mtime:`, ..., `size:` lines.
function parseIndex(text: string): Map<string, IndexEntry> {
  const out = new Map<string, IndexEntry>();
  const entry = /([^\0]*)\0\s*ctime: (\d+:\d+)\n\s*mtime: (\d+:\d+)\n[^\0]*?size: (\d+)[^\n]*\n/g;
  for (const match of text.matchAll(entry)) out.set(match[1]!, { ctime: match[2]!, mtime: match[3]!, size: match[4]! });
  return out;
}

// Entries (of `only`, or all) whose recorded stat is not the file's own, to the nanosecond (the index
// keeps 32 bits of seconds and the size modulo 2^32, as git writes them).
async function staleEntries(workspace: string, index: Map<string, IndexEntry>, only: Set<string> | null): Promise<string[]> {
  const stale: string[] = [];
  const entries = only === null ? [...index] : [...only].flatMap((path) => {
    const entry = index.get(path);
    return entry === undefined ? [] : [[path, entry] as const];
  });
  const spell = (ns: bigint): string => `${(ns / 1_000_000_000n) % 4_294_967_296n}:${ns % 1_000_000_000n}`;
  for (let i = 0; i < entries.length; i += 256) {
    await Promise.all(
      entries.slice(i, i + 256).map(async ([path, entry]) => {
        const info = await lstat(join(workspace, path), { bigint: true }).catch(() => null);
        if (info === null) return;
        if (spell(info.ctimeNs) !== entry.ctime || spell(info.mtimeNs) !== entry.mtime || String(info.size % 4_294_967_296n) !== entry.size) stale.push(path);
      }),
    );
  }
  return stale;
}

// mtime (seconds, nanoseconds) and size from an lstat fingerprint `ino:mode:size:mtimeNs:ctimeNs`.
function statOfFingerprint(fingerprint: string): string {
  const [, , size = "", mtimeNs = "0"] = fingerprint.split(":");
  const ns = BigInt(mtimeNs);
  return `${ns / 1_000_000_000n}:${ns % 1_000_000_000n}:${size}`;
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

function differingKeys(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths: string[] = [];
  for (const [path, value] of before) if (after.get(path) !== value) paths.push(path);
  for (const path of after.keys()) if (!before.has(path)) paths.push(path);
  return paths;
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
      const content = entry.isSymbolicLink() ? Buffer.from(`link:${await readlink(path).catch(() => "")}`) : await readFile(path).catch(() => null);
      if (content !== null) hashes.set(relative(root, path), createHash("sha1").update(content).digest("hex"));
      const info = await lstat(path, { bigint: true }).catch(() => null);
      if (info !== null) stats.set(relative(root, path), statOfFingerprint(`${info.ino}:${info.mode}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`));
      return undefined;
    }),
  );
}
