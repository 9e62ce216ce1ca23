import { readFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { compareCandidates } from "../../src/candidates/compare.js";
import { CandidateRunError } from "../../src/candidates/errors.js";
import { runGit } from "../../src/candidates/git.js";
import { runCandidate, type RunCandidateResult } from "../../src/candidates/run-candidate.js";
import { createRepo, removeAll, worktreePaths } from "./git-fixture.js";
import { createPytestToolset, type PytestTools } from "./pytest-toolset.js";

const TARGET = "tests/test_calc.py";
let source: string;

beforeAll(async () => {
  source = await createRepo("pytest", {
    "calc.py": "def add(a, b):\n    return a - b\n",
    [TARGET]: "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
    "conftest.py": "",
    ".gitignore": "__pycache__/\n.pytest_cache/\n",
  });
});

afterAll(async () => {
  await removeAll(source);
});

/** The paths `git apply --numstat -z` reads from a patch (the reference `patchPaths` must agree with). */
async function numstatPaths(patch: string): Promise<string[]> {
  const { stdout } = await runGit(source, ["apply", "--numstat", "-z", "-"], { input: patch });
  return Buffer.from(stdout)
    .toString("utf8")
    .split("\0")
    .filter((field) => field !== "")
    .map((field) => field.split("\t").slice(2).join("\t"));
}

const fixer = async (tools: PytestTools): Promise<void> => {
  await tools.runPytest(TARGET);
  await tools.writeFile("calc.py", "def add(a, b):\n    return a + b\n");
  await tools.runPytest(TARGET);
};

const breaker = async (tools: PytestTools): Promise<void> => {
  await tools.writeFile("notes/idea.txt", "tried something else\n");
  await tools.runPytest(TARGET);
};

describe("runCandidate", () => {
  it("parallel candidates run real pytest in their own worktrees, never see each other's records, and compare mechanically", async () => {
    const [a, b] = await Promise.all([
      runCandidate({ repo: source, label: "fixer", agent: fixer, createToolset: createPytestToolset }),
      runCandidate({ repo: source, label: "breaker", agent: breaker, createToolset: createPytestToolset }),
    ]);
    try {
      const view = (result: RunCandidateResult): unknown => ({
        label: result.label,
        paths: result.paths,
        verifiedTargets: result.verifiedTargets,
        records: result.testRecords.map((record) => [
          record.target,
          record.exitCode,
          record.verified,
          record.applicability,
          record.workspace,
        ]),
      });
      expect([view(a), view(b)]).toEqual([
        {
          label: "fixer",
          paths: ["calc.py"],
          verifiedTargets: [TARGET],
          records: [
            [TARGET, 1, false, "unknown", a.workspace.path],
            [TARGET, 0, true, "current", a.workspace.path],
          ],
        },
        { label: "breaker", paths: ["notes/idea.txt"], verifiedTargets: [], records: [[TARGET, 1, false, "current", b.workspace.path]] },
      ]);
      expect(compareCandidates(a, b)).toMatchObject({ decision: "a", mechanical: true, conflicting: [{ target: TARGET }] });
      await a.workspace.adopt(a.patch);
      expect(readFileSync(join(source, "calc.py"), "utf8")).toEqual("def add(a, b):\n    return a + b\n");
      const sourceRun = await createPytestToolset(source).tools.runPytest(TARGET);
      expect(sourceRun.exitCode).toEqual(0);
    } finally {
      await Promise.all([a.workspace.dispose(), b.workspace.dispose()]);
    }
    expect(await worktreePaths(source)).toEqual([source]);
    // Two candidates, five real pytest runs and two worktrees: over the 60 s default on a loaded machine.
  }, 240_000);

  it("an agent that throws yields CandidateRunError with the worktree retained", async () => {
    const error = await runCandidate({
      repo: source,
      label: "crash",
      createToolset: createPytestToolset,
      agent: async (tools) => {
        await tools.writeFile("partial.txt", "half done\n");
        throw new Error("model unavailable");
      },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CandidateRunError);
    const { workspace, message } = error as CandidateRunError;
    try {
      expect([
        message.includes(workspace.root),
        message.includes("model unavailable"),
        readFileSync(join(workspace.root, "partial.txt"), "utf8"),
      ]).toEqual([true, true, "half done\n"]);
      expect(await workspace.capture()).toContain("+half done");
    } finally {
      await workspace.dispose();
    }
  });

  it("the patch paths agree with git apply --numstat for awkward names", async () => {
    const names = [":160000 160000 file.txt", "dir with space/ünï.txt", " lead and trail .txt", "tab\there.txt"];
    const result = await runCandidate({
      repo: source,
      label: "names",
      createToolset: createPytestToolset,
      agent: async (tools) => {
        for (const name of names) await tools.writeFile(name, `${name}\n`);
        await tools.writeFile("calc.py", "");
      },
    });
    try {
      expect([...result.paths].sort()).toEqual([...names, "calc.py"].sort());
      expect(result.paths).toEqual(await numstatPaths(result.patch));
    } finally {
      await result.workspace.dispose();
    }
  });
});
