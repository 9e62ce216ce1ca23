// A bash tool that runs nothing: it answers each command with output recorded earlier, the way a
// foreign bash tool reports (its text, then `Exit code: N`). For integrators' tests of what
// BashEvidence or their own wrapper concludes from a session, without runners or a sandbox.
import { z } from "zod/v4";

import { EvidenceError } from "../errors.js";
import { defineTool, type Tool } from "../host/tool.js";

/** One recorded bash call: the command line as the agent typed it, what it printed, its exit code. */
export interface RecordedBashCall {
  command: string;
  /** stdout and stderr as the model saw them. */
  output: string;
  /** null when the host reported none (a killed or clipped call). */
  exitCode: number | null;
}

/** `data` of a replayed call. */
export interface ReplayBashData {
  replayed: true;
  command: string;
  exitCode: number | null;
}

/** Options of {@link createReplayBashTool}. */
export interface ReplayBashToolOptions {
  /** The tool's name (default `bash`). */
  name?: string;
}

/**
 * A bash tool that replays `calls`: each command gets the first recorded call with the same command
 * line not yet replayed (a non-zero exit is a result, as with the native tool, not an error); a
 * command with none left is an error result (`isError`) and runs nothing.
 * @example new BashEvidence(createReplayBashTool([{ command: "pytest -q", output: "1 passed in 0.01s\n", exitCode: 0 }]), { workspace: dir })
 */
export function createReplayBashTool(
  calls: readonly RecordedBashCall[],
  options: ReplayBashToolOptions = {},
): Tool<{ command: string; timeoutMs?: number | null }, ReplayBashData> {
  calls.forEach((call, index) => {
    if (
      typeof call.command !== "string" ||
      typeof call.output !== "string" ||
      !(call.exitCode === null || Number.isInteger(call.exitCode))
    ) {
      throw new EvidenceError(
        "E_INVALID_OPTION",
        `createReplayBashTool: call ${index} needs a command and an output string and an integer or null exitCode.`,
      );
    }
  });
  const pending = calls.map((call) => ({ ...call }));
  return defineTool({
    name: options.name ?? "bash",
    description: "Runs a bash command line in the workspace (replayed from a recording).",
    inputSchema: z.object({ command: z.string().min(1), timeoutMs: z.number().int().positive().nullish() }),
    run: ({ command }) => {
      const at = pending.findIndex((call) => call.command === command);
      if (at < 0) return Promise.resolve({ text: `Error: no recorded call left for ${JSON.stringify(command)}`, isError: true });
      const [call] = pending.splice(at, 1);
      const { output, exitCode } = call!;
      const exit = exitCode === null ? "" : `${output === "" || output.endsWith("\n") ? "" : "\n"}Exit code: ${exitCode}`;
      return Promise.resolve({ text: `${output}${exit}`, data: { replayed: true, command, exitCode } });
    },
  });
}
