// Framework-free tools as MCP tools. The text is the content the model sees; a tool that declares an
// output schema also returns its data as structuredContent (MCP requires it then).
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod/v4";

import type { Tool, ToolProgress, ToolResult } from "../host/tool.js";
import { assertUniqueToolNames } from "./unique-names.js";

/** A tool for {@link registerMcpTools}: any {@link Tool} (one with an `outputSchema` returns its data as structuredContent). */
export type McpTool = Tool<unknown, unknown>;

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
      {
        description: own.description,
        inputSchema: own.inputSchema as unknown as z.ZodObject,
        ...(own.outputSchema === undefined ? {} : { outputSchema: own.outputSchema }),
        ...(own.title === undefined ? {} : { title: own.title }),
        ...(own.annotations === undefined
          ? {}
          : { annotations: { ...(own.title === undefined ? {} : { title: own.title }), ...own.annotations } }),
      },
      async (input: unknown, extra) => {
        const progressToken = extra._meta?.progressToken;
        // A client that asked for progress (a progressToken) gets the tool's updates as notifications;
        // one that cannot be sent is dropped, never the call. MCP wants `progress` to grow with every
        // notification: an update that does not (bash's whole seconds, polled more often) is skipped.
        let last = -Infinity;
        const onProgress =
          progressToken === undefined
            ? undefined
            : (update: ToolProgress) => {
                if (!(update.progress > last)) return;
                last = update.progress;
                extra.sendNotification({ method: "notifications/progress", params: { progressToken, ...update } }).catch(() => undefined);
              };
        const result = await own.execute(input, {
          signal: extra.signal,
          toolCallId: String(extra.requestId),
          ...(onProgress === undefined ? {} : { onProgress }),
        });
        return toCallToolResult(result, own.outputSchema !== undefined);
      },
    ),
  );
}

/** An MCP tool result from our result: the text as content, `isError` kept, `data` as structuredContent when asked. */
export function toCallToolResult(result: ToolResult, structured = false): CallToolResult {
  const content: CallToolResult["content"] = [{ type: "text", text: result.text }];
  if (result.isError === true) return { content, isError: true };
  const data = result.data;
  return structured && typeof data === "object" && data !== null && !Array.isArray(data)
    ? { content, structuredContent: data as Record<string, unknown> }
    : { content };
}
