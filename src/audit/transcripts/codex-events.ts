// Codex `event_msg` payloads: messages, the structured ends of commands, patches and MCP calls
// (exec_command_end, patch_apply_end, mcp_tool_call_end), and 0.15x's item_completed turn items
// (CommandExecution, FileChange, McpToolCall), which code mode leaves as the only record of its commands.
import { commandText } from "./codex-calls.js";
import { hookPromptText } from "./codex-hook-prompt.js";
import { applyCommandEnd, type CodexState } from "./codex-state.js";
import { asObject, asString } from "./jsonl.js";
import { toolCallEffect } from "./tool-effect.js";

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const integer = (value: unknown): number | undefined => (typeof value === "number" && Number.isInteger(value) ? value : undefined);

/** Reads one event_msg payload into the state. */
export function readCodexEvent(payload: Record<string, unknown>, state: CodexState, timestamp: string | null, line: number): void {
  const { list } = state;
  switch (asString(payload.type)) {
    case "agent_message":
      list.addAssistantText(asString(payload.message) ?? "", false, timestamp, line);
      return;
    case "user_message": {
      // The response item of the same message records a hook's prompt (codex.ts); it is no user turn.
      const message = asString(payload.message) ?? "";
      if (hookPromptText(message) === null) list.addUserText(message, timestamp, line);
      return;
    }
    case "exec_command_end":
      applyCommandEnd(state, commandEnd(payload), timestamp, line);
      return;
    case "patch_apply_end":
      readPatchEnd(
        state,
        asString(payload.call_id),
        payload.success === false || payload.status === "declined" || payload.status === "failed",
        asObject(payload.changes),
        timestamp,
        line,
      );
      return;
    case "mcp_tool_call_end": {
      const invocation = asObject(payload.invocation);
      readMcpEnd(
        state,
        asString(payload.call_id),
        asString(invocation?.server),
        asString(invocation?.tool),
        asObject(invocation?.arguments),
        timestamp,
        line,
      );
      return;
    }
    case "item_completed":
      readItem(state, asObject(payload.item), timestamp, line);
      return;
    default:
      return;
  }
}

// exec_command_end and CommandExecution items, in snake_case or camelCase.
function commandEnd(fields: Record<string, unknown>) {
  const stdout = text(fields.stdout);
  const stderr = text(fields.stderr);
  const joined = stdout === undefined && stderr === undefined ? undefined : `${stdout ?? ""}${stderr ?? ""}`;
  return {
    id: asString(fields.call_id) ?? asString(fields.id) ?? null,
    command: commandText(fields.command),
    cwd: asString(fields.cwd),
    exitCode: integer(fields.exit_code) ?? integer(fields.exitCode),
    output: text(fields.aggregated_output) ?? text(fields.aggregatedOutput) ?? joined ?? text(asObject(fields.formatted_output)?.text),
    declined: fields.status === "declined",
  };
}

function readItem(state: CodexState, item: Record<string, unknown> | undefined, timestamp: string | null, line: number): void {
  switch (asString(item?.type)) {
    case "CommandExecution":
      if (item!.status === "inProgress" || item!.status === "in_progress") return;
      applyCommandEnd(state, commandEnd(item!), timestamp, line);
      return;
    case "FileChange":
      readPatchEnd(
        state,
        asString(item!.id),
        item!.status === "failed" || item!.status === "declined",
        asObject(item!.changes),
        timestamp,
        line,
      );
      return;
    case "McpToolCall":
      readMcpEnd(state, asString(item!.id), asString(item!.server), asString(item!.tool), asObject(item!.arguments), timestamp, line);
      return;
    default:
      // Messages, reasoning, plans: the response items already carry them.
      return;
  }
}

// A patch's end: a known apply_patch call learns whether it failed; an unknown one is an edit of its changed paths.
function readPatchEnd(
  state: CodexState,
  callId: string | undefined,
  failed: boolean,
  changes: Record<string, unknown> | undefined,
  timestamp: string | null,
  line: number,
): void {
  const call = state.list.call(callId);
  if (call?.type === "edit") {
    if (failed) call.failed = true;
    return;
  }
  if (call !== undefined || changes === undefined) return;
  state.list.addCall({
    type: "edit",
    id: callId ?? null,
    tool: "apply_patch",
    paths: Object.keys(changes),
    failed,
    sidechain: false,
    timestamp,
    line,
  });
}

// An MCP call's end: when no function call announced it, its effect comes from the server's tool.
function readMcpEnd(
  state: CodexState,
  callId: string | undefined,
  server: string | undefined,
  tool: string | undefined,
  args: Record<string, unknown> | undefined,
  timestamp: string | null,
  line: number,
): void {
  if ((callId !== undefined && state.announced.has(callId)) || tool === undefined) return;
  const name = server === undefined ? tool : `mcp__${server}__${tool}`;
  const effect = toolCallEffect(name, args ?? {});
  if (effect.kind === "edit")
    state.list.addCall({
      type: "edit",
      id: callId ?? null,
      tool: name,
      paths: effect.paths,
      failed: false,
      sidechain: false,
      timestamp,
      line,
    });
}
