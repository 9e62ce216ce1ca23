// The AI SDK's conventions, each through generateText's own loop with a scripted model: an abort
// rejects with the SDK's AbortError (the bash process group killed), needsApproval goes through the
// SDK's approval flow, evidence_status works as any tool, and a tool written for the SDK can be observed.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

import { generateText, type ModelMessage, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod/v4";

import { fromAiSdkTool, toAiSdkTools } from "../../src/adapters/ai-sdk.js";
import { BashEvidence } from "../../src/observation/bash-evidence.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import type { ConfirmRequest } from "../../src/tools/bash.js";
import { git as fixtureGit } from "../support/git.js";
import { makeTempDir } from "../support/temp-dir.js";
import { gone, waitFor } from "./abort-fixture.js";
import { PASSING_TEST, PYTEST_COMMAND } from "./helpers.js";

const run = promisify(execFile);
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const toolCallStep = (toolName: string, input: unknown, toolCallId = "call-1") => ({
  content: [{ type: "tool-call" as const, toolCallId, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
  usage,
  warnings: [],
});
const textStep = {
  content: [{ type: "text" as const, text: "done" }],
  finishReason: { unified: "stop" as const, raw: "stop" },
  usage,
  warnings: [],
};

describe("AI SDK conventions through generateText", () => {
  let project: ReturnType<typeof makeTempDir>;
  beforeEach(() => {
    project = makeTempDir("ae-ai-sdk-");
    writeFileSync(join(project.dir, "test_x.py"), "def test_ok():\n    assert 1 + 1 == 2\n");
  });
  afterEach(() => project.cleanup());

  // A background sleep whose pid the test reads, then the line waits on it: aborting must kill the group.
  const LONG = "sleep 60 & echo $! > sleeper.pid; wait";

  it.each([
    { steps: 3, expectation: "generateText rejects with the AbortError" },
    { steps: 1, expectation: "the last step's tool part is a tool-error carrying the AbortError, not a normal result" },
  ])("an abort during a bash call: $expectation, and the process group is killed", async ({ steps }) => {
    const { tools, evidence } = evidenceTools(["bash"], { cwd: project.dir, sandbox: false });
    const controller = new AbortController();
    const pidFile = join(project.dir, "sleeper.pid");
    const model = new MockLanguageModelV3({ doGenerate: [toolCallStep("bash", { command: LONG }), textStep] });
    const call = generateText({
      model,
      tools: toAiSdkTools(tools),
      stopWhen: stepCountIs(steps),
      prompt: "Go.",
      abortSignal: controller.signal,
    });
    expect(await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", 30_000)).toBe(true);
    const sleeper = Number(readFileSync(pidFile, "utf8").trim());
    expect(gone(sleeper)).toBe(false);
    controller.abort();
    if (steps > 1) {
      await expect(call).rejects.toMatchObject({ name: "AbortError" });
    } else {
      const result = await call;
      const part = result.steps[0]?.content.find((item) => item.type === "tool-error" || item.type === "tool-result");
      expect(part?.type).toBe("tool-error");
      expect((part as { error?: { name?: string } } | undefined)?.error?.name).toBe("AbortError");
    }
    expect(await waitFor(() => gone(sleeper), 30_000)).toBe(true);
    expect(evidence.verifiedTargets).toEqual([]);
  });

  describe("needsApproval: the bash confirm policy asks through the SDK's approval flow", () => {
    let repo: string;
    beforeEach(() => {
      repo = project.dir;
      const git = (...args: string[]) => fixtureGit(repo, ...args);
      git("init", "-q");
      git("add", ".");
      git("commit", "-qm", "base");
      writeFileSync(join(repo, "test_x.py"), "def test_ok():\n    assert False\n");
    });
    const modified = () => readFileSync(join(repo, "test_x.py"), "utf8").includes("assert False");
    const RESET = "git reset -q --hard";

    async function requestApproval(confirm: "framework" | ((request: ConfirmRequest) => boolean)) {
      const { tools } = evidenceTools(["bash"], { cwd: repo, sandbox: false, confirm });
      const aiTools = toAiSdkTools(tools);
      const first = new MockLanguageModelV3({ doGenerate: [toolCallStep("bash", { command: RESET }), textStep] });
      const asked = await generateText({ model: first, tools: aiTools, stopWhen: stepCountIs(3), prompt: "Reset the tree." });
      const request = asked.content.find((part) => part.type === "tool-approval-request");
      return { aiTools, asked, request };
    }

    async function answer(
      aiTools: ReturnType<typeof toAiSdkTools>,
      asked: Awaited<ReturnType<typeof requestApproval>>["asked"],
      approvalId: string,
      approved: boolean,
    ) {
      const messages: ModelMessage[] = [
        { role: "user", content: "Reset the tree." },
        ...asked.response.messages,
        { role: "tool", content: [{ type: "tool-approval-response", approvalId, approved }] },
      ];
      const next = new MockLanguageModelV3({ doGenerate: [textStep] });
      const result = await generateText({ model: next, tools: aiTools, stopWhen: stepCountIs(3), messages });
      return { result, next };
    }

    it("a risky command waits for approval and runs once approved, without asking again", async () => {
      const { aiTools, asked, request } = await requestApproval("framework");
      expect(request?.type).toBe("tool-approval-request");
      expect(modified()).toBe(true);
      const { result } = await answer(aiTools, asked, (request as { approvalId: string }).approvalId, true);
      expect(modified()).toBe(false);
      const output = result.steps[0]?.content;
      expect(JSON.stringify(output ?? result.response.messages)).not.toContain("not approved");
    });

    it("a denied command never runs", async () => {
      const { aiTools, asked, request } = await requestApproval("framework");
      await answer(aiTools, asked, (request as { approvalId: string }).approvalId, false);
      expect(modified()).toBe(true);
    });

    it("with a confirm callback, the SDK's approval replaces the callback (asked once, by the SDK)", async () => {
      const asks: ConfirmRequest[] = [];
      const { aiTools, asked, request } = await requestApproval((req) => {
        asks.push(req);
        return false;
      });
      await answer(aiTools, asked, (request as { approvalId: string }).approvalId, true);
      expect(asks).toEqual([]);
      expect(modified()).toBe(false);
    });

    it("a call of the SDK tool's execute that did not come through the approval flow is refused under confirm: framework", async () => {
      const { tools } = evidenceTools(["bash"], { cwd: repo, sandbox: false, confirm: "framework" });
      const bash = toAiSdkTools(tools).bash!;
      const result = (await bash.execute!({ command: RESET }, { toolCallId: "direct", messages: [] })) as {
        text: string;
        isError?: boolean;
      };
      expect(result.text).toContain("needs approval");
      expect(modified()).toBe(true);
    });

    it("a safe command needs no approval and runs in the same step", async () => {
      const { tools } = evidenceTools(["bash"], { cwd: repo, sandbox: false, confirm: "framework" });
      const model = new MockLanguageModelV3({ doGenerate: [toolCallStep("bash", { command: "git status --short" }), textStep] });
      const result = await generateText({ model, tools: toAiSdkTools(tools), stopWhen: stepCountIs(3), prompt: "Status." });
      expect(result.content.some((part) => part.type === "tool-approval-request")).toBe(false);
      expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({ data: { status: "completed", exitCode: 0 } });
    });
  });

  it("evidence_status is a tool like any other: after a passing run the model reads the verified target", async () => {
    const { tools, evidence } = evidenceTools(["bash", "evidence_status"], { cwd: project.dir, sandbox: false });
    const model = new MockLanguageModelV3({
      doGenerate: [toolCallStep("bash", { command: PYTEST_COMMAND }), toolCallStep("evidence_status", {}, "call-2"), textStep],
    });
    const result = await generateText({ model, tools: toAiSdkTools(tools), stopWhen: stepCountIs(4), prompt: "Test, then check." });
    const status = result.steps[1]?.toolResults[0]?.output as { text: string; data: { verifiedTargets: string[] } };
    expect(status.data.verifiedTargets).toEqual(evidence.verifiedTargets);
    expect(status.data.verifiedTargets).toContain(PASSING_TEST);
    expect(status.text).toContain(PASSING_TEST);
  });

  describe("fromAiSdkTool: a bash tool written for the AI SDK, observed by BashEvidence", () => {
    // Someone's own AI SDK bash tool: runs real bash, returns its output and exit code as an object.
    const theirBash = (cwd: string) =>
      tool({
        description: "Run a shell command.",
        inputSchema: z.object({ command: z.string() }),
        execute: async ({ command }: { command: string }, { abortSignal }) => {
          try {
            const { stdout, stderr } = await run("bash", ["-c", command], { cwd, encoding: "utf8", signal: abortSignal });
            return { output: stdout + stderr, exitCode: 0 };
          } catch (error) {
            const failed = error as { stdout?: string; stderr?: string; code?: number };
            return {
              output: (failed.stdout ?? "") + (failed.stderr ?? ""),
              exitCode: typeof failed.code === "number" ? failed.code : null,
            };
          }
        },
        toModelOutput: ({ output }) => ({ type: "text", value: `${output.output}\nExit code: ${output.exitCode ?? "unknown"}` }),
      });

    it("its toModelOutput text (ending in Exit code: N) is what the ledger judges: a passing run is verified", async () => {
      const bash = new BashEvidence(fromAiSdkTool("bash", theirBash(project.dir)), { workspace: project.dir });
      const result = await bash.execute({ command: PYTEST_COMMAND });
      expect(result.text).toMatch(/Exit code: 0$/);
      expect(bash.verifiedTargets).toContain(PASSING_TEST);
      await bash.close();
    });

    it("a failing run is not verified, and the wrapped tool keeps the AI SDK loop's shape", async () => {
      writeFileSync(join(project.dir, "test_x.py"), "def test_ok():\n    assert 1 == 2\n");
      const bash = new BashEvidence(fromAiSdkTool("bash", theirBash(project.dir)), { workspace: project.dir });
      const model = new MockLanguageModelV3({ doGenerate: [toolCallStep("bash", { command: PYTEST_COMMAND }), textStep] });
      await generateText({ model, tools: toAiSdkTools([bash]), stopWhen: stepCountIs(3), prompt: "Test." });
      expect(bash.verifiedTargets).toEqual([]);
      expect(bash.verificationRecords[0]).toMatchObject({ outcome: "failed", exitCode: 1 });
      await bash.close();
    });

    it("with an extract of its data (no text convention), the ledger reads the exit code from data", async () => {
      const plain = tool({
        description: "Run a shell command.",
        inputSchema: z.object({ command: z.string() }),
        execute: async ({ command }: { command: string }) => {
          const child = await run("bash", ["-c", command], { cwd: project.dir, encoding: "utf8" }).then(
            ({ stdout }) => ({ stdout, exitCode: 0 }),
            (error: { stdout?: string; code?: number }) => ({ stdout: error.stdout ?? "", exitCode: error.code ?? null }),
          );
          return child;
        },
      });
      const bash = new BashEvidence(fromAiSdkTool("bash", plain), {
        workspace: project.dir,
        extract: (result) => {
          const data = result.data as { stdout: string; exitCode: number | null };
          return { exitCode: data.exitCode, output: data.stdout, truncated: false, timedOut: false };
        },
      });
      await bash.execute({ command: PYTEST_COMMAND });
      expect(bash.verifiedTargets).toContain(PASSING_TEST);
      await bash.close();
    });

    it("a throw of the AI SDK tool is an error result, never a throw, and no record", async () => {
      const broken = tool({
        description: "x",
        inputSchema: z.object({ command: z.string() }),
        execute: (_input: { command: string }): Promise<string> => Promise.reject(new Error("boom")),
      });
      const bash = new BashEvidence(fromAiSdkTool("bash", broken), { workspace: project.dir });
      const result = await bash.execute({ command: PYTEST_COMMAND });
      expect(result).toMatchObject({ isError: true, text: "Error: bash failed: boom" });
      expect(bash.verifiedTargets).toEqual([]);
      await bash.close();
    });
  });
});
