// The one event list every transcript reader produces, whatever the client.

/** A shell command and its result, as the transcript recorded them. */
export interface ShellEvent {
  type: "shell";
  /** The client's call id (Claude `tool_use.id`, Codex `call_id`), or null. */
  id: string | null;
  command: string;
  /** What the command printed (stdout and stderr together, as the model saw them). */
  output: string;
  /** The exit status, or null when the transcript does not prove one. */
  exitCode: number | null;
  cwd: string | null;
  interrupted: boolean;
  timedOut: boolean;
  /** True when the transcript holds only part of the output (a preview, a middle cut). */
  outputTruncated: boolean;
  /** Where the client saved the full output when it was too large to keep inline. */
  persistedOutputPath: string | null;
  /** False when the call has no result in the transcript (still running, or the session ended). */
  completed: boolean;
  /** True for a subagent's call. */
  sidechain: boolean;
  timestamp: string | null;
  /** 1-based line of the record that holds the call. */
  line: number;
  /**
   * What the client said about the call when `exitCode` cannot say it (absent: nothing more).
   * `failed`: it reported a failure but kept no exit code (Claude Code's `is_error` without `Exit code
   * N`, a background shell's `failed` status): the run failed, its status unknown, never a pass.
   * `refused`: it answered with a refusal that Claude Code also writes for a call the user interrupted
   * while it ran: not a run, but what the command may have written still counts as an edit.
   */
  clientStatus?: "failed" | "refused";
}

/** A file edit by an edit tool (Edit, Write, MultiEdit, NotebookEdit, apply_patch). */
export interface EditEvent {
  type: "edit";
  id: string | null;
  tool: string;
  paths: string[];
  /** True when the client reported the edit as failed (nothing changed). */
  failed: boolean;
  sidechain: boolean;
  timestamp: string | null;
  line: number;
}

/** Text the assistant wrote (consecutive text blocks of one turn are joined). */
export interface AssistantMessageEvent {
  type: "assistant-message";
  text: string;
  sidechain: boolean;
  timestamp: string | null;
  line: number;
}

/** Text the user wrote. */
export interface UserMessageEvent {
  type: "user-message";
  text: string;
  timestamp: string | null;
  line: number;
}

/** One event of a session, in transcript order. */
export type TranscriptEvent = ShellEvent | EditEvent | AssistantMessageEvent | UserMessageEvent;

/** The transcript formats agent-evidence reads. */
export type TranscriptFormat = "claude-code" | "codex" | "generic";

/** A line that was skipped, and why. */
export interface TranscriptProblem {
  line: number;
  reason: string;
}

/** What a reader returns: never throws on bad lines, reports them. */
export interface TranscriptReadResult {
  /** The detected (or requested) format; null when no line looked like a known format. */
  format: TranscriptFormat | null;
  events: TranscriptEvent[];
  /** The main agent's last assistant message, or null. */
  finalMessage: string | null;
  problems: TranscriptProblem[];
  /**
   * The feedback of Stop hooks that blocked, as the client wrote it into the transcript (Claude Code:
   * a synthetic user message `Stop hook feedback: ...`); empty when the format has none.
   */
  stopHookFeedback?: string[];
}
