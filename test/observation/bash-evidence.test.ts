// BashEvidence around the real bash tool: transparency, refused commands, copies, history bound,
// isolation, and the go and Django runners.
import { afterEach, describe, expect, it } from "vitest";

import type { Tool, ToolResult } from "../../src/host/tool.js";
import { BashEvidence, type BashLikeInput } from "../../src/observation/bash-evidence.js";
import { bashInputSchema } from "../../src/tools/bash.js";
import { copyFixture, makeProject, observedBash, PYTEST_FILES, realBash, type TempProject } from "../evidence/ledger-helpers.js";
import { TOOLCHAIN_PATHS } from "../support/toolchain.js";

const PASS = "python -m pytest -rA t.py";
const projects: TempProject[] = [];
const project = (made: TempProject = makeProject(PYTEST_FILES)): TempProject => {
  projects.push(made);
  return made;
};
afterEach(() => {
  for (const made of projects.splice(0)) made.cleanup();
});

/** A bash-shaped tool that records every input and context it receives. */
function recordingTool(): Tool<BashLikeInput, unknown> & { inputs: BashLikeInput[] } {
  const inputs: BashLikeInput[] = [];
  return {
    name: "bash",
    description: "records commands",
    inputSchema: bashInputSchema,
    inputs,
    execute(input: BashLikeInput): Promise<ToolResult<unknown>> {
      inputs.push(structuredClone(input));
      return Promise.resolve({ text: `ran ${input.command}\nExit code: 0` });
    },
  };
}

describe("transparency", () => {
  const inputs: BashLikeInput[] = [
    { command: "echo out; echo err >&2; exit 3" },
    { command: "printf 'a%.0s' $(seq 1 30000)", timeoutMs: 20_000 },
    { command: "sleep 5", timeoutMs: 300 },
    { command: "rm -rf /" },
    { command: PASS, timeoutMs: null },
  ];

  it("wrapped and unwrapped bash return identical text", async () => {
    const p = project();
    const raw = realBash(p, { maxOutputChars: 500 });
    const wrapped = new BashEvidence(realBash(p, { maxOutputChars: 500 }), { workspace: p.dir });
    expect([wrapped.name, wrapped.description, wrapped.inputSchema]).toEqual([raw.name, raw.description, raw.inputSchema]);
    const scrub = (text: string): string => text.replace(/\d+\.\d+s/g, "Ns");
    for (const input of inputs) {
      const [a, b] = [await raw.execute(input), await wrapped.execute(input)];
      expect([scrub(b.text), b.isError]).toEqual([scrub(a.text), a.isError]);
    }
  });

  it("wrapped and unwrapped bash receive identical commands", async () => {
    const raw = recordingTool();
    const inner = recordingTool();
    const wrapped = new BashEvidence(inner, { workspace: null });
    for (const input of inputs) {
      const [a, b] = [await raw.execute(input), await wrapped.execute(input)];
      expect(b).toEqual(a);
    }
    expect(inner.inputs).toEqual(raw.inputs);
  });
});

describe("BashEvidence with the real bash tool", () => {
  it("a command refused by the policy never runs and invalidates nothing", async () => {
    const bash = observedBash(project());
    await bash.execute({ command: PASS });
    const refused = await bash.execute({ command: "rm -rf /" });
    expect(refused.isError).toBe(true);
    expect(bash.verificationRecords.map((r) => [r.applicability, r.postTestCommands])).toEqual([["current", []]]);
    expect(bash.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
  });

  it("headless with bubblewrap: a real pytest pass is evidence", async () => {
    const bash = observedBash(project(), { headless: true, readablePaths: TOOLCHAIN_PATHS });
    const result = await bash.execute({ command: PASS });
    expect((result.data as { sandbox?: string }).sandbox).toBe("bubblewrap");
    expect(bash.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
  });

  it("records are copies", async () => {
    const bash = observedBash(project());
    await bash.execute({ command: PASS });
    const [record] = bash.verificationRecords;
    if (record === undefined) throw new Error("no record");
    record.applicability = "unknown";
    record.passed.push("forged");
    record.postTestEdits.push("x.py");
    const targets = bash.verifiedTargets;
    targets.push("forged");
    expect(bash.verificationRecords.map((r) => [r.applicability, r.passed, r.postTestEdits])).toEqual([["current", ["t.py::test_a"], []]]);
    expect(bash.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
  });

  it("maxRecords bounds the history kept in memory", async () => {
    const bash = observedBash(project(), {}, { maxRecords: 2 });
    for (let i = 0; i < 3; i += 1) await bash.execute({ command: PASS });
    expect(bash.verificationRecords.map((r) => r.seq)).toEqual([2, 3]);
    expect(bash.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
  });

  it("go test -json ./... clears the package targets beneath it", async () => {
    const p = project(copyFixture("go-project"));
    const bash = observedBash(p, { timeoutMs: 300_000 });
    await bash.execute({ command: "go test -json ./calc" });
    expect(bash.verifiedTargets.filter((t) => !t.includes("::"))).toEqual(["./calc"]);
    await bash.execute({ command: "go test -json ./..." });
    expect(bash.verifiedTargets).toEqual([]);
    expect(bash.verificationRecords.map((r) => [r.target, r.verified])).toEqual([
      ["./calc", true],
      ["./...", false],
    ]);
  }, 300_000);

  it("Django: python tests/runtests.py -v 2 label verifies the label", async () => {
    const p = project(copyFixture("django-project"));
    const bash = observedBash(p);
    await bash.execute({ command: "/usr/bin/python3 tests/runtests.py -v 2 basic" });
    expect(bash.verificationRecords.map((r) => [r.target, r.verified, r.applicability])).toEqual([["basic", true, "current"]]);
    expect(bash.verifiedTargets).toContain("basic");
    await bash.execute({ command: "/usr/bin/python3 tests/runtests.py -v 2 basic.tests.BasicTests --failfast -k nothing_matches" });
    expect(bash.verifiedTargets.filter((t) => t === "basic" || t.startsWith("basic.tests.BasicTests"))).toEqual([]);
  }, 120_000);
});
