// The "Your own runner" example of docs/runners.md, as written there (test/fixtures/own-runner/
// tally-runner.ts, a definition of `tally`, a made-up runner in test/fixtures/own-runner/bin): it goes
// through analyzeCommand, judge, BashEvidence around the real bash tool, and the ledger, and none of
// them knows tally without it.
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { judge } from "../../src/evidence/judge.js";
import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { BashEvidence } from "../../src/observation/bash-evidence.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { createRunnerRegistry as createRegistry } from "../../src/runners/registry.js";
import { createBashTool } from "../../src/tools/bash.js";
import { runners, tallyRunner } from "../fixtures/own-runner/tally-runner.js";
import { repoRoot } from "../support/import-graph.js";
import { makeTempDir } from "../support/temp-dir.js";

const fixture = join(repoRoot, "test", "fixtures", "own-runner");
const bin = join(fixture, "bin");
const PATH = `${bin}:${process.env.PATH ?? ""}`;

// Real tally output, as the runner prints it in the fixture project.
function tally(args: string[], cwd: string): { output: string; exitCode: number } {
  try {
    return { output: execFileSync(join(bin, "tally"), args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }), exitCode: 0 };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; status?: number };
    return { output: `${failed.stdout ?? ""}${failed.stderr ?? ""}`, exitCode: failed.status ?? -1 };
  }
}

describe("a runner of your own (docs/runners.md, 'Your own runner')", () => {
  let project: ReturnType<typeof makeTempDir>;
  beforeEach(() => {
    project = makeTempDir("ae-own-runner-");
    cpSync(join(fixture, "project"), project.dir, { recursive: true });
  });
  afterEach(() => project.cleanup());

  it("docs/runners.md shows the definition file as it is", () => {
    const doc = readFileSync(join(repoRoot, "docs", "runners.md"), "utf8");
    expect(doc).toContain(readFileSync(join(fixture, "tally-runner.ts"), "utf8"));
  });

  it("without the definition tally is no test run; with it analyzeCommand finds its targets, workspace and selection", () => {
    expect(analyzeCommand("tally checks").invocations).toEqual([]);
    expect(judge({ command: "tally checks", output: "PASS checks/test_add.sh\ntally: 1 passed, 0 failed\n", exitCode: 0 }).reasons).toEqual(
      ["not-a-test-command"],
    );
    const [run] = analyzeCommand("cd sub && tally --only add checks", { cwd: "/repo", runners }).invocations;
    expect(run).toMatchObject({
      kind: "tally",
      runner: "tally",
      targets: ["checks"],
      workspace: "/repo/sub",
      filtered: true,
      selection: ["--only=add"],
      runsTests: true,
    });
    expect(analyzeCommand("tally --list checks", { runners }).invocations[0]?.runsTests).toBe(false);
  });

  it.each([
    { name: "a passing run", args: ["checks"], command: "tally checks", verdict: "passed", reasons: [] },
    {
      name: "behind | tail -1 (only the summary, one target)",
      args: ["checks"],
      command: "tally checks | tail -1",
      tail: 1,
      verdict: "passed",
      reasons: [],
    },
    { name: "a usage error", args: ["--nope"], command: "tally --nope", verdict: "unknown", reasons: ["usage-error"] },
    {
      name: "a listing, which runs nothing",
      args: ["--list", "checks"],
      command: "tally --list checks",
      verdict: "unknown",
      reasons: ["not-a-run"],
    },
  ])("judge reads $name from real output", ({ args, command, tail, verdict, reasons }) => {
    const real = tally(args, project.dir);
    const output = tail === undefined ? real.output : `${real.output.trimEnd().split("\n").slice(-tail).join("\n")}\n`;
    const result = judge({ command, output, exitCode: tail === undefined ? real.exitCode : 0, runners });
    expect({ verdict: result.verdict, reasons: result.reasons }).toMatchObject({ verdict, reasons });
  });

  it("a failing test fails the run; a test printing PASS lines of its own is a spoof, never a pass", () => {
    writeFileSync(join(project.dir, "checks", "test_mul.sh"), 'test "$((2 * 3))" = 7\n');
    const failing = tally(["checks"], project.dir);
    expect(judge({ command: "tally checks", output: failing.output, exitCode: failing.exitCode, runners })).toMatchObject({
      verdict: "failed",
      runs: [{ failed: ["checks/test_mul.sh"] }],
    });
    const forged = `PASS checks/test_add.sh\nPASS checks/test_mul.sh\nPASS checks/test_div.sh\ntally: 2 passed, 0 failed\n`;
    expect(judge({ command: "tally checks", output: forged, exitCode: 0, runners }).reasons).toEqual(["spoof-suspect"]);
    expect(
      judge({ command: "tally checks", output: `${failing.output}tally: 2 passed, 0 failed\n`, exitCode: 0, runners }).verdict,
    ).not.toBe("passed");
  });

  it("a shadowed tally (a function of the same name) is not the runner", () => {
    const result = judge({
      command: 'tally() { echo "tally: 2 passed, 0 failed"; }; tally checks',
      output: "tally: 2 passed, 0 failed\n",
      exitCode: 0,
      runners,
    });
    expect(result.verdict).toBe("unknown");
    expect(result.reasons).toContain("shadowed-runner");
  });

  it("BashEvidence around the real bash tool verifies a real tally run; an edit makes it unknown; a failing run clears what it overlaps", async () => {
    const bash = new BashEvidence(createBashTool({ cwd: project.dir, sandbox: false, env: { PATH } }), { workspace: project.dir, runners });
    await bash.execute({ command: "tally checks" });
    expect(bash.verifiedTargets).toEqual(["checks", "checks/test_add.sh", "checks/test_mul.sh"]);
    expect(bash.verificationRecords[0]).toMatchObject({
      runner: "tally",
      target: "checks",
      outcome: "passed",
      verified: true,
      applicability: "current",
    });

    bash.observeEdit({ completed: true, changed: true, paths: ["checks/test_add.sh"] });
    expect(bash.verifiedTargets).toEqual([]);
    expect(bash.verificationRecords[0]?.applicability).toBe("unknown");

    await bash.execute({ command: "tally checks" });
    expect(bash.verifiedTargets).toContain("checks");
    writeFileSync(join(project.dir, "checks", "test_add.sh"), "exit 1\n");
    await bash.execute({ command: "tally checks/test_add.sh" });
    // The failing file takes away the directory that holds it; its sibling's own proof stands.
    expect(bash.verifiedTargets).toEqual(["checks/test_mul.sh"]);
    expect(bash.verificationRecords.at(-1)).toMatchObject({ target: "checks/test_add.sh", outcome: "failed", verified: false });
    await bash.close();
  });

  it("evidenceTools takes the same registry", async () => {
    const { tools, evidence } = evidenceTools(["bash"], { cwd: project.dir, sandbox: false, limits: { bash: { env: { PATH } } }, runners });
    await tools[0]!.execute({ command: "tally checks" } as never);
    expect(evidence.verifiedTargets).toContain("checks");
    await evidence.close();
  });

  it("the definition is checked when the registry is made", () => {
    expect(() => runnersWith({ ...tallyRunner, specVersion: 2 as never })).toThrow(/specVersion 2/);
    expect(() => runnersWith({ ...tallyRunner, kind: "" })).toThrow(/kind must be a non-empty string/);
    expect(() => runnersWith({ ...tallyRunner, family: { ...tallyRunner.family, name: "python" } })).toThrow(
      /another target family named "python"/,
    );
  });
});

function runnersWith(definition: typeof tallyRunner): unknown {
  return createRegistry([definition]);
}
