// The docs/candidates.md example, run for real: runCandidate wired to evidenceTools.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, expect, it } from "vitest";

import { compareCandidates } from "../../src/candidates/compare.js";
import { runCandidate } from "../../src/candidates/run-candidate.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { createRepo, removeAll } from "./git-fixture.js";

let repo: string;
beforeAll(async () => {
  repo = await createRepo("wiring", {
    "calc.py": "def add(a, b):\n    return a - b\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
    "conftest.py": "",
    ".gitignore": "__pycache__/\n.pytest_cache/\n",
  });
});
afterAll(async () => {
  await removeAll(repo);
});

const createToolset = (dir: string) => evidenceTools(["bash", "file_read", "file_write"], { cwd: dir });
type Tools = ReturnType<typeof createToolset>["tools"];
const call = (tools: Tools, name: string, input: unknown) => tools.find((tool) => tool.name === name)!.execute(input as never);

it("the documented example: two candidates with evidenceTools, a mechanical winner, adoption", async () => {
  const fixAdd = async (tools: Tools): Promise<void> => {
    await call(tools, "file_write", { path: "calc.py", mode: "overwrite", content: "def add(a, b):\n    return a + b\n" });
    await call(tools, "bash", { command: "python3 -m pytest tests/test_calc.py" });
  };
  const leaveIt = async (tools: Tools): Promise<void> => {
    await call(tools, "bash", { command: "python3 -m pytest tests/test_calc.py" });
  };
  const [a, b] = await Promise.all([
    runCandidate({ repo, label: "fix-add", agent: fixAdd, createToolset }),
    runCandidate({ repo, label: "leave-it", agent: leaveIt, createToolset }),
  ]);
  try {
    const verdict = compareCandidates(a, b);
    expect({ decision: verdict.decision, paths: a.paths, verified: [a.verifiedTargets, b.verifiedTargets] }).toEqual({
      decision: "a",
      paths: ["calc.py"],
      verified: [["tests/test_calc.py"], []],
    });
    await a.workspace.adopt(a.patch);
    expect(readFileSync(join(repo, "calc.py"), "utf8")).toEqual("def add(a, b):\n    return a + b\n");
  } finally {
    await Promise.all([a.workspace.dispose(), b.workspace.dispose()]);
  }
});
