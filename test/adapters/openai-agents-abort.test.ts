// An aborted run(agent, input, { signal }) while bash runs: the tool call rejects with the signal's
// reason, as the SDK expects of its own tools, the run rejects with it, bash's process group is
// killed first, and the ledger records the interrupted run as never passed.
import { Agent, Runner, setTracingDisabled, tool as agentTool } from "@openai/agents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod/v4";

import { toOpenAIAgentsTools } from "../../src/adapters/openai-agents.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { groupAlive, makeSlowPytestProject, SLOW_PYTEST_COMMAND } from "./abort-fixture.js";
import { ScriptedModel } from "./openai-agents-model.js";

setTracingDisabled(true);

// A Runner that keeps the output of every agent_tool_end event (what the SDK made of each call).
function observedRunner() {
  const runner = new Runner({ tracingDisabled: true });
  const toolEnds: string[] = [];
  runner.on("agent_tool_end", (_context, _agent, _tool, output) => toolEnds.push(output));
  return { runner, toolEnds };
}

describe("agent-evidence/openai-agents: abort", () => {
  let project: ReturnType<typeof makeSlowPytestProject>;
  beforeAll(() => {
    project = makeSlowPytestProject();
  });
  afterAll(() => project.cleanup());

  it("a signal aborted during a bash call rejects the run with its reason, after the process group is killed", async () => {
    const { tools, evidence } = evidenceTools(["bash"], { cwd: project.dir, sandbox: false });
    const model = new ScriptedModel([[{ name: "bash", input: { command: SLOW_PYTEST_COMMAND, timeoutMs: null } }]]);
    const agent = new Agent({ name: "tester", instructions: "Use the tools.", model, tools: toOpenAIAgentsTools(tools) });
    const controller = new AbortController();
    const { runner, toolEnds } = observedRunner();
    const running = runner.run(agent, "Go.", { signal: controller.signal }).then(
      () => "finished",
      (error: unknown) => error,
    );
    const { pid, pgid } = await project.started();
    expect(groupAlive(pgid)).toBe(true);
    controller.abort();

    expect(await running).toBe(controller.signal.reason);
    // The SDK saw the call fail with the abort (its cancellation path), not a finished command.
    expect(toolEnds).toEqual([String(controller.signal.reason)]);
    expect(groupAlive(pgid)).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: "ESRCH" }) as Error);
    expect(model.requests).toHaveLength(1);
    expect(evidence.verifiedTargets).toEqual([]);
    expect(evidence.verificationRecords.map((r) => ({ target: r.target, exitCode: r.exitCode, verified: r.verified }))).toEqual([
      { target: "test_slow.py", exitCode: 130, verified: false },
    ]);
  });

  it("the run rejects the same way with one of the SDK's own tools that honours its signal", async () => {
    const waits = agentTool({
      name: "wait",
      description: "Waits until aborted.",
      parameters: z.object({}),
      execute: (_input, _context, details) =>
        new Promise<string>((_resolve, reject) =>
          details?.signal?.addEventListener("abort", () => reject(details.signal?.reason as Error), { once: true }),
        ),
    });
    const model = new ScriptedModel([[{ name: "wait", input: {} }]]);
    const agent = new Agent({ name: "tester", instructions: "Use the tools.", model, tools: [waits] });
    const controller = new AbortController();
    const { runner, toolEnds } = observedRunner();
    const running = runner.run(agent, "Go.", { signal: controller.signal }).then(
      () => "finished",
      (error: unknown) => error,
    );
    setTimeout(() => controller.abort(), 100);
    expect(await running).toBe(controller.signal.reason);
    expect(toolEnds).toEqual([String(controller.signal.reason)]);
    expect(model.requests).toHaveLength(1);
  });
});
