// The files a user or a payload names (a log, a report, a transcript, a verdict, a settings file,
// an output path), read and written without trusting what the path is. Only regular files are read:
// a FIFO blocks its opener until a writer comes, `/dev/zero` never ends, a directory is no file. Every
// open is non-blocking and checked on the opened descriptor, so a path swapped for a FIFO between a
// check and the open cannot hang the reader. Reads are capped. An output never replaces something that
// is not a regular file: renaming a new verdict over `/dev/null` as root would replace the device.
import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync, renameSync, rmSync, type Stats, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** What a named file was opened for. */
export type NamedFileOperation = "read" | "write";

/**
 * A named file that was not read or written. `code` is the errno code (`ENOENT`, `EISDIR`, `EACCES`,
 * `ENOSPC`, ...), `ENOTREGULAR` (a FIFO, a device or a socket), or `EFBIG` (larger than the reader's cap).
 */
export class NamedFileError extends Error {
  readonly code: string;
  readonly path: string;
  readonly operation: NamedFileOperation;

  constructor(operation: NamedFileOperation, code: string, path: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "NamedFileError";
    this.operation = operation;
    this.code = code;
    this.path = path;
  }
}

const MIB = 1 << 20;
const formatMib = (bytes: number): string => `${Math.round((bytes / MIB) * 100) / 100} MiB`;

/** The error for input over a cap: `NAME is larger than N MiB; not read`. */
export function createTooLargeError(name: string, cap: number, path = name): NamedFileError {
  return new NamedFileError("read", "EFBIG", path, `${name} is larger than ${formatMib(cap)}; not read`);
}

function errnoCode(error: unknown): string {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : "EIO";
}

function failure(operation: NamedFileOperation, path: string, name: string, code: string, cause?: unknown): NamedFileError {
  return new NamedFileError(operation, code, path, `cannot ${operation} ${name} (${code})`, cause === undefined ? undefined : { cause });
}

// The code for an object that is there but is no regular file.
const notRegular = (stat: Stats): string => (stat.isDirectory() ? "EISDIR" : "ENOTREGULAR");

/**
 * Opens a regular file for reading; anything else throws {@link NamedFileError}. The caller closes `fd`.
 * @example const { fd, size } = openRegularFile("suite.log");
 */
export function openRegularFile(path: string, name = path): { fd: number; size: number } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw failure("read", path, name, errnoCode(error), error);
  }
  const stat = fstatSync(fd);
  if (!stat.isFile()) {
    closeSync(fd);
    throw failure("read", path, name, notRegular(stat));
  }
  return { fd, size: stat.size };
}

/** Options of {@link readRegularFile}. */
export interface ReadRegularFileOptions {
  /** The most bytes read; a larger file throws (`EFBIG`) without being read. */
  cap: number;
  /** How messages name the file (default: the path), e.g. `--junit report.xml`. */
  name?: string;
}

/**
 * Reads a whole regular file of at most `cap` bytes.
 * @example readRegularFile("patch.diff", { cap: 48 << 20 }).toString("utf8")
 */
export function readRegularFile(path: string, options: ReadRegularFileOptions): Buffer {
  const name = options.name ?? path;
  const { fd, size } = openRegularFile(path, name);
  try {
    if (size > options.cap) throw createTooLargeError(name, options.cap, path);
    // Read to the end, not to the size seen: a file that grows past the cap meanwhile is refused too.
    let buffer = Buffer.alloc(Math.min(options.cap, size) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > options.cap) throw createTooLargeError(name, options.cap, path);
        const grown = Buffer.alloc(Math.min(options.cap + 1, buffer.length * 2));
        buffer.copy(grown);
        buffer = grown;
      }
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) return buffer.subarray(0, length);
      length += read;
    }
  } finally {
    closeSync(fd);
  }
}

/** The sha256 (hex) of a regular file, read in 1 MiB blocks: memory stays flat whatever its size. */
export function hashRegularFile(path: string, name = path): string {
  const { fd } = openRegularFile(path, name);
  try {
    const hash = createHash("sha256");
    const block = Buffer.alloc(MIB);
    for (let read = readSync(fd, block, 0, block.length, null); read > 0; read = readSync(fd, block, 0, block.length, null))
      hash.update(block.subarray(0, read));
    return hash.digest("hex");
  } finally {
    closeSync(fd);
  }
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return null;
    throw error;
  }
}

/**
 * Checks that `path` can become an output file: it is a regular file, or it does not exist and its
 * directory does. Throws {@link NamedFileError} (`ENOENT`, `ENOTDIR`, `EISDIR`, `ENOTREGULAR`) otherwise.
 */
export function checkOutputFile(path: string, name = path): void {
  try {
    const stat = statOrNull(path);
    if (stat !== null) {
      if (!stat.isFile()) throw failure("write", path, name, notRegular(stat));
      return;
    }
    const parent = statSync(dirname(path));
    if (!parent.isDirectory()) throw failure("write", path, name, "ENOTDIR");
  } catch (error) {
    if (error instanceof NamedFileError) throw error;
    throw failure("write", path, name, errnoCode(error), error);
  }
}

/**
 * Opens an output file for streaming writes (created or truncated); only a regular file is written.
 * The caller closes `fd`.
 */
export function openOutputFile(path: string, name = path): number {
  checkOutputFile(path, name);
  let fd: number;
  try {
    // Non-blocking: a FIFO put there since the check fails at once (ENXIO) instead of waiting for a reader.
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NONBLOCK, 0o666);
  } catch (error) {
    const code = errnoCode(error);
    throw failure("write", path, name, code === "ENXIO" ? "ENOTREGULAR" : code, error);
  }
  const stat = fstatSync(fd);
  if (!stat.isFile()) {
    closeSync(fd);
    throw failure("write", path, name, notRegular(stat));
  }
  return fd;
}

/**
 * Replaces an output file whole: written beside it, then renamed over it, so a reader sees the old
 * file or the new one, never a torn one. Only a regular file (or nothing) is replaced.
 */
export function writeFileReplacing(path: string, data: string | Uint8Array, name = path): void {
  checkOutputFile(path, name);
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, data);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw failure("write", path, name, errnoCode(error), error);
  }
}
