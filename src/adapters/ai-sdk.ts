// Vercel AI SDK 6 adapter. The model sees the tool's text (as error text when the call failed); code
// reads the whole result object, `data` included, from the step's tool results.
import { tool as aiTool, type ToolSet } from "ai";
import type { Tool, ToolResult } from "../tools/tool.js";
import { assertUniqueToolNames } from "./unique-names.js";

/**
 * Turns framework-free tools into an AI SDK 6 `ToolSet` keyed by tool name. Each tool's `execute`
 * returns our `{ text, data?, isError? }`; `toModelOutput` sends only `text` to the model.
 * @example
 * const { tools, evidence } = evidenceTools(["bash", "file_read"], { cwd: repo });
 * await generateText({ model, tools: toAiSdkTools(tools), stopWhen: stepCountIs(20), prompt });
 * evidence.verifiedTargets;
 */
export function toAiSdkTools(tools: readonly Tool<unknown, unknown>[]): ToolSet {
  assertUniqueToolNames("toAiSdkTools", tools);
  const set: ToolSet = {};
  for (const own of tools) {
    set[own.name] = aiTool<unknown, ToolResult>({
      description: own.description,
      inputSchema: own.inputSchema,
      execute: (input, { abortSignal, toolCallId }) => own.execute(input, { signal: abortSignal, toolCallId }),
      toModelOutput: ({ output }) => (output.isError === true ? { type: "error-text", value: output.text } : { type: "text", value: output.text }),
    });
  }
  return set;
}
