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
const RUN_STATUSES: ExitRow[] = [
  [0, "verdict passed, no failed gate"],
  [1, "verdict failed"],
  [2, "verdict incomplete"],
  [3, "passed tests with a failed gate"],
  [129, "stopped by SIGHUP"],
  [130, "stopped by SIGINT"],
  [143, "stopped by SIGTERM"],
];

/** One exit status and what it means, in a phrase (docs/cli.md has the full table). */
export type ExitRow = readonly [status: number, meaning: string];

const USAGE: ExitRow = [EXIT_USAGE, "usage error"];
const USAGE_OR_UNREAD: ExitRow = [EXIT_USAGE, "usage error, or an input file cannot be read"];
const OVER_CAP: ExitRow = [EXIT_DATA, "input over its cap, not read"];
const INTERNAL: ExitRow = [EXIT_INTERNAL, "internal error"];
const CANT_CREATE: ExitRow = [EXIT_CANT_CREATE, "an output file cannot be created"];
const WRITE_FAILED: ExitRow = [EXIT_IO, "writing an output file or stdout failed"];
const STDOUT_FAILED: ExitRow = [EXIT_IO, "writing stdout failed"];
const HOOK_ALWAYS: ExitRow = [0, "always: the hook's decision is on stdout, a problem's reason on stderr"];
const SETTINGS_UNCHANGED: ExitRow = [
  1,
  "the settings file was not changed (not a JSON object, not a regular file, too large, not writable)",
];

/** Every status each command can exit with, and what it means. */
export const CLI_EXITS: Record<CliCommand, readonly ExitRow[]> = {
  "(no command)": [[0, "help or version printed"], USAGE, INTERNAL, STDOUT_FAILED],
  triage: [[0, "the markers printed (zero matches prove nothing)"], USAGE_OR_UNREAD, OVER_CAP, INTERNAL, STDOUT_FAILED],
  patch: [[0, "the report printed"], USAGE_OR_UNREAD, OVER_CAP, INTERNAL, STDOUT_FAILED],
  judge: [[0, "verdict passed"], [1, "verdict failed"], [2, "verdict unknown"], USAGE_OR_UNREAD, OVER_CAP, INTERNAL, STDOUT_FAILED],
  mcp: [
    [0, "the client closed stdin"],
    USAGE,
    [EXIT_DATA, "a message larger than 8 MiB"],
    [EXIT_UNAVAILABLE, "@modelcontextprotocol/sdk was left out of the install"],
    INTERNAL,
    STDOUT_FAILED,
  ],
  run: [
    ...RUN_STATUSES,
    USAGE,
    INTERNAL,
    [EXIT_CANT_CREATE, "--out, --log or --verdict cannot be created; the suite did not run"],
    [EXIT_IO, "writing the log during the run, or stdout, failed"],
  ],
  "verify-verdict": [
    [0, "the log and report still hash as recorded"],
    [1, "not: a file changed or is missing, or the verdict does not parse"],
    USAGE,
    INTERNAL,
    STDOUT_FAILED,
  ],
  "verify-bundle": [
    [0, "every listed file still hashes as recorded"],
    [1, "not: a file changed, is missing or unlisted, or the manifest does not parse"],
    USAGE,
    INTERNAL,
    STDOUT_FAILED,
  ],
  demo: [[0, "the demo ran"], USAGE, INTERNAL, STDOUT_FAILED],
  "hook claude-stop": [HOOK_ALWAYS, USAGE, INTERNAL, STDOUT_FAILED],
  "hook codex-stop": [HOOK_ALWAYS, USAGE, INTERNAL, STDOUT_FAILED],
  "hook claude-post-tool-use": [[0, "always: the result recorded, or the reason nothing was on stderr"], USAGE, INTERNAL, STDOUT_FAILED],
  "hook install": [[0, "installed, already installed, or shown (--dry-run)"], SETTINGS_UNCHANGED, USAGE, INTERNAL, STDOUT_FAILED],
  "hook uninstall": [[0, "removed, not installed, or shown (--dry-run)"], SETTINGS_UNCHANGED, USAGE, INTERNAL, STDOUT_FAILED],
  audit: [
    [0, "every transcript audited"],
    [1, "a transcript could not be read; the others were audited"],
    USAGE,
    INTERNAL,
    CANT_CREATE,
    WRITE_FAILED,
  ],
  "candidates rank": [
    [0, "one green candidate ranked first alone"],
    [1, "no candidate is green"],
    [2, "the first place is tied, or not green"],
    USAGE,
    INTERNAL,
    STDOUT_FAILED,
  ],
};

/** Every status each command can exit with. */
export const CLI_EXIT_CODES: Record<CliCommand, readonly number[]> = Object.fromEntries(
  Object.entries(CLI_EXITS).map(([command, rows]) => [command, rows.map(([status]) => status)]),
) as unknown as Record<CliCommand, readonly number[]>;

/** The `Exit status:` block a command's `--help` ends with. */
export function exitStatusHelp(command: CliCommand): string {
  const rows = CLI_EXITS[command];
  const width = Math.max(...rows.map(([status]) => String(status).length));
  return `\nExit status:\n${rows.map(([status, meaning]) => `  ${String(status).padEnd(width)}  ${meaning}`).join("\n")}\n(docs/cli.md has each command's table.)\n`;
}

// Write errors that come after the file was created: the data did not fit or the device failed.
const WRITE_IO_CODES = new Set(["ENOSPC", "EDQUOT", "EFBIG", "EIO"]);
// A write to stdout or stderr that failed: those, or the reader closed the pipe.
const OUTPUT_WRITE_CODES = new Set([...WRITE_IO_CODES, "EPIPE"]);

/**
 * 74 for an error of a failed write to the command's own output (stdout or stderr: the stream's
 * `error` event, which nothing else handles), else null. Such a run's answer did not reach its reader,
 * so its status must not be a verdict's; it is not a bug either (not 70).
 */
export function outputWriteExitStatus(error: unknown): number | null {
  if (!(error instanceof Error)) return null;
  const { syscall, code } = error as NodeJS.ErrnoException;
  return syscall === "write" && code !== undefined && OUTPUT_WRITE_CODES.has(code) ? EXIT_IO : null;
}

/** The exit status for a named file that was not read (64, or 65 over a cap) or not written (73, or 74 mid-write). */
export function fileErrorExitStatus(error: Pick<NamedFileError, "operation" | "code">): number {
  if (error.operation === "read") return error.code === "EFBIG" ? EXIT_DATA : EXIT_USAGE;
  return WRITE_IO_CODES.has(error.code) ? EXIT_IO : EXIT_CANT_CREATE;
}
