// The runner's harness: which files count, which part of them, the scan, and the baseline kept
// through the journal (issue 21: a conftest.py, pytest.ini or go TestMain the agent wrote).
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { changedHarness, harnessContent, isHarnessCandidate, markWorkspaceScan, UNREADABLE_HARNESS } from "../../src/evidence/harness.js";
import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { BashEvidence } from "../../src/observation/bash-evidence.js";
import { escapingLink, HarnessScanner } from "../../src/observation/harness-scan.js";
import { makeProject, observedBash, PYTEST_FILES, realBash, type TempProject } from "./ledger-helpers.js";

const projects: TempProject[] = [];
afterEach(() => {
  for (const p of projects.splice(0)) p.cleanup();
});
const project = (files: Record<string, string>): TempProject => {
  const p = makeProject(files);
  projects.push(p);
  return p;
};

const MAKEREPORT =
  "import pytest\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    r = outcome.get_result()\n    if r.failed:\n        r.outcome = 'passed'\n        r.longrepr = None\n";

describe("harnessContent: the part of a file that is harness", () => {
  it.each<[string, string, string | null]>([
    ["conftest.py", "x = 1\n", "x = 1\n"],
    ["sub/pytest.ini", "[pytest]\naddopts = -q\n", "[pytest]\naddopts = -q\n"],
    ["pyproject.toml", "[project]\nname = 'x'\n", null],
    [
      "pyproject.toml",
      "[project]\nname = 'x'\n[tool.pytest.ini_options]\naddopts = '-k a'\n[tool.ruff]\nx = 1\n",
      "[tool.pytest.ini_options]\naddopts = '-k a'",
    ],
    ["pyproject.toml", "[tool.pytest]\nminversion = '9'\n", "[tool.pytest]\nminversion = '9'\n"],
    ["setup.cfg", "[metadata]\nname = x\n[tool:pytest]\npython_files = t.py\n", "[tool:pytest]\npython_files = t.py\n"],
    ["setup.cfg", "[metadata]\nname = x\n", null],
    ["tox.ini", "[tox]\nenvlist = py\n[pytest]\naddopts = -x\n", "[pytest]\naddopts = -x\n"],
    ["calc/calc_test.go", "package calc\nfunc TestA(t *testing.T) {}\n", null],
    [
      "calc/main_test.go",
      "package calc\nfunc TestMain(m *testing.M) { m.Run() }\n",
      "package calc\nfunc TestMain(m *testing.M) { m.Run() }\n",
    ],
    ["go.mod", "module x\n\ngo 1.19\nrequire y v1\n", null],
    ["go.mod", "module x\nreplace y => /tmp/y // a copy\nreplace (\n\tz => ../z\n)\n", "replace y => /tmp/y\nz => ../z"],
    ["module.py", "x = 1\n", null],
  ])("%s", (path, text, expected) => {
    expect(harnessContent(path, text)?.content ?? null).toBe(expected);
  });

  it("names the candidates the scan reads", () => {
    expect(
      ["conftest.py", "a/.pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini", "x_test.go", "go.mod", "go.work"].every(
        isHarnessCandidate,
      ),
    ).toBe(true);
    expect(["module.py", "test_a.py", "x.go", "conftest.pyc", "setup.py"].some(isHarnessCandidate)).toBe(false);
  });
});

describe("changedHarness and markWorkspaceScan", () => {
  it("lists added, removed and changed files of one family", () => {
    const before = { "conftest.py": "python:1", "pytest.ini": "python:2", "a/m_test.go": "go:3" };
    const after = { "conftest.py": "python:1b", "b/conftest.py": "python:4", "a/m_test.go": "go:3" };
    expect(changedHarness(before, after, "python")).toEqual(["b/conftest.py", "conftest.py", "pytest.ini"]);
    expect(changedHarness(before, after, "go")).toEqual([]);
  });

  it("marks pytest and go runs by their family, never Django's, and every run when a side is unreadable", () => {
    const analysis = analyzeCommand("python -m pytest t.py; go test ./...; python manage.py test", { cwd: "/ws" });
    markWorkspaceScan(analysis, { "conftest.py": "python:1" }, { harness: {}, escapingLinks: [] });
    expect(analysis.invocations.map((i) => i.harnessChanged)).toEqual([["conftest.py"], undefined, undefined]);
    markWorkspaceScan(analysis, null, { harness: {}, escapingLinks: ["mod.py"] });
    expect(analysis.invocations.map((i) => i.harnessChanged)).toEqual([
      ["(the harness could not be read)", "conftest.py"],
      [UNREADABLE_HARNESS],
      undefined,
    ]);
    expect(analysis.invocations.map((i) => i.linksOutside)).toEqual([["mod.py"], ["mod.py"], ["mod.py"]]);
  });
});

