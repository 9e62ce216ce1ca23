// `agent-evidence mcp`: the evidence tools as an MCP server over stdio. The SDK is an optional
// dependency (installed by default, so `npx -y agent-evidence mcp` runs; `--omit=optional` leaves it
// out), loaded only when this command runs: the rest of the CLI works without it.
import type { Command } from "commander";

import { EvidenceError, isEvidenceError } from "../errors.js";
import { EXIT_UNAVAILABLE } from "./exit-codes.js";

interface McpCommandOptions {
  cwd?: string;
  sandbox?: string;
  headless?: boolean;
}

/** Registers `agent-evidence mcp [--cwd DIR] [--sandbox strict|workspace-only|none]` (`--headless`/`--no-headless` are deprecated aliases). */
export function registerMcpCommand(program: Command): void {
  program
    .command("mcp")
    .description(
      "Serve bash, file_read, file_write, apply_patch, grep, git_diff, evidence_status and judge over MCP (stdio). Logs go to stderr.",
    )
    .option("--cwd <dir>", "the workspace (default: the current directory)")
    .option(
      "--sandbox <level>",
      "bash's bubblewrap sandbox: strict (default), workspace-only, or none; a sandboxed bash refuses where bubblewrap cannot start",
    )
    .option("--headless", "deprecated: --sandbox strict")
    .option("--no-headless", "deprecated: --sandbox none")
    .action(async (options: McpCommandOptions) => {
      const loaded = await loadServer();
      if (loaded === undefined) {
        process.stderr.write(
          "agent-evidence: mcp needs the optional dependency @modelcontextprotocol/sdk, left out of this install (npm install @modelcontextprotocol/sdk)\n",
        );
        process.exitCode = EXIT_UNAVAILABLE;
        return;
      }
      try {
        const sandbox = options.sandbox === undefined ? undefined : options.sandbox === "none" ? false : options.sandbox;
        if (sandbox !== undefined && sandbox !== false && sandbox !== "strict" && sandbox !== "workspace-only") {
          throw new EvidenceError(
            "E_USAGE",
            `mcp: --sandbox is ${JSON.stringify(options.sandbox)}; accepted: strict, workspace-only, none.`,
          );
        }
        await loaded.serveEvidenceMcp({
          cwd: options.cwd,
          sandbox,
          headless: options.sandbox === undefined ? options.headless : undefined,
        });
      } catch (error) {
        if (isEvidenceError(error, "E_INVALID_OPTION")) throw new EvidenceError("E_USAGE", `mcp: ${error.message}`);
        throw error;
      }
    });
}

// undefined when the SDK is not installed; any other load failure is a real error.
async function loadServer(): Promise<typeof import("../adapters/mcp-server.js") | undefined> {
  try {
    return await import("../adapters/mcp-server.js");
  } catch (error) {
    const missing =
      error instanceof Error &&
      "code" in error &&
      error.code === "ERR_MODULE_NOT_FOUND" &&
      error.message.includes("@modelcontextprotocol/sdk");
    if (missing) return undefined;
    throw error;
  }
}
