// Invalidation modes through the real bash tool: `snapshot` (git tree or content hashes) and `watch`.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { evidenceTools } from "../../src/tools/evidence-tools.js";
import type { Tool } from "../../src/tools/tool.js";
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

async function passedToolset(git: boolean, extra: { invalidation?: "snapshot" | "conservative"; watch?: boolean }): Promise<{ p: TempProject } & ReturnType<typeof evidenceTools>> {
  const p = makeProject({ ...PYTEST_FILES, ".gitignore": "__pycache__/\n.pytest_cache/\n" });
  cleanups.push(() => p.cleanup());
  if (git) gitInit(p.dir);
  const set = evidenceTools(["bash", "file_write"], { cwd: p.dir, headless: true, ...extra, limits: { bash: { tempDir: p.scratch, env: FAST_PYTEST, readablePaths: TOOLCHAIN_PATHS } } });
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
    expect(evidence.verificationRecords.map((r) => [r.applicability, r.postTestCommands, r.postTestEdits])).toEqual([["unknown", [command], paths]]);
    expect(evidence.verifiedTargets).toEqual([]);
  });
});

describe("conservative mode (the default)", () => {
  it("cat after a pass makes it unknown", async () => {
    const { tools, evidence } = await passedToolset(true, {});
    await call(tools, "bash", { command: "cat module.py" });
    expect(evidence.verificationRecords.map((r) => r.applicability)).toEqual(["unknown"]);
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
