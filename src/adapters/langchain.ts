// LangChain adapter. `content_and_artifact`: the ToolMessage's content is the tool's text (what the
// model sees) and its artifact the structured `data` (what code reads), kept out of the prompt.
import { tool as langChainTool, type DynamicStructuredTool, type ToolRunnableConfig } from "@langchain/core/tools";
import type { z } from "zod/v4";
import type { Tool } from "../tools/tool.js";
import { assertUniqueToolNames } from "./unique-names.js";

/** A tool made by {@link toLangChainTools}: zod object input, `[text, data]` output. */
export type LangChainTool = DynamicStructuredTool<z.ZodObject>;

/**
 * Turns framework-free tools into LangChain structured tools with `responseFormat: "content_and_artifact"`.
 * Invoked with a tool call they return a `ToolMessage` (content: the text, artifact: the data);
 * invoked with plain arguments they return the text.
 * @example
 * const { tools, evidence } = evidenceTools(["bash"], { cwd: repo });
 * const model = chatModel.bindTools(toLangChainTools(tools));
 */
export function toLangChainTools(tools: readonly Tool<unknown, unknown>[]): LangChainTool[] {
  assertUniqueToolNames("toLangChainTools", tools);
  return tools.map((own) =>
    langChainTool(
      async (input: unknown, config?: ToolRunnableConfig) => {
        const result = await own.execute(input, { signal: config?.signal, toolCallId: config?.toolCall?.id });
        return [result.text, result.data] as [string, unknown];
      },
      { name: own.name, description: own.description, schema: own.inputSchema as unknown as z.ZodObject, responseFormat: "content_and_artifact" },
    ) as LangChainTool,
  );
}
