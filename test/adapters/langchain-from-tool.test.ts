// fromLangChainTool: someone's own bash tool written for LangChain (tool() over child_process,
// printing "Exit code: N" last), wrapped as a framework-free Tool and observed by BashEvidence
// running real pytest; and how its results, errors, schemas and aborts come through.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { ToolMessage } from "@langchain/core/messages";
import { tool as langChainTool, type ToolRunnableConfig } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z as z3 } from "zod/v3";
import { z } from "zod/v4";

import { fromLangChainTool, toLangChainTools } from "../../src/adapters/langchain.js";
import { BashEvidence } from "../../src/observation/bash-evidence.js";
import { makePytestProject, PASSING_TEST, PYTEST_COMMAND } from "./helpers.js";
import { runLangChainLoop, ScriptedChatModel } from "./langchain-loop.js";

const FAILING_COMMAND = "python3 -m pytest -rA -p no:cacheprovider test_bad.py";

// Their bash tool: runs the command with bash in the workspace, output then "Exit code: N".
function createTheirBash(cwd: string) {
  return langChainTool(
    ({ command }: { command: string }) =>
      new Promise<string>((resolve) => {
        const child = spawn("bash", ["-c", command], { cwd });
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
        child.on("close", (code) => resolve(`${out}\nExit code: ${code}`));
      }),
    { name: "bash", description: "Run a bash command in the repository.", schema: z.object({ command: z.string() }) },
  );
}

describe("fromLangChainTool", () => {
  let project: ReturnType<typeof makePytestProject>;
  beforeAll(() => {
    project = makePytestProject();
    writeFileSync(join(project.dir, "test_bad.py"), "def test_bad():\n    assert 1 + 1 == 3\n");
  });
  afterAll(() => project.cleanup());

  it("keeps the tool's name, description and zod 4 schema", () => {
    const theirs = createTheirBash(project.dir);
    const wrapped = fromLangChainTool(theirs);
    expect({ name: wrapped.name, description: wrapped.description }).toEqual({
      name: "bash",
      description: "Run a bash command in the repository.",
    });
    expect(wrapped.inputSchema).toBe(theirs.schema);
  });

  it("wrapped in BashEvidence, their bash runs a real pytest fixture and the target is verified", async () => {
    const bash = new BashEvidence(fromLangChainTool(createTheirBash(project.dir)), { workspace: project.dir });
    const result = await bash.execute({ command: PYTEST_COMMAND });
    expect(result.isError).toBeUndefined();
    expect(result.text).toContain(`PASSED ${PASSING_TEST}`);
    expect(result.text).toMatch(/\nExit code: 0$/);
    expect(bash.verifiedTargets).toEqual(["test_x.py", PASSING_TEST]);
  });

  it("a failing run through their bash is recorded and not verified", async () => {
    const bash = new BashEvidence(fromLangChainTool(createTheirBash(project.dir)), { workspace: project.dir });
    const result = await bash.execute({ command: FAILING_COMMAND });
    expect(result.text).toMatch(/\nExit code: 1$/);
    expect(bash.verifiedTargets).toEqual([]);
    expect(
      bash.verificationRecords.map((r) => ({ target: r.target, exitCode: r.exitCode, verified: r.verified, outcome: r.outcome })),
    ).toEqual([{ target: "test_bad.py", exitCode: 1, verified: false, outcome: "failed" }]);
  });

  it("round trip: their bash, observed, back in a LangChain model/tool loop, verifies the target", async () => {
    const bash = new BashEvidence(fromLangChainTool(createTheirBash(project.dir)), { workspace: project.dir });
    const model = new ScriptedChatModel([[{ name: "bash", args: { command: PYTEST_COMMAND } }]]);
    const messages = await runLangChainLoop(model, toLangChainTools([bash]));
    expect(messages.filter((m) => ToolMessage.isInstance(m)).map((m) => (m as ToolMessage).status)).toEqual(["success"]);
    expect(bash.verifiedTargets).toContain(PASSING_TEST);
  });

  it.each([
    {
      name: "a content_and_artifact tuple: text from the content, data from the artifact",
      make: () =>
        langChainTool(() => ["3 files", { count: 3 }], {
          name: "count",
          description: "c",
          schema: z.object({}),
          responseFormat: "content_and_artifact",
        }),
      result: { text: "3 files", data: { count: 3 } },
    },
    {
      name: "a ToolMessage of status error: isError",
      make: () =>
        langChainTool(
          (_input: unknown, config: ToolRunnableConfig) =>
            new ToolMessage({ status: "error", content: "no such file", tool_call_id: config.toolCall?.id ?? "" }),
          { name: "read", description: "r", schema: z.object({}) },
        ),
      result: { text: "no such file", isError: true },
    },
    {
      name: "a throw: an error result naming the tool, never a throw",
      make: () => langChainTool(() => Promise.reject(new Error("disk on fire")), { name: "boom", description: "b", schema: z.object({}) }),
      result: { text: "Error: boom failed: disk on fire", isError: true },
    },
    {
      name: "content blocks: their text",
      make: () =>
        langChainTool(
          () => [
            { type: "text", text: "line one" },
            { type: "text", text: "line two" },
          ],
          { name: "blocks", description: "b", schema: z.object({}) },
        ),
      result: { text: "line one\nline two" },
    },
  ])("$name", async ({ make, result }) => {
    expect(await fromLangChainTool(make()).execute({})).toEqual(result);
  });

  it("input that fails a zod 4 schema is an error result, and their tool never runs", async () => {
    let ran = false;
    const theirs = langChainTool(
      () => {
        ran = true;
        return "ran";
      },
      { name: "bash", description: "b", schema: z.object({ command: z.string() }) },
    );
    const result = await fromLangChainTool(theirs).execute({ command: 5 } as never);
    expect(result).toEqual({ text: expect.stringMatching(/^Error: invalid input for bash: command: /) as string, isError: true });
    expect(ran).toBe(false);
  });

  it.each([
    { name: "JSON schema", schema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } },
    { name: "zod 3", schema: z3.object({ command: z3.string() }) },
  ])("a $name schema becomes a permissive object schema; LangChain still checks the original", async ({ schema }) => {
    const theirs = langChainTool((input: unknown) => `got ${JSON.stringify(input)}`, {
      name: "run",
      description: "r",
      schema: schema as never,
    });
    const wrapped = fromLangChainTool(theirs);
    expect(wrapped.inputSchema.safeParse({ anything: 1 }).success).toBe(true);
    expect(wrapped.inputSchema.safeParse("not an object").success).toBe(false);
    expect(await wrapped.execute({ command: "ls" })).toEqual({ text: 'got {"command":"ls"}' });
    expect(await wrapped.execute({ command: 5 })).toEqual({
      text: expect.stringMatching(/^Error: run failed: Received tool input did not match expected schema/) as string,
      isError: true,
    });
  });

  it("an aborted signal rejects with LangChain's abort error (the signal's reason)", async () => {
    const wrapped = fromLangChainTool(createTheirBash(project.dir));
    const controller = new AbortController();
    const call = wrapped.execute({ command: "sleep 5" }, { signal: controller.signal }).then(
      () => "resolved",
      (error: unknown) => error,
    );
    setTimeout(() => controller.abort(), 100);
    const rejection = await call;
    expect(rejection).toBe(controller.signal.reason);
    expect(rejection).toMatchObject({ name: "AbortError" });
  });
});
