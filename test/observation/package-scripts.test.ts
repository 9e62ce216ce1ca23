// Package-manager scripts (`npm test`, `npx X`) with the machine's real npm on
// test/fixtures/npm-scripts-project: each form is captured for real, resolved through package.json
// (readPackageManifest), and judged; the truth is the underlying runner's own result on the same tests.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, cpSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { judge } from "../../src/evidence/judge.js";
import { BashEvidence } from "../../src/observation/bash-evidence.js";
import { resolvePackageScripts } from "../../src/observation/package-scripts.js";
import { createBashTool } from "../../src/tools/bash.js";
import { runVerdict } from "../../src/verdict/run-verdict.js";
import { runners as tallyRunners } from "../fixtures/own-runner/tally-runner.js";
import { repoRoot } from "../support/import-graph.js";
import { captureNpm, captureNpmAsync, copyNpmScriptsProject, inPool, type NpmCapture } from "../support/npm-capture.js";
import { tempDirPath } from "../support/temp-dir.js";

interface NpmCase {
  name: string;
  command: string;
  env?: Record<string, string>;
  /** The verdict the real run deserves: `passed` only where the runner itself ran every selected test and all passed. */
  verdict: "passed" | "failed" | "unknown";
  reasons?: string[];
  /** Only for a separate copy of the project (the line changes it). */
  ownCopy?: boolean;
}

const CASES: NpmCase[] = [
  { name: "npm test", command: "npm test", verdict: "passed" },
  { name: "npm run test", command: "npm run test", verdict: "passed" },
  { name: "npm t", command: "npm t", verdict: "passed" },
  { name: "npm run-script test", command: "npm run-script test", verdict: "passed" },
  { name: "npm test --silent", command: "npm test --silent", verdict: "passed" },
  { name: "npm test -s", command: "npm test -s", verdict: "passed" },
  { name: "filter after --", command: "npm run unit -- --test-name-pattern=adds", verdict: "passed" },
  {
    name: "an option after a file is a file to node",
    command: "npm run math -- --test-name-pattern=adds",
    verdict: "unknown",
    reasons: ["usage-error"],
  },
  { name: "failing test", command: "npm test", env: { NPM_FIXTURE_FAIL: "1" }, verdict: "failed", reasons: ["tests-failed"] },
  { name: "failing test through tail", command: "npm test 2>&1 | tail -n 15", env: { NPM_FIXTURE_FAIL: "1" }, verdict: "failed" },
  { name: "cd sub && npm test", command: "cd sub && npm test", verdict: "passed" },
  { name: "npm --prefix sub test", command: "npm --prefix sub test", verdict: "passed" },
  { name: "search upward", command: "cd deeper/inside && npm test", verdict: "passed" },
  { name: "missing script", command: "npm run missing", verdict: "unknown", reasons: ["script-missing"] },
  { name: "missing script, --if-present", command: "npm run missing --if-present", verdict: "unknown", reasons: ["script-missing"] },
  { name: "pytest through npm", command: "npm run py", verdict: "passed" },
  { name: "failing pytest through npm", command: "npm run py", env: { NPM_FIXTURE_FAIL: "1" }, verdict: "failed" },
  { name: "a build step that changes nothing first", command: "npm run build-then-test", verdict: "passed" },
  { name: "an echo after the runner", command: "npm run semi", verdict: "passed" },
  { name: "an unknown program first", command: "npm run prep-then-test", verdict: "unknown", reasons: ["script-unknown-program"] },
  { name: "a script that prints a forged summary", command: "npm run forged", verdict: "unknown", reasons: ["script-no-runner"] },
  { name: "a script that shadows the runner", command: "npm run shadow", verdict: "unknown", reasons: ["shadowed-runner"] },
  // npx runs node_modules/.bin/node first, where a package (or the agent) may have put one.
  { name: "npx node --test", command: "npx node --test test/", verdict: "unknown", reasons: ["shadowed-runner"] },
  { name: "npm exec -- node --test", command: "npm exec -- node --test test/", verdict: "unknown", reasons: ["shadowed-runner"] },
  { name: "npx --yes", command: "npx --yes node --test test/", verdict: "unknown", reasons: ["shadowed-runner"] },
  { name: "npm test || true", command: "npm test || true", env: { NPM_FIXTURE_FAIL: "1" }, verdict: "failed" },
  { name: "npm test && echo OK", command: "npm test && echo OK", verdict: "passed" },
  { name: "nothing matched", command: "npm run unit -- --test-name-pattern=nomatch", verdict: "unknown" },
  {
    name: "package.json written by the line",
    command: `echo '{"name":"x","version":"1.0.0","scripts":{"test":"echo ok"}}' > package.json && npm test`,
    verdict: "unknown",
    reasons: ["script-may-change"],
    ownCopy: true,
  },
];

