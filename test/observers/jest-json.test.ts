// jest's --json results as a report: jest's own output on the fixture project, and the ways it can lie.
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { parseJestJsonReport } from "../../src/observers/jest-json.js";
import { repoRoot } from "../support/import-graph.js";
import { tempDirPath } from "../support/temp-dir.js";

let dir: string;
let passing: string;
let failing: string;
function jest(env: Record<string, string>, out: string): string {
  try {
    execFileSync(join(repoRoot, "node_modules/.bin/jest"), ["--json", `--outputFile=${out}`], {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: "ignore",
    });
  } catch {
    // A failing run exits 1; its results are in the file.
  }
  return readFileSync(out, "utf8");
}

beforeAll(() => {
  dir = tempDirPath("ae-jest-json-");
  cpSync(join(repoRoot, "test/fixtures/jest-project"), join(dir), { recursive: true });
  symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"));
  passing = jest({}, join(dir, "pass.json"));
  failing = jest({ JF_FAIL: "1" }, join(dir, "fail.json"));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("parseJestJsonReport on jest's own results", () => {
  it("a passing run: cases by file and describe path, jest's counts agree", () => {
    const report = parseJestJsonReport(passing, dir);
    if (report.status !== "ok") throw new Error(report.reason);
    expect({
      failed: report.failed,
      countMismatch: report.countMismatch,
      someId: report.passed.includes("test/math.test.js::multiplication > by zero > gives zero"),
    }).toEqual({ failed: [], countMismatch: false, someId: true });
    expect(report.passed.length).toBeGreaterThan(5);
  });

  it("a failing run names its failure", () => {
    const report = parseJestJsonReport(failing, dir);
    if (report.status !== "ok") throw new Error(report.reason);
    expect({ failed: report.failed.length, countMismatch: report.countMismatch }).toEqual({ failed: 1, countMismatch: false });
  });

  it("counts that disagree with the cases are flagged, a pass dropped from the list too", () => {
    const data = JSON.parse(passing) as { numPassedTests: number; testResults: { assertionResults: unknown[] }[] };
    data.testResults[0]!.assertionResults.pop();
    const report = parseJestJsonReport(JSON.stringify(data), dir);
    expect(report.status === "ok" && report.countMismatch).toBe(true);
  });

  it.each([
    ["empty", () => ""],
    ["cut", () => passing.slice(0, 200)],
    ["other JSON", () => '{"tests": 3}'],
    ["JUnit XML", () => '<testsuite tests="1"><testcase name="a"/></testsuite>'],
  ])("%s is invalid", (_name, text) => {
    expect(parseJestJsonReport(text(), dir).status).toBe("invalid");
  });
});
