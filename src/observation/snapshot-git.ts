// Git snapshots: a shadow git directory with a private index (seeded from the real one, so only what
// changed is hashed) and `git write-tree`; two trees compare with `git diff-tree`. Files the
// repository ignores are no less read by runners (an ignored `conftest.py`, a generated module), so
// they are fingerprinted by lstat. The blobs go to the shadow's own object store, never into the
// agent's repository.
//
// A snapshot asks git only about what can have changed: one `git status` lists the paths whose work
// tree differs from the private index (by git's stat check, content where the stat is racy), the
// untracked and the ignored files; only those are added, the index is read in place (git-index.ts),
// and a tree is written only when the index changed. `add-all`, the first way (`git add -A`, the
// index listed by `git ls-files --debug`, a tree written every time), is kept as the reference the
// tests compare with, and as the fallback of a targeted add that git refuses.
import { readFile } from "node:fs/promises";
import { relative } from "node:path";

import { isRunnerByproduct } from "../evidence/byproducts.js";
import type { HostGitSettings, ShadowRepository } from "../tools/host-git.js";
import { createHostGitRunner } from "../tools/host-git-runner.js";
import { type GitIndexEntry, type GitIndexListing, parseGitIndex } from "./git-index.js";
import type { WorkspaceSnapshot, WorkspaceSnapshotter } from "./snapshot.js";
import { differingKeys, fingerprints, MAX_IGNORED_FILES, staleEntries, statOfFingerprint } from "./snapshot-stat.js";

/** How a git snapshot finds what changed: `status` (one `git status`, the default) or `add-all` (the reference). */
export type GitSnapshotStrategy = "status" | "add-all";

// Git runs against a shadow of the repository (src/tools/host-git.ts), so a filter, fsmonitor or hook
// that the agent configured never runs, and never decides what the snapshot sees. The stat-cache
// settings are fixed too: ctime is trusted and every stat field checked, whatever the agent set.
const SNAPSHOT_GIT_CONFIG = [
  "core.quotePath=false",
  "core.checkStat=default",
  "core.trustctime=true",
  "core.ignoreStat=false",
  "core.symlinks=true",
];

// `git status` may write the stat data it refreshed into the private index (as `git add -A` does for
// a file touched without a change); paths handed to git are literal, never patterns.
const STATUS_SETTINGS: HostGitSettings = { optionalLocks: true };
const LITERAL_SETTINGS: HostGitSettings = { literalPathspecs: true };

const STATUS_ARGS = [
  "status",
  "--porcelain",
  "-z",
  "--untracked-files=all",
  "--ignored=traditional",
  "--no-renames",
  "--ignore-submodules=dirty",
  "--",
  ".",
];

