// Codex rollout JSONL (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl). Since late August 2025 every
// line is `{timestamp, type, payload}` (session_meta, response_item, event_msg, turn_context, ...);
// before that a rollout is a `{id, timestamp, instructions}` line, `{"record_type":"state"}` lines and
// bare response items. Response items carry the calls and their outputs; event_msg payloads carry
// the structured ends (codex-events.ts). Outputs are read in codex-output.ts, inputs in codex-calls.ts.
import {
  commandText,
  environmentCwd,
  parseArguments,
  patchPaths,
  scanCodeModeScript,
  SHELL_FUNCTIONS,
  shellApplyPatch,
} from "./codex-calls.js";
import { readCodexEvent } from "./codex-events.js";
import { hookPromptText } from "./codex-hook-prompt.js";
import { parseCodexOutput } from "./codex-output.js";
import { applyPollResult, applyShellResult, type CodexState, createCodexState } from "./codex-state.js";
import { pendingShell } from "./event-list.js";
import { asObject, asString, lastAssistantText, parseJsonl } from "./jsonl.js";
import { toolCallEffect } from "./tool-effect.js";
import type { TranscriptReadResult } from "./types.js";

const LINE_TYPES = new Set(["session_meta", "response_item", "event_msg", "turn_context", "compacted"]);
const RESPONSE_ITEM_TYPES = new Set([
  "message",
  "reasoning",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "local_shell_call",
  "web_search_call",
]);

/** True when a record looks like a Codex rollout line (either layout). */
export function isCodexRecord(value: Record<string, unknown>): boolean {
  const type = asString(value.type);
  if (type !== undefined && LINE_TYPES.has(type) && asObject(value.payload) !== undefined) return true;
  return isLegacyHeader(value) || isLegacyItem(value);
}

// A pre-September 2025 rollout's first line ({id, timestamp, instructions}) or its state marker.
function isLegacyHeader(value: Record<string, unknown>): boolean {
  if (value.record_type === "state") return true;
  return value.type === undefined && typeof value.id === "string" && typeof value.timestamp === "string" && "instructions" in value;
}

// A bare response item, as pre-September 2025 rollouts write them.
function isLegacyItem(value: Record<string, unknown>): boolean {
  const type = asString(value.type);
  return (
    type !== undefined &&
    RESPONSE_ITEM_TYPES.has(type) &&
    value.payload === undefined &&
    ("call_id" in value || "role" in value || type === "reasoning")
  );
}

function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) return output.map((item) => asString(asObject(item)?.text) ?? "").join("");
  return asString(asObject(output)?.content) ?? "";
}

function messageText(content: unknown): string {
  return Array.isArray(content) ? content.map((item) => asString(asObject(item)?.text) ?? "").join("") : "";
}

function readResponseItem(payload: Record<string, unknown>, state: CodexState, timestamp: string | null, line: number): void {
  const type = asString(payload.type);
  const callId = asString(payload.call_id) ?? asString(payload.id);
  switch (type) {
    case "message": {
      const text = messageText(payload.content);
      if (payload.role === "assistant") state.list.addAssistantText(text, false, timestamp, line);
      else if (payload.role === "user") {
        state.cwd = environmentCwd(text) ?? state.cwd;
        const hookPrompt = hookPromptText(text);
        if (hookPrompt !== null) {
          // The agent's answer to the hook is a new message, not more of the one the hook blocked.
          state.hookPrompts.push(hookPrompt);
          state.list.breakText();
        } else if (!text.startsWith("<")) state.list.addUserText(text, timestamp, line);
      }
      return;
    }
    case "function_call":
    case "custom_tool_call":
      if (callId !== undefined) state.announced.add(callId);
      state.list.breakText();
      readCall(payload, type, callId, state, timestamp, line);
      return;
    case "local_shell_call": {
      if (callId !== undefined) state.announced.add(callId);
      state.list.breakText();
      const action = asObject(payload.action);
      const command = commandText(action?.command);
      if (command === undefined) state.problems.push({ line, reason: "local_shell_call without a command" });
      else
        state.list.addCall(
          pendingShell({
            id: callId ?? null,
            command,
            cwd: asString(action?.working_directory) ?? state.cwd,
            sidechain: false,
            timestamp,
            line,
          }),
        );
      return;
    }
    case "function_call_output":
    case "custom_tool_call_output":
      readOutput(payload, callId, state);
      return;
    default:
      return;
  }
}

