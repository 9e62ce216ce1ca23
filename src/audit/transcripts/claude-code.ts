// Claude Code session JSONL (~/.claude/projects/<project>/<session>.jsonl, and subagents'
// agent-*.jsonl): assistant `tool_use` blocks, user `tool_result` blocks and `toolUseResult`, subagent
// messages embedded in `progress` records, and background shells finished by BashOutput / TaskOutput.
import {
  applyRefusal,
  applyResult,
  applyShellPoll,
  applyTaskNotification,
  backgroundShellId,
  parseShellPoll,
  parseTaskNotifications,
  refusalOf,
} from "./claude-code-results.js";
import { EventList, pendingShell } from "./event-list.js";
import { asObject, asString, type JsonlRecord, lastAssistantText, parseJsonl } from "./jsonl.js";
import { isClientEditTool, toolCallEffect } from "./tool-effect.js";
import type { ShellEvent, TranscriptEvent, TranscriptProblem, TranscriptReadResult } from "./types.js";

const RECORD_TYPES = new Set([
  "user",
  "assistant",
  "summary",
  "system",
  "file-history-snapshot",
  "queue-operation",
  "progress",
  "attachment",
]);

/** True when a record looks like a Claude Code transcript record. */
export function isClaudeCodeRecord(value: Record<string, unknown>): boolean {
  const type = asString(value.type);
  return (
    type !== undefined && RECORD_TYPES.has(type) && ("message" in value || "sessionId" in value || "uuid" in value || "leafUuid" in value)
  );
}

// The tools that read a background shell's output, and the input field naming the shell.
const POLL_TOOLS: Record<string, readonly string[]> = {
  BashOutput: ["bash_id", "shell_id"],
  TaskOutput: ["task_id", "shell_id", "bash_id"],
};

/** The reading state of one transcript. */
interface ClaudeState {
  list: EventList;
  problems: TranscriptProblem[];
  feedback: string[];
  /** Background shells by their shell id. */
  background: Map<string, ShellEvent>;
  /** Poll calls (tool_use id) -> the shell id they read. */
  polls: Map<string, string>;
  /** Records of the main agent (not sidechain). */
  mainRecords: number;
}

function readAssistant(record: JsonlRecord, state: ClaudeState): void {
  const { value, line } = record;
  const { list, problems } = state;
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
    // A subagent's call seen twice (its progress record and a repeat of it) is one call.
    if (id !== null && (list.call(id) !== undefined || state.polls.has(id))) continue;
    const pollKeys = POLL_TOOLS[name];
    if (name === "Bash") {
      const command = asString(input.command);
      if (command === undefined) problems.push({ line, reason: "Bash tool_use without a command string" });
      else list.addCall(pendingShell({ id, command, cwd: asString(value.cwd) ?? null, sidechain, timestamp, line }));
    } else if (pollKeys !== undefined) {
      const shellId = pollKeys.map((key) => asString(input[key])).find((value) => value !== undefined);
      if (id !== null && shellId !== undefined) state.polls.set(id, shellId);
      list.breakText();
    } else {
      // Edit, Write, an MCP server's write_file, a newer client tool: an edit when it can write (tool-effect.ts).
      const effect = toolCallEffect(name, input);
      if (effect.kind === "edit")
        list.addCall({ type: "edit", id, tool: name, paths: effect.paths, failed: false, sidechain, timestamp, line });
      // A read-only call leaves no event, but the text after it is a new message all the same.
      else list.breakText();
    }
  }
}

// Claude Code writes a blocking Stop hook's reason back as a user message that starts so, in the
// main chain. A sidechain user message is a subagent's prompt: the agent's own text, whatever it says.
const STOP_FEEDBACK = "Stop hook feedback:";

