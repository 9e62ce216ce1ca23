// Framework-free tools as MCP tools. The text is the content the model sees; a tool that declares an
// output schema also returns its data as structuredContent (MCP requires it then).
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod/v4";
import type { Tool, ToolResult } from "../tools/tool.js";
import { assertUniqueToolNames } from "./unique-names.js";

/** A tool for {@link registerMcpTools}: any {@link Tool}, optionally with the schema of its `data`. */
export type McpTool = Tool<unknown, unknown> & { readonly outputSchema?: z.ZodObject };

/**
 * Registers each tool on an MCP server under its own name, input schema and description.
 * @example
 * const server = new McpServer({ name: "my-tools", version: "1.0.0" });
 * registerMcpTools(server, evidenceTools(["bash", "grep"], { cwd }).tools);
 */
export function registerMcpTools(server: McpServer, tools: readonly McpTool[]): RegisteredTool[] {
  assertUniqueToolNames("registerMcpTools", tools);
  return tools.map((own) =>
    server.registerTool(
      own.name,
      { description: own.description, inputSchema: own.inputSchema as unknown as z.ZodObject, ...(own.outputSchema === undefined ? {} : { outputSchema: own.outputSchema }) },
      async (input: unknown, extra) => toCallToolResult(await own.execute(input, { signal: extra.signal, toolCallId: String(extra.requestId) }), own.outputSchema !== undefined),
    ),
  );
}

/** An MCP tool result from our result: the text as content, `isError` kept, `data` as structuredContent when asked. */
export function toCallToolResult(result: ToolResult, structured = false): CallToolResult {
  const content: CallToolResult["content"] = [{ type: "text", text: result.text }];
  if (result.isError === true) return { content, isError: true };
  const data = result.data;
  return structured && typeof data === "object" && data !== null && !Array.isArray(data) ? { content, structuredContent: data as Record<string, unknown> } : { content };
}