let project: string;
const captured = new Map<string, NpmCapture>();
const copies: string[] = [];

beforeAll(async () => {
  project = copyNpmScriptsProject();
  copies.push(project);
  const jobs = CASES.map((c) => async () => {
    const cwd = c.ownCopy === true ? copyNpmScriptsProject() : project;
    if (cwd !== project) copies.push(cwd);
    // The package.json of each form is read before it runs, as BashEvidence does.
    const { scripts } = resolvePackageScripts(c.command, { cwd });
    captured.set(c.name, { ...(await captureNpmAsync(c.command, cwd, c.env)), scripts, cwd } as NpmCapture & {
      scripts: unknown;
      cwd: string;
    });
  });
  // Two at a time (the forms that share the project only read it): the machine's cores are shared.
  await inPool(jobs, 2);
}, 240_000);

afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

function judged(c: NpmCase) {
  const capture = captured.get(c.name) as NpmCapture & { scripts: Parameters<typeof judge>[0]["packageScripts"]; cwd: string };
  return judge({
    command: c.command,
    output: capture.output,
    exitCode: capture.exitCode,
    cwd: capture.cwd,
    packageScripts: capture.scripts,
  });
}

describe("package-manager scripts on real npm output", () => {
  it.each(CASES)("$name", (c) => {
    const result = judged(c);
    const capture = captured.get(c.name)!;
    expect({ verdict: result.verdict, output: capture.output.slice(-400) }).toMatchObject({ verdict: c.verdict });
    if (c.reasons !== undefined) expect(result.reasons).toEqual(expect.arrayContaining(c.reasons));
  });

  it("never passes a form whose runner did not pass every selected test (truth: the runner run directly)", () => {
    for (const c of CASES) {
      if (judged(c).verdict !== "passed") continue;
      // The runner's own exit status on the same tests, without the package manager.
      expect(c.env?.NPM_FIXTURE_FAIL).toBeUndefined();
    }
    const direct = execFileSync("node", ["--test", "test/"], { cwd: project, encoding: "utf8" });
    expect(direct).toContain("# fail 0");
  });

  it("reads npm's banner and error lines, not the runner's: the ids are the runner's own", () => {
    const result = judged(CASES[0]!);
    expect(result.runs.map((r) => [r.kind, r.runner, r.outcome])).toEqual([["node-test", "node", "passed"]]);
    expect(result.runs[0]!.passed).toEqual(expect.arrayContaining(["adds", "subtracts", "joins"]));
    expect(result.runs[0]!.passed.some((id) => id.includes("npm"))).toBe(false);
  });

  it("runs in the package's directory: after cd, with --prefix, and found upward", () => {
    expect(judged(CASES.find((c) => c.name === "cd sub && npm test")!).runs[0]!.workspace).toBe(join(project, "sub"));
    expect(judged(CASES.find((c) => c.name === "npm --prefix sub test")!).runs[0]!.workspace).toBe(join(project, "sub"));
    expect(judged(CASES.find((c) => c.name === "search upward")!).runs[0]!.workspace).toBe(project);
  });

  it("a filter after -- reaches the runner: the run is filtered", () => {
    const run = judged(CASES.find((c) => c.name === "filter after --")!).runs[0]!;
    expect({ filtered: run.filtered, passed: run.passed }).toEqual({ filtered: true, passed: ["adds"] });
  });

  it("without package.json data a script run proves nothing", () => {
    const capture = captured.get("npm test")!;
    expect(judge({ command: "npm test", output: capture.output, exitCode: 0 })).toMatchObject({
      verdict: "unknown",
      reasons: ["script-not-resolved"],
    });
  });

  it("a banner that shows another command than the resolved script is script-changed", () => {
    const capture = captured.get("npm test")!;
    const scripts = {
      ".": { dir: ".", name: "npm-scripts-project", version: "1.0.0", scripts: { test: "node --test test/math.test.js" } },
    };
    expect(judge({ command: "npm test", output: capture.output, exitCode: 0, packageScripts: scripts })).toMatchObject({
      verdict: "unknown",
      reasons: ["script-changed"],
    });
  });
});

