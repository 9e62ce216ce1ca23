// Realpath containment for the file tools: a path is accepted only when the file it names (after
// every symlink) lies inside the workspace. `..`, absolute paths and symlinks that leave are refused.
import { realpathSync } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** A path the file tools may touch. */
export interface ContainedPath {
  /** The real absolute path (symlinks resolved; for a missing file, its parent's realpath plus the rest). */
  absolute: string;
  /** The same path relative to the workspace, with `/` separators (`.` for the workspace itself). */
  relative: string;
  /** Whether something exists at the path. */
  exists: boolean;
}

/** Why a path was refused. */
export type PathRefusal = { ok: false; message: string };

/** True when `child` is `root` or lies beneath it. */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** The realpath of the longest existing prefix of `path` (made absolute) plus the rest: a file that does not exist yet still resolves. */
export function realpathOfPrefix(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    const parent = dirname(absolute);
    return parent === absolute ? absolute : join(realpathOfPrefix(parent), basename(absolute));
  }
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

/**
 * Resolves `input` (relative to the workspace, or absolute inside it) to a real path inside
 * `workspace` (itself a realpath). Missing trailing components are allowed, so a new file can be named.
 */
export async function resolveInWorkspace(workspace: string, input: string): Promise<({ ok: true } & ContainedPath) | PathRefusal> {
  if (input === "" || input.includes("\0")) return { ok: false, message: `Error: invalid path ${JSON.stringify(input)}.` };
  const lexical = resolve(workspace, input);
  if (!isInside(workspace, lexical)) {
    return { ok: false, message: `Error: ${JSON.stringify(input)} is outside the workspace (${workspace}); use a path inside it.` };
  }
  // Walk up to the deepest existing ancestor, take its realpath, and re-attach the missing tail.
  let existing = lexical;
  const missing: string[] = [];
  for (;;) {
    try {
      await lstat(existing);
      break;
    } catch {
      const parent = dirname(existing);
      if (parent === existing) break;
      missing.unshift(basename(existing));
      existing = parent;
    }
  }
  let real: string;
  try {
    real = await realpath(existing);
  } catch {
    // A dangling symlink: its target does not exist, and writing through it could land anywhere.
    return { ok: false, message: `Error: ${JSON.stringify(input)} is a symlink whose target does not exist; refusing to follow it.` };
  }
  const absolute = missing.length === 0 ? real : join(real, ...missing);
  if (!isInside(workspace, absolute)) {
    return {
      ok: false,
      message: `Error: ${JSON.stringify(input)} resolves (through a symlink) to ${absolute}, outside the workspace (${workspace}).`,
    };
  }
  return { ok: true, absolute, relative: toPosix(relative(workspace, absolute)) || ".", exists: missing.length === 0 };
}
