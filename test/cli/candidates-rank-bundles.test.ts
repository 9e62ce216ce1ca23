// `agent-evidence candidates rank` without --verify (issue 16, item 9): runCandidate's worktrees ranked
// on the evidence bundles beside them, through the built CLI, with real git and real pytest. Nothing
// is run; a worktree changed since its bundle, or a bundle changed since it was written, does not count.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type RunCandidateResult, runCandidates } from "../../src/candidates/run-candidate.js";
import { verifyEvidenceBundle } from "../../src/observation/bundle.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { createRepo, removeAll, worktreePaths } from "../candidates/git-fixture.js";

const CLI = resolve(import.meta.dirname, "../../dist/cli/main.js");
const BUGGY = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n";
const TESTS = "from calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n";
const ID = (name: string): string => `tests/test_calc.py::${name}`;

let repo: string;
const results: Record<string, RunCandidateResult> = {};
beforeAll(async () => {
  expect(existsSync(CLI), "build dist/ first: npx tsc -p tsconfig.build.json").toBe(true);
  repo = await createRepo("cli-rank-bundles", {
    "calc.py": BUGGY,
    "tests/test_calc.py": TESTS,
    "conftest.py": "",
    ".gitignore": "__pycache__/\n.pytest_cache/\n",
  });
  const createToolset = (dir: string) => evidenceTools(["bash", "file_write"], { cwd: dir });
  type Tools = ReturnType<typeof createToolset>["tools"];
  const tool = (tools: Tools, name: string) => tools.find((t) => t.name === name)!;
  // Each agent edits, then runs its own tests, piped as agents do; no verify step.
  const agent = (calc: string | null) => async (tools: Tools) => {
    if (calc !== null) await tool(tools, "file_write").execute({ path: "calc.py", mode: "overwrite", content: calc } as never);
    await tool(tools, "bash").execute({ command: "python3 -m pytest -rA tests 2>&1 | tail -20" } as never);
  };
  const versions: Record<string, string | null> = {
    fixed: BUGGY.replace("a - b", "a + b"),
    broken: BUGGY.replace("a * b", "a ** b"),
    untouched: null,
  };
  const settled = await runCandidates(
    Object.entries(versions).map(([label, calc]) => ({ repo, label, agent: agent(calc), createToolset })),
    { concurrency: 3 },
  );
  for (const [i, label] of Object.keys(versions).entries()) {
    const entry = settled[i]!;
    if (entry.status === "rejected") throw entry.reason;
    results[label] = entry.value;
  }
});
afterAll(async () => {
  await Promise.all(Object.values(results).map((r) => r.workspace.dispose()));
  expect(await worktreePaths(repo)).toEqual([repo]);
  await removeAll(repo);
});

const rank = (...args: string[]) => {
  const result = spawnSync(process.execPath, [CLI, "candidates", "rank", ...args], { encoding: "utf8" });
  const json = JSON.parse(result.stdout || "{}") as {
    candidates?: {
      worktree: string;
      rank: number;
      status: string;
      failToPass: string[];
      passToFail: string[];
      failToFail: string[];
      candidateOnly: { passed: string[]; failed: string[] };
      reasons: string[];
    }[];
  };
  const label = (path: string): string => Object.entries(results).find(([, r]) => r.workspace.path === path)?.[0] ?? path;
  return { status: result.status, stderr: result.stderr, candidates: json.candidates?.map((c) => ({ ...c, worktree: label(c.worktree) })) };
};
const path = (label: string): string => results[label]!.workspace.path;

describe("candidates rank on runCandidate's bundles", () => {
  it("each candidate's bundle sits beside its worktree and verifies", () => {
    for (const r of Object.values(results)) {
      expect(r.bundle?.dir).toBe(join(dirname(r.workspace.root), ".evidence"));
      expect(verifyEvidenceBundle(r.bundle!.dir)).toMatchObject({ ok: true, problems: [] });
      expect(readFileSync(join(r.bundle!.dir, "patch.diff"), "utf8")).toBe(r.patch);
    }
  });

  it("ranks on the candidates' own runs, nothing run: exit 0", () => {
    const result = rank(path("broken"), path("fixed"), path("untouched"));
    // Without a base, each candidate's own ids stand (candidateOnly); the runs were piped through tail.
    expect(
      result.candidates?.map((c) => [c.worktree, c.rank, c.status, c.candidateOnly]),
      result.stderr,
    ).toEqual([
      ["fixed", 1, "green", { passed: [ID("test_add"), ID("test_mul")], failed: [] }],
      ["untouched", 2, "red", { passed: [ID("test_mul")], failed: [ID("test_add")] }],
      ["broken", 3, "red", { passed: [], failed: [ID("test_add"), ID("test_mul")] }],
    ]);
    expect(result.status).toBe(0);
  });

  it("a worktree changed since its bundle counts as unknown, and says so", () => {
    const calc = join(path("fixed"), "calc.py");
    const before = readFileSync(calc, "utf8");
    writeFileSync(calc, before.replace("a * b", "a ** b"));
    try {
      const fixed = rank(path("fixed"), path("broken")).candidates?.find((c) => c.worktree === "fixed");
      expect([fixed?.status, fixed?.reasons[0]]).toEqual(["unknown", expect.stringMatching(/^changed-since-bundle: /)]);
    } finally {
      writeFileSync(calc, before);
    }
    expect(rank(path("fixed")).candidates?.[0]?.status).toBe("green");
  });

  it("a bundle changed since it was written does not count", () => {
    const records = join(results.fixed!.bundle!.dir, "records.json");
    const before = readFileSync(records, "utf8");
    writeFileSync(records, before.replaceAll('"failed"', '"passed"'));
    try {
      const fixed = rank(path("fixed"), path("broken")).candidates?.find((c) => c.worktree === "fixed");
      expect([fixed?.status, fixed?.reasons[0]]).toEqual(["unknown", "bundle: changed: records.json"]);
    } finally {
      writeFileSync(records, before);
    }
  });

  it("a worktree runCandidate did not make, or --base without --verify: usage errors", () => {
    const plain = rank(repo);
    expect([plain.status, plain.stderr]).toEqual([64, expect.stringMatching(/is not a worktree runCandidate made/)]);
    expect(rank("--base", "HEAD", path("fixed")).status).toBe(64);
  });
});
