// The OpenAI Agents SDK's own Runner loop, with a scripted Model (no network), driving our tools.
import { Agent, Runner, setTracingDisabled } from "@openai/agents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { toOpenAIAgentsTools } from "../../src/adapters/openai-agents.js";
import type { Tool } from "../../src/host/tool.js";
import { EVIDENCE_TOOL_NAMES, evidenceTools } from "../../src/observation/evidence-tools.js";
import { createByteCountTool, createFailingListTool, makePytestProject, PASSING_TEST, PYTEST_COMMAND } from "./helpers.js";
import { ScriptedModel, type ScriptedTurn, toolOutputsSeenByModel } from "./openai-agents-model.js";

setTracingDisabled(true);

// The tool output the Runner sent to the model in its second request.
function toolOutputSeenByModel(model: ScriptedModel): unknown {
  return toolOutputsSeenByModel(model, 1)[0];
}

async function runAgent(tools: readonly Tool<unknown, unknown>[], toolName: string, input: unknown, more: ScriptedTurn[] = []) {
  const model = new ScriptedModel([[{ name: toolName, input }], ...more]);
  const agent = new Agent({ name: "tester", instructions: "Use the tools.", model, tools: toOpenAIAgentsTools(tools) });
  const result = await new Runner({ tracingDisabled: true }).run(agent, "Go.");
  const outputs = result.newItems.filter((item) => item.type === "tool_call_output_item");
  return { model, result, customData: outputs.map((item) => (item as { customData?: unknown }).customData) };
}

describe("agent-evidence/openai-agents", () => {
  let project: ReturnType<typeof makePytestProject>;
  beforeAll(() => {
    project = makePytestProject();
  });
  afterAll(() => project.cleanup());

  it("runs a real pytest fixture through bash in the Runner's loop and the ledger verifies it", async () => {
    const { tools, evidence } = evidenceTools(["bash"], { cwd: project.dir, headless: false });
    const { model, result, customData } = await runAgent(tools, "bash", { command: PYTEST_COMMAND, timeoutMs: null });

    expect(result.finalOutput).toBe("done");
    expect(JSON.stringify(toolOutputSeenByModel(model))).toContain(`PASSED ${PASSING_TEST}`);
    expect(customData).toMatchObject([{ isError: false, data: { status: "completed", exitCode: 0 } }]);
    expect(evidence.verifiedTargets).toContain(PASSING_TEST);
  });

  it.each<{ name: string; tool: () => Tool<unknown, unknown>; input: unknown; seen: string; custom: unknown }>([
    {
      name: "a result's data goes to customData; the model sees the text",
      tool: createByteCountTool,
      input: { text: "hello" },
      seen: "5 bytes",
      custom: { isError: false, data: { bytes: 5 } },
    },
    {
      name: "an error result reaches the model as text and is flagged in customData",
      tool: createFailingListTool,
      input: { path: "/no/such/dir" },
      seen: "Error: ls exited 2",
      custom: { isError: true, data: { exitCode: 2 } },
    },
  ])("$name", async ({ tool, input, seen, custom }) => {
    const { model, result, customData } = await runAgent([tool()], tool().name, input);

    expect(JSON.stringify(toolOutputSeenByModel(model))).toContain(seen);
    expect(customData).toEqual([custom]);
    expect(result.finalOutput).toBe("done");
  });

  it("evidence_status, called after a bash run in the Runner's loop, reports the verified target", async () => {
    const { tools, evidence } = evidenceTools(["bash", "evidence_status"], { cwd: project.dir, headless: false });
    const { model, customData } = await runAgent(tools, "bash", { command: PYTEST_COMMAND, timeoutMs: null }, [
      [{ name: "evidence_status", input: {} }],
    ]);

    expect(JSON.stringify(toolOutputsSeenByModel(model, 2))).toContain(`Verified targets (2): test_x.py, ${PASSING_TEST}`);
    expect(customData[1]).toMatchObject({
      isError: false,
      data: { verifiedTargets: evidence.verifiedTargets, verificationRecords: [{ target: "test_x.py", verified: true }] },
    });
  });

  it("sends bash's schema in strict form: the optional timeout is required and nullable", () => {
    const [bash] = toOpenAIAgentsTools(evidenceTools(["bash"], { cwd: project.dir, headless: false }).tools);
    expect(bash?.parameters).toMatchObject({
      type: "object",
      required: ["command", "timeoutMs"],
      additionalProperties: false,
      properties: { timeoutMs: { anyOf: [{ type: "integer" }, { type: "null" }] } },
    });
  });

  it.each(EVIDENCE_TOOL_NAMES)("%s converts in strict mode: every property required, no extra properties", (name) => {
    const [converted] = toOpenAIAgentsTools(evidenceTools([name], { cwd: project.dir, headless: false }).tools);
    const parameters = converted?.parameters as { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean };
    expect(converted?.strict).toBe(true);
    expect(parameters.additionalProperties).toBe(false);
    expect([...parameters.required].sort()).toEqual(Object.keys(parameters.properties).sort());
  });
});
