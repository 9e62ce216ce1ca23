// `agent-evidence run` and `verify-verdict`: the built CLI on real runners. stdout holds exactly
// the verdict as one JSON line; exit 0/1/2/3 by status, 64 for usage errors.
import { spawnSync } from "node:child_process";
import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { verdictSchema } from "../../src/verdict/schema.js";
import { tempDirPath } from "../support/temp-dir.js";
import { caseArgs, prepareCase, suiteEnv, VERDICT_CASES, type VerdictCase } from "../verdict/verdict-cases.js";

const cli = resolve(import.meta.dirname, "../../dist/cli/main.js");

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function runCli(args: string[], env: NodeJS.ProcessEnv = suiteEnv()): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", env, maxBuffer: 1 << 26 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function runCase(spec: VerdictCase): { status: number | null; stdout: string; stderr: string; outDir: string; dir: string } {
  const { dir, env } = prepareCase(spec);
  const outDir = tempDirPath("ae-verdict-cli-");
  dirs.push(dir, outDir);
  return { ...runCli(caseArgs(spec, dir, outDir), env), outDir, dir };
}

describe("agent-evidence run: the acceptance cases", () => {
  it.each(VERDICT_CASES.map((spec) => [spec.name, spec] as const))("%s", (_name, spec) => {
    const result = runCase(spec);
    const lines = result.stdout.split("\n");
    const verdict = verdictSchema.parse(JSON.parse(lines[0] ?? ""));
    expect({
      status: verdict.status,
      reasons: verdict.reasons,
      exit: result.status,
      junit: verdict.junit,
      instrumented: verdict.instrumentedCommand !== null,
    }).toEqual(spec.expected);
    // One line on stdout, the same document as verdict.json.
    expect(lines.slice(1)).toEqual([""]);
    expect(JSON.parse(readFileSync(join(result.outDir, "verdict.json"), "utf8"))).toEqual(verdict);
  });
});

describe("agent-evidence run: where the artefacts go", () => {
  const pass = VERDICT_CASES.find((c) => c.name === "a passing suite")!;

  it("by default, to a new directory under the state home, named on stderr: the repository gets nothing", () => {
    const { dir, env } = prepareCase(pass);
    const state = tempDirPath("ae-run-state-");
    dirs.push(dir, state);
    const before = readdirSync(dir, { recursive: true }).sort();
    // pytest itself writes nothing here either: no cache, no bytecode (suiteEnv), no benchmark store.
    const result = runCli(["run", "--cwd", dir, "--cmd", "python3 -m pytest -q -p no:cacheprovider -p no:benchmark tests/test_pass.py"], {
      ...env,
      XDG_STATE_HOME: state,
    });
    expect(result.status, result.stderr).toBe(0);
    const named = /^agent-evidence run: verdict (\S+), log (\S+)$/m.exec(result.stderr);
    expect(named?.[1]).toMatch(new RegExp(`^${state}/agent-evidence/runs/[^/]+/verdict\\.json$`));
    expect(JSON.parse(readFileSync(named![1]!, "utf8"))).toEqual(JSON.parse(result.stdout));
    expect(readFileSync(named![2]!, "utf8")).toMatch(/10 passed/);
    expect(readdirSync(dir, { recursive: true }).sort()).toEqual(before);
  });

  it("--out creates a missing directory; one that is a file exits 73 before the suite runs", () => {
    const { dir, env } = prepareCase(pass);
    const out = tempDirPath("ae-run-out-");
    dirs.push(dir, out);
    const nested = join(out, "a", "b");
    expect(
      runCli(["run", "--cwd", dir, "--out", nested, "--cmd", "python3 -m pytest -q -p no:cacheprovider tests/test_pass.py"], env).status,
    ).toBe(0);
    expect(readdirSync(nested).sort()).toEqual(["suite.log", "suite.log.junit.xml", "verdict.json"]);
    writeFileSync(join(out, "file"), "");
    const refused = runCli(["run", "--cwd", dir, "--out", join(out, "file"), "--cmd", "touch ran"], env);
    expect(refused.status).toBe(73);
    expect(refused.stderr).toMatch(/^agent-evidence: run: cannot write the output directory \S+file \(EEXIST\)\n$/);
    expect(readdirSync(dir)).not.toContain("ran");
  });
});

