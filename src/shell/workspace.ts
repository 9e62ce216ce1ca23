// Directory arithmetic for workspaces: `cd DIR`, `pushd`, `popd` and wrapper options that change directory.
import { posix } from "node:path";

import type { SimpleCommand } from "./types.js";

/** The shell's directory state while a line is walked; null means unknown. */
export interface DirectoryState {
  cwd: string | null;
  /** The `pushd` stack, top first. Shared, never changed in place: a copy of the state costs nothing. */
  stack: DirectoryStack | null;
}

/** One entry of the `pushd` stack and the entries under it. */
export interface DirectoryStack {
  top: string | null;
  rest: DirectoryStack | null;
}

/**
 * A directory longer than this is not followed (unknown): Linux's PATH_MAX, and it keeps a line of
 * thousands of `pushd sub` steps linear (each step would normalise a path as long as the line).
 */
const MAX_DIRECTORY_LENGTH = 4096;

/** Joins `dir` onto `cwd` (an absolute `dir` replaces it); unknown stays unknown. */
export function resolveDirectory(cwd: string | null, dir: string): string | null {
  if (dir === "" || dir.startsWith("~") || dir === "-" || /[$`]/.test(dir)) return null;
  if (!dir.startsWith("/") && cwd === null) return null;
  if (dir.length + (dir.startsWith("/") ? 0 : cwd!.length + 1) > MAX_DIRECTORY_LENGTH) return null;
  if (dir.startsWith("/")) return trimSlash(posix.normalize(dir));
  return trimSlash(posix.normalize(posix.join(cwd!, dir)));
}

/** Normalises the starting directory (`"."` when none is given). */
export function normalizeStart(cwd: string | undefined): string {
  return cwd === undefined || cwd === "" ? "." : trimSlash(posix.normalize(cwd));
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/** True for the names `cd`, `pushd` and `popd`. */
export function isDirectoryName(name: string | undefined): boolean {
  return name === "cd" || name === "pushd" || name === "popd";
}

/** True for `cd`, `pushd` and `popd`. */
export function isDirectoryCommand(command: SimpleCommand): boolean {
  return isDirectoryName(command.words[0]);
}

/** Applies a `cd`/`pushd`/`popd` command to `state`. */
export function applyDirectoryCommand(command: SimpleCommand, state: DirectoryState): void {
  const [name, ...args] = command.words;
  const dynamic = command.hasExpansion || command.hasSubstitution;
  const operands: string[] = [];
  const flags: string[] = [];
  let optionsDone = false;
  for (const arg of args) {
    if (!optionsDone && arg === "--") optionsDone = true;
    else if (!optionsDone && /^-[LPe@n]+$/.test(arg)) flags.push(arg);
    else operands.push(arg);
  }
  const target = (): string | null => (dynamic || operands.length !== 1 ? null : resolveDirectory(state.cwd, operands[0]!));
  switch (name) {
    case "cd":
      state.cwd = target();
      return;
    case "pushd":
      if (flags.some((f) => f.includes("n"))) {
        state.stack = { top: target(), rest: state.stack };
        return;
      }
      state.stack = { top: state.cwd, rest: state.stack };
      state.cwd = operands.length === 1 && /^[+-]\d+$/.test(operands[0]!) ? null : target();
      return;
    case "popd":
      if (operands.length > 0 || flags.length > 0) state.cwd = null;
      else {
        state.cwd = state.stack?.top ?? null;
        state.stack = state.stack?.rest ?? null;
      }
      return;
    default:
      return;
  }
}
