// evidenceTools: fresh toolsets, independence, and option validation.
import { afterEach, describe, expect, it } from "vitest";

import { EvidenceError } from "../../src/errors.js";
import type { Tool } from "../../src/host/tool.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { FAST_PYTEST, makeProject, PYTEST_FILES, type TempProject } from "../evidence/ledger-helpers.js";

const projects: TempProject[] = [];
afterEach(() => {
  for (const made of projects.splice(0)) made.cleanup();
});

async function call(tools: Tool<never, unknown>[], name: string, input: Record<string, unknown>): Promise<{ text: string }> {
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return (tool as unknown as Tool<Record<string, unknown>, unknown>).execute(input);
}

describe("evidenceTools", () => {
  it("two toolsets are independent", async () => {
    const p = makeProject(PYTEST_FILES);
    projects.push(p);
    const options = { cwd: p.dir, headless: false, limits: { bash: { tempDir: p.scratch, env: FAST_PYTEST } } };
    const first = evidenceTools(["bash", "file_write"], options);
    const second = evidenceTools(["bash", "file_write"], options);
    expect(first.tools[0]).not.toBe(second.tools[0]);
    await call(first.tools, "bash", { command: "python -m pytest -rA t.py" });
    expect(first.evidence.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
    expect(second.evidence.verificationRecords).toEqual([]);
    await call(second.tools, "file_write", { path: "module.py", mode: "overwrite", content: "VALUE = 1  # changed\n" });
    expect(first.evidence.verificationRecords.map((r) => r.applicability)).toEqual(["current"]);
  });

  it("without bash nothing is observed, but the evidence has its shape", async () => {
    const p = makeProject(PYTEST_FILES);
    projects.push(p);
    const { tools, evidence } = evidenceTools(["file_write", "file_read"], { cwd: p.dir });
    await call(tools, "file_write", { path: "module.py", mode: "overwrite", content: "VALUE = 2\n" });
    expect([tools.map((t) => t.name), evidence.verificationRecords, evidence.verifiedTargets]).toEqual([
      ["file_write", "file_read"],
      [],
      [],
    ]);
  });

  it("limits reach the selected tool", async () => {
    const p = makeProject(PYTEST_FILES);
    projects.push(p);
    const { tools } = evidenceTools(["bash"], {
      cwd: p.dir,
      headless: false,
      limits: { bash: { maxOutputChars: 100, tempDir: p.scratch } },
    });
    const { text } = await call(tools, "bash", { command: "seq 1 2000" });
    expect(text.length).toBeLessThan(400);
  });
});

describe("option validation", () => {
  it.each([
    ["an unknown tool name", ["bash", "shell"], {}, "E_UNKNOWN_TOOL", /"shell"/],
    ["a duplicate tool name", ["bash", "bash"], {}, "E_DUPLICATE_TOOL", /"bash"/],
    ["limits for an unselected tool", ["bash"], { limits: { grep: {} } }, "E_INVALID_OPTION", /"grep".*not selected/],
    ["limits that are not an object", ["bash"], { limits: { bash: 5 } }, "E_INVALID_OPTION", /limits\.bash/],
    ["a wrongly typed boolean", ["bash"], { headless: "yes" }, "E_INVALID_OPTION", /"headless".*boolean/],
    ["a wrongly typed cwd", ["bash"], { cwd: 3 }, "E_INVALID_OPTION", /"cwd"/],
    ["a non-positive maxRecords", ["bash"], { maxRecords: 0 }, "E_INVALID_OPTION", /"maxRecords"/],
    ["an unknown option", ["bash"], { verbose: true }, "E_INVALID_OPTION", /"verbose"/],
    ["a wrongly typed journal", ["bash"], { journal: 1 }, "E_INVALID_OPTION", /"journal"/],
    ["a wrongly typed journal seal", ["bash"], { journal: "/x/j.jsonl", journalSeal: 2 }, "E_INVALID_OPTION", /"journalSeal"/],
    [
      "a journal in the sandbox's /tmp (the bash temp dir)",
      ["bash"],
      { journal: "/var/tmp/ae-x/j.jsonl", limits: { bash: { tempDir: "/var/tmp/ae-x" } } },
      "E_INVALID_OPTION",
      /"journal".*sandbox can write/,
    ],
    [
      "a journal in a path bash may write",
      ["bash"],
      { journal: "/var/cache/ae/j.jsonl", journalSeal: "/opt/s.seal", limits: { bash: { writablePaths: ["/var/cache"] } } },
      "E_INVALID_OPTION",
      /"journal".*sandbox can write/,
    ],
    [
      "a seal in a path bash may write",
      ["bash"],
      { journal: "/opt/j.jsonl", journalSeal: "/var/cache/ae/s.seal", limits: { bash: { writablePaths: ["/var/cache"] } } },
      "E_INVALID_OPTION",
      /"journalSeal".*sandbox can write/,
    ],
    [
      "a journal inside the workspace",
      ["bash"],
      { cwd: "/var/tmp", journal: "/var/tmp/j.jsonl", journalSeal: "/opt/s.seal" },
      "E_INVALID_OPTION",
      /"journal".*inside the workspace/,
    ],
    ["an unknown invalidation mode", ["bash"], { invalidation: "paranoid" }, "E_INVALID_OPTION", /"invalidation".*conservative.*snapshot/],
    ["a wrongly typed watch", ["bash"], { watch: 1 }, "E_INVALID_OPTION", /"watch".*boolean/],
  ])("%s", (_name, names, options, code, message) => {
    let thrown: unknown;
    try {
      evidenceTools(names, options as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(EvidenceError);
    const error = thrown as EvidenceError;
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(error.message.trim().split(/\.\s+[A-Z]/)).toHaveLength(1);
  });
});

describe("a run the bash tool's own timeout kills", () => {
  it("is a timeout, not a failure the runner never printed (found by the candidates' cross-check)", async () => {
    const p = makeProject({
      "conftest.py": "",
      "t.py": "import time\n\n\ndef test_a():\n    pass\n\n\ndef test_slow():\n    time.sleep(30)\n",
    });
    projects.push(p);
    const { tools, evidence } = evidenceTools(["bash"], {
      cwd: p.dir,
      headless: false,
      limits: { bash: { tempDir: p.scratch, env: FAST_PYTEST } },
    });
    await call(tools, "bash", { command: "python -m pytest -v t.py", timeoutMs: 3000 });
    expect(evidence.verificationRecords.map((r) => [r.exitCode, r.timedOut, r.outcome, r.verified, r.reasons])).toEqual([
      [124, true, "unknown", false, ["timeout"]],
    ]);
    await evidence.close();
  });
});
