// Claude Code session JSONL (~/.claude/projects/<project>/<session>.jsonl, and subagents'
// agent-*.jsonl): assistant `tool_use` blocks, user `tool_result` blocks and `toolUseResult`.
import { containsClippingNote } from "../../evidence/clipping.js";
import { isClientEditTool, toolCallEffect } from "./tool-effect.js";
import { EventList, pendingShell } from "./event-list.js";
import { asObject, asString, lastAssistantText, parseJsonl, type JsonlRecord } from "./jsonl.js";
import type { ShellEvent, TranscriptProblem, TranscriptReadResult } from "./types.js";

const RECORD_TYPES = new Set(["user", "assistant", "summary", "system", "file-history-snapshot", "queue-operation", "progress", "attachment"]);

/** True when a record looks like a Claude Code transcript record. */
export function isClaudeCodeRecord(value: Record<string, unknown>): boolean {
  const type = asString(value.type);
  return type !== undefined && RECORD_TYPES.has(type) && ("message" in value || "sessionId" in value || "uuid" in value || "leafUuid" in value);
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) => asObject(block))
    .filter((block) => block?.type === "text")
    .map((block) => asString(block?.text) ?? "")
    .join("\n");
}

// A failed command's result starts "Exit code N"; its toolUseResult is the string "Error: Exit code N\n...".
function applyResult(event: ShellEvent, block: Record<string, unknown>, toolUseResult: unknown): void {
  const text = contentText(block.content);
  const isError = block.is_error === true;
  const result = asObject(toolUseResult);
  const resultText = asString(toolUseResult);
  event.completed = true;
  const exit = /^Exit code (-?\d+)/.exec(text) ?? (resultText === undefined ? null : /^Error: Exit code (-?\d+)/.exec(resultText));
  if (result !== undefined) {
    const stdout = asString(result.stdout) ?? "";
    const stderr = asString(result.stderr) ?? "";
    event.output = stderr === "" ? stdout : stdout === "" ? stderr : `${stdout}\n${stderr}`;
    event.interrupted = result.interrupted === true;
    event.persistedOutputPath = asString(result.persistedOutputPath) ?? null;
    event.timedOut = typeof result.timedOutAfterMs === "number";
    // A success with a "return code interpretation" (grep's 1 = no match) is not exit 0; background runs have no status yet.
    const certain = !event.interrupted && !event.timedOut && result.returnCodeInterpretation === undefined && result.backgroundTaskId === undefined;
    event.exitCode = exit ? Number(exit[1]) : !isError && certain ? 0 : null;
  } else {
    event.output = exit ? text.slice(exit[0].length).replace(/^\n/, "") : text;
    event.exitCode = exit ? Number(exit[1]) : null;
    event.interrupted = /^Interrupted\b|\[Request interrupted/.test(text);
  }
  if (/Command timed out after/.test(text)) event.timedOut = true;
  if (event.persistedOutputPath === null) event.persistedOutputPath = /Full output saved to: (.+)/.exec(text)?.[1]?.trim() ?? null;
  event.outputTruncated = event.persistedOutputPath !== null || containsClippingNote(text);
}

function readAssistant(record: JsonlRecord, list: EventList, problems: TranscriptProblem[]): void {
  const { value, line } = record;
  const content = asObject(value.message)?.content;
  const sidechain = value.isSidechain === true;
  const timestamp = asString(value.timestamp) ?? null;
  if (typeof content === "string") return list.addAssistantText(content, sidechain, timestamp, line);
  if (!Array.isArray(content)) return void problems.push({ line, reason: "assistant record without message.content" });
  for (const raw of content) {
    const block = asObject(raw);
    if (block?.type === "text") list.addAssistantText(asString(block.text) ?? "", sidechain, timestamp, line);
    if (block?.type !== "tool_use") continue;
    const name = asString(block.name) ?? "";
    const input = asObject(block.input) ?? {};
    const id = asString(block.id) ?? null;
    if (name === "Bash") {
      const command = asString(input.command);
      if (command === undefined) problems.push({ line, reason: "Bash tool_use without a command string" });
      else list.addCall(pendingShell({ id, command, cwd: asString(value.cwd) ?? null, sidechain, timestamp, line }));
    } else {
      // Edit, Write, an MCP server's write_file, a newer client tool: an edit when it can write (tool-effect.ts).
      const effect = toolCallEffect(name, input);
      if (effect.kind === "edit") list.addCall({ type: "edit", id, tool: name, paths: effect.paths, failed: false, sidechain, timestamp, line });
    }
  }
}

// Claude Code writes a blocking Stop hook's reason back as a user message that starts so, in the
// main chain. A sidechain user message is a subagent's prompt: the agent's own text, whatever it says.
const STOP_FEEDBACK = "Stop hook feedback:";

function readUser(record: JsonlRecord, list: EventList, feedback: string[]): void {
  const { value, line } = record;
  const content = asObject(value.message)?.content;
  const timestamp = asString(value.timestamp) ?? null;
  const sidechain = value.isSidechain === true;
  const takeText = (text: string): void => {
    if (sidechain) return;
    // The agent's answer to the hook is a new message, not more of the one the hook blocked.
    if (text.startsWith(STOP_FEEDBACK)) {
      feedback.push(text);
      list.breakText();
    }
    else if (value.isMeta !== true) list.addUserText(text, timestamp, line);
  };
  if (typeof content === "string") return takeText(content);
  if (!Array.isArray(content)) return;
  for (const raw of content) {
    const block = asObject(raw);
    if (block?.type === "text") takeText(asString(block.text) ?? "");
    if (block?.type !== "tool_result") continue;
    const call = list.call(asString(block.tool_use_id));
    if (call?.type === "shell") applyResult(call, block, value.toolUseResult);
    // Only the client's own edit tools fail whole; another tool that failed may have written part of its work.
    else if (call?.type === "edit") call.failed = block.is_error === true && isClientEditTool(call.tool);
  }
}

/** Reads a Claude Code session (or subagent) transcript into the common event list. */
export function readClaudeCodeTranscript(text: string): TranscriptReadResult {
  const { records, problems } = parseJsonl(text);
  const list = new EventList();
  const feedback: string[] = [];
  for (const record of records) {
    const type = asString(record.value.type);
    if (type === "assistant") readAssistant(record, list, problems);
    else if (type === "user") readUser(record, list, feedback);
    else if (type === undefined) problems.push({ line: record.line, reason: "record without a type" });
  }
  return { format: "claude-code", events: list.events, finalMessage: lastAssistantText(list.events), problems, stopHookFeedback: feedback };
}
