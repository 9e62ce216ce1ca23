// `watch: true` against changes made by someone else at the awkward moments: right after a call, during
// a test run, as an unlink, with an mtime set back into an earlier call, and by a second instance.
// Real pytest through the real bash tool (sandboxed); a change is made from this process, as an
// editor or a background job would make it.
import { rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { isRunnerByproduct } from "../../src/evidence/byproducts.js";
import type { Tool } from "../../src/host/tool.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { FAST_PYTEST, makeProject, PYTEST_FILES, type TempProject } from "../evidence/ledger-helpers.js";
import { TOOLCHAIN_PATHS } from "../support/toolchain.js";

const PASS = "python -m pytest -rA t.py";
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function call(tools: Tool<never, unknown>[], name: string, input: Record<string, unknown>): Promise<{ text: string }> {
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return (tool as unknown as Tool<Record<string, unknown>, unknown>).execute(input);
}

async function watched(p?: TempProject): Promise<{ p: TempProject } & ReturnType<typeof evidenceTools>> {
  const project = p ?? makeProject({ ...PYTEST_FILES });
  if (p === undefined) cleanups.push(() => project.cleanup());
  const set = evidenceTools(["bash", "file_write"], {
    cwd: project.dir,
    watch: true,
    limits: { bash: { tempDir: project.scratch, env: FAST_PYTEST, readablePaths: TOOLCHAIN_PATHS } },
  });
  cleanups.push(() => set.evidence.close());
  await set.evidence.ready();
  return { p: project, ...set };
}

// The watcher reports asynchronously: wait (bounded) for the evidence to go unknown.
async function becomesUnknown(evidence: ReturnType<typeof evidenceTools>["evidence"]): Promise<string[][]> {
  for (let i = 0; i < 50 && evidence.verificationRecords.some((r) => r.applicability === "current"); i += 1) await sleep(100);
  return evidence.verificationRecords.map((r) => [r.applicability, ...r.postTestEdits.map(String)]);
}

describe("watch: true sees someone else's change", () => {
  it.each([0, 5, 15])("an edit %i ms after a test run ends", async (ms) => {
    const { p, tools, evidence } = await watched();
    await call(tools, "bash", { command: PASS });
    expect(evidence.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
    if (ms > 0) await sleep(ms);
    writeFileSync(join(p.dir, "module.py"), "VALUE = 2\n");
    expect(await becomesUnknown(evidence)).toEqual([["unknown", "module.py"]]);
    expect(evidence.verifiedTargets).toEqual([]);
  });

  it("an edit during the test run", async () => {
    const { p, tools, evidence } = await watched();
    const running = call(tools, "bash", { command: `SLOW=1.5 ${PASS}` });
    await sleep(700);
    writeFileSync(join(p.dir, "module.py"), "VALUE = 2\n");
    await running;
    expect((await becomesUnknown(evidence)).map((r) => r[0])).toEqual(["unknown"]);
    expect(evidence.verifiedTargets).toEqual([]);
  });

  it("an unlink right after the run", async () => {
    const { p, tools, evidence } = await watched();
    await call(tools, "bash", { command: PASS });
    rmSync(join(p.dir, "conftest.py"));
    expect(await becomesUnknown(evidence)).toEqual([["unknown", "conftest.py"]]);
  });

  it("a write whose mtime is set back into the earlier call (cp -p, rsync -t, tar)", async () => {
    const { p, tools, evidence } = await watched();
    const before = new Date();
    await call(tools, "bash", { command: PASS });
    await sleep(100);
    writeFileSync(join(p.dir, "module.py"), "VALUE = 2\n");
    utimesSync(join(p.dir, "module.py"), before, before);
    expect(await becomesUnknown(evidence)).toEqual([["unknown", "module.py"]]);
  });

  it("an edit by a second evidenceTools instance on the same workspace during the first one's test", async () => {
    const first = await watched();
    const second = await watched(first.p);
    const running = call(first.tools, "bash", { command: `SLOW=1.5 ${PASS}` });
    await sleep(700);
    await call(second.tools, "file_write", { path: "module.py", mode: "overwrite", content: "VALUE = 2\n" });
    await running;
    expect((await becomesUnknown(first.evidence)).map((r) => r[0])).toEqual(["unknown"]);
  });
});

describe("watch: true keeps our own calls ours", () => {
  it("our own edit before a run, the run's by-products and .git are not someone else's changes", async () => {
    const { p, tools, evidence } = await watched();
    await call(tools, "file_write", { path: "module.py", mode: "overwrite", content: "VALUE = 1\n\n" });
    await call(tools, "bash", { command: PASS });
    writeFileSync(join(p.dir, "pytest-cache-files-abc"), "");
    await sleep(1000);
    expect(evidence.verificationRecords.map((r) => [r.applicability, ...r.postTestEdits.map(String)])).toEqual([["current"]]);
    expect(evidence.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
  });

  it.each([
    ["__pycache__/m.cpython-311.pyc", true],
    [".pytest_cache/v/cache/nodeids", true],
    ["pytest-cache-files-x1y2/README", true],
    [".coverage", true],
    [".coverage.host.123", true],
    ["module.py", false],
    ["conftest.py", false],
    ["coverage_test.py", false],
  ])("%s is a runner by-product: %s", (path, expected) => {
    expect(isRunnerByproduct(path)).toBe(expected);
  });
});
