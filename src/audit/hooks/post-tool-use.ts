// `agent-evidence hook claude-post-tool-use`: records Bash results and edits into the session state
// as they happen, so the Stop hook has evidence even when the transcript lags behind.
import { isClientEditTool, toolCallEffect } from "../transcripts/tool-effect.js";
import { type HookInput, parseHookInput } from "./hook-input.js";
import { type HookStateOptions, MAX_RECORDED_OUTPUT, readHookState, type RecordedEvent, writeHookState } from "./state.js";

/** What a hook run prints and returns. */
export interface HookRunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function clip(output: string): { output: string; truncated: boolean } {
  return output.length > MAX_RECORDED_OUTPUT
    ? { output: output.slice(-MAX_RECORDED_OUTPUT), truncated: true }
    : { output, truncated: false };
}

// PostToolUse fires for a Bash call that succeeded (exit 0); PostToolUseFailure for one that did not.
// Neither carries the status: a failure's text usually starts `Exit code N`, else the status is unknown.
function shellEvent(input: HookInput, command: string): RecordedEvent {
  const failure = input.hookEventName === "PostToolUseFailure";
  const response = isRecord(input.toolResponse) ? input.toolResponse : {};
  const stdout = typeof response.stdout === "string" ? response.stdout : typeof input.toolResponse === "string" ? input.toolResponse : "";
  const stderr = typeof response.stderr === "string" ? response.stderr : "";
  const interrupted = response.interrupted === true || input.isInterrupt;
  const text = failure ? (input.error ?? "") : [stdout, stderr].filter((part) => part !== "").join("\n");
  const exitMatch = failure ? /^(?:Error: )?Exit code (\d+)/.exec(text) : null;
  const exitCode = interrupted ? null : failure ? (exitMatch ? Number(exitMatch[1]) : null) : 0;
  const { output, truncated } = clip(failure && exitMatch ? text.slice(exitMatch[0].length).replace(/^\n/, "") : text);
  return {
    type: "shell",
    id: input.toolUseId,
    command,
    output,
    exitCode,
    cwd: input.cwd,
    interrupted,
    timedOut: false,
    outputTruncated: truncated,
    persistedOutputPath: null,
    completed: true,
    sidechain: false,
    timestamp: new Date().toISOString(),
    line: 0,
  };
}

function recordedEvent(input: HookInput): RecordedEvent | null {
  if (input.toolName === "Bash" && typeof input.toolInput.command === "string") return shellEvent(input, input.toolInput.command);
  if (input.toolName === null || input.toolName === "Bash") return null;
  // An edit tool's failure changed nothing; any other tool that failed may have written part of its work.
  const effect = toolCallEffect(input.toolName, input.toolInput);
  if (effect.kind === "none" || (input.hookEventName === "PostToolUseFailure" && isClientEditTool(input.toolName))) return null;
  return {
    type: "edit",
    id: input.toolUseId,
    tool: input.toolName,
    paths: effect.paths,
    failed: false,
    sidechain: false,
    timestamp: new Date().toISOString(),
    line: 0,
  };
}

/**
 * Runs the Claude Code PostToolUse / PostToolUseFailure hook on its stdin JSON. Prints nothing and
 * always exits 0: a problem is explained on stderr and never disturbs the tool call.
 */
export function runPostToolUseHook(stdin: string, options: HookStateOptions = {}): HookRunResult {
  try {
    const input = parseHookInput(stdin);
    const event = recordedEvent(input);
    if (event === null) return { stdout: "", stderr: "", exitCode: 0 };
    const state = readHookState(input.sessionId, options);
    state.events.push(event);
    writeHookState(state, options);
    return { stdout: "", stderr: "", exitCode: 0 };
  } catch (error) {
    return {
      stdout: "",
      stderr: `agent-evidence hook claude-post-tool-use: nothing recorded: ${error instanceof Error ? error.message : String(error)}\n`,
      exitCode: 0,
    };
  }
}
