// `agent-evidence/mcp`: the Model Context Protocol surface (the entry point of the subpath export).
export { registerMcpTools, toCallToolResult, type McpTool } from "./mcp-tools.js";
export {
  createEvidenceMcpServer,
  serveEvidenceMcp,
  type EvidenceMcpServer,
  type EvidenceMcpServerOptions,
  type ServeEvidenceMcpOptions,
} from "./mcp-server.js";
export { renderStatus } from "../tools/evidence-status.js";
export { fromCallToolResult, fromMcpTool, type FromMcpToolOptions, type McpClientTool } from "./mcp-client.js";
export type { InputSchemaKind } from "./json-schema-input.js";