describe("BashEvidence and the CLI on npm test", () => {
  it("records the script's runner as the run, verified, around the real bash tool", async () => {
    const dir = copyNpmScriptsProject();
    copies.push(dir);
    const bash = new BashEvidence(createBashTool({ cwd: dir, sandbox: false }), { workspace: dir });
    await bash.execute({ command: "npm test" });
    expect(bash.verificationRecords.map((r) => [r.runner, r.outcome, r.verified])).toEqual([["node", "passed", true]]);
    await bash.close();
  }, 60_000);

  it("a pretest that rewrites package.json makes the run script-changed", async () => {
    const dir = copyNpmScriptsProject();
    copies.push(dir);
    const evil = {
      name: "npm-scripts-project",
      version: "1.0.0",
      scripts: {
        pretest: `node -e "const f=require('fs');const p=JSON.parse(f.readFileSync('package.json'));p.scripts.test='echo forged';f.writeFileSync('package.json',JSON.stringify(p))"`,
        test: "node --test test/",
      },
    };
    writeFileSync(join(dir, "package.json"), JSON.stringify(evil));
    const bash = new BashEvidence(createBashTool({ cwd: dir, sandbox: false }), { workspace: dir });
    await bash.execute({ command: "npm test" });
    const records = bash.verificationRecords;
    expect(records.every((r) => r.outcome !== "passed" && !r.verified)).toBe(true);
    await bash.close();
  }, 60_000);

  it("judge --cwd reads package.json from the directory", () => {
    const capture = captured.get("npm test")!;
    const log = join(project, "..", `npm-test-${process.pid}.log`);
    writeFileSync(log, capture.output);
    const cli = join(repoRoot, "dist", "cli", "main.js");
    type CliJudgement = { verdict: string; reasons: string[] };
    const run = (args: string[]): { status: number; json: CliJudgement } => {
      try {
        return { status: 0, json: JSON.parse(execFileSync("node", [cli, "judge", ...args], { encoding: "utf8" })) as CliJudgement };
      } catch (error) {
        const failed = error as { status: number; stdout: string };
        return { status: failed.status, json: JSON.parse(failed.stdout) as CliJudgement };
      }
    };
    expect(run(["--command", "npm test", "--cwd", project, "--exit-code", "0", "--output", log])).toMatchObject({
      status: 0,
      json: { verdict: "passed" },
    });
    expect(run(["--command", "npm test", "--cwd", "/no/such/dir", "--exit-code", "0", "--output", log])).toMatchObject({
      status: 2,
      json: { reasons: ["script-not-resolved"] },
    });
    rmSync(log, { force: true });
  });
});

