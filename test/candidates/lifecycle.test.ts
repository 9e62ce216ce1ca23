// runCandidate's verify step, timeout, abort and the evidence it closes (issue 16, items 3 and 8), with
// real git worktrees and real pytest through evidenceTools.
import { existsSync } from "node:fs";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { compareCandidates } from "../../src/candidates/compare.js";
import { CandidateRunError } from "../../src/candidates/errors.js";
import { type CandidateToolset, runCandidate } from "../../src/candidates/run-candidate.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { createRepo, removeAll } from "./git-fixture.js";

let repo: string;
beforeAll(async () => {
  repo = await createRepo("lifecycle", {
    "calc.py": "def add(a, b):\n    return a - b\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
    "conftest.py": "",
    ".gitignore": "__pycache__/\n.pytest_cache/\n",
  });
});
afterAll(async () => {
  await removeAll(repo);
});

let closed = 0;
const createToolset = (dir: string) => {
  const set = evidenceTools(["bash", "file_write"], { cwd: dir });
  const close = set.evidence.close.bind(set.evidence);
  return { tools: set.tools, evidence: Object.assign(set.evidence, { close: () => ((closed += 1), close()) }) } satisfies CandidateToolset<
    typeof set.tools
  >;
};
type Tools = ReturnType<typeof createToolset>["tools"];
const call = (tools: Tools, name: string, input: unknown) => tools.find((tool) => tool.name === name)!.execute(input as never);
const fix = (tools: Tools) =>
  call(tools, "file_write", { path: "calc.py", mode: "overwrite", content: "def add(a, b):\n    return a + b\n" });

describe("the verify step", () => {
  it("agents that ran no test, or other tests: one fixed command gives both evidence on one key", async () => {
    const VERIFY = { command: "python3 -m pytest -q tests", timeoutMs: 60_000 };
    const before = closed;
    const [a, b] = await Promise.all([
      runCandidate({ repo, label: "fix-quiet", agent: (tools) => fix(tools), createToolset, verify: VERIFY }),
      runCandidate({
        repo,
        label: "other-test",
        agent: (tools) => call(tools, "bash", { command: "python3 -m pytest -rA -k nothing tests" }),
        createToolset,
        verify: VERIFY,
      }),
    ]);
    try {
      expect([a.verification.map((r) => [r.command, r.outcome]), b.verification.map((r) => [r.command, r.outcome])]).toEqual([
        [[VERIFY.command, "passed"]],
        [[VERIFY.command, "failed"]],
      ]);
      expect(compareCandidates(a, b).decision).toBe("a");
      expect(closed - before).toBe(2);
    } finally {
      await Promise.all([a.workspace.dispose(), b.workspace.dispose()]);
    }
  });

  it("a toolset without a bash tool: a clear CandidateRunError, the worktree kept", async () => {
    const noBash = (dir: string) => evidenceTools(["file_write"], { cwd: dir });
    const error = await runCandidate({
      repo,
      label: "no-bash",
      agent: () => Promise.resolve(),
      createToolset: noBash,
      verify: { command: "python3 -m pytest -q tests" },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CandidateRunError);
    expect((error as CandidateRunError).message).toMatch(/verify step needs the toolset's bash tool/);
    await (error as CandidateRunError).workspace.dispose();
  });
});

describe("the agent's time", () => {
  it("past timeoutMs the agent's signal aborts and the run fails with the worktree kept", async () => {
    let sawAbort = false;
    const before = closed;
    const agent = (_tools: Tools, _workspace: unknown, { signal }: { signal: AbortSignal }) =>
      new Promise<void>((resolve) => {
        signal.addEventListener("abort", () => {
          sawAbort = true;
          resolve();
        });
      });
    const error = await runCandidate({ repo, label: "slow", agent, createToolset, timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CandidateRunError);
    const kept = (error as CandidateRunError).workspace;
    expect([
      sawAbort,
      (error as CandidateRunError).message.includes("timed out after 300 ms"),
      existsSync(kept.path),
      closed - before,
    ]).toEqual([true, true, true, 1]);
    await kept.dispose();
  });

  it("the caller's signal aborts a running agent, and one aborted before the start never runs it", async () => {
    const controller = new AbortController();
    const started: string[] = [];
    // The abort comes once the agent runs (creating the worktree takes its time on a loaded machine).
    const agent =
      (label: string) =>
      (_tools: Tools, _workspace: unknown, { signal }: { signal: AbortSignal }) => {
        started.push(label);
        if (label === "running") setTimeout(() => controller.abort(), 50);
        return new Promise<void>((_resolve, reject) => signal.addEventListener("abort", () => reject(new Error("stopped"))));
      };
    const first = await runCandidate({ repo, label: "running", agent: agent("running"), createToolset, signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    const second = await runCandidate({ repo, label: "late", agent: agent("late"), createToolset, signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect([first instanceof CandidateRunError, second instanceof CandidateRunError, started]).toEqual([true, true, ["running"]]);
    expect((second as CandidateRunError).message).toMatch(/aborted by the caller/);
    await Promise.all([(first as CandidateRunError).workspace.dispose(), (second as CandidateRunError).workspace.dispose()]);
  });
});
