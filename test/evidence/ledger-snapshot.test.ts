// Invalidation modes through the real bash tool: `snapshot` (git tree or content hashes) and `watch`.
import { execFileSync } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import type { Tool } from "../../src/host/tool.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { TOOLCHAIN_PATHS } from "../support/toolchain.js";
import { FAST_PYTEST, gitInit, makeProject, PYTEST_FILES, type TempProject } from "./ledger-helpers.js";

const PASS = "python -m pytest -rA t.py";
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function call(tools: Tool<never, unknown>[], name: string, input: Record<string, unknown>): Promise<{ text: string }> {
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return (tool as unknown as Tool<Record<string, unknown>, unknown>).execute(input);
}

async function passedToolset(
  git: boolean,
  extra: { invalidation?: "snapshot" | "conservative"; watch?: boolean },
): Promise<{ p: TempProject } & ReturnType<typeof evidenceTools>> {
  const p = makeProject({ ...PYTEST_FILES, ".gitignore": "__pycache__/\n.pytest_cache/\n" });
  cleanups.push(() => p.cleanup());
  if (git) gitInit(p.dir);
  const set = evidenceTools(["bash", "file_write"], {
    cwd: p.dir,
    headless: true,
    ...extra,
    limits: { bash: { tempDir: p.scratch, env: FAST_PYTEST, readablePaths: TOOLCHAIN_PATHS } },
  });
  cleanups.push(() => set.evidence.close());
  await set.evidence.ready();
  await call(set.tools, "bash", { command: PASS });
  expect(set.evidence.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
  return { p, ...set };
}

describe.each([
  ["inside a git repository", true],
  ["outside git (content hashes)", false],
])("snapshot mode %s", (_name, git) => {
  it.each([
    ["cat after a pass", "cat module.py"],
    ["ls", "ls -la"],
    ["git status", "git status --short || true"],
    ["a failing command that changes nothing", "false"],
  ])("%s leaves the pass current", async (_n, command) => {
    const { tools, evidence } = await passedToolset(git, { invalidation: "snapshot" });
    await call(tools, "bash", { command });
    expect(evidence.verificationRecords.map((r) => [r.applicability, r.postTestCommands, r.postTestEdits])).toEqual([["current", [], []]]);
    expect(evidence.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
  });

  it.each([
    ["a shell edit", "printf 'VALUE = 2\\n' > module.py", ["module.py"]],
    ["a new file and a removed one", "mkdir -p pkg && echo x > pkg/new.txt && rm conftest.py", ["conftest.py", "pkg/new.txt"]],
  ])("%s lists exactly the changed paths", async (_n, command, paths) => {
    const { tools, evidence } = await passedToolset(git, { invalidation: "snapshot" });
    await call(tools, "bash", { command });
    expect(evidence.verificationRecords.map((r) => [r.applicability, r.postTestCommands, r.postTestEdits])).toEqual([
      ["unknown", [command], paths],
    ]);
    expect(evidence.verifiedTargets).toEqual([]);
  });
});

describe("conservative mode (the default)", () => {
  it("cat after a pass keeps it current; git status (measured: its config ran nothing that changed a source) too", async () => {
    const { tools, evidence } = await passedToolset(true, {});
    await call(tools, "bash", { command: "cat module.py" });
    expect(evidence.verificationRecords.map((r) => r.applicability)).toEqual(["current"]);
    await call(tools, "bash", { command: "git status --short" });
    expect(evidence.verificationRecords.map((r) => r.applicability)).toEqual(["current"]);
  });
});

describe("watch: true", () => {
  const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

  it("a change by someone else between calls makes the pass unknown", async () => {
    const { p, evidence } = await passedToolset(false, { watch: true });
    await settle(400);
    writeFileSync(join(p.dir, "module.py"), "VALUE = 2\n");
    for (let i = 0; i < 50 && evidence.verifiedTargets.length > 0; i += 1) await settle(100);
    expect(evidence.verificationRecords.map((r) => [r.applicability, r.postTestEdits])).toEqual([["unknown", ["module.py"]]]);
  });

  it("our own calls and .git are not someone else's changes", async () => {
    const { p, tools, evidence } = await passedToolset(true, { watch: true, invalidation: "snapshot" });
    await call(tools, "file_write", { path: "notes.txt", mode: "overwrite", content: "same\n" }).catch(() => undefined);
    await call(tools, "bash", { command: PASS });
    await settle(400);
    writeFileSync(join(p.dir, ".git", "scratch-file"), "x");
    await settle(1500);
    expect(evidence.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
  });
});

// Issue 21, item 3 and the second half of item 2: changes made during a run, and changes the
// repository's ignore rules or stat cache would hide. Each ends with the project really failing.
describe("changes a snapshot must not miss", () => {
  const failsNow = (p: TempProject): boolean => {
    try {
      // A private bytecode cache: a stale .pyc whose source kept its size and mtime would hide the edit.
      execFileSync("python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider", "t.py"], {
        cwd: p.dir,
        stdio: "ignore",
        env: { ...process.env, ...FAST_PYTEST, PYTHONPYCACHEPREFIX: join(p.scratch, "truth-pycache") },
      });
      return false;
    } catch {
      return true;
    }
  };
  const SESSIONFINISH =
    "import sys, os\nsys.path.insert(0, os.path.dirname(__file__))\n\ndef pytest_sessionfinish(session):\n    open(os.path.join(os.path.dirname(__file__), 'module.py'), 'w').write('VALUE = 2\\n')\n";

  it.each([
    ["snapshot mode in git", true, "snapshot"],
    ["snapshot mode outside git", false, "snapshot"],
    ["conservative mode in git", true, "conservative"],
    ["conservative mode outside git", false, "conservative"],
  ] as const)("a conftest that rewrites a source after the tests leaves the run unknown (%s)", async (_n, git, invalidation) => {
    const p = makeProject({ ...PYTEST_FILES, "conftest.py": SESSIONFINISH, ".gitignore": "__pycache__/\n.pytest_cache/\n" });
    cleanups.push(() => p.cleanup());
    if (git) gitInit(p.dir);
    const set = evidenceTools(["bash"], {
      cwd: p.dir,
      headless: true,
      invalidation,
      limits: { bash: { tempDir: p.scratch, env: FAST_PYTEST, readablePaths: TOOLCHAIN_PATHS } },
    });
    cleanups.push(() => set.evidence.close());
    await call(set.tools, "bash", { command: PASS });
    expect(failsNow(p)).toBe(true);
    expect(set.evidence.verificationRecords.map((r) => [r.verified, r.applicability, r.postTestEdits])).toEqual([
      [true, "unknown", ["module.py"]],
    ]);
    expect(set.evidence.verifiedTargets).toEqual([]);
  });

  const BAD_CONFTEST = "def pytest_collection_modifyitems(items):\n    raise SystemExit(3)\n";
  it.each([
    [
      "an already-ignored conftest.py written after the pass",
      ".gitignore",
      "conftest.py\n__pycache__/\n",
      [`printf '${BAD_CONFTEST.replaceAll("\n", "\\n")}' > conftest.py`],
    ],
    [
      "conftest.py added to .git/info/exclude, then written",
      null,
      "",
      ["echo conftest.py >> .git/info/exclude", `printf '${BAD_CONFTEST.replaceAll("\n", "\\n")}' > conftest.py`],
    ],
    ["an ignored module the tests import, edited", ".gitignore", "module.py\n__pycache__/\n", ["printf 'VALUE = 2\\n' > module.py"]],
    [
      "the stat cache told to trust less, then a same-size edit with the mtime put back",
      null,
      "",
      [
        "git config core.trustctime false && git config core.checkStat minimal",
        "cp -p module.py /tmp/m && printf 'VALUE = 2\\n' > module.py && touch -r /tmp/m module.py",
      ],
    ],
  ])("%s is a change (snapshot mode)", async (_n, file, text, commands) => {
    const p = makeProject({ ...PYTEST_FILES, ...(file === null ? {} : { [file]: text }) });
    cleanups.push(() => p.cleanup());
    gitInit(p.dir);
    const set = evidenceTools(["bash"], {
      cwd: p.dir,
      headless: true,
      invalidation: "snapshot",
      limits: { bash: { tempDir: p.scratch, env: FAST_PYTEST, readablePaths: TOOLCHAIN_PATHS } },
    });
    cleanups.push(() => set.evidence.close());
    await call(set.tools, "bash", { command: PASS });
    expect(set.evidence.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
    for (const command of commands) await call(set.tools, "bash", { command });
    expect(failsNow(p)).toBe(true);
    expect(set.evidence.verificationRecords.map((r) => r.applicability)).toEqual(["unknown"]);
    expect(set.evidence.verifiedTargets).toEqual([]);
  });

  it.each([
    ["__pycache__ written into a project that ignores nothing", "python -m pytest -rA t.py"],
    ["the run's output redirected into a log it then prints", "python -m pytest -rA t.py > run.log 2>&1; tail -n 5 run.log"],
    ["the run's output tee'd into a log", "python -m pytest -rA t.py | tee out.log"],
    ["a JUnit report written into the workspace", "python -m pytest -rA --junitxml=report.xml t.py"],
  ])("the run's own by-products and logs are not a change: %s (both modes)", async (_n, command) => {
    for (const invalidation of ["snapshot", "conservative"] as const) {
      const p = makeProject(PYTEST_FILES);
      cleanups.push(() => p.cleanup());
      gitInit(p.dir);
      const set = evidenceTools(["bash"], {
        cwd: p.dir,
        headless: true,
        invalidation,
        limits: { bash: { tempDir: p.scratch, env: FAST_PYTEST, readablePaths: TOOLCHAIN_PATHS } },
      });
      cleanups.push(() => set.evidence.close());
      await call(set.tools, "bash", { command });
      expect(set.evidence.verificationRecords.map((r) => [invalidation, r.applicability, r.postTestEdits, r.postTestCommands])).toEqual([
        [invalidation, "current", [], []],
      ]);
    }
  });
});

describe("a test run measured inside a line that also edits", () => {
  const SESSIONFINISH =
    "import sys, os\nsys.path.insert(0, os.path.dirname(__file__))\n\ndef pytest_sessionfinish(session):\n    open(os.path.join(os.path.dirname(__file__), 'module.py'), 'w').write('VALUE = 2\\n')\n";
  const toolset = (files: Record<string, string>): ReturnType<typeof evidenceTools> => {
    const p = makeProject(files);
    cleanups.push(() => p.cleanup());
    gitInit(p.dir);
    const set = evidenceTools(["bash"], {
      cwd: p.dir,
      headless: true,
      limits: { bash: { tempDir: p.scratch, env: FAST_PYTEST, readablePaths: TOOLCHAIN_PATHS } },
    });
    cleanups.push(() => set.evidence.close());
    return set;
  };

  it.each([
    ["a redirect", "printf 'VALUE = 1\\n' > module.py && python -m pytest -rA t.py"],
    ["sed -i", "sed -i 's/1/1/' module.py && python -m pytest -rA t.py"],
  ])("an edit before the run, of a file it names (%s), is not the run's change", async (_n, command) => {
    const { tools, evidence } = toolset(PYTEST_FILES);
    await call(tools, "bash", { command });
    expect(evidence.verificationRecords.map((r) => [r.verified, r.applicability])).toEqual([[true, "current"]]);
  });

  it("a conftest that rewrites a file the line did not name is caught, whatever ran before the run", async () => {
    const { tools, evidence } = toolset({ ...PYTEST_FILES, "conftest.py": SESSIONFINISH });
    await call(tools, "bash", { command: "touch other.txt && python -m pytest -rA t.py" });
    expect(evidence.verificationRecords.map((r) => [r.applicability, r.postTestEdits])).toEqual([["unknown", ["module.py"]]]);
  });
});

describe("a module next to `python -m pytest` stands in for the runner's own (checked by the live tool)", () => {
  const FAKE = "print('collected 1 item')\nprint('t.py::test_a PASSED')\nprint('1 passed in 0.01s')\n";
  it.each([
    ["pytest.py", { "pytest.py": FAKE }],
    ["a pytest/ package", { "pytest/__init__.py": "", "pytest/__main__.py": FAKE }],
    ["an _pytest/ package", { "_pytest/__init__.py": "raise SystemExit(0)\n" }],
    ["pluggy.py", { "pluggy.py": "import sys\nsys.exit(0)\n" }],
  ])("%s: the run is shadowed-runner, never verified", async (_n, files) => {
    const p = makeProject({ ...PYTEST_FILES, ...files });
    cleanups.push(() => p.cleanup());
    const set = evidenceTools(["bash"], {
      cwd: p.dir,
      headless: true,
      limits: { bash: { tempDir: p.scratch, env: FAST_PYTEST, readablePaths: TOOLCHAIN_PATHS } },
    });
    cleanups.push(() => set.evidence.close());
    await call(set.tools, "bash", { command: "python -m pytest -rA t.py" });
    expect(set.evidence.verificationRecords.map((r) => [r.verified, r.reasons.includes("shadowed-runner")])).toEqual([[false, true]]);
    expect(set.evidence.verifiedTargets).toEqual([]);
  });

  it("a pytest.py the same line writes before the run is seen too", async () => {
    const p = makeProject(PYTEST_FILES);
    cleanups.push(() => p.cleanup());
    const set = evidenceTools(["bash"], {
      cwd: p.dir,
      headless: true,
      limits: { bash: { tempDir: p.scratch, env: FAST_PYTEST, readablePaths: TOOLCHAIN_PATHS } },
    });
    cleanups.push(() => set.evidence.close());
    await call(set.tools, "bash", { command: `printf "${FAKE.replaceAll("\n", "\\n")}" > pytest.py && python -m pytest -rA t.py` });
    expect(set.evidence.verificationRecords.map((r) => [r.verified, r.reasons.includes("shadowed-runner")])).toEqual([[false, true]]);
  });

  it.each([
    ["a shell script", "#!/bin/sh\necho '1 passed in 0.01s'\n", false],
    ["a python script that is no console script", "#!/usr/bin/python3\nprint('1 passed in 0.01s')\n", false],
    [
      "a console script of another module",
      "#!/usr/bin/python3\nimport sys\nfrom fake import main\nif __name__ == '__main__':\n    sys.exit(main())\n",
      false,
    ],
    ["pip's console script for pytest", readFileSync("/usr/bin/pytest-3", "utf8"), true],
  ])(".venv/bin/pytest as %s: verified %s", async (_n, script, verified) => {
    const p = makeProject(PYTEST_FILES);
    cleanups.push(() => p.cleanup());
    p.write(".venv/bin/pytest", script);
    chmodSync(join(p.dir, ".venv/bin/pytest"), 0o755);
    const set = evidenceTools(["bash"], {
      cwd: p.dir,
      headless: true,
      limits: { bash: { tempDir: p.scratch, env: FAST_PYTEST, readablePaths: TOOLCHAIN_PATHS } },
    });
    cleanups.push(() => set.evidence.close());
    await call(set.tools, "bash", { command: ".venv/bin/pytest -rA t.py" });
    expect(set.evidence.verificationRecords.map((r) => [r.verified, r.reasons.includes("shadowed-runner")])).toEqual([
      [verified, !verified],
    ]);
  });

  it("a pytest.py next to the console script `pytest` shadows nothing (its first sys.path entry is its own bin dir)", async () => {
    const p = makeProject({ ...PYTEST_FILES, "pytest.py": "# unrelated helper\n" });
    cleanups.push(() => p.cleanup());
    const set = evidenceTools(["bash"], {
      cwd: p.dir,
      headless: true,
      limits: { bash: { tempDir: p.scratch, env: FAST_PYTEST, readablePaths: TOOLCHAIN_PATHS } },
    });
    cleanups.push(() => set.evidence.close());
    await call(set.tools, "bash", { command: "pytest -rA t.py" });
    expect(set.evidence.verificationRecords.map((r) => r.verified)).toEqual([true]);
  });
});
