// The ledger through the real bash tool and real pytest: what creates evidence, what clears it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import type { Tool } from "../../src/host/tool.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { gitInit, makeProject, observedBash, PYTEST_FILES, type TempProject } from "./ledger-helpers.js";

const PASS = "python -m pytest -rA t.py";
const projects: TempProject[] = [];
const project = (files: Record<string, string> = PYTEST_FILES): TempProject => {
  const made = makeProject(files);
  projects.push(made);
  return made;
};
afterEach(() => {
  for (const made of projects.splice(0)) made.cleanup();
});

const summary = (records: { target: string; verified: boolean; applicability: string }[]): string[] =>
  records.map((r) => `${r.target} ${r.verified ? "verified" : "unverified"} ${r.applicability}`);

/** Calls a tool of an evidenceTools set by name. */
async function call(
  tools: Tool<never, unknown>[],
  name: string,
  input: Record<string, unknown>,
): Promise<{ text: string; data?: unknown }> {
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return (tool as unknown as Tool<Record<string, unknown>, unknown>).execute(input);
}

describe("commands that create no verified evidence", () => {
  it.each([
    ["true", ["true"]],
    ["echo of a PASSED line, then echo of a summary", ["echo 'PASSED tests/t.py::test_a'", "echo '1 passed in 0.01s'"]],
    ["cat of saved pytest output", ["cat saved-output.txt"]],
    ["sh -c printing a summary with $0 = pytest", [`sh -c 'printf "1 passed in 0.01s"' pytest`]],
    ["python -c", ["python -c 'print(1)'"]],
  ])("%s", async (_name, commands) => {
    const p = project({ ...PYTEST_FILES, "saved-output.txt": "PASSED t.py::test_a\n==== 1 passed in 0.01s ====\n" });
    const bash = observedBash(p);
    for (const command of commands) await bash.execute({ command });
    expect(bash.verifiedTargets).toEqual([]);
    expect(bash.verificationRecords.filter((r) => r.verified)).toEqual([]);
  });

  it("while sh -c running a real passing pytest does verify", async () => {
    const bash = observedBash(project());
    await bash.execute({ command: `sh -c '${PASS}'` });
    expect(bash.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
    expect(summary(bash.verificationRecords)).toEqual(["t.py verified current"]);
  });
});

describe("a rerun that cannot prove a pass clears the earlier pass", () => {
  it.each([
    ["a failed rerun", { command: `FAIL=1 ${PASS}` }, { reasons: ["tests-failed"], timedOut: false }],
    ["a clipped rerun (raw cap)", { command: `BIG=1 ${PASS} -s` }, { reasons: ["truncated"], timedOut: false }],
    ["a --collect-only rerun", { command: `${PASS} --collect-only` }, null],
    ["a --help rerun", { command: `${PASS} --help` }, null],
    ["a timed-out rerun", { command: `SLOW=30 ${PASS}`, timeoutMs: 1500 }, { reasons: null, timedOut: true }],
  ])("%s", async (_name, input, expected) => {
    const bash = observedBash(project(), { rawCapBytes: 6000 });
    await bash.execute({ command: PASS });
    expect(bash.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
    await bash.execute(input);
    expect(bash.verifiedTargets).toEqual([]);
    const last = bash.verificationRecords.at(-1);
    expect(last?.verified).toBe(false);
    if (expected !== null) {
      expect(last?.timedOut).toBe(expected.timedOut);
      if (expected.timedOut) expect(last?.exitCode).toBe(124);
      if (expected.reasons !== null) expect(last?.reasons).toEqual(expected.reasons);
    }
  });
});

describe("targets", () => {
  const tree = {
    "tests/__init__.py": "",
    "tests/test_a.py": "def test_x():\n    assert True\n",
    "tests/test_empty.py": "",
  };

  it("-rA tests verifies tests and its node ids", async () => {
    const bash = observedBash(project(tree));
    await bash.execute({ command: "python -m pytest -rA tests" });
    expect(bash.verifiedTargets).toEqual(["tests", "tests/test_a.py::test_x"]);
  });

  it("-rA test (a prefix of tests) verifies nothing", async () => {
    const bash = observedBash(project(tree));
    await bash.execute({ command: "python -m pytest -rA test" });
    expect(bash.verifiedTargets).toEqual([]);
    expect(summary(bash.verificationRecords)).toEqual(["test unverified current"]);
  });

  it("two targets, one proven", async () => {
    const bash = observedBash(project(tree));
    await bash.execute({ command: "python -m pytest -rA tests/test_a.py tests/test_empty.py" });
    expect(bash.verifiedTargets).toEqual(["tests/test_a.py", "tests/test_a.py::test_x"]);
    expect(summary(bash.verificationRecords)).toEqual(["tests/test_a.py verified current", "tests/test_empty.py unverified current"]);
  });

  it("cd -- /ws/sub && python -m pytest -rA /ws/sub/t.py", async () => {
    const p = project({ "sub/t.py": "def test_a():\n    assert True\n" });
    const bash = observedBash(p);
    await bash.execute({ command: `cd -- ${p.dir}/sub && python -m pytest -rA ${p.dir}/sub/t.py` });
    expect(bash.verifiedTargets).toEqual(["sub/t.py", "sub/t.py::test_a"]);
    expect(bash.verificationRecords.map((r) => [r.target, r.workspace])).toEqual([[`${p.dir}/sub/t.py`, `${p.dir}/sub`]]);
  });

  it("a run in a directory the line does not name proves nothing about the workspace's file", async () => {
    // The workspace's t.py fails; a copy elsewhere passes. `cd "$D"` hides where the run happened.
    const p = project({ "t.py": "def test_a():\n    assert False\n", "copy/t.py": "def test_a():\n    assert True\n" });
    const bash = observedBash(p);
    await bash.execute({ command: 'D=copy; cd "$D" && python -m pytest -rA t.py' });
    await bash.execute({ command: "cd $(echo copy) && python -m pytest -rA t.py" });
    expect(bash.verificationRecords.map((r) => [r.target, r.workspace, r.outcome, r.verified, r.reasons])).toEqual([
      ["t.py", null, "passed", false, ["workspace-unknown"]],
      ["t.py", null, "passed", false, ["workspace-unknown"]],
    ]);
    expect(bash.verifiedTargets).toEqual([]);
    // An absolute target names its file wherever the run started (its printed ids still cannot be placed).
    await bash.execute({ command: `cd "$(echo /)" && python -m pytest -rA ${p.dir}/copy/t.py` });
    expect(bash.verifiedTargets).toEqual(["copy/t.py"]);
  });

  it("a failed rerun of the same file from another directory clears it; a same-named file elsewhere keeps its pass", async () => {
    const p = project({
      "sub/t.py": "import os\ndef test_a():\n    assert not os.environ.get('FAIL')\n",
      "other/t.py": "def test_b():\n    assert True\n",
    });
    const bash = observedBash(p);
    await bash.execute({ command: "python -m pytest -rA other/t.py" });
    await bash.execute({ command: "python -m pytest -rA sub/t.py" });
    expect(bash.verifiedTargets).toEqual(["other/t.py", "other/t.py::test_b", "sub/t.py", "sub/t.py::test_a"]);
    await bash.execute({ command: "cd sub && FAIL=1 python -m pytest -rA t.py" });
    expect(bash.verifiedTargets).toEqual(["other/t.py", "other/t.py::test_b"]);
  });
});

describe("output that is not what the runner printed", () => {
  it("a failing run whose output sed rewrites to passes is not verified", async () => {
    const bash = observedBash(project());
    const result = await bash.execute({ command: "FAIL=1 python -m pytest -rA t.py 2>&1 | sed 's/failed/passed/; s/FAILED/PASSED/'" });
    // What the agent sees reads like a pass; the exit status is sed's 0.
    expect(result.text).toMatch(/1 passed in/);
    expect(result.text).not.toMatch(/failed|FAILED/);
    expect(bash.verificationRecords.map((r) => [r.verified, r.outcome, r.reasons])).toEqual([[false, "unknown", ["output-transformed"]]]);
  });

  it("a run sent to /dev/null and a summary echoed after it is not verified", async () => {
    const bash = observedBash(project());
    await bash.execute({ command: 'FAIL=1 python -m pytest -rA t.py > /dev/null; echo "============ 1 passed in 0.01s ============"' });
    expect(bash.verificationRecords.map((r) => [r.verified, r.reasons])).toEqual([[false, ["output-not-shown"]]]);
  });

  it("a run written to a log that the line then prints is verified", async () => {
    const bash = observedBash(project());
    await bash.execute({ command: "python -m pytest -rA t.py > run.log 2>&1; tail -n 5 run.log" });
    expect(bash.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
  });
});

describe("edits after a pass (evidenceTools)", () => {
  const passed = async (p: TempProject): Promise<ReturnType<typeof evidenceTools>> => {
    const set = evidenceTools(["bash", "file_write", "file_read"], {
      cwd: p.dir,
      headless: false,
      limits: { bash: { tempDir: p.scratch, env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1" } } },
    });
    await call(set.tools, "bash", { command: PASS });
    expect(set.evidence.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
    return set;
  };

  it.each([
    ["a changing write makes the pass unknown", { path: "module.py", mode: "overwrite", content: "VALUE = 2\n" }, "unknown", ["module.py"]],
    ["an unchanged write keeps it current", { path: "module.py", mode: "overwrite", content: "VALUE = 1\n" }, "current", []],
    [
      "a failed str_replace keeps it current",
      { path: "module.py", mode: "str_replace", oldString: "NOT THERE", newString: "x" },
      "current",
      [],
    ],
  ])("%s", async (_name, input, applicability, edits) => {
    const { tools, evidence } = await passed(project());
    await call(tools, "file_write", input);
    expect(evidence.verificationRecords.map((r) => [r.applicability, r.postTestEdits])).toEqual([[applicability, edits]]);
    expect(evidence.verifiedTargets).toEqual(applicability === "current" ? ["t.py", "t.py::test_a"] : []);
  });

  it("file_read after a pass keeps it current", async () => {
    const { tools, evidence } = await passed(project());
    await call(tools, "file_read", { path: "module.py" });
    expect(summary(evidence.verificationRecords)).toEqual(["t.py verified current"]);
  });

  it.each([
    // A read, or git status measured to change nothing, keeps it current (ledger-read-only.test.ts).
    ["a shell edit after a pass", "printf 'VALUE = 2\\n' > module.py"],
  ])("%s makes it unknown", async (_name, command) => {
    const { tools, evidence } = await passed(project());
    await call(tools, "bash", { command });
    expect(evidence.verificationRecords.map((r) => [r.applicability, r.postTestCommands])).toEqual([["unknown", [command]]]);
    expect(evidence.verifiedTargets).toEqual([]);
  });
});

describe("mixed lines", () => {
  it("pytest && sed -i records the run, then makes it unknown at once", async () => {
    const bash = observedBash(project());
    const command = `${PASS} && sed -i 's/1/1/' module.py`;
    await bash.execute({ command });
    expect(bash.verificationRecords.map((r) => [r.verified, r.applicability, r.postTestCommands])).toEqual([[true, "unknown", [command]]]);
    expect(bash.verifiedTargets).toEqual([]);
  });

  it("pytest && sed -i that changes no byte: still an edit after the run (a named write in the run's line may rewrite its output)", async () => {
    const bash = observedBash(project());
    await bash.execute({ command: `${PASS} && sed -i 's/1/1/' module.py` });
    expect(bash.verificationRecords.map((r) => [r.verified, r.applicability])).toEqual([[true, "unknown"]]);
  });

  it("pytest && git add -A in one line: measured, the run stays current", async () => {
    const p = project();
    gitInit(p.dir);
    const bash = observedBash(p);
    await bash.execute({ command: `${PASS} && git add -A` });
    expect(bash.verificationRecords.map((r) => [r.verified, r.applicability])).toEqual([[true, "current"]]);
  });

  it("pytest a && sed -i also makes an earlier pass of another file unknown", async () => {
    const bash = observedBash(project({ ...PYTEST_FILES, "u.py": "def test_u():\n    assert True\n" }));
    await bash.execute({ command: "python -m pytest -rA u.py" });
    const command = `${PASS} && sed -i 's/1/1/' module.py`;
    await bash.execute({ command });
    expect(bash.verificationRecords.map((r) => [r.target, r.applicability, r.postTestCommands])).toEqual([
      ["u.py", "unknown", [command]],
      ["t.py", "unknown", [command]],
    ]);
    expect(bash.verifiedTargets).toEqual([]);
  });

  it("pytest | tail -5 is one run", async () => {
    const bash = observedBash(project());
    await bash.execute({ command: `${PASS} | tail -5` });
    expect(summary(bash.verificationRecords)).toEqual(["t.py verified current"]);
  });

  it("git stash && pytest; git stash pop is a baseline run, never current", async () => {
    const p = project();
    gitInit(p.dir);
    writeFileSync(join(p.dir, "module.py"), "VALUE = 3\n");
    const bash = observedBash(p);
    await bash.execute({ command: `git stash && ${PASS}; git stash pop` });
    expect(bash.verificationRecords.map((r) => [r.baseline, r.verified, r.applicability])).toEqual([[true, false, "unknown"]]);
    expect(bash.verifiedTargets).toEqual([]);
  });
});

describe("parallel calls", () => {
  it("an edit completing while a test runs makes that run's record unknown", async () => {
    const p = project();
    const { tools, evidence } = evidenceTools(["bash", "file_write"], {
      cwd: p.dir,
      headless: false,
      limits: { bash: { tempDir: p.scratch, env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1", SLOW: "3" } } },
    });
    const run = call(tools, "bash", { command: PASS });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await call(tools, "file_write", { path: "module.py", mode: "overwrite", content: "VALUE = 1  # edited\n" });
    await run;
    expect(evidence.verificationRecords.map((r) => [r.verified, r.applicability, r.postTestEdits])).toEqual([
      [true, "unknown", ["module.py"]],
    ]);
    expect(evidence.verifiedTargets).toEqual([]);
  });
});
