// The complete result of a call of the native bash tool (or, for a foreign tool, what its text shows),
// as BashEvidence hands it to the ledger.
import { readFile } from "node:fs/promises";
import { timeoutNote } from "../tools/bash-render.js";
import type { ToolResult } from "../tools/tool.js";
import type { CommandResult } from "./ledger.js";

// The native bash tool reports its raw logs in `data`; a foreign tool's text is all we have. Only
// data of the native shape counts as native: a foreign tool's `{ status: "completed", exitCode,
// stdout: "..." }` is read from its text, never as an empty log.
export async function extractNativeResult(result: ToolResult<unknown>): Promise<CommandResult | null> {
  const data = result.data as Record<string, unknown> | undefined;
  if (isNativeNotRun(data)) return null;
  if (isNativeRun(data)) {
    const streams = data;
    const [stdout, stderr] = await Promise.all([readLog(streams.stdout.logPath), readLog(streams.stderr.logPath)]);
    const joined = stderr === "" ? stdout : `${stdout}${stdout.endsWith("\n") || stdout === "" ? "" : "\n"}${stderr}`;
    // The tool's own timeout note, which the model sees after the streams: the run still going when
    // the group was killed is a timeout (the judge's host-timeout rule), not a failure it never printed.
    const note = streams.timedOut === true ? `${timeoutNote(typeof streams.timeoutMs === "number" ? streams.timeoutMs : 0)}\n` : "";
    return {
      exitCode: streams.exitCode,
      output: note === "" ? joined : `${joined}${joined.endsWith("\n") || joined === "" ? "" : "\n"}${note}`,
      truncated: streams.truncated === true,
      timedOut: streams.timedOut === true,
    };
  }
  return extractTextResult(result);
}

/** A foreign tool's result: its text is the output, and a last line `Exit code: N` its exit status (else unknown). */
export function extractTextResult(result: ToolResult<unknown>): CommandResult {
  const text = typeof result.text === "string" ? result.text : "";
  const exit = /(?:^|\n)Exit code: (-?\d+)\s*$/.exec(text);
  return { exitCode: exit?.[1] === undefined ? null : Number(exit[1]), output: text, truncated: false, timedOut: false };
}

interface NativeRunShape {
  exitCode: number;
  stdout: { logPath: string };
  stderr: { logPath: string };
  truncated?: unknown;
  timedOut?: unknown;
  timeoutMs?: unknown;
}

function isNativeRun(data: Record<string, unknown> | undefined): data is Record<string, unknown> & NativeRunShape {
  if (data === undefined || data === null || data.status !== "completed" || typeof data.exitCode !== "number") return false;
  return hasLogPath(data.stdout) && hasLogPath(data.stderr);
}

function isNativeNotRun(data: Record<string, unknown> | undefined): boolean {
  return data !== undefined && data !== null && data.status === "not-run" && typeof data.reason === "string" && typeof data.command === "string";
}

function hasLogPath(stream: unknown): boolean {
  return typeof stream === "object" && stream !== null && typeof (stream as { logPath?: unknown }).logPath === "string";
}

async function readLog(path: string): Promise<string> {
  return readFile(path, "utf8");
}

