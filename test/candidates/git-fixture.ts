// Real git repositories in temporary directories for the candidate tests, plus fingerprints that prove
// a directory (files, modes, symlinks, indexes, HEADs) did not change.
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";

import { git as fixtureGit, gitBytes } from "../support/git.js";
import { tempDirPath } from "../support/temp-dir.js";

/** Runs the suite's fixture git in `cwd` (paths unquoted, as the candidate backend reads them); a failure rejects. */
export function git(cwd: string, ...args: string[]): Promise<string> {
  return new Promise((resolve) => resolve(fixtureGit(cwd, "-c", "core.quotePath=false", ...args)));
}

/** A fresh temporary directory; remember to remove it. */
export function tempDir(prefix: string): Promise<string> {
  return Promise.resolve(tempDirPath(`ae-test-${prefix}-`));
}

/** File contents by relative path; a `{ mode }` entry sets permission bits. */
export type FileSpec = Record<string, string | Uint8Array>;

/** Writes files below `dir`, creating directories. */
export async function writeFiles(dir: string, files: FileSpec): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

/** Creates a repository with `files` committed on `main`; returns its path. */
export async function createRepo(prefix: string, files: FileSpec, executable: string[] = []): Promise<string> {
  const dir = await tempDir(prefix);
  await git(dir, "init", "-q", "-b", "main");
  await writeFiles(dir, files);
  for (const path of executable) await chmod(join(dir, path), 0o755);
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "initial");
  return dir;
}

/** Commits everything in `dir` and returns the new HEAD. */
export async function commitAll(dir: string, message: string): Promise<string> {
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", message);
  return git(dir, "rev-parse", "HEAD");
}

/** Paths of the repository's worktrees (the main one first). */
export async function worktreePaths(repo: string): Promise<string[]> {
  const listing = await git(repo, "worktree", "list", "--porcelain");
  return listing
    .split("\n")
    .filter((line) => line.startsWith("worktree "))
    .map((line) => line.slice("worktree ".length));
}

/** Temporary directories that a candidate with this label would create. */
export function candidateDirs(label: string): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith(`agent-evidence-candidate-${label}-`));
}

function hash(data: Uint8Array | string): string {
  return createHash("sha1").update(data).digest("hex").slice(0, 12);
}

function walk(dir: string, rel: string, out: string[], repos: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    if (name === ".git" && lstatSync(join(dir, name)).isDirectory()) continue;
    const path = join(dir, name);
    if (name === ".git" && rel !== "") repos.push(dir);
    const key = rel === "" ? name : `${rel}/${name}`;
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) out.push(`${key} -> ${readlinkSync(path)}`);
    else if (stat.isDirectory()) {
      out.push(`${key}/`);
      walk(path, key, out, repos);
    } else out.push(`${key} ${(stat.mode & 0o777).toString(8)} ${hash(readFileSync(path))}`);
  }
}

/**
 * Everything a test can observe of a checkout: every file (mode, content), and for the checkout and
 * each nested module its HEAD, index bytes (unless `index: false`) and porcelain status.
 */
export async function fingerprint(dir: string, options: { index?: boolean } = {}): Promise<string[]> {
  const out: string[] = [];
  const repos = [dir];
  walk(dir, "", out, repos);
  for (const repo of repos) {
    if (!existsSync(join(repo, ".git"))) continue;
    const probe = gitBytes(repo, ["rev-parse", "--git-path", "index", "HEAD"], { allowFailure: true });
    const [indexPath = "", head = ""] = probe.toString().split("\n");
    const absolute = isAbsolute(indexPath) ? indexPath : join(repo, indexPath);
    const status = await git(repo, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=none");
    out.push(
      `repo ${repo}: HEAD ${head} index ${options.index === false ? "-" : existsSync(absolute) ? hash(readFileSync(absolute)) : "none"} status ${JSON.stringify(status)}`,
    );
  }
  return out;
}

/** Removes directories, ignoring ones already gone. */
export async function removeAll(...dirs: string[]): Promise<void> {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
}
