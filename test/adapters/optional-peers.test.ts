// The frameworks (optional peers, and the MCP SDK, an optional dependency): only the adapter entry points may load them. The core entry
// and the CLI entry must load without any framework installed (the CLI's mcp command imports the
// MCP SDK lazily, when it runs).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, it } from "vitest";
import { z } from "zod/v4";

import { toAiSdkTools } from "../../src/adapters/ai-sdk.js";
import { toLangChainTools } from "../../src/adapters/langchain.js";
import { registerMcpTools } from "../../src/adapters/mcp.js";
import { toOpenAIAgentsTools } from "../../src/adapters/openai-agents.js";
import { isEvidenceError } from "../../src/errors.js";
import { defineTool, type Tool } from "../../src/host/tool.js";
import { staticImports, walkImports } from "../support/import-graph.js";

const FRAMEWORKS = ["ai", "@openai/agents", "@langchain/core", "@modelcontextprotocol/sdk"];

function frameworkOf(spec: string): string | undefined {
  return FRAMEWORKS.find((name) => spec === name || spec.startsWith(`${name}/`));
}

/** Framework packages reachable from `entry` through static imports (`import()` runs only when called), as "file imports package". */
function frameworksReached(entry: string): string[] {
  const found: string[] = [];
  walkImports(entry, staticImports, (file, spec) => {
    const framework = frameworkOf(spec);
    if (framework !== undefined) found.push(`${file} imports ${framework}`);
  });
  return found;
}

describe("frameworks stay optional", () => {
  it.each(["src/index.ts", "src/cli/main.ts"])("%s loads no framework package", (entry) => {
    expect(frameworksReached(entry)).toEqual([]);
  });

  it.each([
    ["src/adapters/ai-sdk.ts", "ai"],
    ["src/adapters/openai-agents.ts", "@openai/agents"],
    ["src/adapters/langchain.ts", "@langchain/core"],
    ["src/adapters/mcp.ts", "@modelcontextprotocol/sdk"],
  ])("%s loads %s (and the scanner sees it)", (entry, framework) => {
    expect(new Set(frameworksReached(entry).map((line) => line.split(" imports ")[1]))).toEqual(new Set([framework]));
  });
});

describe("adapters refuse tools with the same name", () => {
  const echo = (): Tool<unknown, unknown> =>
    defineTool({
      name: "echo",
      description: "Echo.",
      inputSchema: z.object({ text: z.string() }),
      run: ({ text }) => Promise.resolve({ text }),
    });
  it.each<[string, (tools: Tool<unknown, unknown>[]) => unknown]>([
    ["toAiSdkTools", toAiSdkTools],
    ["toOpenAIAgentsTools", toOpenAIAgentsTools],
    ["toLangChainTools", toLangChainTools],
    ["registerMcpTools", (tools) => registerMcpTools(new McpServer({ name: "t", version: "1" }), tools)],
  ])("%s throws E_DUPLICATE_TOOL", (adapter, convert) => {
    expect(() => convert([echo(), echo()])).toThrow(`${adapter}: two tools are named "echo"; names must be unique.`);
    let error: unknown;
    try {
      convert([echo(), echo()]);
    } catch (thrown) {
      error = thrown;
    }
    expect(isEvidenceError(error, "E_DUPLICATE_TOOL")).toBe(true);
    expect(() => convert([echo()])).not.toThrow();
  });
});
