// LangChain tools invoked the way an agent executor invokes them: with a tool call (-> ToolMessage
// with content, artifact and status) and with plain arguments (-> the content), and in the
// model/tool loop of docs/adapters.md with a scripted chat model bound to them.
import { ToolMessage } from "@langchain/core/messages";
import { tool as langChainTool, ToolInputParsingException } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod/v4";

import { toLangChainTools } from "../../src/adapters/langchain.js";
import type { Tool } from "../../src/host/tool.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { createByteCountTool, createFailingListTool, makePytestProject, PASSING_TEST, PYTEST_COMMAND } from "./helpers.js";
import { runLangChainLoop, ScriptedChatModel } from "./langchain-loop.js";

describe("agent-evidence/langchain", () => {
  let project: ReturnType<typeof makePytestProject>;
  beforeAll(() => {
    project = makePytestProject();
  });
  afterAll(() => project.cleanup());

  it("runs a real pytest fixture through bash from a tool call: content is the text, artifact the data", async () => {
    const { tools, evidence } = evidenceTools(["bash"], { cwd: project.dir, headless: false });
    const [bash] = toLangChainTools(tools);
    const message: unknown = await bash?.invoke({ type: "tool_call", id: "call-1", name: "bash", args: { command: PYTEST_COMMAND } });

    expect(message).toBeInstanceOf(ToolMessage);
    const tm = message as ToolMessage;
    expect(tm.tool_call_id).toBe("call-1");
    expect(tm.status).toBe("success");
    expect(tm.content).toContain(`PASSED ${PASSING_TEST}`);
    expect(tm.artifact).toMatchObject({ status: "completed", exitCode: 0 });
    expect(evidence.verifiedTargets).toContain(PASSING_TEST);
  });

  it.each<{ name: string; tool: () => Tool<unknown, unknown>; args: unknown; content: string; artifact: unknown; status: string }>([
    {
      name: "data becomes the artifact, status success",
      tool: createByteCountTool,
      args: { text: "hello" },
      content: "5 bytes",
      artifact: { bytes: 5 },
      status: "success",
    },
    {
      name: "an error result is a ToolMessage of status error the model reads, never a throw",
      tool: createFailingListTool,
      args: { path: "/no/such/dir" },
      content: "Error: ls exited 2",
      artifact: { exitCode: 2 },
      status: "error",
    },
  ])("$name", async ({ tool, args, content, artifact, status }) => {
    const [own] = toLangChainTools([tool()]);
    const message = (await own?.invoke({ type: "tool_call", id: "call-2", name: tool().name, args })) as ToolMessage;
    expect(message).toBeInstanceOf(ToolMessage);
    expect({ status: message.status, id: message.tool_call_id, name: message.name }).toEqual({ status, id: "call-2", name: tool().name });
    expect(typeof message.content === "string" && message.content.startsWith(content)).toBe(true);
    expect(message.artifact).toEqual(artifact);

    const plain: unknown = await own?.invoke(args as never);
    expect(plain).toBe(message.content);
  });

  it("in the model/tool loop each ToolMessage says success or error, and the model reads both texts", async () => {
    const model = new ScriptedChatModel([
      [
        { name: "byte_count", args: { text: "hello" } },
        { name: "list_dir", args: { path: "/no/such/dir" } },
      ],
    ]);
    const messages = await runLangChainLoop(model, toLangChainTools([createByteCountTool(), createFailingListTool()]));
    const toolMessages = messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(toolMessages.map((m) => [m.name, m.status, m.tool_call_id])).toEqual([
      ["byte_count", "success", "call-0-0"],
      ["list_dir", "error", "call-0-1"],
    ]);
    const seen = model.requests[1]?.messages.filter((m) => ToolMessage.isInstance(m)).map((m) => m.text);
    expect(seen?.[0]).toBe("5 bytes");
    expect(seen?.[1]).toMatch(/^Error: ls exited 2/);
  });

  it("schema-invalid input from a tool call is an error ToolMessage saying what is wrong, where LangChain's own tool throws", async () => {
    const { tools } = evidenceTools(["bash"], { cwd: project.dir, headless: false });
    const [bash] = toLangChainTools(tools);
    const call = { type: "tool_call" as const, id: "call-bad", name: "bash", args: { command: 42 } };
    const message = (await bash?.invoke(call)) as ToolMessage;
    expect(message).toBeInstanceOf(ToolMessage);
    expect({ status: message.status, id: message.tool_call_id, artifact: message.artifact as unknown }).toEqual({
      status: "error",
      id: "call-bad",
      artifact: undefined,
    });
    expect(message.content).toMatch(/^Error: invalid input for bash: command: /);

    // The same call to a tool made with LangChain's tool() and the same schema rejects.
    const theirs = langChainTool(() => "ran", { name: "bash", description: "bash", schema: z.object({ command: z.string().min(1) }) });
    await expect(theirs.invoke(call)).rejects.toBeInstanceOf(ToolInputParsingException);
  });

  it.each([
    { name: "a wrong type", args: { command: 42 }, problem: "command: " },
    { name: "a missing field", args: {}, problem: "command: " },
    { name: "an empty command", args: { command: "" }, problem: "command: " },
  ])("schema-invalid plain arguments ($name) return the error text", async ({ args, problem }) => {
    const { tools } = evidenceTools(["bash"], { cwd: project.dir, headless: false });
    const [bash] = toLangChainTools(tools);
    const text: unknown = await bash?.invoke(args as never);
    expect(text).toEqual(expect.stringMatching(new RegExp(`^Error: invalid input for bash: ${problem}`)));
  });

  it("schema-invalid input in the loop reaches the model as an error message and the loop goes on", async () => {
    const { tools, evidence } = evidenceTools(["bash"], { cwd: project.dir, headless: false });
    const model = new ScriptedChatModel([
      [{ name: "bash", args: { cmd: PYTEST_COMMAND } }],
      [{ name: "bash", args: { command: PYTEST_COMMAND } }],
    ]);
    const messages = await runLangChainLoop(model, toLangChainTools(tools));
    const toolMessages = messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(toolMessages.map((m) => m.status)).toEqual(["error", "success"]);
    expect(toolMessages[0]?.content).toMatch(/^Error: invalid input for bash: command: /);
    expect(messages.at(-1)?.content).toBe("done");
    expect(evidence.verifiedTargets).toContain(PASSING_TEST);
  });

  it("bindTools sends each tool's real JSON schema (not a permissive one)", async () => {
    const { tools } = evidenceTools(["bash"], { cwd: project.dir, headless: false });
    const model = new ScriptedChatModel([]);
    await runLangChainLoop(model, toLangChainTools(tools));
    expect(model.requests[0]?.tools).toMatchObject([
      {
        type: "function",
        function: {
          name: "bash",
          parameters: {
            type: "object",
            required: ["command"],
            additionalProperties: false,
            properties: {
              command: { type: "string", minLength: 1 },
              timeoutMs: { anyOf: [{ type: "integer", maximum: 2_147_483_647 }, { type: "null" }] },
            },
          },
        },
      },
    ]);
  });

  it("evidence_status converts and, invoked after a bash run in the loop, reports the verified target", async () => {
    const { tools, evidence } = evidenceTools(["bash", "evidence_status"], { cwd: project.dir, headless: false });
    const model = new ScriptedChatModel([[{ name: "bash", args: { command: PYTEST_COMMAND } }], [{ name: "evidence_status", args: {} }]]);
    const messages = await runLangChainLoop(model, toLangChainTools(tools));
    const status = messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m) && m.name === "evidence_status")[0];
    expect(status?.status).toBe("success");
    expect(status?.content).toContain(`Verified targets (2): test_x.py, ${PASSING_TEST}`);
    expect(status?.artifact).toMatchObject({
      verifiedTargets: evidence.verifiedTargets,
      verificationRecords: [{ target: "test_x.py", verified: true }],
    });
    expect(model.requests[0]?.tools).toMatchObject([
      { function: { name: "bash" } },
      { function: { name: "evidence_status", parameters: { type: "object", properties: {} } } },
    ]);
  });

  it("keeps each tool's name, description and schema", () => {
    const { tools } = evidenceTools(["bash", "file_read", "grep"], { cwd: project.dir, headless: false });
    const converted = toLangChainTools(tools);
    expect(converted.map((t) => [t.name, t.description, t.schema])).toEqual(tools.map((t) => [t.name, t.description, t.inputSchema]));
    expect(converted.map((t) => t.responseFormat)).toEqual(["content_and_artifact", "content_and_artifact", "content_and_artifact"]);
  });
});
