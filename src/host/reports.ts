// The reports a tool returns in `data` for an observer to read: what a command did (CommandReport)
// and what an edit changed (EditReport). The native tools return them; a foreign tool may too.
// The readers accept exactly these shapes and return null for anything else.

/** `data` of a command that ran to its end: where its complete raw output is, and how it ended. */
export interface CommandRunReport {
  status: "completed";
  /** The shell's exit code. */
  exitCode: number;
  /** The file holding the complete raw bytes of each stream. */
  stdout: { logPath: string };
  stderr: { logPath: string };
  /** True when a log is incomplete (a cap was hit): the output then proves nothing. */
  truncated?: boolean;
  /** True when the tool's own timeout ended the command. */
  timedOut?: boolean;
  /** The timeout the call ran with, in ms (named in the timeout note the model sees). */
  timeoutMs?: number;
}

/** `data` of a command the tool refused or could not start: nothing ran. */
export interface CommandNotRunReport {
  status: "not-run";
  command: string;
  /** Why it did not run (a machine-readable code, e.g. `blocked-by-policy`). */
  reason: string;
}

/** What a command tool returns in `data`. */
export type CommandReport = CommandRunReport | CommandNotRunReport;

/**
 * What an edit tool returns in `data` once an edit is over. Only `completed: true` counts; the
 * edited files are the union of `changedPaths`, `paths` and `path` (the reader takes any of them as
 * one path or a list).
 */
export interface EditReport {
  /** True when the requested edit was carried out. */
  completed: boolean;
  /** Whether any file's bytes differ from before: `false` keeps the evidence, `null` or absent counts as a change. */
  changed?: boolean | null;
  /** The one file edited (file_write). */
  path?: string;
  /** The files the edit names (apply_patch). */
  paths?: string[];
  /** The files whose content or existence changed (apply_patch). */
  changedPaths?: string[];
}

/** A completed edit as an observer takes it in: whether it changed anything (null: unknown) and the files. */
export interface CompletedEdit {
  changed: boolean | null;
  paths: string[];
}

/** `data` as a {@link CommandReport}, with optional flags read as `=== true`; null for any other value. */
export function readCommandReport(data: unknown): CommandReport | null {
  if (typeof data !== "object" || data === null) return null;
  const fields = data as Record<string, unknown>;
  if (fields.status === "not-run") {
    return typeof fields.reason === "string" && typeof fields.command === "string"
      ? { status: "not-run", command: fields.command, reason: fields.reason }
      : null;
  }
  if (fields.status !== "completed" || typeof fields.exitCode !== "number") return null;
  const stdout = logPathOf(fields.stdout);
  const stderr = logPathOf(fields.stderr);
  if (stdout === undefined || stderr === undefined) return null;
  return {
    status: "completed",
    exitCode: fields.exitCode,
    stdout: { logPath: stdout },
    stderr: { logPath: stderr },
    truncated: fields.truncated === true,
    timedOut: fields.timedOut === true,
    ...(typeof fields.timeoutMs === "number" ? { timeoutMs: fields.timeoutMs } : {}),
  };
}

/** `data` of a completed edit ({@link EditReport} with `completed: true`) as a {@link CompletedEdit}; null otherwise. */
export function readEditReport(data: unknown): CompletedEdit | null {
  if (typeof data !== "object" || data === null) return null;
  const report = data as Record<keyof EditReport, unknown>;
  if (report.completed !== true) return null;
  const changed = report.changed === true ? true : report.changed === false ? false : null;
  const named = [report.changedPaths, report.paths, report.path].flatMap((value) =>
    Array.isArray(value) ? value.filter((p): p is string => typeof p === "string") : typeof value === "string" ? [value] : [],
  );
  return { changed, paths: [...new Set(named)] };
}

function logPathOf(stream: unknown): string | undefined {
  if (typeof stream !== "object" || stream === null) return undefined;
  const { logPath } = stream as { logPath?: unknown };
  return typeof logPath === "string" ? logPath : undefined;
}
