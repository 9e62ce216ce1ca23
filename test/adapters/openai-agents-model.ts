// A Model for the OpenAI Agents SDK's own Runner loop that answers from a script (no network): each
// turn's function calls, then a final message. It keeps every request so a test can read what the
// Runner sent back as each tool's output.
import { type Model, type ModelRequest, type ModelResponse, type StreamEvent, Usage } from "@openai/agents";

/** One scripted turn: the function calls the model makes. */
export type ScriptedTurn = { name: string; input: unknown }[];

export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  readonly #script: ModelResponse[];

  constructor(turns: ScriptedTurn[]) {
    this.#script = [
      ...turns.map((calls, turn) => ({
        usage: new Usage(),
        output: calls.map((call, i) => ({
          type: "function_call" as const,
          callId: `call-${turn}-${i}`,
          name: call.name,
          arguments: JSON.stringify(call.input),
          status: "completed" as const,
        })),
      })),
      {
        usage: new Usage(),
        output: [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "done" }] }],
      },
    ];
  }

  getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const next = this.#script[this.requests.length - 1];
    return next === undefined ? Promise.reject(new Error("the script has no more responses")) : Promise.resolve(next);
  }

  // The Runner streams only when asked to (run(..., { stream: true })); these tests never do.
  getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error("ScriptedModel does not stream");
  }
}

/** The outputs of the function calls the Runner sent to the model in its request number `index`. */
export function toolOutputsSeenByModel(model: ScriptedModel, index: number): unknown[] {
  const input = model.requests[index]?.input;
  return Array.isArray(input)
    ? input.filter((entry) => entry.type === "function_call_result").map((item) => (item as { output: unknown }).output)
    : [];
}
