// Claude Code tool results for shell calls: a Bash result, a background shell's start, its later
// BashOutput / TaskOutput polls, and calls the user or a permission rule refused.
import { containsClippingNote } from "../../evidence/clipping.js";
import { asObject, asString } from "./jsonl.js";
import type { ShellEvent } from "./types.js";

/** The text of a tool_result's or a message's content (a string, or its text blocks joined). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) => asObject(block))
    .filter((block) => block?.type === "text")
    .map((block) => asString(block?.text) ?? "")
    .join("\n");
}

// Claude Code's refusals (utils/messages.ts in the 2.x clients). Some prove the call never ran: a
// permission rule denied it, the user said no in the prompt and typed what to do instead ("the user
// said:"), a subagent's prompt was denied ("Permission for this tool use was denied"), `-p` mode asked
// for an approval nobody could give.
const NEVER_RAN = [
  /^The user doesn't want to proceed with this tool use\.[\s\S]*?the user said:/,
  /^Permission for this tool use was denied\./,
  /^Permission to use \S+( with command [\s\S]*)? has been denied/,
  /^This (?:Bash )?command (?:requires approval|contains multiple operations\. The following part requires approval)/,
];
// The others are also what the client writes when the user presses Esc on a call already running
// (measured on 2.1.x: the same text, `toolUseResult: "User rejected tool use"`, then "[Request
// interrupted by user for tool use]"), so the call may have run in part.
const REFUSED = [
  /^The user doesn't want to (proceed with this tool use|take this action right now)/,
  /^User rejected tool use/,
  /^Error: (The user doesn't want to proceed|User rejected tool use)/,
];

/** How a tool_result refused its call: `never-ran`, `refused` (possibly interrupted while running), or null. */
export function refusalOf(block: Record<string, unknown>, toolUseResult: unknown): "never-ran" | "refused" | null {
  if (block.is_error !== true) return null;
  const texts = [contentText(block.content).trim(), asString(toolUseResult)?.trim() ?? ""];
  if (NEVER_RAN.some((pattern) => texts.some((text) => pattern.test(text)))) return "never-ran";
  return REFUSED.some((pattern) => texts.some((text) => pattern.test(text))) ? "refused" : null;
}

const joinOutput = (stdout: string, stderr: string): string => (stderr === "" ? stdout : stdout === "" ? stderr : `${stdout}\n${stderr}`);

/** The id of the background shell a Bash result started (`backgroundTaskId`, or the result's text), or null. */
export function backgroundShellId(block: Record<string, unknown>, toolUseResult: unknown): string | null {
  const fromResult = asString(asObject(toolUseResult)?.backgroundTaskId);
  if (fromResult !== undefined && fromResult !== "") return fromResult;
  // "Command running in background with ID: b1. Output is being written to: ..." (run_in_background);
  // "Command did not complete within its 120s timeout and was moved to the background (ID: b1). ..." (2.1.x).
  const text = contentText(block.content);
  return (
    /^Command running in background with ID: (\S+?)\.?(?:\s|$)/.exec(text)?.[1] ??
    /^Command did not complete within .*? moved to the background \(ID: ([^\s)]+)\)/.exec(text)?.[1] ??
    null
  );
}

