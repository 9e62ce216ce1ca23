// The evidence MCP server: the native tools bound to one workspace and one ledger, plus
// `evidence_status` (read the ledger) and `judge` (judge captured output). Logs go to stderr only:
// stdout carries the protocol.
import { createRequire } from "node:module";

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod/v4";

import { judge } from "../evidence/judge.js";
import type { JudgeInput, JudgeResult } from "../evidence/judge-types.js";
import { defineTool } from "../host/tool.js";
import { EVIDENCE_TOOL_NAMES, evidenceTools, type EvidenceToolsOptions, type EvidenceView } from "../observation/evidence-tools.js";
import type { SandboxLevel } from "../tools/sandbox.js";
import { type McpTool, registerMcpTools } from "./mcp-tools.js";
import { createMessageLines } from "./stdin-messages.js";

/** Options of {@link createEvidenceMcpServer}. */
export interface EvidenceMcpServerOptions {
  /** The workspace (default: the process's directory). */
  cwd?: string;
  /** The bash sandbox: `strict` (default), `workspace-only` or `false`. Without bubblewrap a sandboxed bash refuses, and says why. */
  sandbox?: SandboxLevel | false;
  /** @deprecated Use `sandbox`; `true` means `"strict"`, `false` means `false`. */
  headless?: boolean;
  /** Per-tool limits as {@link evidenceTools} takes them, e.g. `{ bash: { timeoutMs: 600000, progressIntervalMs: 2000 } }` (the CLI passes none). */
  limits?: EvidenceToolsOptions["limits"];
}

/** What {@link createEvidenceMcpServer} returns: the unconnected server and the live evidence. */
export interface EvidenceMcpServer {
  server: McpServer;
  evidence: EvidenceView;
  toolNames: string[];
}

/** Options of {@link serveEvidenceMcp}. */
export interface ServeEvidenceMcpOptions extends EvidenceMcpServerOptions {
  /** Where log lines go (default: stderr). */
  log?: (line: string) => void;
}

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

/**
 * Builds the evidence MCP server: bash, file_read, file_write, apply_patch, grep, git_diff,
 * evidence_status and judge. Throws an `EvidenceError` for a bad `cwd` or `limits`.
 */
export function createEvidenceMcpServer(options: EvidenceMcpServerOptions = {}): EvidenceMcpServer {
  const { tools, evidence } = evidenceTools(EVIDENCE_TOOL_NAMES, {
    cwd: options.cwd,
    sandbox: options.sandbox,
    headless: options.headless,
    limits: options.limits,
  });
  const all: McpTool[] = [...tools, judgeTool()];
  const server = new McpServer({ name: "agent-evidence", version });
  registerMcpTools(server, all);
  return { server, evidence, toolNames: all.map((tool) => tool.name) };
}

/**
 * Serves the evidence tools over stdio until the client closes the connection. A message (line) on
 * stdin larger than 8 MiB ends the server: the promise rejects with a NamedFileError (`EFBIG`).
 * @example
 * await serveEvidenceMcp({ cwd: "/path/to/repo" });
 */
export async function serveEvidenceMcp(options: ServeEvidenceMcpOptions = {}): Promise<void> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const { server, toolNames } = createEvidenceMcpServer(options);
  const input = process.stdin.pipe(createMessageLines());
  const transport = new StdioServerTransport(input);
  const closed = new Promise<void>((resolve, reject) => {
    server.server.onclose = resolve;
    // The SDK's stdio transport does not notice end of input; a client that closes stdin is done.
    input.once("end", resolve);
    input.once("error", (error) => {
      process.stdin.destroy();
      reject(error);
    });
  });
  await server.connect(transport);
  log(
    `agent-evidence mcp: serving ${toolNames.join(", ")} for ${options.cwd ?? process.cwd()} (sandbox: ${String(options.sandbox ?? (options.headless === false ? false : "strict"))})`,
  );
  try {
    await closed;
  } finally {
    await server.close();
  }
}

const judgeInputSchema = z.object({
  command: z.string().describe("The command line as it was run."),
  output: z.string().describe("The captured output (stdout and stderr as the tool returned them)."),
  exitCode: z.number().int().nullish().describe("The line's exit status, when known."),
  cwd: z.string().nullish().describe("The directory the line ran in."),
  truncated: z.boolean().nullish().describe("True when the output was clipped."),
});
const judgeOutputSchema = z.looseObject({
  schemaVersion: z.literal(1),
  verdict: z.enum(["passed", "failed", "unknown"]),
  reasons: z.array(z.string()),
  runs: z.array(z.looseObject({})),
});

function judgeTool(): McpTool {
  const tool = defineTool({
    name: "judge",
    title: "Judge test output",
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    description:
      "Judge captured test output without running anything: passed only with positive proof from the runner's own output, else failed or unknown with reasons.",
    inputSchema: judgeInputSchema,
    run: (input) => {
      const request: JudgeInput = { command: input.command, output: input.output };
      if (input.exitCode !== undefined && input.exitCode !== null) request.exitCode = input.exitCode;
      if (input.cwd !== undefined && input.cwd !== null) request.cwd = input.cwd;
      if (input.truncated !== undefined && input.truncated !== null) request.outputTruncated = input.truncated;
      const result: JudgeResult = judge(request);
      return Promise.resolve({ text: JSON.stringify(result), data: result });
    },
  });
  return { ...tool, outputSchema: judgeOutputSchema };
}
