// Every exit status of `agent-evidence`, in one place: the commands exit with these, and the exit
// tables of docs/cli.md are checked against CLI_EXIT_CODES (test/docs/cli-exit-codes.test.ts).
// Failures follow the BSD sysexits numbers.
import type { NamedFileError } from "../io/named-files.js";

/** EX_USAGE: a usage error (unknown option, bad value, missing argument, an input FILE that cannot be read). */
export const EXIT_USAGE = 64;
/** EX_DATAERR: input over the command's cap, not read. */
export const EXIT_DATA = 65;
/** EX_UNAVAILABLE: a service the command needs is not installed (mcp without its SDK). */
export const EXIT_UNAVAILABLE = 69;
/** EX_SOFTWARE: an internal error (a bug). */
export const EXIT_INTERNAL = 70;
/** EX_CANTCREAT: an output file cannot be created (its directory is missing, it is a directory, a FIFO, a device). */
export const EXIT_CANT_CREATE = 73;
/** EX_IOERR: writing an output file failed (disk full, I/O error, file size limit). */
export const EXIT_IO = 74;

/** A command as the exit tables name it (`hook claude-stop`; `(no command)` is the bare program). */
export type CliCommand =
  | "(no command)"
  | "triage"
  | "patch"
  | "judge"
  | "mcp"
  | "run"
  | "verify-verdict"
  | "verify-bundle"
  | "demo"
  | "hook claude-stop"
  | "hook codex-stop"
  | "hook claude-post-tool-use"
  | "hook install"
  | "hook uninstall"
  | "audit"
  | "candidates rank";

// run's own statuses: 0 passed, 1 failed, 2 incomplete, 3 passed with a failed gate (VERDICT_EXIT in
// src/verdict/schema.ts, not imported: the CLI starts without zod); 128 + N after SIGHUP, SIGINT, SIGTERM.
const RUN_STATUSES = [0, 1, 2, 3, 129, 130, 143];

/** Every status each command can exit with. */
export const CLI_EXIT_CODES: Record<CliCommand, readonly number[]> = {
  "(no command)": [0, EXIT_USAGE, EXIT_INTERNAL],
  triage: [0, EXIT_USAGE, EXIT_DATA, EXIT_INTERNAL],
  patch: [0, EXIT_USAGE, EXIT_DATA, EXIT_INTERNAL],
  judge: [0, 1, 2, EXIT_USAGE, EXIT_DATA, EXIT_INTERNAL],
  mcp: [0, EXIT_USAGE, EXIT_DATA, EXIT_UNAVAILABLE, EXIT_INTERNAL],
  run: [...RUN_STATUSES, EXIT_USAGE, EXIT_INTERNAL, EXIT_CANT_CREATE, EXIT_IO],
  "verify-verdict": [0, 1, EXIT_USAGE, EXIT_INTERNAL],
  "verify-bundle": [0, 1, EXIT_USAGE, EXIT_INTERNAL],
  demo: [0, EXIT_USAGE, EXIT_INTERNAL],
  "hook claude-stop": [0, EXIT_USAGE, EXIT_INTERNAL],
  "hook codex-stop": [0, EXIT_USAGE, EXIT_INTERNAL],
  "hook claude-post-tool-use": [0, EXIT_USAGE, EXIT_INTERNAL],
  "hook install": [0, 1, EXIT_USAGE, EXIT_INTERNAL],
  "hook uninstall": [0, 1, EXIT_USAGE, EXIT_INTERNAL],
  audit: [0, 1, EXIT_USAGE, EXIT_INTERNAL, EXIT_CANT_CREATE, EXIT_IO],
  "candidates rank": [0, 1, 2, EXIT_USAGE, EXIT_INTERNAL],
};

// Write errors that come after the file was created: the data did not fit or the device failed.
const WRITE_IO_CODES = new Set(["ENOSPC", "EDQUOT", "EFBIG", "EIO"]);

/** The exit status for a named file that was not read (64, or 65 over a cap) or not written (73, or 74 mid-write). */
export function fileErrorExitStatus(error: Pick<NamedFileError, "operation" | "code">): number {
  if (error.operation === "read") return error.code === "EFBIG" ? EXIT_DATA : EXIT_USAGE;
  return WRITE_IO_CODES.has(error.code) ? EXIT_IO : EXIT_CANT_CREATE;
}