describe("agent-evidence run: command forms and output", () => {
  const pass = VERDICT_CASES.find((c) => c.name === "a passing suite")!;

  it("-- COMMAND... and --cmd give the same command; the suite output goes to stderr and the log", () => {
    const words = { ...pass, command: ["python3", "-m", "pytest", "-q", "tests/test_pass.py"] };
    const str = { ...pass, command: "python3 -m pytest -q tests/test_pass.py" };
    const a = runCase(words);
    const b = runCase(str);
    const va = verdictSchema.parse(JSON.parse(a.stdout));
    const vb = verdictSchema.parse(JSON.parse(b.stdout));
    const log = readFileSync(join(a.outDir, "suite.log"), "utf8");
    expect({
      commands: [va.command, vb.command],
      instrumented: va.instrumentedCommand,
      statuses: [a.status, b.status],
      logInStderr: a.stderr.includes(log),
      summary: /10 passed in/.test(log),
      bytes: va.bytes === Buffer.byteLength(log),
      progress: /agent-evidence run: [\d.]+s,/.test(a.stderr),
      paths: a.stderr.startsWith(`agent-evidence run: verdict ${join(a.outDir, "verdict.json")}, log ${join(a.outDir, "suite.log")}\n`),
    }).toEqual({
      commands: ["python3 -m pytest -q tests/test_pass.py", "python3 -m pytest -q tests/test_pass.py"],
      instrumented: `python3 -m pytest -q tests/test_pass.py --junitxml=${join(a.outDir, "suite.log")}.junit.xml`,
      statuses: [0, 0],
      logInStderr: true,
      summary: true,
      bytes: true,
      progress: false,
      paths: true,
    });
  });

  it.each([
    ["no command", ["run"], /missing command/],
    ["both --cmd and words", ["run", "--cmd", "pytest", "--", "pytest"], /either with --cmd or after --, not both/],
    ["a bad --timeout", ["run", "--timeout", "soon", "--cmd", "pytest"], /--timeout must be a positive number/],
    ["a missing --cwd", ["run", "--cwd", "/nonexistent/dir", "--cmd", "pytest"], /--cwd \/nonexistent\/dir is not a directory/],
    ["an unknown option", ["run", "--frobnicate", "--cmd", "pytest"], /unknown option '--frobnicate'/],
    ["verify-verdict without a file", ["verify-verdict"], /missing required argument/],
  ])("usage error: %s exits 64 with one line and nothing on stdout", (_name, args, message) => {
    const result = runCli(args);
    expect({ status: result.status, stdout: result.stdout, lines: result.stderr.trim().split("\n").length }).toEqual({
      status: 64,
      stdout: "",
      lines: 1,
    });
    expect(result.stderr).toMatch(message);
  });
});

describe("agent-evidence verify-verdict", () => {
  const pass = VERDICT_CASES.find((c) => c.name === "a passing suite")!;

  it.each([
    ["unchanged files", (_outDir: string): void => undefined, 0, []],
    ["a changed log", (outDir: string): void => appendFileSync(join(outDir, "suite.log"), "10 passed in 0.1s\n"), 1, ["log changed"]],
    [
      "a changed report",
      (outDir: string): void => appendFileSync(join(outDir, "suite.log.junit.xml"), "<!-- -->\n"),
      1,
      ["report changed"],
    ],
    ["a deleted log", (outDir: string): void => rmSync(join(outDir, "suite.log")), 1, ["log missing"]],
  ] as const)("%s", (_name, change, status, problems) => {
    const run = runCase(pass);
    change(run.outDir);
    const result = runCli(["verify-verdict", join(run.outDir, "verdict.json")]);
    const body = JSON.parse(result.stdout) as { ok: boolean; problems: string[]; status: string };
    expect({ status: result.status, ok: body.ok, problems: body.problems.map((p) => p.split(":")[0]), verdict: body.status }).toEqual({
      status,
      ok: status === 0,
      problems,
      verdict: "passed",
    });
  });

  it("a verdict that does not parse exits 1", () => {
    const dir = tempDirPath("ae-verdict-bad-");
    dirs.push(dir);
    const path = join(dir, "verdict.json");
    appendFileSync(path, '{"schemaVersion": 2}\n');
    const result = runCli(["verify-verdict", path]);
    expect({ status: result.status, ok: (JSON.parse(result.stdout) as { ok: boolean }).ok }).toEqual({ status: 1, ok: false });
  });
});
