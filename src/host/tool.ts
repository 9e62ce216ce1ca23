// The host seam: the framework-free tool shape every native tool, every foreign tool and every
// wrapper such as BashEvidence shares, with the hooks and marks an observer reads as typed members.
// Both sides import it; it imports nothing of theirs (the reports tools return: reports.ts).
import type { z } from "zod/v4";

import { EvidenceError } from "../errors.js";

/** Marks tools that call {@link ToolContext.onCommandStart} right before they spawn (the native bash tool does). */
export const START_HOOK: unique symbol = Symbol.for("agent-evidence.start-hook");

/**
 * Marks the native bash tool, whose `data` names the raw logs it wrote: only its results are read
 * from those files. Any other tool's result is read from its text, so a foreign tool (or a foreign
 * MCP server's structuredContent) that imitates the native data cannot point the ledger at a file.
 */
export const NATIVE_BASH: unique symbol = Symbol.for("agent-evidence.native-bash");

/** Marks tools that start a new shell for every call (the native bash tool does). */
export const PER_CALL_SHELL: unique symbol = Symbol.for("agent-evidence.per-call-shell");

/** Per-call context handed to {@link Tool.execute} by the agent loop. */
export interface ToolContext {
  /** Aborting it stops the call (the bash tool kills its process group). */
  signal?: AbortSignal;
  /** The agent framework's id for this call, when it has one. */
  toolCallId?: string;
  /** Called while a long call runs (the bash tool: every few seconds); the MCP adapter sends them as progress notifications. */
  onProgress?: (update: ToolProgress) => void;
  /**
   * The framework's own approval flow approved this call (set by the adapters of frameworks that
   * honour {@link Tool.needsApproval}, never by the model): the tool does not ask again.
   */
  approved?: boolean;
  /**
   * Set by an observer (BashEvidence): a tool that calls it right before it really starts the
   * command, and carries {@link START_HOOK}, lets the ledger skip commands it refused (policy, sandbox).
   */
  onCommandStart?: () => void;
}

/** The context BashEvidence hands to the wrapped tool: {@link ToolContext.onCommandStart} is always set. */
export interface ObservedToolContext extends ToolContext {
  onCommandStart: () => void;
}

/** A progress update of a running call: `progress` grows with every update (the bash tool: seconds elapsed). */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** Hints about what a tool does, in MCP's vocabulary (hints for a client's UI and policy, not guarantees). */
export interface ToolAnnotations {
  /** The tool changes nothing in its environment. */
  readonly readOnlyHint?: boolean;
  /** A change it makes may destroy or overwrite something (meaningful when not read-only). */
  readonly destructiveHint?: boolean;
  /** Calling it again with the same input has no further effect. */
  readonly idempotentHint?: boolean;
  /** It reaches outside the workspace (the network). */
  readonly openWorldHint?: boolean;
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
  /** A human-readable name for a client's UI (MCP `title`). */
  readonly title?: string;
  readonly annotations?: ToolAnnotations;
  /**
   * True when this input needs a person's approval before it runs (the bash tool with a `confirm`
   * policy: a risky command). Frameworks with an approval flow (AI SDK, OpenAI Agents) ask through it
   * and then call `execute` with `approved: true`; elsewhere the tool asks its `confirm` callback.
   * Sees the model's raw input, before validation.
   */
  readonly needsApproval?: (input: unknown) => boolean;
  /** The schema of `data`, when the tool declares one (MCP then returns `data` as structuredContent). */
  readonly outputSchema?: z.ZodObject;
  execute(input: TInput, ctx?: ToolContext): Promise<ToolResult<TData>>;
  /** True when `execute` calls `ctx.onCommandStart` right before it spawns (set non-enumerable, with `Object.defineProperty`). */
  readonly [START_HOOK]?: boolean;
  /** True on the native bash tool only: its `data` is a `CommandReport` (reports.ts) whose logs are read. */
  readonly [NATIVE_BASH]?: boolean;
  /** True when every call starts a new shell: nothing a line defines reaches the next call. */
  readonly [PER_CALL_SHELL]?: boolean;
}

/** The optional descriptive fields of a tool (title, annotations, needsApproval, outputSchema), only those it has. */
export function toolMetadata(tool: Tool<never, unknown>): Pick<Tool, "title" | "annotations" | "needsApproval" | "outputSchema"> {
  return {
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
    ...(tool.needsApproval === undefined ? {} : { needsApproval: tool.needsApproval }),
  };
}

/** The same tool (name, schema, description and metadata) with another `execute`: how wrappers keep everything else. */
export function withExecute<TInput, TData>(
  tool: Tool<TInput, unknown>,
  execute: (input: TInput, ctx?: ToolContext) => Promise<ToolResult<TData>>,
): Tool<TInput, TData> {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...toolMetadata(tool as Tool<never, unknown>),
    execute,
  };
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
  title?: string;
  annotations?: ToolAnnotations;
  needsApproval?: (input: unknown) => boolean;
  run: (input: TInput, ctx: ToolContext) => Promise<ToolResult<TData>>;
}

/**
 * Builds a {@link Tool}: checks the name at construction, validates every input against the schema
 * and turns an unexpected exception into an `isError` result, so nothing is thrown into the agent loop.
 */
export function defineTool<TInput, TData>(definition: ToolDefinition<TInput, TData>): Tool<TInput, TData> {
  assertToolName(definition.name);
  const { name, description, inputSchema, run, title, annotations, needsApproval } = definition;
  return {
    name,
    description,
    inputSchema,
    ...(title === undefined ? {} : { title }),
    ...(annotations === undefined ? {} : { annotations }),
    ...(needsApproval === undefined ? {} : { needsApproval }),
    async execute(input: TInput, ctx?: ToolContext): Promise<ToolResult<TData>> {
      const parsed = inputSchema.safeParse(input);
      if (!parsed.success) return invalidInputResult(name, parsed.error);
      try {
        return await run(parsed.data, ctx ?? {});
      } catch (error) {
        return { text: `Error: ${name} failed: ${errorMessage(error)}`, isError: true };
      }
    },
  };
}

/** The error result for input that fails a tool's schema: `Error: invalid input for NAME: path: message; ...`. */
export function invalidInputResult(name: string, error: z.ZodError): ToolResult<never> {
  const problems = error.issues.map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`);
  return { text: `Error: invalid input for ${name}: ${problems.join("; ")}`, isError: true };
}

/** The message of an unknown thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
