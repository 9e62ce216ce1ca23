// The AI SDK's own tool loop (generateText with a scripted mock model) driving our tools.
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { toAiSdkTools } from "../../src/adapters/ai-sdk.js";
import type { Tool } from "../../src/host/tool.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { createByteCountTool, createFailingListTool, makePytestProject, PASSING_TEST, PYTEST_COMMAND } from "./helpers.js";

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

// Step 1 calls one tool, step 2 answers with text: the SDK runs the tool in between.
function scriptedModel(toolName: string, input: unknown): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: [
      {
        content: [{ type: "tool-call", toolCallId: "call-1", toolName, input: JSON.stringify(input) }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      },
      { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] },
    ],
  });
}

// What the model was sent as the tool's result in its second call.
function toolOutputSeenByModel(model: MockLanguageModelV3): unknown {
  const second = model.doGenerateCalls[1];
  const toolMessage = second?.prompt.find((message) => message.role === "tool");
  const part = toolMessage?.content.find((item) => item.type === "tool-result");
  return part?.output;
}

describe("agent-evidence/ai-sdk", () => {
  let project: ReturnType<typeof makePytestProject>;
  beforeAll(() => {
    project = makePytestProject();
  });
  afterAll(() => project.cleanup());

  it("runs a real pytest fixture through bash in generateText's loop and the ledger verifies it", async () => {
    const { tools, evidence } = evidenceTools(["bash"], { cwd: project.dir, headless: false });
    const model = scriptedModel("bash", { command: PYTEST_COMMAND });
    const result = await generateText({ model, tools: toAiSdkTools(tools), stopWhen: stepCountIs(3), prompt: "Run the tests." });

    expect(result.text).toBe("done");
    const seen = toolOutputSeenByModel(model) as { type: string; value: string };
    expect(seen.type).toBe("text");
    expect(seen.value).toContain(`PASSED ${PASSING_TEST}`);
    const toolResult = result.steps[0]?.toolResults[0];
    expect(toolResult?.output).toMatchObject({ data: { status: "completed", exitCode: 0 } });
    expect(evidence.verifiedTargets).toContain(PASSING_TEST);
  });

  it.each<{ name: string; tool: () => Tool<unknown, unknown>; input: unknown; seen: { type: string; value: string }; data: unknown }>([
    {
      name: "a result's data stays in the result object; the model sees the text",
      tool: createByteCountTool,
      input: { text: "hello" },
      seen: { type: "text", value: "5 bytes" },
      data: { bytes: 5 },
    },
    {
      name: "an error result reaches the model as error text",
      tool: createFailingListTool,
      input: { path: "/no/such/dir" },
      seen: { type: "error-text", value: "Error: ls exited 2" },
      data: { exitCode: 2 },
    },
  ])("$name", async ({ tool, input, seen, data }) => {
    const own = tool();
    const model = scriptedModel(own.name, input);
    const result = await generateText({ model, tools: toAiSdkTools([own]), stopWhen: stepCountIs(3), prompt: "Go." });

    const output = toolOutputSeenByModel(model) as { type: string; value: string };
    expect(output.type).toBe(seen.type);
    expect(output.value.startsWith(seen.value)).toBe(true);
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({ data });
    expect(result.text).toBe("done");
  });
});
