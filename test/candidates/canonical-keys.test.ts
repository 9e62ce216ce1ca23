// Issue 16's table, run for real: two candidates (one fixes the bug, one leaves it) with evidenceTools
// in their own worktrees, each typing the test command its own way. The comparison decides by what
// the runs selected (outcome-based red, canonical keys), not by how the command was typed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { compareCandidates } from "../../src/candidates/compare.js";
import { runCandidate } from "../../src/candidates/run-candidate.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { createRepo, removeAll } from "./git-fixture.js";

let repo: string;
beforeAll(async () => {
  repo = await createRepo("keys", {
    "calc.py": "def add(a, b):\n    return a - b\n",
    "tests/test_calc.py":
      "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n",
    "conftest.py": "",
    ".gitignore": "__pycache__/\n.pytest_cache/\n",
  });
});
afterAll(async () => {
  await removeAll(repo);
});

const createToolset = (dir: string) => evidenceTools(["bash", "file_write"], { cwd: dir });
type Tools = ReturnType<typeof createToolset>["tools"];
const call = (tools: Tools, name: string, input: unknown) => tools.find((tool) => tool.name === name)!.execute(input as never);

// Six of these run at once, two candidates each: 43 s apiece on a loaded machine, near the 60 s default.
const CONCURRENT_CANDIDATES_MS = 240_000;

describe.concurrent("the fixer against the candidate that left the bug, each with its own command", () => {
  it.each([
    ["the same command", "python3 -m pytest -rA tests", "python3 -m pytest -rA tests"],
    [
      "the README's pattern, `| tail -5` (the failing side exits with tail's 0)",
      "python3 -m pytest -rA tests 2>&1 | tail -5",
      "python3 -m pytest -rA tests 2>&1 | tail -5",
    ],
    ["`tests` against `tests/`", "python3 -m pytest -rA tests", "python3 -m pytest -rA tests/"],
    ["`-q` against `-rA`", "python3 -m pytest -q tests", "python3 -m pytest -rA tests"],
    [
      "`cd tests &&` a file against the file from the top",
      "cd tests && python3 -m pytest -rA test_calc.py",
      "python3 -m pytest -v tests/test_calc.py",
    ],
  ])(
    "%s: the fixer wins mechanically",
    async (_name, fixerCommand, leaverCommand) => {
      const fixer = async (tools: Tools): Promise<void> => {
        await call(tools, "file_write", { path: "calc.py", mode: "overwrite", content: "def add(a, b):\n    return a + b\n" });
        await call(tools, "bash", { command: fixerCommand });
      };
      const leaver = async (tools: Tools): Promise<void> => {
        await call(tools, "bash", { command: leaverCommand });
      };
      const [a, b] = await Promise.all([
        runCandidate({ repo, label: "fix", agent: fixer, createToolset }),
        runCandidate({ repo, label: "leave", agent: leaver, createToolset }),
      ]);
      try {
        const verdict = compareCandidates(a, b);
        expect(
          { decision: verdict.decision, colours: [a.testRecords.map((r) => r.outcome), b.testRecords.map((r) => r.outcome)] },
          verdict.reasons.join("\n"),
        ).toEqual({ decision: "a", colours: [["passed"], ["failed"]] });
        expect(compareCandidates(b, a).decision).toBe("b");
      } finally {
        await Promise.all([a.workspace.dispose(), b.workspace.dispose()]);
      }
    },
    CONCURRENT_CANDIDATES_MS,
  );

  it(
    "a -k selection is its own key: a narrower pass does not beat the whole suite's failure",
    async () => {
      const narrow = async (tools: Tools): Promise<void> => {
        await call(tools, "bash", { command: "python3 -m pytest -rA -k test_zero tests" });
      };
      const whole = async (tools: Tools): Promise<void> => {
        await call(tools, "bash", { command: "python3 -m pytest -rA tests" });
      };
      const [a, b] = await Promise.all([
        runCandidate({ repo, label: "narrow", agent: narrow, createToolset }),
        runCandidate({ repo, label: "whole", agent: whole, createToolset }),
      ]);
      try {
        const verdict = compareCandidates(a, b);
        expect(verdict.decision).toBe("judge");
        expect(verdict.reasons[0]).toMatch(/^no-evidence: a has no current green or red record/);
      } finally {
        await Promise.all([a.workspace.dispose(), b.workspace.dispose()]);
      }
    },
    CONCURRENT_CANDIDATES_MS,
  );
});