function readToolResult(block: Record<string, unknown>, toolUseResult: unknown, state: ClaudeState): void {
  const id = asString(block.tool_use_id);
  const shellId = id === undefined ? undefined : state.polls.get(id);
  if (shellId !== undefined) {
    const shell = state.background.get(shellId);
    if (shell !== undefined) applyShellPoll(shell, parseShellPoll(block, toolUseResult));
    return;
  }
  const call = state.list.call(id);
  if (call === undefined) return;
  const refusal = refusalOf(block, toolUseResult);
  // Refused before it ran (a deny rule, a "no" with feedback): no run, no edit. An ambiguous refusal
  // (it may have interrupted the call) leaves a command's writes, and a tool's other than the client's
  // edit tools, which say nothing was written.
  if (refusal === "never-ran" || (refusal === "refused" && call.type === "edit" && isClientEditTool(call.tool)))
    return state.list.remove(call);
  if (refusal === "refused") {
    if (call.type === "shell") applyRefusal(call);
    return;
  }
  if (call.type === "shell") {
    applyResult(call, block, toolUseResult);
    const started = backgroundShellId(block, toolUseResult);
    if (started !== null) state.background.set(started, call);
  }
  // Only the client's own edit tools fail whole; another tool that failed may have written part of its work.
  else call.failed = block.is_error === true && isClientEditTool(call.tool);
}

function readNotifications(text: string, state: ClaudeState): void {
  // The agent's answer to it is a new message, not the rest of the turn before.
  state.list.breakText();
  for (const notification of parseTaskNotifications(text)) {
    const byTask = notification.taskId === null ? undefined : state.background.get(notification.taskId);
    const byCall = state.list.call(notification.toolUseId ?? undefined);
    const shell = byTask ?? (byCall?.type === "shell" && !byCall.completed ? byCall : undefined);
    if (shell !== undefined) applyTaskNotification(shell, notification);
  }
}

function readUser(record: JsonlRecord, state: ClaudeState): void {
  const { value, line } = record;
  const content = asObject(value.message)?.content;
  const timestamp = asString(value.timestamp) ?? null;
  const sidechain = value.isSidechain === true;
  const takeText = (text: string): void => {
    // The client's note that a background task ended: no user wrote it.
    if (text.trimStart().startsWith("<task-notification>")) return readNotifications(text, state);
    if (sidechain) return;
    if (text.startsWith(STOP_FEEDBACK)) {
      state.feedback.push(text);
      // The agent's text after a blocked stop is a new message, not the rest of the one before.
      state.list.breakText();
    } else if (value.isMeta !== true) state.list.addUserText(text, timestamp, line);
  };
  if (typeof content === "string") return takeText(content);
  if (!Array.isArray(content)) return;
  for (const raw of content) {
    const block = asObject(raw);
    if (block?.type === "text") takeText(asString(block.text) ?? "");
    if (block?.type === "tool_result") readToolResult(block, value.toolUseResult, state);
  }
}

// Newer clients embed a running subagent's messages in the parent session as
// {"type":"progress","data":{"type":"agent_progress","message":{"type":"assistant"|"user","message":{...}}}}.
function embeddedRecord(record: JsonlRecord): JsonlRecord | null {
  const data = asObject(record.value.data);
  const inner = asObject(data?.message);
  if (data?.type !== "agent_progress" || inner === undefined || asObject(inner.message) === undefined) return null;
  const type = asString(inner.type);
  if (type !== "user" && type !== "assistant") return null;
  return { line: record.line, value: { cwd: record.value.cwd, timestamp: record.value.timestamp, ...inner, isSidechain: true } };
}

function readRecord(record: JsonlRecord, state: ClaudeState): void {
  const type = asString(record.value.type);
  if ((type === "user" || type === "assistant") && record.value.isSidechain !== true) state.mainRecords += 1;
  if (type === "assistant") readAssistant(record, state);
  else if (type === "user") readUser(record, state);
  else if (type === "progress") {
    const embedded = embeddedRecord(record);
    if (embedded !== null) readRecord(embedded, state);
  } else if (type === undefined) state.problems.push({ line: record.line, reason: "record without a type" });
}

// A subagent's own file (every record a sidechain) ends with the subagent's answer.
function sidechainFinalText(events: readonly TranscriptEvent[]): string | null {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index]!;
    if (event.type === "assistant-message") return event.text;
  }
  return null;
}

/** Reads a Claude Code session (or subagent) transcript into the common event list. */
export function readClaudeCodeTranscript(text: string): TranscriptReadResult {
  const { records, problems } = parseJsonl(text);
  const state: ClaudeState = { list: new EventList(), problems, feedback: [], background: new Map(), polls: new Map(), mainRecords: 0 };
  for (const record of records) readRecord(record, state);
  const events = state.list.events;
  const finalMessage = state.mainRecords === 0 ? sidechainFinalText(events) : lastAssistantText(events);
  return { format: "claude-code", events, finalMessage, problems, stopHookFeedback: state.feedback };
}
