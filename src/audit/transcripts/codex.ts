// Codex rollout JSONL (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl): `{timestamp, type, payload}`
// lines; `response_item` payloads carry calls and outputs, `event_msg` payloads carry exec events.
import { containsClippingNote } from "../../evidence/clipping.js";
import { EventList, pendingShell } from "./event-list.js";
import { toolCallEffect } from "./tool-effect.js";
import { asObject, asString, lastAssistantText, parseJsonl } from "./jsonl.js";
import type { ShellEvent, TranscriptProblem, TranscriptReadResult } from "./types.js";

const LINE_TYPES = new Set(["session_meta", "response_item", "event_msg", "turn_context", "compacted"]);
const SHELL_FUNCTIONS = new Set(["shell", "container.exec", "local_shell", "shell_command", "exec_command"]);

/** True when a record looks like a Codex rollout line. */
export function isCodexRecord(value: Record<string, unknown>): boolean {
  const type = asString(value.type);
  return type !== undefined && LINE_TYPES.has(type) && asObject(value.payload) !== undefined;
}

// ["bash", "-lc", "pytest -q"] is the script "pytest -q"; other argv vectors are joined with quoting.
function commandText(command: unknown): string | undefined {
  if (typeof command === "string") return command;
  if (!Array.isArray(command) || !command.every((part) => typeof part === "string")) return undefined;
  const argv = command;
  if (argv.length === 3 && /(?:^|\/)(?:ba|z|da)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!)) return argv[2];
  return argv.map((part) => (/^[\w./:=@%+-]+$/.test(part) ? part : `'${part.replace(/'/g, "'\\''")}'`)).join(" ");
}

function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) return output.map((item) => asString(asObject(item)?.text) ?? "").join("");
  const object = asObject(output);
  return asString(object?.content) ?? "";
}

/** Exit status and output from a function_call_output: JSON with metadata.exit_code, or "Exit code: N" text. */
function parseShellOutput(raw: string): Pick<ShellEvent, "exitCode" | "output" | "outputTruncated" | "timedOut"> {
  let exitCode: number | null = null;
  let output = raw;
  if (raw.startsWith("{")) {
    try {
      const parsed = asObject(JSON.parse(raw));
      const code = asObject(parsed?.metadata)?.exit_code ?? parsed?.exit_code;
      if (typeof code === "number") exitCode = code;
      output = asString(parsed?.output) ?? raw;
    } catch {
      // Not JSON after all: keep the text.
    }
  } else {
    const code = /^Exit code: (-?\d+)$/m.exec(raw) ?? /^Process exited with code (-?\d+)$/m.exec(raw);
    if (code) exitCode = Number(code[1]);
    const body = /^Output:\n/m.exec(raw);
    if (body) output = raw.slice(body.index + body[0].length);
  }
  const outputTruncated = containsClippingNote(raw);
  return { exitCode, output, outputTruncated, timedOut: /command timed out/i.test(raw) };
}

// apply_patch bodies name their files on "*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:".
function patchPaths(patch: string): string[] {
  return [...patch.matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm)].map((match) => match[1]!.trim());
}

// Function arguments are a JSON string; a custom tool's input is raw text (then there are no fields).
function parseArguments(raw: string): Record<string, unknown> {
  try {
    return asObject(JSON.parse(raw)) ?? {};
  } catch {
    return {};
  }
}

interface CodexState {
  list: EventList;
  cwd: string | null;
  problems: TranscriptProblem[];
}

