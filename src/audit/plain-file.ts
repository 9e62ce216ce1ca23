// The audit's one look at the disk for the path rule: is a written doc, log or cache file what its
// name says? Thin I/O, injected into the pure session analysis (session.ts, `isPlainFile`).
import { lstatSync, realpathSync } from "node:fs";
import { dirname, join, basename } from "node:path";

/**
 * True when `absolutePath` is a regular file with one name (no hard link) whose directory holds no
 * symlink on the way: a write to it wrote only that file. Absent, a link, or unreadable: false.
 * @example isPlainFileOnDisk("/repo/README.md") // true for an ordinary README
 */
export function isPlainFileOnDisk(absolutePath: string): boolean {
  try {
    const info = lstatSync(absolutePath);
    if (!info.isFile() || info.nlink !== 1) return false;
    return realpathSync(absolutePath) === join(realpathSync(dirname(absolutePath)), basename(absolutePath)) && realpathSync(dirname(absolutePath)) === dirname(absolutePath);
  } catch {
    return false;
  }
}
