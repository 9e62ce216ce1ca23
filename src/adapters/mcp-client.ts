// A tool served by any MCP server as our framework-free Tool, so a bash someone else serves can be
// observed: `new BashEvidence(await fromMcpTool(client, "bash"), { workspace })`.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool as McpToolDefinition } from "@modelcontextprotocol/sdk/types.js";

import { EvidenceError } from "../errors.js";
import { assertToolName, errorMessage, type Tool, type ToolAnnotations, type ToolContext, type ToolResult } from "../host/tool.js";
import { inputSchemaFromJson, type InputSchemaKind } from "./json-schema-input.js";

/** Options of {@link fromMcpTool}. */
export interface FromMcpToolOptions {
  /** The name the tool gets here (default: its MCP name, which must then match our tool-name pattern). */
  name?: string;
  /**
   * How long a call may go without a response or a progress update before it is given up (the server
   * is sent a cancellation, the model an error result); default the SDK's 60,000 ms. The call asks the
   * server for progress, so a server that reports it (agent-evidence's bash does, every 5 s) keeps a
   * long test run alive.
   */
  timeoutMs?: number;
}

/** A tool read from an MCP server: our {@link Tool}, plus how its input schema was built. `TInput` is what you know its arguments to be (the server checks them). */
export interface McpClientTool<TInput extends object = Record<string, unknown>> extends Tool<TInput, unknown> {
  /** `converted`: the JSON Schema as zod (`z.fromJSONSchema`); `permissive`: any object, the JSON Schema kept as metadata. */
  readonly inputSchemaKind: InputSchemaKind;
}

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/**
 * Reads the tool `name` from the server `client` is connected to (listTools) and returns it as a
 * {@link Tool}: `execute` calls it and returns its text content, `structuredContent` as `data`, and
 * `isError`. A failed call (the server gone, a protocol error, a timeout) is an error result; only
 * an abort of `ctx.signal` rejects, with the signal's reason, after the server was sent a cancellation.
 * Throws an `EvidenceError` when the server does not list the tool.
 * @example
 * const bash = new BashEvidence(await fromMcpTool<BashLikeInput>(client, "bash"), { workspace: repo });
 * await bash.execute({ command: "python -m pytest -rA tests" });
 * bash.verifiedTargets;
 */
export async function fromMcpTool<TInput extends object = Record<string, unknown>>(
  client: Client,
  name: string,
  options: FromMcpToolOptions = {},
): Promise<McpClientTool<TInput>> {
  const ownName = options.name ?? name;
  assertToolName(ownName);
  if (options.timeoutMs !== undefined && (!Number.isInteger(options.timeoutMs) || options.timeoutMs <= 0)) {
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `fromMcpTool option "timeoutMs" must be a positive integer; got ${JSON.stringify(options.timeoutMs)}.`,
    );
  }
  const definition = await findTool(client, name);
  if (definition.execution?.taskSupport === "required") {
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `fromMcpTool: the MCP tool ${JSON.stringify(name)} runs only as a task, which fromMcpTool does not support.`,
    );
  }
  const { schema, kind } = inputSchemaFromJson(definition.inputSchema);
  const title = definition.title ?? definition.annotations?.title;
  const annotations = hintsOf(definition);
  return {
    name: ownName,
    description: definition.description ?? title ?? name,
    // The schema says what the server accepts; TInput is the caller's word for it.
    inputSchema: schema as unknown as McpClientTool<TInput>["inputSchema"],
    inputSchemaKind: kind,
    ...(title === undefined ? {} : { title }),
    ...(annotations === undefined ? {} : { annotations }),
    execute: (input, ctx) => callMcpTool(client, name, input, ctx ?? {}, options.timeoutMs),
  };
}

async function findTool(client: Client, name: string): Promise<McpToolDefinition> {
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    const found = page.tools.find((tool) => tool.name === name);
    if (found !== undefined) return found;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  throw new EvidenceError("E_UNKNOWN_TOOL", `fromMcpTool: the MCP server lists no tool named ${JSON.stringify(name)}.`);
}

function hintsOf(definition: McpToolDefinition): ToolAnnotations | undefined {
  const given = definition.annotations;
  if (given === undefined) return undefined;
  const hints = Object.fromEntries(HINTS.filter((hint) => typeof given[hint] === "boolean").map((hint) => [hint, given[hint]]));
  return Object.keys(hints).length === 0 ? undefined : hints;
}

async function callMcpTool(
  client: Client,
  name: string,
  input: unknown,
  ctx: ToolContext,
  timeoutMs: number | undefined,
): Promise<ToolResult> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { text: `Error: invalid input for ${name}: expected an object of arguments.`, isError: true };
  }
  const { signal, onProgress } = ctx;
  let listener = onProgress;
  try {
    const result = await client.callTool({ name, arguments: input as Record<string, unknown> }, undefined, {
      ...(signal === undefined ? {} : { signal }),
      ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }),
      resetTimeoutOnProgress: true,
      // Always asked for, so a server's progress keeps the call alive; passed on when someone listens,
      // and a listener that throws is dropped, never the call.
      onprogress: ({ progress, total, message }) => {
        try {
          listener?.({ progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) });
        } catch {
          listener = undefined;
        }
      },
    });
    return fromCallToolResult(result);
  } catch (error) {
    // The abort convention: the caller that aborted gets a rejection (the SDK has already sent
    // notifications/cancelled, and the server sends no response to a cancelled request).
    if (signal?.aborted === true) throw signal.reason;
    return { text: `Error: the MCP tool ${name} failed: ${errorMessage(error)}`, isError: true };
  }
}

/** Our result from an MCP tool result: text content joined by newlines, `structuredContent` as `data`, `isError` kept. */
export function fromCallToolResult(result: Record<string, unknown>): ToolResult {
  const content = result.content;
  // A server of protocol 2024-10-07 answers `{ toolResult }` instead of content.
  if (!Array.isArray(content))
    return { text: JSON.stringify(result.toolResult ?? null), ...(result.toolResult === undefined ? {} : { data: result.toolResult }) };
  const text = (content as unknown[]).map(contentText).join("\n");
  const structured = result.structuredContent;
  return {
    text,
    ...(typeof structured === "object" && structured !== null ? { data: structured } : {}),
    ...(result.isError === true ? { isError: true } : {}),
  };
}

// Text, and the text of an embedded text resource; anything else (an image, audio, a link) only named.
function contentText(block: unknown): string {
  const part = (typeof block === "object" && block !== null ? block : {}) as {
    type?: unknown;
    text?: unknown;
    resource?: { text?: unknown; uri?: unknown };
    mimeType?: unknown;
    uri?: unknown;
  };
  if (part.type === "text" && typeof part.text === "string") return part.text;
  if (part.type === "resource" && typeof part.resource?.text === "string") return part.resource.text;
  const what =
    typeof part.mimeType === "string"
      ? part.mimeType
      : typeof part.uri === "string"
        ? part.uri
        : typeof part.resource?.uri === "string"
          ? part.resource.uri
          : "";
  return `[${typeof part.type === "string" ? part.type : "unknown"} content${what === "" ? "" : ` ${what}`} not shown]`;
}