// pnpm 9.15.9 and yarn 1.22.22 as the repository's devDependencies install them (npm ci), so every
// clone has them; shims put them on PATH under their own names. A machine without them skips and says so.
const MANAGERS = { pnpm: join(repoRoot, "node_modules", ".bin", "pnpm"), yarn: join(repoRoot, "node_modules", ".bin", "yarn") } as const;
const shims = tempDirPath("ae-pm-shims-");
for (const [name, bin] of Object.entries(MANAGERS)) {
  writeFileSync(join(shims, name), `#!/bin/sh\nexec "${bin}" "$@"\n`);
  chmodSync(join(shims, name), 0o755);
}
const shimPath = `${shims}:${process.env.PATH ?? ""}`;
const available = (name: string): boolean =>
  spawnSync(name, ["--version"], { env: { ...process.env, PATH: shimPath }, timeout: 30_000 }).status === 0;

const OTHER_MANAGERS: (NpmCase & { manager: "pnpm" | "yarn" })[] = [
  { manager: "pnpm", name: "pnpm test", command: "pnpm test", verdict: "passed" },
  { manager: "pnpm", name: "pnpm run test", command: "pnpm run test", verdict: "passed" },
  { manager: "pnpm", name: "pnpm test, failing", command: "pnpm test", env: { NPM_FIXTURE_FAIL: "1" }, verdict: "failed" },
  {
    manager: "pnpm",
    name: "pnpm test -- filter (pnpm drops the --)",
    command: "pnpm test -- --test-name-pattern=adds",
    verdict: "unknown",
    reasons: ["usage-error"],
  },
  {
    manager: "pnpm",
    name: "pnpm run unit -- filter (passed on with the --)",
    command: "pnpm run unit -- --test-name-pattern=adds",
    verdict: "unknown",
    reasons: ["usage-error"],
  },
  { manager: "pnpm", name: "pnpm run unit filter", command: "pnpm run unit --test-name-pattern=adds", verdict: "passed" },
  {
    manager: "pnpm",
    name: "pnpm exec node --test",
    command: "pnpm exec node --test test/",
    verdict: "unknown",
    reasons: ["shadowed-runner"],
  },
  { manager: "pnpm", name: "pnpm -C sub test", command: "pnpm -C sub test", verdict: "passed" },
  { manager: "yarn", name: "yarn test", command: "yarn test", verdict: "passed" },
  { manager: "yarn", name: "yarn run test", command: "yarn run test", verdict: "passed" },
  { manager: "yarn", name: "yarn test, failing", command: "yarn test", env: { NPM_FIXTURE_FAIL: "1" }, verdict: "failed" },
  { manager: "yarn", name: "yarn run unit filter", command: "yarn run unit --test-name-pattern=adds", verdict: "passed" },
  { manager: "yarn", name: "yarn --cwd sub test", command: "yarn --cwd sub test", verdict: "passed" },
  { manager: "yarn", name: "yarn run missing", command: "yarn run missing", verdict: "unknown", reasons: ["script-missing"] },
];

describe.each(["pnpm", "yarn"] as const)("%s (the repository's devDependency) on the same project", (manager) => {
  const present = available(manager);
  const cases = OTHER_MANAGERS.filter((c) => c.manager === manager);
  it.skipIf(!present).each(cases)(
    "$name",
    (c) => {
      const { scripts } = resolvePackageScripts(c.command, { cwd: project });
      const capture = captureNpm(c.command, project, { ...c.env, PATH: shimPath });
      const result = judge({
        command: c.command,
        output: capture.output,
        exitCode: capture.exitCode,
        cwd: project,
        packageScripts: scripts,
      });
      expect({ verdict: result.verdict, output: capture.output.slice(-400) }).toMatchObject({ verdict: c.verdict });
      if (c.reasons !== undefined) expect(result.reasons).toEqual(expect.arrayContaining(c.reasons));
      // The manager's own lines never reach the runner: a passing run's ids are node's test names only.
      if (result.verdict === "passed")
        expect(result.runs[0]!.passed.every((id) => ["adds", "subtracts", "joins", "sub works"].includes(id))).toBe(true);
    },
    60_000,
  );
});

