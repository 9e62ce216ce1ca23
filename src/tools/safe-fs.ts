// File I/O inside the workspace without a check-then-use gap. A realpath check followed by a later
// open by name races with an agent that swaps a directory for a symlink in between (its bash runs
// beside the file tools). Here every file and directory is opened first and its real location read
// back from /proc/self/fd afterwards: the check is on what was opened, so no swap can move it. Writes
// and renames go through the opened parent directory (`/proc/self/fd/N/name`), and the last component
// is never followed. Without /proc (not Linux), the path-based checks of workspace-path.ts remain.
import { randomBytes } from "node:crypto";
import { constants, readlinkSync } from "node:fs";
import { type FileHandle, mkdir, open, readlink, rename, rm } from "node:fs/promises";
import { basename, dirname } from "node:path";

import { isInside } from "./workspace-path.js";

/** True where opened files can be located through /proc/self/fd. */
export const FD_PATHS = ((): boolean => {
  if (process.platform !== "linux") return false;
  try {
    readlinkSync("/proc/self/fd/0");
    return true;
  } catch {
    return false;
  }
})();

/** A file or directory opened inside the workspace. */
export interface OpenedPath {
  handle: FileHandle;
  /** Where the opened object really is (read back from /proc/self/fd). */
  real: string;
}

/** The error a swap or a path outside the workspace produces. */
export class OutsideWorkspaceError extends Error {
  constructor(path: string, real: string) {
    super(`${path} resolves to ${real}, outside the workspace; refusing to use it.`);
  }
}

const fdPath = (handle: FileHandle, name?: string): string =>
  name === undefined ? `/proc/self/fd/${handle.fd}` : `/proc/self/fd/${handle.fd}/${name}`;

async function located(handle: FileHandle, workspace: string, path: string): Promise<OpenedPath> {
  if (!FD_PATHS) return { handle, real: path };
  const real = await readlink(fdPath(handle));
  if (!isInside(workspace, real)) {
    await handle.close();
    throw new OutsideWorkspaceError(path, real);
  }
  return { handle, real };
}

/** Opens `path` (symlinks followed) and checks that what was opened lies inside `workspace`. */
export async function openInside(workspace: string, path: string, flags: number = constants.O_RDONLY): Promise<OpenedPath> {
  const handle = await open(path, flags | constants.O_NONBLOCK);
  return located(handle, workspace, path);
}

/** Opens the directory `path` and checks that it lies inside `workspace`. */
export function openDirectoryInside(workspace: string, path: string): Promise<OpenedPath> {
  return openInside(workspace, path, constants.O_RDONLY | constants.O_DIRECTORY);
}

/** Creates the missing directories of `dir` (a path inside the workspace) one component at a time, each checked. */
export async function makeDirectoryInside(workspace: string, dir: string): Promise<void> {
  if (!FD_PATHS) {
    await mkdir(dir, { recursive: true });
    return;
  }
  if (!isInside(workspace, dir)) throw new OutsideWorkspaceError(dir, dir);
  const parts = dir
    .slice(workspace.length)
    .split("/")
    .filter((part) => part !== "");
  let current = await openDirectoryInside(workspace, workspace);
  try {
    for (const part of parts) {
      const next = fdPath(current.handle, part);
      await mkdir(next).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST") throw error;
      });
      const opened = await openDirectoryInside(workspace, next);
      await current.handle.close();
      current = opened;
    }
  } finally {
    await current.handle.close().catch(() => undefined);
  }
}

/**
 * Replaces the file at `path` atomically: a sibling temp file written through the checked parent
 * directory, then renamed over the last component (which is replaced, never followed).
 */
export async function writeFileInside(workspace: string, path: string, bytes: Uint8Array, mode: number | undefined): Promise<void> {
  const parent = await openDirectoryInside(workspace, dirname(path));
  const name = basename(path);
  const temp = `.${name}.${randomBytes(6).toString("hex")}.tmp`;
  const where = FD_PATHS ? (entry: string) => fdPath(parent.handle, entry) : (entry: string) => `${dirname(path)}/${entry}`;
  try {
    const file = await open(where(temp), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode ?? 0o666);
    try {
      await file.writeFile(bytes);
      if (mode !== undefined) await file.chmod(mode);
    } finally {
      await file.close();
    }
    try {
      await rename(where(temp), where(name));
    } catch (error) {
      await rm(where(temp), { force: true });
      throw error;
    }
  } finally {
    await parent.handle.close();
  }
}

/** Removes the file (or symlink) at `path` through its checked parent directory. */
export async function removeFileInside(workspace: string, path: string): Promise<void> {
  const parent = await openDirectoryInside(workspace, dirname(path));
  try {
    await rm(FD_PATHS ? fdPath(parent.handle, basename(path)) : path, { force: true });
  } finally {
    await parent.handle.close();
  }
}

/** Reads the whole file at `path` (symlinks followed, then checked); null when it does not exist. */
export async function readFileInside(workspace: string, path: string): Promise<Buffer | null> {
  let opened: OpenedPath;
  try {
    opened = await openInside(workspace, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    return await opened.handle.readFile();
  } finally {
    await opened.handle.close();
  }
}
