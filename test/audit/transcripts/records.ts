// Builders for transcript records in the documented shapes (Claude Code session JSONL, Codex
// rollout JSONL). The command outputs placed in them are real: the tests capture them from pytest.

/** One shell command's result as a transcript shows it (test/support/capture.ts's CapturedRun is the capture it comes from). */
export interface ShellRun {
  command: string;
  stdout: string;
  stderr: string;
  exitCode: number;
}

const at = (second: number): string => new Date(Date.UTC(2026, 0, 5, 10, 0, second)).toISOString();

/** Claude Code records. */
export const claude = {
  user: (text: string, second: number) => ({
    type: "user",
    uuid: `u${second}`,
    sessionId: "s1",
    cwd: "/w",
    timestamp: at(second),
    isSidechain: false,
    message: { role: "user", content: text },
  }),
  text: (text: string, second: number, sidechain = false) => ({
    type: "assistant",
    uuid: `a${second}`,
    sessionId: "s1",
    cwd: "/w",
    timestamp: at(second),
    isSidechain: sidechain,
    message: { id: `msg_${second}`, type: "message", role: "assistant", content: [{ type: "text", text }] },
  }),
  toolUse: (id: string, name: string, input: Record<string, unknown>, second: number, sidechain = false) => ({
    type: "assistant",
    uuid: `a${second}`,
    sessionId: "s1",
    cwd: "/w",
    timestamp: at(second),
    isSidechain: sidechain,
    message: { id: `msg_${second}`, type: "message", role: "assistant", content: [{ type: "tool_use", id, name, input }] },
  }),
  // Claude Code: success -> toolUseResult object; failure -> is_error, "Exit code N" text, and a string toolUseResult.
  bashResult: (id: string, run: ShellRun, second: number, sidechain = false) => {
    const combined = [run.stdout, run.stderr].filter((part) => part !== "").join("\n");
    const base = { type: "user", uuid: `u${second}`, sessionId: "s1", cwd: "/w", timestamp: at(second), isSidechain: sidechain };
    return run.exitCode === 0
      ? {
          ...base,
          message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: combined, is_error: false }] },
          toolUseResult: { stdout: run.stdout, stderr: run.stderr, interrupted: false, isImage: false },
        }
      : {
          ...base,
          message: {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: id, content: `Exit code ${run.exitCode}\n${combined}`, is_error: true }],
          },
          toolUseResult: `Error: Exit code ${run.exitCode}\n${combined}`,
        };
  },
  toolResult: (id: string, content: string, second: number, isError: boolean, toolUseResult: unknown) => ({
    type: "user",
    uuid: `u${second}`,
    sessionId: "s1",
    timestamp: at(second),
    isSidechain: false,
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }] },
    toolUseResult,
  }),
};

/** Codex rollout lines. */
export const codex = {
  meta: (cwd: string) => ({
    timestamp: at(0),
    type: "session_meta",
    payload: { id: "rollout-1", cwd, originator: "codex_cli_rs", cli_version: "0.46.0" },
  }),
  functionCall: (callId: string, name: string, args: Record<string, unknown>, second: number) => ({
    timestamp: at(second),
    type: "response_item",
    payload: { type: "function_call", name, arguments: JSON.stringify(args), call_id: callId },
  }),
  // The text form Codex gives the model: "Exit code: N\nWall time: S seconds\nOutput:\n...".
  textOutput: (callId: string, run: ShellRun, second: number) => ({
    timestamp: at(second),
    type: "response_item",
    payload: {
      type: "function_call_output",
      call_id: callId,
      output: `Exit code: ${run.exitCode}\nWall time: 0.4 seconds\nOutput:\n${run.stdout}${run.stderr}`,
    },
  }),
  // The older JSON form: {"output": ..., "metadata": {"exit_code": N, "duration_seconds": S}}.
  jsonOutput: (callId: string, run: ShellRun, second: number) => ({
    timestamp: at(second),
    type: "response_item",
    payload: {
      type: "function_call_output",
      call_id: callId,
      output: JSON.stringify({ output: `${run.stdout}${run.stderr}`, metadata: { exit_code: run.exitCode, duration_seconds: 0.4 } }),
    },
  }),
  execEnd: (callId: string, run: ShellRun, cwd: string, second: number) => ({
    timestamp: at(second),
    type: "event_msg",
    payload: {
      type: "exec_command_end",
      call_id: callId,
      command: ["bash", "-lc", run.command],
      cwd,
      stdout: run.stdout,
      stderr: run.stderr,
      aggregated_output: `${run.stdout}${run.stderr}`,
      exit_code: run.exitCode,
      formatted_output: run.stdout,
      duration: { secs: 0, nanos: 4e8 },
    },
  }),
  toolOutput: (callId: string, output: string, second: number) => ({
    timestamp: at(second),
    type: "response_item",
    payload: { type: "function_call_output", call_id: callId, output },
  }),
  patch: (callId: string, patch: string, second: number) => ({
    timestamp: at(second),
    type: "response_item",
    payload: { type: "custom_tool_call", status: "completed", call_id: callId, name: "apply_patch", input: patch },
  }),
  patchOutput: (callId: string, second: number) => ({
    timestamp: at(second),
    type: "response_item",
    payload: {
      type: "custom_tool_call_output",
      call_id: callId,
      output: "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nM calc.py\n",
    },
  }),
  userMessage: (text: string, second: number) => ({
    timestamp: at(second),
    type: "event_msg",
    payload: { type: "user_message", message: text },
  }),
  userItem: (text: string, second: number) => ({
    timestamp: at(second),
    type: "response_item",
    payload: { type: "message", role: "user", content: [{ type: "input_text", text }] },
  }),
  // A blocking Stop hook's reason as Codex writes it back (0.154): a user message in <hook_prompt>, its text XML-escaped.
  hookPrompt: (reason: string, second: number) => {
    const escaped = reason.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
    return {
      timestamp: at(second),
      type: "response_item",
      payload: {
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: `<hook_prompt hook_run_id="stop:0:/home/u/.codex/hooks.json">${escaped}</hook_prompt>` }],
      },
    };
  },
  agentMessage: (text: string, second: number) => ({
    timestamp: at(second),
    type: "event_msg",
    payload: { type: "agent_message", message: text },
  }),
  assistantItem: (text: string, second: number) => ({
    timestamp: at(second),
    type: "response_item",
    payload: { type: "message", role: "assistant", content: [{ type: "output_text", text }] },
  }),
};

/** Records -> JSONL text. */
export function toJsonl(records: readonly unknown[]): string {
  return `${records.map((record) => JSON.stringify(record)).join("\n")}\n`;
}

/** The second used by the builders, as the ISO timestamp they write. */
export const timestampAt = at;
