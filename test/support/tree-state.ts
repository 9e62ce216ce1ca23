// The state of a directory tree on disk (every entry's path, type, mode and content), to assert what a
// real command changed: the work tree and the repository's .git/ apart.
import { createHash } from "node:crypto";
import { type BigIntStats, lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";

/** One signature per entry under the root: `dir MODE`, `file MODE SHA256`, `link TARGET`. */
export type TreeState = Map<string, string>;

// A file's hash by its inode and change time: a write changes the ctime, which no program can set
// back (touch -d sets the mtime only), so an unchanged key is unchanged content. The states before
// and after a command read each file once.
const hashes = new Map<string, { key: string; hash: string }>();

function hashFile(full: string, stat: BigIntStats): string {
  const key = `${stat.dev}:${stat.ino}:${stat.ctimeNs}:${stat.size}`;
  const known = hashes.get(full);
  if (known?.key === key) return known.hash;
  const hash = createHash("sha256").update(readFileSync(full)).digest("hex");
  hashes.set(full, { key, hash });
  return hash;
}

// An entry another process removed since the listing (a checker's temporary file) is not there.
function lstatIfThere(full: string): BigIntStats | null {
  try {
    return lstatSync(full, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * The tree under `root`, split into the work tree (without `.git/`) and `.git/`; links are not
 * followed. Synchronous: a few milliseconds for a small repository, where the promise API takes ten times that.
 */
export function readTreeState(root: string): { work: TreeState; git: TreeState } {
  const work: TreeState = new Map();
  const git: TreeState = new Map();
  const visit = (rel: string): void => {
    for (const name of readdirSync(rel === "" ? root : join(root, rel))) {
      const path = rel === "" ? name : `${rel}/${name}`;
      const full = join(root, path);
      const stat = lstatIfThere(full);
      if (stat === null) continue;
      const mode = (stat.mode & 0o7777n).toString(8);
      const into = path === ".git" || path.startsWith(".git/") ? git : work;
      if (stat.isSymbolicLink()) into.set(path, `link ${readlinkSync(full)}`);
      else if (stat.isDirectory()) {
        into.set(path, `dir ${mode}`);
        visit(path);
      } else into.set(path, `file ${mode} ${hashFile(full, stat)}`);
    }
  };
  visit("");
  return { work, git };
}

/** The paths added, removed or changed between two states, sorted. */
export function changedPaths(before: TreeState, after: TreeState): string[] {
  const changed = new Set<string>();
  for (const [path, signature] of before) if (after.get(path) !== signature) changed.add(path);
  for (const path of after.keys()) if (!before.has(path)) changed.add(path);
  return [...changed].sort();
}