function readCall(
  payload: Record<string, unknown>,
  type: string,
  callId: string | undefined,
  state: CodexState,
  timestamp: string | null,
  line: number,
): void {
  const { list } = state;
  const name = asString(payload.name) ?? "";
  const namespace = asString(payload.namespace);
  const rawArguments = asString(payload.arguments) ?? asString(payload.input) ?? "";
  const args = parseArguments(rawArguments);
  const id = callId ?? null;
  if (name === "apply_patch") {
    const patch = asString(args.input) ?? rawArguments;
    list.addCall({ type: "edit", id, tool: "apply_patch", paths: patchPaths(patch), failed: false, sidechain: false, timestamp, line });
  } else if (SHELL_FUNCTIONS.has(name) && namespace === undefined) {
    const raw = args.command ?? args.cmd;
    const command = commandText(raw);
    if (command === undefined) {
      state.problems.push({ line, reason: `${name} call without a command` });
      return;
    }
    const patch = shellApplyPatch(raw, command);
    if (patch !== undefined)
      list.addCall({
        type: "edit",
        id: patch.whole ? id : null,
        tool: "apply_patch",
        paths: patchPaths(patch.patch),
        failed: false,
        sidechain: false,
        timestamp,
        line,
      });
    if (patch?.whole !== true)
      list.addCall(pendingShell({ id, command, cwd: asString(args.workdir) ?? state.cwd, sidechain: false, timestamp, line }));
  } else if (name === "exec" && type === "custom_tool_call" && namespace === undefined) {
    // Code mode: JavaScript whose nested tool calls are its only effects.
    const script = scanCodeModeScript(rawArguments);
    const quiet = script.shellCalls === 0 && !script.otherEdits && !script.opaque;
    const edit = quiet ? null : { type: "edit" as const, id, tool: "exec", paths: [], failed: false, sidechain: false, timestamp, line };
    if (edit !== null) list.addCall(edit);
    if (callId !== undefined) state.codeMode.set(callId, { script, edit, nestedShells: 0 });
  } else {
    if (name === "write_stdin" && callId !== undefined && (typeof args.session_id === "number" || typeof args.session_id === "string"))
      state.polls.set(callId, String(args.session_id));
    // Any other tool (an MCP server's, write_stdin with input): an edit when it can write.
    const tool = namespace === undefined ? name : namespace.endsWith("__") ? `${namespace}${name}` : `${namespace}__${name}`;
    const effect = toolCallEffect(tool, args);
    if (effect.kind === "edit")
      list.addCall({ type: "edit", id, tool, paths: effect.paths, failed: false, sidechain: false, timestamp, line });
  }
}

function readOutput(payload: Record<string, unknown>, callId: string | undefined, state: CodexState): void {
  const raw = outputText(payload.output);
  const result = parseCodexOutput(raw);
  const poll = callId === undefined ? undefined : state.polls.get(callId);
  if (poll !== undefined) applyPollResult(state, poll, result);
  const open = callId === undefined ? undefined : state.codeMode.get(callId);
  if (open !== undefined) {
    state.codeMode.delete(callId!);
    // The exec's nested commands were all recorded: their own lines carry its effect.
    const accounted =
      !open.script.opaque && !open.script.otherEdits && open.script.shellCalls > 0 && open.nestedShells >= open.script.shellCalls;
    if (open.edit !== null && accounted) state.list.remove(open.edit);
    return;
  }
  const call = state.list.call(callId);
  if (call?.type === "shell") {
    if (!(call.id !== null && state.ended.has(call.id)) && !call.completed) applyShellResult(state, call, result);
  } else if (call?.type === "edit" && poll === undefined) {
    if (result.kind === "not-run") {
      state.list.remove(call);
      return;
    }
    // A patch that failed its verification wrote nothing; one that failed while applying may have written the
    // files before the failing one, so only a one-file patch that failed is known to have changed nothing.
    // Another tool that failed may have written part of its work.
    const verificationFailed = /^apply_patch verification failed/.test(raw);
    const failedWhole =
      (result.kind === "ran" && result.exitCode !== null && result.exitCode !== 0) || asObject(payload.output)?.success === false;
    call.failed = call.tool === "apply_patch" && (verificationFailed || (failedWhole && call.paths.length === 1));
  }
}

/** Reads a Codex rollout file (any client version) into the common event list. */
export function readCodexTranscript(text: string): TranscriptReadResult {
  const { records, problems } = parseJsonl(text);
  const state = createCodexState(problems);
  for (const { value, line } of records) {
    const type = asString(value.type);
    const payload = asObject(value.payload);
    const timestamp = asString(value.timestamp) ?? null;
    if (type !== undefined && LINE_TYPES.has(type)) {
      if (payload === undefined) problems.push({ line, reason: "rollout line without a payload object" });
      else if (type === "session_meta" || type === "turn_context") state.cwd = asString(payload.cwd) ?? state.cwd;
      else if (type === "response_item") readResponseItem(payload, state, timestamp, line);
      else if (type === "event_msg") readCodexEvent(payload, state, timestamp, line);
    } else if (type !== undefined && payload !== undefined) {
      // A line type this reader has no use for (world_state, token_usage_record, ...).
    } else if (isLegacyItem(value)) {
      readResponseItem(value, state, null, line);
    } else if (!isLegacyHeader(value)) {
      problems.push({ line, reason: "not a Codex rollout line" });
    }
  }
  return {
    format: "codex",
    events: state.list.events,
    finalMessage: lastAssistantText(state.list.events),
    problems,
    stopHookFeedback: state.hookPrompts,
  };
}
