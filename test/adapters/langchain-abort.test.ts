// An aborted config.signal in LangChain's loop: the call rejects the way LangChain's own tools
// reject (the signal's reason), only after bash has killed its process group, and the ledger
// records the interrupted run as never passed.
import { tool as langChainTool } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod/v4";

import { toLangChainTools } from "../../src/adapters/langchain.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { groupAlive, makeSlowPytestProject, SLOW_PYTEST_COMMAND } from "./abort-fixture.js";
import { runLangChainLoop, ScriptedChatModel } from "./langchain-loop.js";

describe("agent-evidence/langchain: abort", () => {
  let project: ReturnType<typeof makeSlowPytestProject>;
  beforeAll(() => {
    project = makeSlowPytestProject();
  });
  afterAll(() => project.cleanup());

  it("a signal aborted during a bash call rejects the loop with the signal's reason, after the process group is killed", async () => {
    const { tools, evidence } = evidenceTools(["bash"], { cwd: project.dir, sandbox: false });
    const model = new ScriptedChatModel([[{ name: "bash", args: { command: SLOW_PYTEST_COMMAND } }]]);
    const controller = new AbortController();
    const loop = runLangChainLoop(model, toLangChainTools(tools), { signal: controller.signal });
    const { pid, pgid } = await project.started();
    expect(groupAlive(pgid)).toBe(true);
    controller.abort();

    await expect(loop).rejects.toBe(controller.signal.reason);
    // Rejected only once the group is gone: nothing of it is left to check for later.
    expect(groupAlive(pgid)).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: "ESRCH" }) as Error);
    expect(model.requests).toHaveLength(1);
    expect(evidence.verifiedTargets).toEqual([]);
    expect(evidence.verificationRecords.map((r) => ({ target: r.target, exitCode: r.exitCode, verified: r.verified }))).toEqual([
      { target: "test_slow.py", exitCode: 130, verified: false },
    ]);
  });

  it("rejects with what LangChain's own tool() rejects with for the same abort", async () => {
    const controller = new AbortController();
    const theirs = langChainTool(() => new Promise<string>(() => undefined), { name: "wait", description: "waits", schema: z.object({}) });
    const pending = theirs.invoke({ type: "tool_call", id: "call-1", name: "wait", args: {} }, { signal: controller.signal });
    controller.abort(new Error("stop now"));
    await expect(pending).rejects.toBe(controller.signal.reason);

    // A string reason: LangChain makes an Error of it; so does the adapter.
    const { tools } = evidenceTools(["bash"], { cwd: project.dir, sandbox: false });
    const [bash] = toLangChainTools(tools);
    const stringAbort = new AbortController();
    const call = bash?.invoke(
      { type: "tool_call", id: "call-2", name: "bash", args: { command: "sleep 30" } },
      { signal: stringAbort.signal },
    );
    setTimeout(() => stringAbort.abort("user pressed stop"), 200);
    await expect(call).rejects.toThrow(new Error("user pressed stop"));
  });

  it("a signal aborted before the call rejects and runs nothing", async () => {
    const { tools, evidence } = evidenceTools(["bash"], { cwd: project.dir, sandbox: false });
    const [bash] = toLangChainTools(tools);
    const controller = new AbortController();
    controller.abort();
    await expect(
      bash?.invoke(
        { type: "tool_call", id: "call-1", name: "bash", args: { command: SLOW_PYTEST_COMMAND } },
        { signal: controller.signal },
      ),
    ).rejects.toBe(controller.signal.reason);
    expect(evidence.verificationRecords).toEqual([]);
  });
});
