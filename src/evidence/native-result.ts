// The complete result of a call of the native bash tool (or, for a foreign tool, what its text shows),
// as BashEvidence hands it to the ledger.
import { readFile } from "node:fs/promises";
import type { ToolResult } from "../tools/tool.js";
import type { CommandResult } from "./ledger.js";

// The native bash tool reports its raw logs in `data`; a foreign tool's text is all we have.
export async function extractNativeResult(result: ToolResult<unknown>): Promise<CommandResult | null> {
  const data = result.data as Record<string, unknown> | undefined;
  if (data !== undefined && data.status === "not-run") return null;
  if (data !== undefined && data.status === "completed" && typeof data.exitCode === "number") {
    const streams = data as { stdout?: { logPath?: string }; stderr?: { logPath?: string }; truncated?: boolean; timedOut?: boolean };
    const [stdout, stderr] = await Promise.all([readLog(streams.stdout?.logPath), readLog(streams.stderr?.logPath)]);
    return {
      exitCode: data.exitCode,
      output: stderr === "" ? stdout : `${stdout}${stdout.endsWith("\n") || stdout === "" ? "" : "\n"}${stderr}`,
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

