// Path-level views of a patch: [old, new] per file, every path touched, a block's target.
import { parsePatch } from "./parse-patch.js";

/** One file's endpoints: `[oldPath, newPath]`, `""` for an absent side (`/dev/null`). */
export type PatchEntry = [oldPath: string, newPath: string];

/**
 * The `[old, new]` pair of every file in the patch, in order; `""` marks an absent side, so an
 * addition is `["", p]` and a deletion `[p, ""]` (empty, binary and symlink files included).
 * @example patchEntries(patch) // [["", "new.txt"], ["old.txt", ""], ["a.py", "b.py"]]
 */
export function patchEntries(patch: string): PatchEntry[] {
  const entries: PatchEntry[] = [];
  for (const file of parsePatch(patch)) {
    if (file.oldPath !== "" || file.newPath !== "") entries.push([file.oldPath, file.newPath]);
  }
  return entries;
}

/** Every non-empty path the patch touches (old then new per file), first-seen order, no duplicates. */
export function patchPaths(patch: string): string[] {
  const seen = new Set<string>();
  for (const [oldPath, newPath] of patchEntries(patch)) {
    if (oldPath !== "") seen.add(oldPath);
    if (newPath !== "") seen.add(newPath);
  }
  return [...seen];
}

/**
 * The path one block changes: its new path, or the old one for a deletion; `""` unless the block
 * holds exactly one file.
 */
export function patchBlockTargetPath(block: readonly string[]): string {
  const entries = patchEntries(block.join(""));
  if (entries.length !== 1) return "";
  const [oldPath, newPath] = entries[0]!;
  return newPath !== "" ? newPath : oldPath;
}
