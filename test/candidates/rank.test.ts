// rankCandidates with real git worktrees and real pytest (issue 16, items 4 and 5): three candidates,
// one fixes everything, one fixes part, one fixes part and breaks a passing test; the base is the
// same verify command on the unchanged code (a candidate whose agent does nothing).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { rankCandidates } from "../../src/candidates/rank.js";
import { runCandidate, type RunCandidateResult } from "../../src/candidates/run-candidate.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { createRepo, removeAll } from "./git-fixture.js";

const BUGGY = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n";
const TESTS =
  "from calc import add, mul, sub\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n";
const VERIFY = { command: "python3 -m pytest -rA tests" };

let repo: string;
let results: RunCandidateResult[] = [];
let base: RunCandidateResult;
beforeAll(async () => {
  repo = await createRepo("rank", {
    "calc.py": BUGGY,
    "tests/test_calc.py": TESTS,
    "conftest.py": "",
    ".gitignore": "__pycache__/\n.pytest_cache/\n",
  });
  const createToolset = (dir: string) => evidenceTools(["bash", "file_write"], { cwd: dir });
  type Tools = ReturnType<typeof createToolset>["tools"];
  const write = (content: string) => (tools: Tools) =>
    tools.find((tool) => tool.name === "file_write")!.execute({ path: "calc.py", mode: "overwrite", content } as never);
  const fixAll = BUGGY.replace("a - b", "a + b").replace("return a + b\n\n\ndef mul", "return a - b\n\n\ndef mul");
  const fixAdd = BUGGY.replace("a - b", "a + b");
  const fixAddBreakMul = fixAdd.replace("a * b", "a ** b");
  [base, ...results] = await Promise.all([
    runCandidate({ repo, label: "base", agent: () => Promise.resolve(), createToolset, verify: VERIFY }),
    runCandidate({ repo, label: "fix-add-break-mul", agent: write(fixAddBreakMul), createToolset, verify: VERIFY }),
    runCandidate({ repo, label: "fix-all", agent: write(fixAll), createToolset, verify: VERIFY }),
    runCandidate({ repo, label: "fix-add", agent: write(fixAdd), createToolset, verify: VERIFY }),
  ]);
});
afterAll(async () => {
  await Promise.all([base, ...results].map((r) => r.workspace.dispose()));
  await removeAll(repo);
});

const ID = (name: string): string => `tests/test_calc.py::${name}`;

describe("rankCandidates against the base", () => {
  it("ranks fewest regressions, then most fail-to-pass; the regression is named in passToFail", () => {
    const ranked = rankCandidates(results, { base });
    expect(
      ranked.map((r) => [r.label, r.rank, r.status, r.tests.failToPass, r.tests.passToPass, r.tests.passToFail, r.tests.failToFail]),
    ).toEqual([
      ["fix-all", 1, "green", [ID("test_add"), ID("test_sub")], [ID("test_mul")], [], []],
      ["fix-add", 2, "red", [ID("test_add")], [ID("test_mul")], [], [ID("test_sub")]],
      ["fix-add-break-mul", 3, "red", [ID("test_add")], [], [ID("test_mul")], [ID("test_sub")]],
    ]);
    expect(ranked[2]!.reasons[0]).toBe(`regressions: 1 pass-to-fail (${ID("test_mul")})`);
    expect(ranked[0]!.patch).toEqual({ paths: ["calc.py"], added: 2, removed: 2 });
  });

  it("without a base: the candidate's own failing and passing tests decide", () => {
    expect(rankCandidates(results).map((r) => [r.label, r.rank])).toEqual([
      ["fix-all", 1],
      ["fix-add", 2],
      ["fix-add-break-mul", 3],
    ]);
  });

  it("ties stay ties and share a rank", () => {
    const twin = { ...results.find((r) => r.label === "fix-all")!, label: "fix-all-again" };
    const ranked = rankCandidates([...results, twin], { base });
    expect(ranked.map((r) => [r.label, r.rank])).toEqual([
      ["fix-all", 1],
      ["fix-all-again", 1],
      ["fix-add", 3],
      ["fix-add-break-mul", 4],
    ]);
    expect(ranked[0]!.reasons.at(-1)).toBe("tied-with: fix-all-again");
  });
});
