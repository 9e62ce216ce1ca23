// needsApproval through the OpenAI Agents SDK's own approval flow: a risky bash command stops the
// run with an interruption; approved (state.approve, then run(agent, state)) it runs with
// approved: true; rejected it never runs. Proven on `git reset --hard` in a real git repository.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { Agent, Runner, type RunToolApprovalItem, setTracingDisabled } from "@openai/agents";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { toOpenAIAgentsTools } from "../../src/adapters/openai-agents.js";
import type { Tool } from "../../src/host/tool.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { git as fixtureGit } from "../support/git.js";
import { makeTempDir } from "../support/temp-dir.js";
import { ScriptedModel, toolOutputsSeenByModel } from "./openai-agents-model.js";

setTracingDisabled(true);

const RESET = { command: "git reset --hard", timeoutMs: null };

describe("agent-evidence/openai-agents: needsApproval", () => {
  let repo: ReturnType<typeof makeTempDir>;
  // A committed file with an uncommitted change: `git reset --hard` puts "committed" back.
  const tracked = (): string => readFileSync(join(repo.dir, "tracked.txt"), "utf8");
  beforeEach(() => {
    repo = makeTempDir("ae-adapters-git-");
    writeFileSync(join(repo.dir, "tracked.txt"), "committed\n");
    const git = (...args: string[]) => fixtureGit(repo.dir, ...args);
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-qm", "fixture");
    writeFileSync(join(repo.dir, "tracked.txt"), "uncommitted change\n");
  });
  afterEach(() => repo.cleanup());

  function setUp(tools: Tool<never, unknown>[], command = RESET) {
    const model = new ScriptedModel([[{ name: "bash", input: command }]]);
    const agent = new Agent({ name: "tester", instructions: "Use the tools.", model, tools: toOpenAIAgentsTools(tools) });
    return { model, agent, runner: new Runner({ tracingDisabled: true }) };
  }

  function frameworkBash() {
    return evidenceTools(["bash"], { cwd: repo.dir, sandbox: false, confirm: "framework" }).tools;
  }

  it("a risky command stops the run with an interruption; approved, it runs (approved: true) and the run finishes", async () => {
    const { model, agent, runner } = setUp(frameworkBash());
    const first = await runner.run(agent, "Go.");
    expect(first.interruptions.map((item) => item.name)).toEqual(["bash"]);
    expect(tracked()).toBe("uncommitted change\n"); // not run before the approval

    first.state.approve(first.interruptions[0] as RunToolApprovalItem);
    const resumed = await runner.run(agent, first.state);
    expect(tracked()).toBe("committed\n");
    expect(resumed.finalOutput).toBe("done");
    const output = resumed.newItems.find((item) => item.type === "tool_call_output_item") as { customData?: unknown } | undefined;
    expect(output?.customData).toMatchObject({ isError: false, data: { status: "completed", command: "git reset --hard", exitCode: 0 } });
    expect(JSON.stringify(toolOutputsSeenByModel(model, 1))).toContain("HEAD is now at");
  });

  it("rejected, the command never runs and the model reads the rejection", async () => {
    const { model, agent, runner } = setUp(frameworkBash());
    const first = await runner.run(agent, "Go.");
    first.state.reject(first.interruptions[0] as RunToolApprovalItem, { message: "Not on my repository." });
    const resumed = await runner.run(agent, first.state);

    expect(tracked()).toBe("uncommitted change\n");
    expect(resumed.finalOutput).toBe("done");
    expect(JSON.stringify(toolOutputsSeenByModel(model, 1))).toContain("Not on my repository.");
  });

  it("a command the policy does not flag runs without an interruption", async () => {
    const { agent, runner } = setUp(frameworkBash(), { command: "git status --short", timeoutMs: null });
    const result = await runner.run(agent, "Go.");
    expect(result.interruptions).toEqual([]);
    expect(result.finalOutput).toBe("done");
    expect(result.newItems.find((item) => item.type === "tool_call_output_item")).toMatchObject({
      customData: { isError: false, data: { exitCode: 0 } },
    });
  });

  it('without the SDK\'s approval (needsApproval left out) confirm: "framework" refuses the command', async () => {
    const tools = frameworkBash().map((t) => ({ ...t, needsApproval: undefined, execute: t.execute.bind(t) }));
    const { agent, runner } = setUp(tools);
    const result = await runner.run(agent, "Go.");
    expect(result.interruptions).toEqual([]);
    expect(tracked()).toBe("uncommitted change\n");
    expect(result.newItems.find((item) => item.type === "tool_call_output_item")).toMatchObject({
      customData: { isError: true, data: { status: "not-run", reason: "policy-declined" } },
    });
  });
});
