// The per-test view of the evidence (issue 16, item 6), on real pytest runs through evidenceTools:
// passing now, failing, stale after an edit, and what a filtered or unreadable run leaves unknown.
import { afterEach, describe, expect, it } from "vitest";

import { testView } from "../../src/evidence/test-view.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { TOOLCHAIN_PATHS } from "../support/toolchain.js";
import { FAST_PYTEST, makeProject, type TempProject } from "./ledger-helpers.js";

const projects: TempProject[] = [];
afterEach(() => {
  for (const p of projects.splice(0)) p.cleanup();
});

const FILES = {
  "calc.py": "def add(a, b):\n    return a + b\n",
  "test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n",
  "conftest.py": "import os, sys\nsys.path.insert(0, os.path.dirname(__file__))\n",
};

function toolset() {
  const p = makeProject(FILES);
  projects.push(p);
  const set = evidenceTools(["bash", "file_write"], {
    cwd: p.dir,
    headless: true,
    limits: { bash: { tempDir: p.scratch, env: FAST_PYTEST, readablePaths: TOOLCHAIN_PATHS } },
  });
  const call = (name: string, input: unknown) => set.tools.find((tool) => tool.name === name)!.execute(input as never);
  return { p, set, call };
}

const states = (view: ReturnType<typeof testView>) => ({
  targets: view.targets.map((e) => [e.key, e.state, e.record.seq]),
  tests: view.tests.map((e) => [e.key, e.state, e.record.seq]),
});

describe("testView", () => {
  it("passing, then failing after a breaking edit and a rerun, with the record that says so", async () => {
    const { set, call } = toolset();
    await call("bash", { command: "python3 -m pytest -rA test_calc.py" });
    expect(states(set.evidence.testView())).toEqual({
      targets: [["test_calc.py", "passing", 1]],
      tests: [
        ["test_calc.py::test_add", "passing", 1],
        ["test_calc.py::test_zero", "passing", 1],
      ],
    });
    // A new size: python recompiles whatever second it is (a same-size edit: caches.test.ts).
    await call("file_write", { path: "calc.py", mode: "overwrite", content: "def add(a, b):\n    return a - b - 0\n" });
    expect(states(set.evidence.testView()).tests.map((t) => t[1])).toEqual(["stale", "stale"]);
    await call("bash", { command: "python3 -m pytest -rA test_calc.py" });
    expect(states(set.evidence.testView())).toEqual({
      targets: [["test_calc.py", "failing", 2]],
      tests: [
        ["test_calc.py::test_add", "failing", 2],
        ["test_calc.py::test_zero", "passing", 2],
      ],
    });
    await set.evidence.close();
  });

  // Python's bytecode cache compares the source's mtime in whole seconds: written, run and rewritten
  // to the same size within one second, the rerun would pass on the old bytecode.
  it("a same-size edit in the second the file was written and run: the rerun is failed or mtime-reset, never a pass", async () => {
    while (Date.now() % 1000 > 30) await new Promise((done) => setTimeout(done, 5));
    const { set, call } = toolset();
    await call("bash", { command: "python3 -m pytest -rA test_calc.py" });
    await call("file_write", { path: "calc.py", mode: "overwrite", content: "def add(a, b):\n    return a - b\n" });
    await call("bash", { command: "python3 -m pytest -rA test_calc.py" });
    const last = set.evidence.verificationRecords.at(-1)!;
    expect(last.outcome === "failed" || (last.outcome === "unknown" && last.reasons.includes("mtime-reset")), JSON.stringify(last)).toBe(
      true,
    );
    await set.evidence.close();
  });

  it("a same-size edit in the second the file was written, before any run: nothing is cached, the run verifies", async () => {
    while (Date.now() % 1000 > 30) await new Promise((done) => setTimeout(done, 5));
    const { set, call } = toolset();
    await set.evidence.ready();
    await call("file_write", { path: "calc.py", mode: "overwrite", content: "def add(a, b):\n    return b + a\n" });
    await call("bash", { command: "python3 -m pytest -rA test_calc.py" });
    expect(set.evidence.verificationRecords.map((r) => [r.outcome, r.verified, r.reasons])).toEqual([["passed", true, []]]);
    await set.evidence.close();
  });

  it("a filtered pass: its ids pass, its target is not proven", async () => {
    const { set, call } = toolset();
    await call("bash", { command: "python3 -m pytest -rA -k zero test_calc.py" });
    expect(states(set.evidence.testView())).toEqual({
      targets: [["test_calc.py", "unknown", 1]],
      tests: [["test_calc.py::test_zero", "passing", 1]],
    });
    await set.evidence.close();
  });

  it("ids of a run whose output is in doubt are unknown, a failure it shows still fails", () => {
    const record = (outcome: "passed" | "failed" | "unknown", reasons: string[], passed: string[], failed: string[]) => ({
      seq: 1,
      target: "t.py",
      runner: "pytest",
      command: "pytest t.py",
      workspace: "/w",
      exitCode: 0,
      timedOut: false,
      verified: false,
      applicability: "current" as const,
      postTestEdits: [],
      postTestCommands: [],
      outcome,
      passed,
      failed,
      reasons,
      truncated: false,
      filtered: false,
      baseline: false,
    });
    expect(states(testView([record("unknown", ["spoof-suspect"], ["t.py::a"], ["t.py::b"])])).tests).toEqual([
      ["t.py::a", "unknown", 1],
      ["t.py::b", "failing", 1],
    ]);
    expect(states(testView([record("unknown", ["target-not-proven"], ["t.py::a"], [])])).tests).toEqual([["t.py::a", "passing", 1]]);
  });
});
