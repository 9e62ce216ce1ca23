// A LangChain chat model that answers from a script (no network) and the model/tool loop of
// docs/adapters.md, so the LangChain tests drive tools the way an agent executor does.
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import { BaseChatModel, type BaseChatModelCallOptions, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import { AIMessage, type AIMessageChunk, type BaseMessage, HumanMessage, type ToolMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";

interface ScriptedCallOptions extends BaseChatModelCallOptions {
  tools?: unknown[];
}

/** One scripted turn: the tool calls the model makes (none: a final answer). */
export type ScriptedTurn = { name: string; args: unknown }[];

/** Replies turn by turn from its script; keeps each request's messages and the tools bindTools sent. */
export class ScriptedChatModel extends BaseChatModel<ScriptedCallOptions> {
  readonly requests: { messages: BaseMessage[]; tools: unknown[] | undefined }[] = [];
  readonly #script: ScriptedTurn[];

  constructor(script: ScriptedTurn[]) {
    super({});
    this.#script = script;
  }

  _llmType(): string {
    return "scripted";
  }

  // What a provider's bindTools does (ChatOpenAI): each tool converted with convertToOpenAITool.
  override bindTools(tools: BindToolsInput[]): Runnable<BaseLanguageModelInput, AIMessageChunk, ScriptedCallOptions> {
    return this.withConfig({ tools: tools.map((t) => convertToOpenAITool(t)) });
  }

  _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    this.requests.push({ messages: [...messages], tools: options.tools });
    const turn = this.requests.length - 1;
    const calls = this.#script[turn];
    const message =
      calls === undefined || calls.length === 0
        ? new AIMessage("done")
        : new AIMessage({
            content: "",
            tool_calls: calls.map((call, i) => ({
              type: "tool_call",
              id: `call-${turn}-${i}`,
              name: call.name,
              args: call.args as Record<string, unknown>,
            })),
          });
    return Promise.resolve({ generations: [{ text: typeof message.content === "string" ? message.content : "", message }] });
  }
}

/** The loop of docs/adapters.md: model, then each tool call through `tool.invoke(call)`, until a turn without calls. */
export async function runLangChainLoop(
  model: ScriptedChatModel,
  tools: readonly StructuredToolInterface[],
  options: { signal?: AbortSignal } = {},
): Promise<BaseMessage[]> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const bound = model.bindTools([...tools]);
  const messages: BaseMessage[] = [new HumanMessage("Run the tests.")];
  for (let turn = 0; turn < 10; turn++) {
    const reply = await bound.invoke(messages, { signal: options.signal });
    messages.push(reply);
    if (reply.tool_calls === undefined || reply.tool_calls.length === 0) break;
    for (const call of reply.tool_calls) {
      const tool = byName.get(call.name);
      if (tool === undefined) throw new Error(`the script called an unknown tool ${call.name}`);
      messages.push((await tool.invoke(call, { signal: options.signal })) as ToolMessage);
    }
  }
  return messages;
}