/** A git snapshotter over `shadow` (made by createShadowRepository for `workspace`). */
export function createGitSnapshotter(
  workspace: string,
  shadow: ShadowRepository,
  strategy: GitSnapshotStrategy = "status",
): WorkspaceSnapshotter {
  const prefix = relative(shadow.location.top, workspace);
  const hashBytes = shadow.objectFormat === "sha256" ? 32 : 20;
  // The snapshotter's git calls go through one helper process (host-git-runner.ts: a fork of a large
  // process is slow).
  const runner = createHostGitRunner();
  const git = async (args: string[], options: { input?: Buffer; settings?: HostGitSettings; cwd?: string } = {}): Promise<Buffer> => {
    const result = await runner.run(options.cwd ?? workspace, args, {
      ...options.settings,
      env: shadow.env,
      config: SNAPSHOT_GIT_CONFIG,
      ...(options.input === undefined ? {} : { input: options.input }),
    });
    if (result.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr.trim() || `exit ${result.exitCode}`}`);
    return result.stdout;
  };
  // Entries whose recorded ctime falls in a second a snapshot refreshed them in (null: check all).
  let atRisk: Set<string> | null = null;
  // The tree of the private index as the last snapshot left it, and the index as last read.
  let lastTree: string | null = null;
  let lastIndex: GitIndexListing | null = null;
  // The stats of the last snapshot and what they were made of.
  let lastStats: { index: Map<string, GitIndexEntry>; ignored: Map<string, string>; stats: Map<string, string> } | null = null;
  // The last comparison (a call's effect and the stat resets ask for the same pair).
  let lastDiff: { before: string; after: string; paths: string[] } | null = null;
  // The index each snapshot's tree was written from, when it was read in place: two of them compare
  // without `git diff-tree`.
  const indexOf = new WeakMap<WorkspaceSnapshot, Map<string, GitIndexEntry>>();
  // Git work runs one operation at a time (two would race for the shadow's index.lock), and close
  // waits for the last, or its writes into the shadow race the removal.
  let queue: Promise<unknown> = Promise.resolve();
  const queued = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    take: () =>
      queued(async () => {
        try {
          return await (strategy === "status" ? takeByStatus() : takeByAddAll());
        } catch (error) {
          // Whatever git left in the index, the next snapshot starts over.
          lastTree = null;
          lastIndex = null;
          throw error;
        }
      }),
    changedPaths: (before, after) => queued(() => changedPaths(before, after)),
    close: () =>
      queued(() => shadow.close())
        .catch(() => undefined)
        .finally(() => runner.close()),
  };

  async function takeByStatus(): Promise<WorkspaceSnapshot> {
    const started = Math.floor(Date.now() / 1000);
    const status = parseStatus((await git(STATUS_ARGS, { settings: STATUS_SETTINGS })).toString("utf8"), prefix);
    let wrote = false;
    if (status.changed.length > 0) {
      await addPaths(status.changed);
      wrote = true;
    }
    let index = await readIndex();
    // git compares ctime and mtime to the second: a change made in the second its entry's ctime
    // was recorded, with the mtime put back, looks clean. Such an entry can only be one whose
    // ctime fell in the second of a snapshot that recorded it (or, the first time, any entry of
    // the seeded index): its stat is compared with the file's to the nanosecond, and if it
    // differs the entry is taken out and added again, which hashes its content.
    const stale = await staleEntries(workspace, index, atRisk);
    if (stale.length > 0) {
      await readd(stale);
      wrote = true;
      index = await readIndex();
    }
    atRisk = entriesOfSecond(index, started);
    if (wrote || lastTree === null) lastTree = (await git(["write-tree"])).toString("utf8").trim();
    return finish(lastTree, index, status.ignored);
  }

  // The reference: what every snapshot did before `status`.
  async function takeByAddAll(): Promise<WorkspaceSnapshot> {
    const started = Math.floor(Date.now() / 1000);
    await git(["add", "-A", "--ignore-errors", "--", "."]);
    let index = await listIndexByGit();
    const stale = await staleEntries(workspace, index, atRisk);
    if (stale.length > 0) {
      await readd(stale);
      index = await listIndexByGit();
    }
    atRisk = entriesOfSecond(index, started);
    const tree = (await git(["write-tree"])).toString("utf8").trim();
    const listed = (await git(["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--", "."])).toString("utf8");
    return finish(
      tree,
      index,
      listed.split("\0").filter((p) => p !== ""),
    );
  }

  async function finish(tree: string, index: Map<string, GitIndexEntry>, ignoredPaths: string[]): Promise<WorkspaceSnapshot> {
    const paths = ignoredPaths.filter((p) => !isRunnerByproduct(p));
    if (paths.length > MAX_IGNORED_FILES) throw new Error(`more than ${MAX_IGNORED_FILES} ignored files`);
    const ignored = await fingerprints(workspace, paths);
    // The same index and the same ignored files: the same stats (snapshots are never changed).
    let stats: Map<string, string>;
    if (lastStats !== null && lastStats.index === index && differingKeys(lastStats.ignored, ignored).length === 0) stats = lastStats.stats;
    else {
      // The private index holds every other file's stat as git just saw it.
      stats = new Map<string, string>();
      for (const [path, entry] of index) stats.set(path, `${entry.mtime}:${entry.size}`);
      for (const [path, fingerprint] of ignored) stats.set(path, statOfFingerprint(fingerprint));
      lastStats = { index, ignored, stats };
    }
    const snapshot: WorkspaceSnapshot = { kind: "git", tree, ignored, stats };
    if (strategy === "status" && [...index.values()].every((entry) => entry.blob !== undefined)) indexOf.set(snapshot, index);
    return snapshot;
  }

  // Adds the paths `git status` named; a path gone since (git refuses a pathspec that matches
  // nothing) sends the snapshot back to adding everything.
  async function addPaths(paths: string[]): Promise<void> {
    try {
      await git(["add", "-A", "--ignore-errors", "--pathspec-from-file=-", "--pathspec-file-nul"], {
        input: nulList(paths),
        settings: LITERAL_SETTINGS,
      });
    } catch {
      await git(["add", "-A", "--ignore-errors", "--", "."]);
    }
  }

  // Takes entries out and adds them again, which hashes their content whatever their stat says.
  // `git rm` from a subdirectory takes that directory for a pathspec and then refuses a pathspec
  // file: it runs at the top, with the paths from there.
  async function readd(paths: string[]): Promise<void> {
    const fromTop = prefix === "" ? paths : paths.map((path) => `${prefix}/${path}`);
    await git(["rm", "--cached", "-q", "--ignore-unmatch", "--pathspec-from-file=-", "--pathspec-file-nul"], {
      input: nulList(fromTop),
      settings: LITERAL_SETTINGS,
      cwd: shadow.location.top,
    });
    await addPaths(paths);
  }

  // The private index read in place; git lists it when the file is not one git-index.ts reads.
  async function readIndex(): Promise<Map<string, GitIndexEntry>> {
    const bytes = await readFile(shadow.indexFile);
    // An index written with index.skipHash ends in zeros: no checksum to know it by.
    const checksum = bytes.length >= hashBytes ? bytes.toString("hex", bytes.length - hashBytes) : "";
    if (lastIndex !== null && lastIndex.checksum === checksum && /[^0]/.test(checksum)) return lastIndex.entries;
    const parsed = parseGitIndex(bytes, hashBytes, prefix);
    lastIndex = parsed;
    return parsed === null ? listIndexByGit() : parsed.entries;
  }

  async function listIndexByGit(): Promise<Map<string, GitIndexEntry>> {
    return parseIndexListing((await git(["ls-files", "-z", "--debug", "--", "."])).toString("utf8"));
  }

  async function changedPaths(before: WorkspaceSnapshot, after: WorkspaceSnapshot): Promise<string[]> {
    if (before.kind !== "git" || after.kind !== "git") throw new Error("snapshots of different kinds");
    const paths = new Set(differingKeys(before.ignored, after.ignored));
    const indexes = [indexOf.get(before), indexOf.get(after)] as const;
    if (before.tree !== after.tree && indexes[0] !== undefined && indexes[1] !== undefined) {
      for (const path of differingBlobs(indexes[0], indexes[1])) paths.add(path);
    } else if (before.tree !== after.tree) {
      if (lastDiff === null || lastDiff.before !== before.tree || lastDiff.after !== after.tree) {
        const out = (await git(["diff-tree", "-r", "-z", "--name-only", "--no-renames", before.tree, after.tree])).toString("utf8");
        const tree = out.split("\0").flatMap((path) => (path === "" ? [] : [prefix === "" ? path : relative(prefix, path)]));
        lastDiff = { before: before.tree, after: after.tree, paths: tree };
      }
      for (const path of lastDiff.paths) paths.add(path);
    }
    return [...paths].sort();
  }
}

// The paths whose mode or object differ between two indexes, as `git diff-tree -r` between the trees
// written from them lists them (a tree holds no entry whose blob is null).
function differingBlobs(before: Map<string, GitIndexEntry>, after: Map<string, GitIndexEntry>): string[] {
  if (before === after) return [];
  const paths: string[] = [];
  for (const [path, entry] of before) if ((entry.blob ?? null) !== (after.get(path)?.blob ?? null)) paths.push(path);
  for (const [path, entry] of after) if (!before.has(path) && (entry.blob ?? null) !== null) paths.push(path);
  return paths;
}

// Entries whose ctime fell in the snapshot's second or the one before (the index keeps 32 bits of seconds).
function entriesOfSecond(index: Map<string, GitIndexEntry>, started: number): Set<string> {
  const since = (started - 1) % 4_294_967_296;
  const out = new Set<string>();
  for (const [path, entry] of index) if (entry.ctimeSeconds >= since) out.add(path);
  return out;
}

function nulList(paths: readonly string[]): Buffer {
  return Buffer.from(paths.join("\0") + "\0");
}

/**
 * `git status --porcelain -z` (paths relative to the top of the work tree) read for a snapshot of
 * the directory `prefix`: the paths whose work tree differs from the index (modified, deleted, type
 * changed, unmerged, untracked) and the ignored ones, relative to `prefix`.
 */
export function parseStatus(text: string, prefix: string): { changed: string[]; ignored: string[] } {
  const under = prefix === "" ? "" : `${prefix}/`;
  const local = (path: string): string => (under !== "" && path.startsWith(under) ? path.slice(under.length) : path);
  const changed: string[] = [];
  const ignored: string[] = [];
  const fields = text.split("\0");
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i]!;
    if (field.length < 4) continue;
    const x = field[0]!;
    const y = field[1]!;
    const path = local(field.slice(3));
    if (x === "!" && y === "!") ignored.push(path);
    else if (y !== " ") changed.push(path);
    // A rename or copy names its source next (never with --no-renames; read it all the same).
    if (x === "R" || x === "C" || y === "R" || y === "C") {
      const source = fields[i + 1];
      i += 1;
      if (source !== undefined && source !== "") changed.push(local(source));
    }
  }
  return { changed, ignored };
}

// `git ls-files -z --debug` (paths relative to the workspace, like the other listings): each path, a
// NUL, then indented `ctime:`, `mtime:`, ..., `size:` lines.
export function parseIndexListing(text: string): Map<string, GitIndexEntry> {
  const out = new Map<string, GitIndexEntry>();
  const entry = /([^\0]*)\0\s*ctime: (\d+:\d+)\n\s*mtime: (\d+:\d+)\n[^\0]*?size: (\d+)[^\n]*\n/g;
  for (const match of text.matchAll(entry))
    out.set(match[1]!, {
      ctime: match[2]!,
      mtime: match[3]!,
      size: match[4]!,
      ctimeSeconds: Number(match[2]!.slice(0, match[2]!.indexOf(":"))),
    });
  return out;
}