function readResponseItem(payload: Record<string, unknown>, state: CodexState, timestamp: string | null, line: number): void {
  const { list } = state;
  const type = asString(payload.type);
  const callId = asString(payload.call_id) ?? asString(payload.id);
  switch (type) {
    case "message": {
      const text = Array.isArray(payload.content) ? payload.content.map((item) => asString(asObject(item)?.text) ?? "").join("") : "";
      if (payload.role === "assistant") list.addAssistantText(text, false, timestamp, line);
      else if (payload.role === "user" && !text.startsWith("<")) list.addUserText(text, timestamp, line);
      return;
    }
    case "function_call":
    case "custom_tool_call": {
      const name = asString(payload.name) ?? "";
      const rawArguments = asString(payload.arguments) ?? asString(payload.input) ?? "";
      const args = parseArguments(rawArguments);
      if (name === "apply_patch") {
        const patch = asString(args.input) ?? rawArguments;
        list.addCall({ type: "edit", id: callId ?? null, tool: "apply_patch", paths: patchPaths(patch), failed: false, sidechain: false, timestamp, line });
      } else if (SHELL_FUNCTIONS.has(name)) {
        const command = commandText(args.command ?? args.cmd);
        if (command === undefined) state.problems.push({ line, reason: `${name} call without a command` });
        else list.addCall(pendingShell({ id: callId ?? null, command, cwd: asString(args.workdir) ?? state.cwd, sidechain: false, timestamp, line }));
      } else {
        // Any other tool (an MCP server's, write_stdin to a running shell): an edit when it can write.
        const effect = toolCallEffect(name, args);
        if (effect.kind === "edit") list.addCall({ type: "edit", id: callId ?? null, tool: name, paths: effect.paths, failed: false, sidechain: false, timestamp, line });
      }
      return;
    }
    case "local_shell_call": {
      const action = asObject(payload.action);
      const command = commandText(action?.command);
      if (command === undefined) state.problems.push({ line, reason: "local_shell_call without a command" });
      else list.addCall(pendingShell({ id: callId ?? null, command, cwd: asString(action?.working_directory) ?? state.cwd, sidechain: false, timestamp, line }));
      return;
    }
    case "function_call_output":
    case "custom_tool_call_output": {
      const call = list.call(callId);
      const raw = outputText(payload.output);
      if (call?.type === "shell" && !call.completed) {
        Object.assign(call, parseShellOutput(raw), { completed: /^Process running with session ID/m.test(raw) ? false : true });
      } else if (call?.type === "edit") {
        const { exitCode } = parseShellOutput(raw);
        // apply_patch fails whole; another tool that failed may have written part of its work.
        call.failed = call.tool === "apply_patch" && ((exitCode !== null && exitCode !== 0) || asObject(payload.output)?.success === false);
      }
      return;
    }
    default:
      return;
  }
}

function readEvent(payload: Record<string, unknown>, state: CodexState, timestamp: string | null, line: number): void {
  const { list } = state;
  const type = asString(payload.type);
  if (type === "agent_message") list.addAssistantText(asString(payload.message) ?? "", false, timestamp, line);
  else if (type === "user_message") list.addUserText(asString(payload.message) ?? "", timestamp, line);
  else if (type === "exec_command_end") {
    // The structured end event is the better record: it carries the real exit code and the whole output.
    const callId = asString(payload.call_id);
    let call = list.call(callId);
    if (call === undefined) {
      const command = commandText(payload.command) ?? "";
      call = pendingShell({ id: callId ?? null, command, cwd: asString(payload.cwd) ?? state.cwd, sidechain: false, timestamp, line });
      list.addCall(call);
    }
    if (call.type !== "shell") return;
    if (typeof payload.exit_code === "number") call.exitCode = payload.exit_code;
    call.output = asString(payload.aggregated_output) ?? outputText(payload.formatted_output);
    call.cwd = asString(payload.cwd) ?? call.cwd;
    call.completed = true;
    call.outputTruncated = false;
  } else if (type === "patch_apply_end") {
    const call = list.call(asString(payload.call_id));
    if (call?.type === "edit" && payload.success === false) call.failed = true;
  }
}

/** Reads a Codex rollout file into the common event list. */
export function readCodexTranscript(text: string): TranscriptReadResult {
  const { records, problems } = parseJsonl(text);
  const state: CodexState = { list: new EventList(), cwd: null, problems };
  for (const { value, line } of records) {
    const payload = asObject(value.payload);
    const timestamp = asString(value.timestamp) ?? null;
    if (payload === undefined) {
      problems.push({ line, reason: "rollout line without a payload object" });
      continue;
    }
    switch (asString(value.type)) {
      case "session_meta":
      case "turn_context":
        state.cwd = asString(payload.cwd) ?? state.cwd;
        break;
      case "response_item":
        readResponseItem(payload, state, timestamp, line);
        break;
      case "event_msg":
        readEvent(payload, state, timestamp, line);
        break;
      default:
        break;
    }
  }
  return { format: "codex", events: state.list.events, finalMessage: lastAssistantText(state.list.events), problems };
}
