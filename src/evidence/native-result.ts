// The complete result of a call of the native bash tool (or, for a foreign tool, what its text shows),
// as BashEvidence hands it to the ledger.
import { readFile } from "node:fs/promises";
import { timeoutNote } from "../tools/bash-render.js";
import type { ToolResult } from "../tools/tool.js";
import type { CommandResult } from "./ledger.js";

// The native bash tool reports its raw logs in `data`; a foreign tool's text is all we have.
export async function extractNativeResult(result: ToolResult<unknown>): Promise<CommandResult | null> {
  const data = result.data as Record<string, unknown> | undefined;
  if (data !== undefined && data.status === "not-run") return null;
  if (data !== undefined && data.status === "completed" && typeof data.exitCode === "number") {
    const streams = data as { stdout?: { logPath?: string }; stderr?: { logPath?: string }; truncated?: boolean; timedOut?: boolean; timeoutMs?: unknown };
    const [stdout, stderr] = await Promise.all([readLog(streams.stdout?.logPath), readLog(streams.stderr?.logPath)]);
    const joined = stderr === "" ? stdout : `${stdout}${stdout.endsWith("\n") || stdout === "" ? "" : "\n"}${stderr}`;
    // The tool's own timeout note, which the model sees after the streams: the run still going when
    // the group was killed is a timeout (the judge's host-timeout rule), not a failure it never printed.
    const note = streams.timedOut === true ? `${timeoutNote(typeof streams.timeoutMs === "number" ? streams.timeoutMs : 0)}\n` : "";
    return {
      exitCode: data.exitCode,
      output: note === "" ? joined : `${joined}${joined.endsWith("\n") || joined === "" ? "" : "\n"}${note}`,
      truncated: streams.truncated === true,
      timedOut: streams.timedOut === true,
    };
  }
  const exit = /(?:^|\n)Exit code: (-?\d+)\s*$/.exec(result.text);
  return { exitCode: exit?.[1] === undefined ? null : Number(exit[1]), output: result.text, truncated: false, timedOut: false };
}

async function readLog(path: string | undefined): Promise<string> {
  return path === undefined ? "" : readFile(path, "utf8");
}

