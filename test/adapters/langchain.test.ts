// LangChain tools invoked the way an agent executor invokes them: with a tool call (-> ToolMessage
// with content and artifact) and with plain arguments (-> the content).
import { ToolMessage } from "@langchain/core/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toLangChainTools } from "../../src/adapters/langchain.js";
import { evidenceTools } from "../../src/tools/evidence-tools.js";
import type { Tool } from "../../src/tools/tool.js";
import { createByteCountTool, createFailingListTool, makePytestProject, PASSING_TEST, PYTEST_COMMAND } from "./helpers.js";

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
    expect(tm.content).toContain(`PASSED ${PASSING_TEST}`);
    expect(tm.artifact).toMatchObject({ status: "completed", exitCode: 0 });
    expect(evidence.verifiedTargets).toContain(PASSING_TEST);
  });

  it.each<{ name: string; tool: () => Tool<unknown, unknown>; args: unknown; content: string; artifact: unknown }>([
    { name: "data becomes the artifact", tool: createByteCountTool, args: { text: "hello" }, content: "5 bytes", artifact: { bytes: 5 } },
    { name: "an error result is content the model reads, never a throw", tool: createFailingListTool, args: { path: "/no/such/dir" }, content: "Error: ls exited 2", artifact: { exitCode: 2 } },
  ])("$name", async ({ tool, args, content, artifact }) => {
    const [own] = toLangChainTools([tool()]);
    const message = (await own?.invoke({ type: "tool_call", id: "call-2", name: tool().name, args })) as ToolMessage;
    expect(typeof message.content === "string" && message.content.startsWith(content)).toBe(true);
    expect(message.artifact).toEqual(artifact);

    const plain: unknown = await own?.invoke(args as never);
    expect(plain).toBe(message.content);
  });

  it("keeps each tool's name, description and schema", () => {
    const { tools } = evidenceTools(["bash", "file_read", "grep"], { cwd: project.dir, headless: false });
    const converted = toLangChainTools(tools);
    expect(converted.map((t) => [t.name, t.description, t.schema])).toEqual(tools.map((t) => [t.name, t.description, t.inputSchema]));
    expect(converted.map((t) => t.responseFormat)).toEqual(["content_and_artifact", "content_and_artifact", "content_and_artifact"]);
  });
});
