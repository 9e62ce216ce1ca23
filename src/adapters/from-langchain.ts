// The other direction: someone's LangChain tool as a framework-free Tool, so BashEvidence (or any
// adapter) can wrap a bash tool written for LangChain.
import { randomUUID } from "node:crypto";

import { isBaseMessage, type MessageContent, ToolMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { z } from "zod/v4";

import { assertToolName, errorMessage, invalidInputResult, type Tool, type ToolContext, type ToolResult } from "../host/tool.js";
import { zodObjectSchema } from "./json-schema-input.js";

/**
 * Wraps a LangChain `StructuredTool` (`tool(...)`, `DynamicStructuredTool`, a subclass) as a
 * framework-free {@link Tool}. Its input schema is the tool's own when that is a zod 4 object
 * schema; any other schema (zod 3, JSON schema) becomes a permissive object schema, and LangChain
 * still validates the input against the original. `execute` invokes the tool with a tool call:
 * the text is the message content, `data` the artifact of a `content_and_artifact` tool, and
 * `isError` is set when the tool throws or answers with a ToolMessage of status "error". It never
 * throws, except when `ctx.signal` aborted the call: then it rejects with LangChain's abort error.
 * @example
 * const bash = new BashEvidence(fromLangChainTool(theirBashTool), { workspace: repo });
 * await bash.execute({ command: "python -m pytest -rA" });
 * bash.verifiedTargets;
 */
export function fromLangChainTool<TSchema, TInput extends object = Record<string, unknown>>(
  lcTool: StructuredToolInterface<TSchema, TInput>,
): Tool<TInput, unknown> {
  assertToolName(lcTool.name);
  const name = lcTool.name;
  // Typed as the tool's input: a permissive schema lets LangChain's own check decide.
  const inputSchema = (zodObjectSchema(lcTool.schema) ?? z.looseObject({})) as z.ZodType<TInput>;
  return {
    name,
    description: lcTool.description,
    inputSchema,
    async execute(input: TInput, ctx?: ToolContext): Promise<ToolResult> {
      const parsed = inputSchema.safeParse(input);
      if (!parsed.success) return invalidInputResult(name, parsed.error);
      let output: unknown;
      try {
        // A tool call, not plain arguments: plain invocation drops the artifact and the status.
        output = await lcTool.invoke(
          { type: "tool_call", id: ctx?.toolCallId ?? randomUUID(), name, args: input as Record<string, unknown> },
          { signal: ctx?.signal },
        );
      } catch (error) {
        if (ctx?.signal?.aborted === true) throw error;
        return { text: `Error: ${name} failed: ${errorMessage(error)}`, isError: true };
      }
      return resultOf(output);
    },
  };
}

function resultOf(output: unknown): ToolResult {
  if (isBaseMessage(output) && ToolMessage.isInstance(output)) {
    return {
      text: contentText(output.content),
      ...(output.artifact === undefined ? {} : { data: output.artifact as unknown }),
      ...(output.status === "error" ? { isError: true } : {}),
    };
  }
  return { text: typeof output === "string" ? output : (JSON.stringify(output) ?? "") };
}

// A message's content as text: the string, or the text of its text blocks (other blocks as JSON).
function contentText(content: MessageContent): string {
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" && typeof block.text === "string" ? block.text : JSON.stringify(block))).join("\n");
}
