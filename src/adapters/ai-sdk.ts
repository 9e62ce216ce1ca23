// Vercel AI SDK 6 adapter. The model sees the tool's text (as error text when the call failed); code
// reads the whole result object, `data` included, from the step's tool results.
import { type ModelMessage, tool as aiTool, type ToolExecutionOptions, type ToolSet } from "ai";
import { z } from "zod/v4";

import { assertToolName, errorMessage, type Tool, type ToolResult } from "../host/tool.js";
import { zodObjectSchema } from "./json-schema-input.js";
import { assertUniqueToolNames } from "./unique-names.js";

/**
 * Turns framework-free tools into an AI SDK 6 `ToolSet` keyed by tool name. Each tool's `execute`
 * returns our `{ text, data?, isError? }`; `toModelOutput` sends only `text` to the model.
 *
 * Conventions of the SDK, kept: an aborted call throws the signal's reason (the SDK's `AbortError`),
 * after the tool killed what it started; a tool with `needsApproval` (bash with a `confirm` policy)
 * asks through the SDK's approval flow, and runs, once approved, without asking again.
 * @example
 * const { tools, evidence } = evidenceTools(["bash", "file_read"], { cwd: repo });
 * await generateText({ model, tools: toAiSdkTools(tools), stopWhen: stepCountIs(20), prompt });
 * evidence.verifiedTargets;
 */
export function toAiSdkTools(tools: readonly Tool<unknown, unknown>[]): ToolSet {
  assertUniqueToolNames("toAiSdkTools", tools);
  const set: ToolSet = {};
  for (const own of tools) {
    const needsApproval = own.needsApproval;
    set[own.name] = aiTool<unknown, ToolResult>({
      description: own.description,
      ...(own.title === undefined ? {} : { title: own.title }),
      inputSchema: own.inputSchema,
      ...(needsApproval === undefined ? {} : { needsApproval: (input: unknown) => needsApproval(input) }),
      execute: async (input, { abortSignal, toolCallId, messages }) => {
        // The SDK runs a tool that needs approval only once a person approved it; the messages say so.
        const approved = needsApproval?.(input) === true && approvedInMessages(messages, toolCallId);
        const result = await own.execute(input, { signal: abortSignal, toolCallId, ...(approved ? { approved } : {}) });
        // The tool has stopped (bash: its process group killed); the SDK expects the abort itself.
        if (abortSignal?.aborted === true) throw abortReason(abortSignal);
        return result;
      },
      toModelOutput: ({ output }) =>
        output.isError === true ? { type: "error-text", value: output.text } : { type: "text", value: output.text },
    });
  }
  return set;
}

/** What {@link fromAiSdkTool} reads of an AI SDK tool (what `tool({...})` returns). */
export interface AiSdkToolLike<TInput> {
  description?: string;
  title?: string;
  inputSchema: unknown;
  execute?: (input: TInput, options: ToolExecutionOptions) => unknown;
  toModelOutput?: (options: { toolCallId: string; input: TInput; output: never }) => unknown;
}

/** Options of {@link fromAiSdkTool}. */
export interface FromAiSdkToolOptions {
  /** The description the framework-free tool carries (default: the AI SDK tool's, else its name). */
  description?: string;
}

/**
 * Turns a tool written for the AI SDK (`tool({ inputSchema, execute })`) into a framework-free
 * {@link Tool}, so it can be observed: `new BashEvidence(fromAiSdkTool("bash", theirBash), { workspace })`.
 * The text is the output when it is a string, else what its `toModelOutput` makes of it, else its
 * JSON; `data` is the output; a throw is an `isError` result (never thrown on). A zod 4 input schema
 * is kept; any other schema (`jsonSchema(...)`) is taken as an object the tool validates itself.
 */
export function fromAiSdkTool<TInput>(
  name: string,
  tool: AiSdkToolLike<TInput>,
  options: FromAiSdkToolOptions = {},
): Tool<TInput, unknown> {
  assertToolName(name);
  const execute = tool.execute;
  const schema = tool.inputSchema;
  const inputSchema = (zodObjectSchema(schema) ?? z.looseObject({})) as z.ZodType<TInput>;
  let calls = 0;
  return {
    name,
    description: options.description ?? tool.description ?? name,
    inputSchema,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    async execute(input, ctx) {
      if (execute === undefined) return { text: `Error: the AI SDK tool ${name} has no execute function.`, isError: true };
      calls += 1;
      const toolCallId = ctx?.toolCallId ?? `${name}-${calls}`;
      try {
        const output = await lastOutput(
          execute(input, { toolCallId, messages: [], ...(ctx?.signal === undefined ? {} : { abortSignal: ctx.signal }) }),
        );
        return { text: await modelText(tool, toolCallId, input, output), data: output };
      } catch (error) {
        return { text: `Error: ${name} failed: ${errorMessage(error)}`, isError: true };
      }
    },
  };
}

// An AI SDK execute may return a value, a promise, or an async iterable of preliminary outputs (the last is the result).
async function lastOutput(value: unknown): Promise<unknown> {
  const settled = await value;
  if (typeof settled !== "object" || settled === null || typeof (settled as AsyncIterable<unknown>)[Symbol.asyncIterator] !== "function")
    return settled;
  let last: unknown;
  for await (const part of settled as AsyncIterable<unknown>) last = part;
  return last;
}

async function modelText<TInput>(tool: AiSdkToolLike<TInput>, toolCallId: string, input: TInput, output: unknown): Promise<string> {
  if (typeof output === "string") return output;
  const toModelOutput = tool.toModelOutput as ((options: { toolCallId: string; input: TInput; output: unknown }) => unknown) | undefined;
  if (toModelOutput !== undefined) {
    const model = (await toModelOutput({ toolCallId, input, output })) as { type?: unknown; value?: unknown };
    if ((model.type === "text" || model.type === "error-text") && typeof model.value === "string") return model.value;
  }
  return JSON.stringify(output) ?? String(output);
}

// True when the messages hold an approving response to this call's approval request (the SDK's flow).
function approvedInMessages(messages: readonly ModelMessage[], toolCallId: string): boolean {
  const requested = new Set<string>();
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content)
      if (part.type === "tool-approval-request" && part.toolCallId === toolCallId) requested.add(part.approvalId);
  }
  return messages.some(
    (message) =>
      message.role === "tool" &&
      message.content.some((part) => part.type === "tool-approval-response" && part.approved && requested.has(part.approvalId)),
  );
}

function abortReason(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  return reason ?? new DOMException("This operation was aborted", "AbortError");
}