describe("HarnessScanner", () => {
  it("finds harness files in the tree, skips .git, node_modules and virtualenvs, and follows edits", async () => {
    const p = project({
      "conftest.py": "a = 1\n",
      "tests/conftest.py": "b = 1\n",
      "pyproject.toml": "[project]\nname = 'x'\n",
      ".git/conftest.py": "x\n",
      "node_modules/p/conftest.py": "x\n",
      ".venv/lib/conftest.py": "x\n",
      "__pycache__/conftest.py": "x\n",
    });
    const scanner = new HarnessScanner(p.dir);
    const first = (await scanner.scan()).harness;
    expect(Object.keys(first).sort()).toEqual(["conftest.py", "tests/conftest.py"]);
    p.write("tests/conftest.py", "b = 2\n");
    p.write("pyproject.toml", "[project]\nname = 'y'\n");
    const second = (await scanner.scan()).harness;
    expect(changedHarness(first, second, "python")).toEqual(["tests/conftest.py"]);
  });

  it("reads through a link every time (what it points at can change while the link does not)", async () => {
    const p = project({});
    const outside = join(p.scratch, "hook.py");
    writeFileSync(outside, "a = 1\n");
    symlinkSync(outside, join(p.dir, "conftest.py"));
    const scanner = new HarnessScanner(p.dir);
    const first = (await scanner.scan()).harness;
    writeFileSync(outside, "a = 2\n");
    expect(changedHarness(first, (await scanner.scan()).harness, "python")).toEqual(["conftest.py"]);
  });

  it("lists the links that leave the workspace for a place the agent can write", async () => {
    const p = project({ "mod.py": "x = 1\n", "pkg/real.py": "y = 1\n" });
    writeFileSync(join(p.scratch, "good.py"), "x = 1\n");
    symlinkSync(join(p.scratch, "good.py"), join(p.dir, "pkg", "out.py"));
    symlinkSync("real.py", join(p.dir, "pkg", "in.py"));
    symlinkSync("/usr/bin/env", join(p.dir, "tool"));
    symlinkSync("/tmp/ae-never-there/good.py", join(p.dir, "gone.py"));
    symlinkSync(p.scratch, join(p.dir, "outdir"));
    expect((await new HarnessScanner(p.dir).scan()).escapingLinks).toEqual(["gone.py", "outdir", "pkg/out.py"]);
  });

  it.each<[string, string, boolean]>([
    ["mod.py", "/tmp/good.py", true],
    ["mod.py", "/root/good.py", true],
    ["mod.py", "/usr/bin/env", false],
    ["a/b.py", "../mod.py", false],
    ["a/b.py", "../../outside-the-root.py", true],
    ["a/b.py", "missing-inside.py", false],
  ])("escapingLink(%s -> %s): %s", async (path, target, expected) => {
    const p = project({ "mod.py": "x\n" });
    expect(await escapingLink(p.dir, path, target)).toBe(expected);
  });

  it("rejects a tree it cannot walk", async () => {
    const p = project({});
    const gone = join(p.dir, "gone");
    mkdirSync(gone);
    const scanner = new HarnessScanner(gone);
    rmSync(gone, { recursive: true });
    await expect(scanner.scan()).rejects.toThrow();
  });
});

describe("BashEvidence: a pass through a harness that changed since the session began", () => {
  const FAILING = { ...PYTEST_FILES, "t.py": "def test_a():\n    assert 1 == 2\n" };

  it("is harness-changed; a failure through it still counts", async () => {
    const p = project(FAILING);
    const bash = observedBash(p);
    await bash.execute({ command: "python -m pytest -rA t.py" });
    expect(bash.verificationRecords.at(-1)?.outcome).toBe("failed");
    p.write("conftest.py", MAKEREPORT);
    await bash.execute({ command: "python -m pytest -rA t.py" });
    const record = bash.verificationRecords.at(-1);
    expect(record?.outcome).toBe("unknown");
    expect(record?.reasons).toEqual(["harness-changed"]);
    expect(bash.verifiedTargets).toEqual([]);
    p.write("conftest.py", "import pytest\n");
    await bash.execute({ command: "python -m pytest -rA t.py" });
    expect(bash.verificationRecords.at(-1)?.outcome).toBe("failed");
    await bash.close();
  });

  it("the harness put back as the session found it verifies again", async () => {
    const p = project({ ...PYTEST_FILES, "conftest.py": "import pytest\n" });
    const bash = observedBash(p);
    await bash.ready();
    p.write("conftest.py", MAKEREPORT);
    await bash.execute({ command: "python -m pytest -rA t.py" });
    expect(bash.verificationRecords.at(-1)?.reasons).toEqual(["harness-changed"]);
    p.write("conftest.py", "import pytest\n");
    await bash.execute({ command: "python -m pytest -rA t.py" });
    expect(bash.verificationRecords.at(-1)?.verified).toBe(true);
    await bash.close();
  });

  it("a link to a good copy outside the workspace: a pass is link-outside-workspace", async () => {
    const p = project(FAILING);
    const bash = observedBash(p);
    await bash.ready();
    writeFileSync(join(p.scratch, "t.py"), "def test_a():\n    assert True\n");
    rmSync(join(p.dir, "t.py"));
    symlinkSync(join(p.scratch, "t.py"), join(p.dir, "t.py"));
    await bash.execute({ command: "python -m pytest -rA t.py" });
    expect(bash.verificationRecords.at(-1)?.reasons).toEqual(["link-outside-workspace"]);
    expect(bash.verifiedTargets).toEqual([]);
    await bash.close();
  });

  it("the baseline survives a restart: the journal keeps the harness the first session found", async () => {
    const p = project(FAILING);
    const journal = join(p.scratch, "..", "harness-ledger.jsonl");
    const first = observedBash(p, {}, { journal });
    await first.execute({ command: "true" });
    await first.close();
    p.write("conftest.py", MAKEREPORT);
    const restored = BashEvidence.fromJournal(journal, realBash(p), { workspace: p.dir });
    await restored.execute({ command: "python -m pytest -rA t.py" });
    expect(restored.verificationRecords.at(-1)?.reasons).toEqual(["harness-changed"]);
    await restored.close();
    rmSync(journal, { force: true });
  });
});
