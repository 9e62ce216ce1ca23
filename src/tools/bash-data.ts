// The bash tool's input and the data every call returns: what ran (its exit, its limits, the raw logs
// of each stream) or why nothing ran. The evidence ledger reads a call from this data, never from its text.
import { readFile } from "node:fs/promises";

import { z } from "zod/v4";

import type { CommandNotRunReport, CommandRunReport } from "../host/reports.js";
import type { ToolResult } from "../host/tool.js";
import type { BlockRule, ConfirmRule } from "./bash-policy.js";
import type { StreamFacts } from "./output-capture.js";
import type { SandboxLevel } from "./sandbox.js";
import type { LimitMechanism } from "./sandbox-host.js";

/** Input of the bash tool. */
export interface BashInput {
  command: string;
  timeoutMs?: number | null | undefined;
}

/** Why a command did not run. */
export type BashNotRunReason = "policy-blocked" | "policy-declined" | "sandbox-unavailable" | "aborted-before-start" | "spawn-failed";

/** `data` of a bash call that ran: everything the evidence ledger needs. */
export interface BashRunData extends CommandRunReport {
  status: "completed";
  command: string;
  cwd: string;
  /** The shell's exit code; 124 on a timeout, 130 on an abort, 128+N when signal N ended the shell. */
  exitCode: number;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** True when either raw log hit `rawCapBytes`: the output is incomplete and proves nothing. */
  truncated: boolean;
  timeoutMs: number;
  durationMs: number;
  sandbox: "bubblewrap" | "none";
  /** The sandbox level the call ran at; null without a sandbox. */
  sandboxLevel: SandboxLevel | null;
  /** How the pids and memory limits were enforced for this call (`none` where the host allows neither). */
  limits: { pids: LimitMechanism; memory: LimitMechanism };
  /** The process group the command ran in (its leader's pid); gone when the call returns. */
  processGroup: number;
  stdout: StreamFacts;
  stderr: StreamFacts;
}

/** `data` of a bash call that never started (so it changed nothing). */
export interface BashNotRunData extends CommandNotRunReport {
  status: "not-run";
  command: string;
  reason: BashNotRunReason;
  rule: BlockRule | ConfirmRule | null;
}

/** `data` of every bash call. */
export type BashData = BashRunData | BashNotRunData;

/** The input schema of the bash tool. */
export const bashInputSchema = z.object({
  command: z.string().min(1).describe("The bash command line to run in the workspace."),
  timeoutMs: z.number().int().positive().max(2_147_483_647).nullish().describe("Timeout in milliseconds for this call."),
});

/** Reads both raw logs of a completed call (the complete output unless `truncated`). */
export async function readBashOutput(data: BashRunData): Promise<{ stdout: string; stderr: string }> {
  const [stdout, stderr] = await Promise.all([readFile(data.stdout.logPath, "utf8"), readFile(data.stderr.logPath, "utf8")]);
  return { stdout, stderr };
}

/** The result of a call that never started: an error text, and data saying why. */
export function notRun(
  command: string,
  reason: BashNotRunReason,
  rule: BlockRule | ConfirmRule | null,
  text: string,
): ToolResult<BashData> {
  return { text, isError: true, data: { status: "not-run", command, reason, rule } };
}
