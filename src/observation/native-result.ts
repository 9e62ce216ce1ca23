// The complete result of a call of the native bash tool (or, for a foreign tool, what its text shows),
// as BashEvidence hands it to the ledger.
import { readFile } from "node:fs/promises";

import type { CommandResult } from "../evidence/ledger.js";
import { readCommandReport } from "../host/reports.js";
import type { ToolResult } from "../host/tool.js";
import { timeoutNote } from "../tools/bash-render.js";

// The native bash tool reports its raw logs in `data` (a CommandReport, src/host/reports.ts); a
// foreign tool's text is all we have. Only a tool carrying NATIVE_BASH is read this way: a foreign
// tool's `{ status: "completed", exitCode, stdout: "..." }` is read from its text, never as an empty log.
export async function extractNativeResult(result: ToolResult<unknown>): Promise<CommandResult | null> {
  const report = readCommandReport(result.data);
  if (report?.status === "not-run") return null;
  if (report?.status === "completed") {
    const [stdout, stderr] = await Promise.all([readLog(report.stdout.logPath), readLog(report.stderr.logPath)]);
    const joined = stderr === "" ? stdout : `${stdout}${stdout.endsWith("\n") || stdout === "" ? "" : "\n"}${stderr}`;
    // The tool's own timeout note, which the model sees after the streams: the run still going when
    // the group was killed is a timeout (the judge's host-timeout rule), not a failure it never printed.
    const note = report.timedOut === true ? `${timeoutNote(report.timeoutMs ?? 0)}\n` : "";
    return {
      exitCode: report.exitCode,
      output: note === "" ? joined : `${joined}${joined.endsWith("\n") || joined === "" ? "" : "\n"}${note}`,
      truncated: report.truncated === true,
      timedOut: report.timedOut === true,
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

async function readLog(path: string): Promise<string> {
  return readFile(path, "utf8");
}
