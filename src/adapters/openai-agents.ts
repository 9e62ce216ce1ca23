// OpenAI Agents SDK adapter. The model sees the tool's text; code reads `data` and `isError` from
// the run item's `customData` (RunToolCallOutputItem), attached by the SDK's customDataExtractor.
import { type FunctionTool, tool as agentTool } from "@openai/agents";
import type { z } from "zod/v4";

import type { Tool, ToolResult } from "../host/tool.js";
import { assertUniqueToolNames } from "./unique-names.js";

/** What each tool-call output item of a run carries as `customData`. */
export interface OpenAIAgentsToolCustomData {
  /** The tool's structured result (as JSON), when it has one. */
  data?: unknown;
  isError: boolean;
}

/** A function tool made by {@link toOpenAIAgentsTools}: zod object parameters, text output. */
export type OpenAIAgentsTool = FunctionTool<unknown, z.ZodObject>;

/**
 * Turns framework-free tools into `@openai/agents` function tools (strict schemas: our optional
 * fields are `.nullish()`). Give them to an `Agent`; read the evidence from `evidenceTools` afterwards.
 * A tool's `needsApproval` becomes the SDK's: the run stops with an interruption, and a call the
 * person approved (`state.approve`) runs with `approved: true`. A call whose signal aborts rejects
 * with the signal's reason once it has stopped (bash: its process group killed), as the SDK expects
 * of its tools; the SDK then records the call as aborted and the run rejects.
 * @example
 * const { tools, evidence } = evidenceTools(["bash"], { cwd: repo });
 * const agent = new Agent({ name: "fixer", instructions, tools: toOpenAIAgentsTools(tools) });
 * await run(agent, "Make the tests pass.");
 */
export function toOpenAIAgentsTools(tools: readonly Tool<unknown, unknown>[]): OpenAIAgentsTool[] {
  assertUniqueToolNames("toOpenAIAgentsTools", tools);
  return tools.map((own) => {
    // execute and customDataExtractor run in turn for the same call id; the map bridges them.
    const pending = new Map<string, ToolResult>();
    const needsApproval = own.needsApproval;
    return agentTool({
      name: own.name,
      description: own.description,
      parameters: own.inputSchema as unknown as z.ZodObject,
      ...(needsApproval === undefined
        ? {}
        : { needsApproval: (_context: unknown, input: unknown) => Promise.resolve(needsApproval(input)) }),
      execute: async (input, context, details) => {
        const callId = details?.toolCall?.callId;
        const signal = details?.signal;
        // Only the SDK's own record says a person approved this call (never the model's input).
        const approved = callId !== undefined && context?.isToolApproved({ toolName: own.name, callId }) === true;
        const result = await own.execute(input, { signal, toolCallId: callId, ...(approved ? { approved } : {}) });
        // The SDK tells an aborted call from a failed one by its error: the signal's reason.
        if (signal?.aborted === true) throw abortReason(signal);
        if (callId !== undefined) pending.set(callId, result);
        return result.text;
      },
      customDataExtractor: ({ toolCall }) => {
        const result = pending.get(toolCall.callId);
        pending.delete(toolCall.callId);
        return result === undefined ? undefined : customDataOf(result);
      },
    });
  });
}

// What the SDK matches an aborted call by (error === signal.reason, or an AbortError).
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error
    ? reason
    : new DOMException(typeof reason === "string" ? reason : "This operation was aborted", "AbortError");
}

// The SDK throws on data that is not plain JSON (undefined fields, class instances), which would
// break the run; a JSON round trip keeps what JSON can carry and drops the rest.
function customDataOf(result: ToolResult): Record<string, unknown> {
  const custom: OpenAIAgentsToolCustomData = { isError: result.isError === true };
  try {
    const json = result.data === undefined ? undefined : JSON.stringify(result.data);
    if (json !== undefined) custom.data = JSON.parse(json) as unknown;
  } catch {
    // Unserialisable data (a cycle, a BigInt) is left out; the text still reached the model.
  }
  return { ...custom };
}
