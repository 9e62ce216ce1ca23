// What a Codex tool call's output says about the call, in every form the clients have written it:
// legacy JSON ({"output", "metadata": {"exit_code"}}), "Exit code: N" text, unified exec chunks
// ("Process exited with code N" / "Process running with session ID S"), 0.34-0.46's sandbox
// failures ("failed in sandbox ..., exit code: N, stdout: ..."), timeouts, interruptions, and the
// denials that mean the command never ran. Pure: text in, a tagged result out.
import { containsClippingNote } from "../../evidence/clipping.js";
import { asObject, asString } from "./jsonl.js";

/** A tool call's result, as its output text tells it. */
export type CodexCallResult =
  /** The command ran; `exitCode` is null when the text does not prove one. */
  | { kind: "ran"; exitCode: number | null; output: string; outputTruncated: boolean; timedOut: boolean; interrupted: boolean }
  /** A unified exec command that is still running in session `sessionId` (a later poll finishes it). */
  | { kind: "running"; sessionId: string; output: string; outputTruncated: boolean }
  /** The command never started: the user or the policy rejected it, or the call itself was invalid. */
  | { kind: "not-run"; reason: string };

// Whole outputs that mean the client refused the call before running anything.
const NOT_RUN = [
  /^exec(?:_command| command) rejected by user$/,
  /^exec command rejected: /,
  /^patch rejected by user$/,
  /^rejected by user$/,
  /^aborted by user$/,
  /^failed to parse function arguments: /,
  /^unsupported call: /,
  /^unsupported custom tool call: /,
];

/**
 * Reads a Codex function_call_output / custom_tool_call_output text.
 * @example parseCodexOutput("Exit code: 1\nWall time: 0.4 seconds\nOutput:\n1 failed") // { kind: "ran", exitCode: 1, output: "1 failed", ... }
 */
export function parseCodexOutput(raw: string): CodexCallResult {
  const denial = NOT_RUN.find((pattern) => pattern.test(raw.trim()));
  if (denial !== undefined) return { kind: "not-run", reason: raw.trim().split("\n")[0]! };
  if (raw.startsWith("{")) {
    const json = parseJsonOutput(raw);
    if (json !== undefined) return json;
  }
  if (raw.startsWith("failed in sandbox")) return parseSandboxFailure(raw);
  const ran = (exitCode: number | null, output: string): CodexCallResult => ({
    kind: "ran",
    exitCode,
    output,
    outputTruncated: containsClippingNote(raw),
    timedOut: /command timed out/i.test(raw),
    interrupted: /^aborted by user$/m.test(raw),
  });
  const body = /^Output:\n/m.exec(raw);
  const output = body ? raw.slice(body.index + body[0].length) : raw;
  const header = body ? raw.slice(0, body.index) : raw;
  const running = /^Process running with session ID (\S+)$/m.exec(header);
  if (running) return { kind: "running", sessionId: running[1]!, output, outputTruncated: containsClippingNote(raw) };
  const code = /^Exit code: (-?\d+)$/m.exec(header) ?? /^Process exited with code (-?\d+)$/m.exec(header);
  if (code) return ran(Number(code[1]), output);
  // "Wall time: 3.0 seconds\naborted by user": interrupted while running.
  return ran(null, body ? output : raw);
}

// {"output": "...", "metadata": {"exit_code": N}}: legacy and 0.3x shell outputs, apply_patch's outputs.
function parseJsonOutput(raw: string): CodexCallResult | undefined {
  let parsed: Record<string, unknown> | undefined;
  try {
    parsed = asObject(JSON.parse(raw));
  } catch {
    return undefined;
  }
  const output = asString(parsed?.output);
  if (parsed === undefined || output === undefined) return undefined;
  const code = asObject(parsed.metadata)?.exit_code ?? parsed.exit_code;
  return {
    kind: "ran",
    exitCode: typeof code === "number" && Number.isInteger(code) ? code : null,
    output,
    outputTruncated: containsClippingNote(output),
    timedOut: /command timed out/i.test(output),
    interrupted: false,
  };
}

// "failed in sandbox <Type> with execution error: sandbox denied exec error, exit code: N, stdout: S, stderr: E"
// (0.2x-0.4x), "... execution error: Denied { output: ExecToolCallOutput { exit_code: N, ..." (later 0.4x),
// "... execution error: command timed out", and 0.45's "failed in sandbox: <output>" with no exit code.
function parseSandboxFailure(raw: string): CodexCallResult {
  const ran = (exitCode: number | null, output: string, timedOut = false): CodexCallResult => ({
    kind: "ran",
    exitCode,
    output,
    outputTruncated: containsClippingNote(raw),
    timedOut,
    interrupted: false,
  });
  const denied =
    /^failed in sandbox \S+ with execution error: sandbox denied exec error, exit code: (-?\d+), stdout: ([\s\S]*?), stderr: ([\s\S]*)$/.exec(
      raw,
    );
  if (denied) return ran(Number(denied[1]), `${denied[2]}${denied[3]}`);
  const debug = /^failed in sandbox \S+ with execution error: Denied \{ output: ExecToolCallOutput \{ exit_code: (-?\d+),/.exec(raw);
  if (debug) {
    const aggregated = /aggregated_output: StreamOutput \{ text: "((?:[^"\\]|\\.)*)"/.exec(raw);
    return ran(Number(debug[1]), aggregated ? unescapeRustDebug(aggregated[1]!) : raw);
  }
  if (/^failed in sandbox \S+ with execution error: (?:command timed out|Timeout)/.test(raw)) return ran(null, raw, true);
  // The exit code is lost: the run failed, but the transcript does not prove how.
  return ran(null, raw.replace(/^failed in sandbox(?: \S+ with execution error)?: /, ""));
}

function unescapeRustDebug(text: string): string {
  return text.replace(/\\(u\{([0-9a-fA-F]+)\}|.)/g, (_match, escape: string, hex: string | undefined) => {
    if (hex !== undefined) return String.fromCodePoint(Number.parseInt(hex, 16));
    return escape === "n" ? "\n" : escape === "t" ? "\t" : escape === "r" ? "\r" : escape === "0" ? "\0" : escape;
  });
}
