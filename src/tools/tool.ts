// The framework-free tool shape every native tool (and every wrapper such as BashEvidence) returns.
import type { z } from "zod/v4";
import { EvidenceError } from "../errors.js";

/** Per-call context handed to {@link Tool.execute} by the agent loop. */
export interface ToolContext {
  /** Aborting it stops the call (the bash tool kills its process group). */
  signal?: AbortSignal;
  /** The agent framework's id for this call, when it has one. */
  toolCallId?: string;
}

/** What a tool call returns: `text` for the model, `data` for code, `isError` when the call was refused or failed. */
export interface ToolResult<TData = unknown> {
  text: string;
  data?: TData;
  isError?: boolean;
}

/** One framework-free tool: a name, a description, a zod 4 input schema and an `execute` that never throws. */
export interface Tool<TInput = unknown, TData = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.ZodType<TInput>;
  execute(input: TInput, ctx?: ToolContext): Promise<ToolResult<TData>>;
}

/** Tool names accepted by the common agent frameworks (OpenAI, Anthropic, MCP). */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Throws an {@link EvidenceError} unless `name` matches {@link TOOL_NAME_PATTERN}. */
export function assertToolName(name: unknown): asserts name is string {
  if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `Tool option "name" is ${JSON.stringify(name)}; accepted: 1 to 64 characters from a-z, A-Z, 0-9, "_" and "-".`,
    );
  }
}

/** The parts a native tool supplies; {@link defineTool} adds input validation and the never-throw guarantee. */
export interface ToolDefinition<TInput, TData> {
  name: string;
  description: string;
  inputSchema: z.ZodType<TInput>;
  run: (input: TInput, ctx: ToolContext) => Promise<ToolResult<TData>>;
}

/**
 * Builds a {@link Tool}: checks the name at construction, validates every input against the schema
 * and turns an unexpected exception into an `isError` result, so nothing is thrown into the agent loop.
 */
export function defineTool<TInput, TData>(definition: ToolDefinition<TInput, TData>): Tool<TInput, TData> {
  assertToolName(definition.name);
  const { name, description, inputSchema, run } = definition;
  return {
    name,
    description,
    inputSchema,
    async execute(input: TInput, ctx?: ToolContext): Promise<ToolResult<TData>> {
      const parsed = inputSchema.safeParse(input);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`);
        return { text: `Error: invalid input for ${name}: ${problems.join("; ")}`, isError: true };
      }
      try {
        return await run(parsed.data, ctx ?? {});
      } catch (error) {
        return { text: `Error: ${name} failed: ${errorMessage(error)}`, isError: true };
      }
    },
  };
}

/** The message of an unknown thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