afterAll(() => rmSync(shims, { recursive: true, force: true }));

describe("other runners and the other consumers behind a script", () => {
  it("a runner of your own (tally) through npm test, with its registry", () => {
    const dir = tempDirPath("ae-npm-tally-");
    copies.push(dir);
    cpSync(join(repoRoot, "test", "fixtures", "own-runner", "project"), dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "tally-project", version: "1.0.0", scripts: { test: "tally" } }));
    const bin = join(repoRoot, "test", "fixtures", "own-runner", "bin");
    const { scripts } = resolvePackageScripts("npm test", { cwd: dir, runners: tallyRunners });
    const capture = captureNpm("npm test", dir, { PATH: `${bin}:${process.env.PATH ?? ""}` });
    const result = judge({
      command: "npm test",
      output: capture.output,
      exitCode: capture.exitCode,
      cwd: dir,
      packageScripts: scripts,
      runners: tallyRunners,
    });
    expect(result.runs.map((r) => [r.kind, r.outcome])).toEqual([["tally", capture.exitCode === 0 ? "passed" : "failed"]]);
    // Without the definition tally is a program of unknown effect in the script.
    expect(
      judge({ command: "npm test", output: capture.output, exitCode: capture.exitCode, cwd: dir, packageScripts: scripts }),
    ).toMatchObject({ verdict: "unknown", reasons: ["script-unknown-program"] });
    // npx finds tally on PATH (no package provides it here): an exec form in front of the runner.
    const npx = captureNpm("npx --no-install tally", dir, { PATH: `${bin}:${process.env.PATH ?? ""}` });
    expect(
      judge({ command: "npx --no-install tally", output: npx.output, exitCode: npx.exitCode, cwd: dir, runners: tallyRunners }).runs.map(
        (r) => [r.kind, r.outcome],
      ),
    ).toEqual([["tally", npx.exitCode === 0 ? "passed" : "failed"]]);
  }, 60_000);

  it("agent-evidence run follows npm test into its script and does not instrument it", async () => {
    const dir = copyNpmScriptsProject();
    copies.push(dir);
    const verdict = await runVerdict({ command: "npm test", cwd: dir, outDir: join(dir, "..", `ae-npm-run-${process.pid}`) });
    copies.push(join(dir, "..", `ae-npm-run-${process.pid}`));
    expect({ status: verdict.status, instrumented: verdict.instrumentedCommand, kinds: verdict.runs.map((r) => r.kind) }).toEqual({
      status: "passed",
      instrumented: null,
      kinds: ["node-test"],
    });
  }, 60_000);

  it("cutting a passing capture's end never leaves a pass, nor does a clipped flag", () => {
    for (const c of CASES) {
      const capture = captured.get(c.name) as NpmCapture & { scripts: Parameters<typeof judge>[0]["packageScripts"]; cwd: string };
      const base = { command: c.command, exitCode: capture.exitCode, cwd: capture.cwd, packageScripts: capture.scripts };
      if (judge({ ...base, output: capture.output }).verdict !== "passed") continue;
      expect(judge({ ...base, output: capture.output, outputTruncated: true }).verdict, c.name).not.toBe("passed");
      const lines = capture.output.split("\n");
      // Keep the first n lines, for every n that drops a line of the runner's summary or later.
      const summaryAt = lines.findIndex((line) => /^(# tests|ℹ tests|\d+ passed)/.test(line));
      // node's summary is eight lines: a cut inside it leaves no summary either.
      const last = summaryAt + (lines[summaryAt]!.startsWith("# tests") ? 7 : 0);
      expect(summaryAt, c.name).toBeGreaterThan(0);
      for (let n = 1; n <= last; n++) {
        expect(judge({ ...base, output: lines.slice(0, n).join("\n") }).verdict, `${c.name}, first ${n} lines`).not.toBe("passed");
      }
    }
  });
});
