// The path rule's one look at the disk: is a written doc, log or cache file only what its name says?
// Used by the native edit tools (observation/evidence-tools.ts) and, injected, by the audit (transcript-timeline.ts).
import { lstatSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";

/**
 * True when `absolutePath` is a regular file with one name (no hard link) whose real path is its
 * path as written below `root` (no symlink inside `root` sends it elsewhere; outside `root`, no
 * symlink at all): a write to it wrote only that file. Absent, a link, or unreadable: false.
 * @example isPlainFileOnDisk("/repo/README.md", "/repo") // true for an ordinary README
 */
export function isPlainFileOnDisk(absolutePath: string, root: string | null): boolean {
  try {
    const info = lstatSync(absolutePath);
    if (!info.isFile() || info.nlink !== 1) return false;
    const inside = root === null ? ".." : relative(root, absolutePath);
    const base = inside.startsWith("..") || isAbsolute(inside) ? "/" : root!;
    return realpathSync(absolutePath) === join(realpathSync(base), relative(base, absolutePath));
  } catch {
    return false;
  }
}