// A failed command's result starts "Exit code N"; its toolUseResult is the string "Error: Exit code N\n...".
/** Fills a Bash call's event from its tool_result block and the record's toolUseResult. */
export function applyResult(event: ShellEvent, block: Record<string, unknown>, toolUseResult: unknown): void {
  const text = contentText(block.content);
  const isError = block.is_error === true;
  const result = asObject(toolUseResult);
  const resultText = asString(toolUseResult);
  event.completed = true;
  const exit = /^Exit code (-?\d+)/.exec(text) ?? (resultText === undefined ? null : /^Error: Exit code (-?\d+)/.exec(resultText));
  if (result !== undefined) {
    event.output = joinOutput(asString(result.stdout) ?? "", asString(result.stderr) ?? "");
    event.interrupted = result.interrupted === true;
    event.persistedOutputPath = asString(result.persistedOutputPath) ?? null;
    event.timedOut = typeof result.timedOutAfterMs === "number";
    // A success with a "return code interpretation" (grep's 1 = no match) is not exit 0.
    const certain = !event.interrupted && !event.timedOut && result.returnCodeInterpretation === undefined;
    event.exitCode = exit ? Number(exit[1]) : !isError && certain ? 0 : null;
  } else {
    // No toolUseResult (a subagent's results in some versions): only the text's "Exit code N" proves a status.
    event.output = exit ? text.slice(exit[0].length).replace(/^\n/, "") : text;
    event.exitCode = exit ? Number(exit[1]) : null;
    event.interrupted = /^Interrupted\b|\[Request interrupted/.test(text);
  }
  if (/Command timed out after/.test(text)) event.timedOut = true;
  if (event.persistedOutputPath === null) event.persistedOutputPath = /Full output saved to: (.+)/.exec(text)?.[1]?.trim() ?? null;
  event.outputTruncated = event.persistedOutputPath !== null || containsClippingNote(text);
  if (backgroundShellId(block, toolUseResult) !== null) {
    // Started in the background: no status yet; a later poll finishes it. Without toolUseResult the
    // text is only the client's note, not output.
    event.exitCode = null;
    event.completed = false;
    if (result === undefined) event.output = "";
  } else if (isError && event.exitCode === null && !event.interrupted && !event.timedOut) {
    // The client says it failed (a subagent's result without toolUseResult, a killed command): the
    // output may still show a pass, which this failure of unknown status must not become.
    event.clientStatus = "failed";
  }
}

/** Marks a Bash call the client refused (see {@link refusalOf}): no result to judge, its writes still count. */
export function applyRefusal(event: ShellEvent): void {
  Object.assign(event, { completed: true, exitCode: null, output: "", clientStatus: "refused" });
}

/** What one BashOutput / TaskOutput poll says about a background shell. */
export interface ShellPoll {
  status: string | null;
  exitCode: number | null;
  output: string;
  truncated: boolean;
}

const tag = (text: string, name: string): string | undefined => new RegExp(`<${name}>\\n?([\\s\\S]*?)\\n?</${name}>`).exec(text)?.[1];
const integer = (value: unknown): number | null =>
  typeof value === "number" && Number.isInteger(value)
    ? value
    : typeof value === "string" && /^-?\d+$/.test(value.trim())
      ? Number(value)
      : null;

/**
 * Reads a poll's result: toolUseResult `{status, exitCode, stdout, stderr}` (BashOutput, 2.0) or
 * `{task: {status, exitCode, output}}` (TaskOutput, 2.1), else the text's `<status>`, `<exit_code>`,
 * `<stdout>`, `<stderr>`, `<output>` tags.
 */
export function parseShellPoll(block: Record<string, unknown>, toolUseResult: unknown): ShellPoll {
  const text = contentText(block.content);
  const top = asObject(toolUseResult);
  const result = asObject(top?.task) ?? top;
  const status = asString(result?.status) ?? tag(text, "status")?.trim() ?? null;
  const fromObject = result !== undefined && asString(result.status) !== undefined;
  const exitCode = fromObject ? integer(result.exitCode ?? result.exit_code) : integer(tag(text, "exit_code"));
  const output = fromObject
    ? (asString(result.output) ?? joinOutput(asString(result.stdout) ?? "", asString(result.stderr) ?? ""))
    : (tag(text, "output") ?? joinOutput(tag(text, "stdout") ?? "", tag(text, "stderr") ?? ""));
  return { status, exitCode, output, truncated: containsClippingNote(text) || /\[Truncated|output truncated/i.test(text) };
}

// Some versions return the whole output so far, others only what is new: keep the longer reading.
const addOutput = (before: string, next: string): string =>
  before === "" || next.startsWith(before) ? next : next === "" || before.endsWith(next) ? before : `${before}\n${next}`;

/** Applies a poll to the background shell it names: output added; a finished status completes it. */
export function applyShellPoll(event: ShellEvent, poll: ShellPoll): void {
  event.output = addOutput(event.output, poll.output);
  if (poll.truncated) event.outputTruncated = true;
  switch (poll.status) {
    case "completed":
    case "failed":
      event.completed = true;
      event.exitCode = poll.exitCode;
      if (poll.status === "failed" && poll.exitCode === null) event.clientStatus = "failed";
      return;
    case "killed":
      event.completed = true;
      event.interrupted = true;
      event.exitCode = null;
      return;
    default:
      // running, pending, or a status this reader does not know: not finished, no exit code.
      return;
  }
}

/** A `<task-notification>` about a background task: its ids and what it says, as a poll would. */
export interface TaskNotification {
  taskId: string | null;
  toolUseId: string | null;
  poll: ShellPoll;
}

/**
 * The `<task-notification>` blocks of a user message (2.1.x tells the agent a background task ended
 * so, instead of a poll): `<task-id>`, `<tool-use-id>`, `<status>` and the exit code of the summary
 * (`Background command "..." completed (exit code 0)`, `... failed with exit code 1`) or an
 * `<exit-code>` tag. The output stays in the task's file, not in the transcript.
 */
export function parseTaskNotifications(text: string): TaskNotification[] {
  return [...text.matchAll(/<task-notification>([\s\S]*?)<\/task-notification>/g)].map(([, body = ""]) => {
    const summary = tag(body, "summary") ?? "";
    const code =
      tag(body, "exit-code") ??
      /\(exit code (-?\d+)\)|failed with exit code (-?\d+)/
        .exec(summary)
        ?.slice(1)
        .find((group) => group !== undefined);
    return {
      taskId: tag(body, "task-id")?.trim() ?? null,
      toolUseId: tag(body, "tool-use-id")?.trim() ?? null,
      poll: { status: tag(body, "status")?.trim() ?? null, exitCode: integer(code), output: "", truncated: false },
    };
  });
}

/** Applies a notification to the background shell it names, unless a poll already finished it; the output it does not carry is missing. */
export function applyTaskNotification(event: ShellEvent, notification: TaskNotification): void {
  if (event.completed) return;
  applyShellPoll(event, notification.poll);
  if (event.completed) event.outputTruncated = true;
}
