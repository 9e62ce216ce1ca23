// LangChain adapter. `content_and_artifact`: the ToolMessage's content is the tool's text (what the
// model sees) and its artifact the structured `data` (what code reads), kept out of the prompt.
import { ToolMessage } from "@langchain/core/messages";
import { DynamicStructuredTool, type StructuredToolCallInput, type ToolReturnType, type ToolRunnableConfig } from "@langchain/core/tools";
import type { z } from "zod/v4";

import { invalidInputResult, type Tool, type ToolResult } from "../host/tool.js";
import { assertUniqueToolNames } from "./unique-names.js";

export { fromLangChainTool } from "./from-langchain.js";

/** A tool made by {@link toLangChainTools}: zod object input, `[text, data]` output. */
export type LangChainTool = DynamicStructuredTool<z.ZodObject>;

/**
 * Turns framework-free tools into LangChain structured tools with `responseFormat: "content_and_artifact"`.
 * Invoked with a tool call they return a `ToolMessage` (content: the text, artifact: the data,
 * status: "error" for an error result, else "success"); invoked with plain arguments, the text.
 * Input that fails the schema is an error result too, never a throw. An aborted `config.signal`
 * rejects, as LangChain's own tools do, once the call has stopped (bash: its process group killed).
 * @example
 * const { tools, evidence } = evidenceTools(["bash"], { cwd: repo });
 * const model = chatModel.bindTools(toLangChainTools(tools));
 */
export function toLangChainTools(tools: readonly Tool<unknown, unknown>[]): LangChainTool[] {
  assertUniqueToolNames("toLangChainTools", tools);
  return tools.map((own) => new EvidenceLangChainTool(own));
}

type CallInput = StructuredToolCallInput<z.ZodObject>;

// A DynamicStructuredTool that advertises the tool's real schema (bindTools and convertToOpenAITool
// read `schema`) but answers schema-invalid input with an error message: StructuredTool.call would
// throw ToolInputParsingException into the agent loop. It also builds the ToolMessage itself,
// because LangChain's formatter marks every message status "success".
class EvidenceLangChainTool extends DynamicStructuredTool<z.ZodObject> {
  readonly #own: Tool<unknown, unknown>;

  constructor(own: Tool<unknown, unknown>) {
    super({
      name: own.name,
      description: own.description,
      schema: own.inputSchema as unknown as z.ZodObject,
      responseFormat: "content_and_artifact",
      func: (input: unknown, _runManager, config?: ToolRunnableConfig) => this.#run(input, config),
    });
    this.#own = own;
  }

  override async call<TArg extends CallInput, TConfig extends ToolRunnableConfig | undefined>(
    arg: TArg,
    configArg?: TConfig,
    tags?: string[],
  ): Promise<ToolReturnType<NonNullable<TArg>, TConfig, unknown>> {
    // The deprecated call(toolCall) form: the way invoke passes it, so the ToolMessage gets its id.
    if (isToolCall(arg)) return this.invoke(arg, configArg) as Promise<ToolReturnType<NonNullable<TArg>, TConfig, unknown>>;
    const parsed = this.#own.inputSchema.safeParse(arg);
    if (!parsed.success) {
      const result = invalidInputResult(this.#own.name, parsed.error);
      return this.#format(result, configArg?.toolCall?.id) as ToolReturnType<NonNullable<TArg>, TConfig, unknown>;
    }
    return super.call(arg, configArg, tags) as Promise<ToolReturnType<NonNullable<TArg>, TConfig, unknown>>;
  }

  async #run(input: unknown, config: ToolRunnableConfig | undefined): Promise<[unknown, unknown]> {
    const signal = config?.signal;
    const result = await this.#own.execute(input, { signal, toolCallId: config?.toolCall?.id });
    // The command has stopped (bash killed its group); now reject the way LangChain's tools do.
    if (signal?.aborted === true) throw abortSignalError(signal);
    // The content half of the tuple may be a ready ToolMessage: LangChain returns it as it is.
    return [this.#format(result, config?.toolCall?.id), result.data];
  }

  #format(result: ToolResult, toolCallId: string | undefined): string | ToolMessage {
    if (toolCallId === undefined) return result.text;
    return new ToolMessage({
      status: result.isError === true ? "error" : "success",
      content: result.text,
      artifact: result.data,
      tool_call_id: toolCallId,
      name: this.name,
      metadata: this.metadata,
    });
  }
}

// LangChain's own test (_isToolCall, not exported): an object whose type is "tool_call".
function isToolCall(value: unknown): value is { type: "tool_call"; id?: string; args: unknown } {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "tool_call";
}

// @langchain/core's getAbortSignalError (not a public export): the reason when it is an Error (the
// default AbortError DOMException), else an Error of the reason's text, else Error("Aborted").
function abortSignalError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new Error(typeof reason === "string" ? reason : "Aborted");
}
