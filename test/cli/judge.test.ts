// `agent-evidence judge`: the built CLI on captured outputs; one JSON object, exit 0/1/2/64.
import { spawnSync } from "node:child_process";
import { rmSync, utimesSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { judge } from "../../src/evidence/judge.js";
import { ensureCaptured, loadCapture } from "../support/capture.js";
import { tempDirPath } from "../support/temp-dir.js";

const cli = resolve(import.meta.dirname, "../../dist/cli/main.js");
const RUN_FIELDS = [
  "kind",
  "runner",
  "targets",
  "workspace",
  "filtered",
  "baseline",
  "outcome",
  "passed",
  "failed",
  "skipped",
  "reasons",
  "gates",
];

function runCli(args: string[], input = ""): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, "judge", ...args], { input, encoding: "utf8", maxBuffer: 1 << 26 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface CliJson {
  schemaVersion: number;
  verdict: string;
  reasons: string[];
  runs: Record<string, unknown>[];
}

let dir = "";
beforeAll(async () => {
  await ensureCaptured();
  dir = tempDirPath("ae-judge-cli-");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("agent-evidence judge: exit statuses", () => {
  it.each([
    ["a passing summary", ["--command", "pytest -q", "--exit-code", "0"], `${".....".padEnd(73)}[100%]\n5 passed in 0.10s\n`, 0, "passed"],
    ["a lone summary (no progress mark before it)", ["--command", "pytest -q", "--exit-code", "0"], "5 passed in 0.10s\n", 2, "unknown"],
    [
      "a failing summary behind tail",
      ["--command", "pytest -q 2>&1 | tail -3", "--exit-code", "0"],
      "1 failed, 4 passed in 0.50s\n",
      1,
      "failed",
    ],
    ["nothing ran", ["--command", "pytest -q", "--exit-code", "5"], "no tests ran in 0.01s\n", 2, "unknown"],
    ["clipped output", ["--command", "pytest -q", "--exit-code", "0", "--truncated"], "5 passed in 0.10s\n", 2, "unknown"],
    ["not a test command", ["--command", "echo 12 passed"], "12 passed\n", 2, "unknown"],
  ])("%s", (_name, args, input, status, verdict) => {
    const result = runCli(args, input);
    expect({ status: result.status, verdict: (JSON.parse(result.stdout) as CliJson).verdict }).toEqual({ status, verdict });
  });

  it.each([
    ["no --command", [], /required option '--command <cmd>'/],
    ["a non-integer --exit-code", ["--command", "pytest", "--exit-code", "zero"], /--exit-code must be an integer/],
    ["a bad --started-at", ["--command", "pytest", "--started-at", "yesterday-ish"], /--started-at must be an ISO date-time/],
    [
      "an unreadable --output",
      ["--command", "pytest", "--output", "/nonexistent/out.log"],
      /cannot read --output \/nonexistent\/out.log \(ENOENT\)/,
    ],
    [
      "an unreadable --junit",
      ["--command", "pytest", "--junit", "/nonexistent/junit.xml"],
      /cannot read --junit \/nonexistent\/junit.xml \(ENOENT\)/,
    ],
    ["an unknown option", ["--command", "pytest", "--frobnicate"], /unknown option '--frobnicate'/],
  ])("usage error: %s exits 64 with one line", (_name, args, message) => {
    const result = runCli(args);
    expect({ status: result.status, stdout: result.stdout, lines: result.stderr.trim().split("\n").length }).toEqual({
      status: 64,
      stdout: "",
      lines: 1,
    });
    expect(result.stderr).toMatch(message);
  });
});

describe("agent-evidence judge: output", () => {
  it("prints exactly the contract's fields, the same verdict as judge(), reading --output FILE", () => {
    const run = loadCapture("py9-rA-pass");
    const file = join(dir, "py9-rA-pass.out");
    writeFileSync(file, run.output);
    const result = runCli(["--command", run.line, "--cwd", run.cwd, "--exit-code", String(run.exitCode), "--output", file]);
    const json = JSON.parse(result.stdout) as CliJson;
    const direct = judge({ command: run.line, output: run.output, exitCode: run.exitCode, cwd: run.cwd });
    expect({ status: result.status, keys: Object.keys(json), runKeys: json.runs.map((r) => Object.keys(r)) }).toEqual({
      status: 0,
      keys: ["schemaVersion", "verdict", "reasons", "runs"],
      runKeys: [RUN_FIELDS],
    });
    expect(json).toEqual({
      schemaVersion: 1,
      verdict: direct.verdict,
      reasons: direct.reasons,
      runs: direct.runs.map((r) => Object.fromEntries(RUN_FIELDS.map((f) => [f, r[f as keyof typeof r]]))),
    });
    expect(json.runs[0]).toMatchObject({ workspace: run.cwd, outcome: "passed" });
  });

  it("reads stdin; a failing captured run exits 1 with its failed ids", () => {
    const run = loadCapture("py9-echo-done");
    const result = runCli(["--command", run.line, "--cwd", run.cwd, "--exit-code", String(run.exitCode)], run.output);
    const json = JSON.parse(result.stdout) as CliJson;
    expect({ status: result.status, verdict: json.verdict, failed: [...(json.runs[0]!.failed as string[])].sort() }).toEqual({
      status: 1,
      verdict: "failed",
      failed: [...judge({ command: run.line, output: run.output, exitCode: run.exitCode, cwd: run.cwd }).runs[0]!.failed].sort(),
    });
  });

  it("--cwd is text: a directory that does not exist here is the workspace", () => {
    const json = JSON.parse(
      runCli(["--command", "cd sub && pytest -q", "--cwd", "/nowhere/repo", "--exit-code", "0"], "5 passed in 0.10s\n").stdout,
    ) as CliJson;
    expect(json.runs.map((r) => r.workspace)).toEqual(["/nowhere/repo/sub"]);
  });

  it("--junit with --started-at: a report older than the run is stale; without --started-at it is read", () => {
    const run = loadCapture("py9-rA-pass");
    const xml = join(dir, "junit.xml");
    writeFileSync(xml, run.junitXml ?? "");
    utimesSync(xml, new Date("2024-01-01T00:00:00Z"), new Date("2024-01-01T00:00:00Z"));
    const args = ["--command", run.line, "--cwd", run.cwd, "--exit-code", "0", "--junit", xml];
    const stale = runCli([...args, "--started-at", "2024-01-01T00:05:00Z"], run.output);
    const fresh = runCli([...args, "--started-at", "2023-12-31T23:00:00Z"], run.output);
    const undated = runCli(args, "");
    expect([stale, fresh, undated].map((r) => ({ status: r.status, reasons: (JSON.parse(r.stdout) as CliJson).reasons }))).toEqual([
      { status: 2, reasons: ["report-stale"] },
      { status: 0, reasons: [] },
      { status: 0, reasons: [] },
    ]);
  });

  it("a malformed --junit report never passes", () => {
    const xml = join(dir, "broken.xml");
    writeFileSync(xml, '<testsuite tests="10"><testcase name="a" classname="t">');
    const result = runCli(
      ["--command", "pytest -q", "--exit-code", "0", "--junit", xml],
      `${".....".padEnd(73)}[100%]\n5 passed in 0.10s\n`,
    );
    expect({ status: result.status, reasons: (JSON.parse(result.stdout) as CliJson).reasons }).toEqual({
      status: 2,
      reasons: ["report-invalid"],
    });
  });
});
