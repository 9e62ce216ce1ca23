// `agent-evidence candidates rank` through the built CLI, on real candidate worktrees with real pytest:
// the JSON a pipeline reads, and the exit status it branches on.
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type CandidateWorkspace, createCandidateWorkspace } from "../../src/candidates/workspace.js";
import { createRepo, removeAll, worktreePaths } from "../candidates/git-fixture.js";

const CLI = resolve(import.meta.dirname, "../../dist/cli/main.js");
const BUGGY = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n";
const TESTS = "from calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n";
const VERIFY = "python3 -m pytest -rA tests";

let repo: string;
const workspaces: Record<string, CandidateWorkspace> = {};
beforeAll(async () => {
  expect(existsSync(CLI), "build dist/ first: npx tsc -p tsconfig.build.json").toBe(true);
  repo = await createRepo("cli-rank", {
    "calc.py": BUGGY,
    "tests/test_calc.py": TESTS,
    "conftest.py": "",
    ".gitignore": "__pycache__/\n.pytest_cache/\n",
  });
  const versions: Record<string, string> = {
    fixed: BUGGY.replace("a - b", "a + b"),
    "fixed-too": BUGGY.replace("a - b", "a + b"),
    broken: BUGGY.replace("a * b", "a ** b"),
    untouched: BUGGY,
  };
  for (const [label, calc] of Object.entries(versions)) {
    workspaces[label] = await createCandidateWorkspace(repo, { label });
    writeFileSync(join(workspaces[label].path, "calc.py"), calc);
  }
});
afterAll(async () => {
  await Promise.all(Object.values(workspaces).map((ws) => ws.dispose()));
  expect(await worktreePaths(repo)).toEqual([repo]);
  await removeAll(repo);
});

const rank = (...labels: string[]) => {
  const result = spawnSync(
    process.execPath,
    [CLI, "candidates", "rank", "--base", "HEAD", "--verify", VERIFY, ...labels.map((l) => workspaces[l]!.path)],
    { encoding: "utf8" },
  );
  const json = JSON.parse(result.stdout || "{}") as {
    candidates: { worktree: string; rank: number; status: string; failToPass: string[]; passToFail: string[]; reasons: string[] }[];
  };
  const label = (path: string): string => Object.entries(workspaces).find(([, ws]) => ws.path === path)?.[0] ?? path;
  return {
    status: result.status,
    stderr: result.stderr,
    ranks: json.candidates?.map((c) => [label(c.worktree), c.rank, c.status, c.failToPass, c.passToFail]),
  };
};
const ID = (name: string): string => `tests/test_calc.py::${name}`;

describe("candidates rank", () => {
  it("one candidate first alone and green: exit 0, the regression named", () => {
    const result = rank("broken", "fixed", "untouched");
    expect(result.ranks, result.stderr).toEqual([
      ["fixed", 1, "green", [ID("test_add")], []],
      ["untouched", 2, "red", [], []],
      ["broken", 3, "red", [], [ID("test_mul")]],
    ]);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/^candidates rank: 1\. \S+ \(green, 0 regression\(s\), 1 fixed\); 2\. /);
  });

  it("two equal candidates share the first place: exit 2", () => {
    const result = rank("fixed", "fixed-too");
    expect([result.status, result.ranks?.map((r) => r[1])]).toEqual([2, [1, 1]]);
  });

  it("no candidate green: exit 1", () => {
    expect(rank("broken", "untouched").status).toBe(1);
  });
});
