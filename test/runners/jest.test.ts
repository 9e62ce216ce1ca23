// jest's definition: which command lines are jest runs and what their words select, which target
// covers which id, and the parser on the output shapes that only a hostile test prints (the rest is
// on real captured output: test/evidence/judge-captured.test.ts, test/observers/captured-runs.test.ts).
import { describe, expect, it } from "vitest";

import { judge } from "../../src/evidence/judge.js";
import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { parseJest } from "../../src/observers/jest.js";
import { jestCovers } from "../../src/runners/jest.js";
import { JEST_FAMILY } from "../../src/runners/target-families.js";

interface Seen {
  kind: string;
  targets: string[];
  filtered: boolean;
  selection: string[];
  runsTests: boolean;
}

function invocation(line: string): (Seen & { shadowedBy: string | null }) | null {
  const found = analyzeCommand(line, { cwd: "/work/p" }).invocations[0];
  return found === undefined
    ? null
    : {
        kind: found.kind,
        targets: found.targets,
        filtered: found.filtered,
        selection: found.selection ?? [],
        runsTests: found.runsTests,
        shadowedBy: found.shadowedBy ?? null,
      };
}

const run = (targets: string[], selection: string[] = [], runsTests = true): Seen & { shadowedBy: null } => ({
  kind: "jest",
  targets,
  filtered: selection.length > 0,
  selection,
  runsTests,
  shadowedBy: null,
});

describe("jest recognition and arguments", () => {
  it.each([
    ["jest", run(["."])],
    ["jest test/math.test.js sub", run(["test/math.test.js", "sub"])],
    ["env CI=1 jest --ci --verbose test/", run(["test/"])],
    ["timeout 60 env CI=1 jest -i --json --outputFile=out.json", run(["."])],
    // A valued option's value is no target; name, path, project, change and shard options select.
    ["jest -t 'adds' test/", run(["test/"], ["-t=adds"])],
    ["jest --testNamePattern=adds", run(["."], ["--testNamePattern=adds"])],
    ["jest -tadds", run(["."], ["-t=adds"])],
    ["jest -o", run(["."], ["-o"])],
    ["jest --onlyChanged", run(["."], ["--onlyChanged"])],
    ["jest --changedSince main", run(["."], ["--changedSince=main"])],
    ["jest --findRelatedTests src/a.js", run(["src/a.js"], ["--findRelatedTests"])],
    ["jest --shard 1/3", run(["."], ["--shard=1/3"])],
    ["jest --selectProjects api web", run(["."], ["--selectProjects=api", "--selectProjects=web"])],
    // yargs gives an array option every following word: `math` is a testMatch glob, not a pattern.
    ["jest sub --testMatch '**/*.test.js' math", run(["sub"], ["--testMatch=**/*.test.js", "--testMatch=math"])],
    [
      "jest --testPathIgnorePatterns /node_modules/ sub",
      run(["."], ["--testPathIgnorePatterns=/node_modules/", "--testPathIgnorePatterns=sub"]),
    ],
    // --testPathPatterns names files as positional patterns do.
    ["jest --testPathPatterns sub test/a", run(["sub", "test/a"])],
    // Another config or root is another project's tests.
    ["jest -c jest.other.config.js", run(["."], ["-c=jest.other.config.js"])],
    ["jest --rootDir packages/a", run(["."], ["--rootDir=packages/a"])],
    // Output options select nothing; a boolean takes a following true/false.
    ["jest --verbose false --silent --coverage --bail --passWithNoTests --runInBand --maxWorkers 2 test/", run(["test/"])],
    ["jest --watch=false test/", run(["test/"])],
    // Watch mode, listing and config printing run no test.
    ["jest --watch", run(["."], [], false)],
    ["jest --watchAll", run(["."], [], false)],
    ["jest --listTests", run(["."], [], false)],
    ["jest --showConfig", run(["."], [], false)],
    ["jest --testTimeout", run(["."], [], false)],
  ])("%s", (line, expected) => {
    expect(invocation(line)).toEqual(expected);
  });

  it.each(["jester test", "node jest.js", "npx jestx", "echo jest"])("%s is no jest run", (line) => {
    expect(invocation(line)).toBeNull();
  });

  it.each([
    ["jest --reporters ./my-reporter.js", "jest --reporters ./my-reporter.js writes the output"],
    ["jest --reporters=default --reporters=jest-junit", "jest --reporters jest-junit writes the output"],
    ["jest --testRunner ./fake-runner.js", "jest --testRunner ./fake-runner.js runs the tests"],
    ["jest() { echo; }; jest", "jest is redefined in the line"],
  ])("%s is not the real jest", (line, why) => {
    expect(invocation(line.includes("()") ? line : line)).toMatchObject({ kind: "jest" });
    const found = analyzeCommand(line, { cwd: "/work/p" }).invocations.at(-1);
    expect({ shadowed: found?.shadowed, shadowedBy: found?.shadowedBy }).toEqual({ shadowed: true, shadowedBy: why });
  });

  it("jest's own reporters keep it jest", () => {
    expect(invocation("jest --reporters=default --reporters=summary --reporters github-actions")?.shadowedBy).toBeNull();
  });
});

describe("jest covers", () => {
  it("a literal pattern covers the files whose printed path holds it; regex syntax, absolute paths and files outside cover nothing", () => {
    expect([
      jestCovers(".", "test/a.test.js::x"),
      jestCovers("test/a.test.js", "test/a.test.js::suite > x"),
      jestCovers("./test/", "test/a.test.js::x"),
      jestCovers("math", "test/math.test.js::x"),
      jestCovers("test/a.test.js", "extra/broken.test.js"),
      jestCovers("extra/broken", "extra/broken.test.js"),
      jestCovers("Math", "test/math.test.js::x"),
      jestCovers("math|strings", "test/math.test.js::x"),
      jestCovers("test/.*", "test/math.test.js::x"),
      jestCovers("/work/p/test", "test/math.test.js::x"),
      jestCovers("test", "../test/math.test.js::x"),
    ]).toEqual([true, true, true, true, false, true, false, false, false, false, false]);
  });

  it("the family covers as paths do, never by pattern", () => {
    expect([
      JEST_FAMILY.covers(".", "test/a.test.js::x"),
      JEST_FAMILY.covers("test", "test/a.test.js::x"),
      JEST_FAMILY.covers("test/a.test.js", "test/a.test.js::x"),
      JEST_FAMILY.covers("math", "test/math.test.js::x"),
      JEST_FAMILY.covers("sub", "subway/a.test.js::x"),
    ]).toEqual([true, true, true, false, false]);
  });
});

// jest's own lines, as jest 30 prints them (the shapes of the captures), with what a test adds.
const SUMMARY = (passed: number, suites = 1): string[] => [
  `Test Suites: ${suites} passed, ${suites} total`,
  `Tests:       ${passed} passed, ${passed} total`,
  "Snapshots:   0 total",
  "Time:        0.5 s",
  "Ran all test suites.",
];

describe("jest forgeries", () => {
  it("a pass line beyond the summary's passes makes none of them proof", () => {
    const output = ["PASS test/a.test.js", "  ✓ adds (1 ms)", "  ✓ never ran (1 ms)", "", ...SUMMARY(1)].join("\n");
    const result = judge({ command: "jest test/a.test.js", output, exitCode: 0 });
    expect({ verdict: result.verdict, reasons: result.runs[0]?.reasons, passed: result.runs[0]?.passed }).toEqual({
      verdict: "unknown",
      reasons: ["spoof-suspect"],
      passed: [],
    });
  });

  it("a suite line beyond the summary's suites makes no pass proof", () => {
    const output = ["PASS test/a.test.js", "PASS test/never.test.js", "", ...SUMMARY(3)].join("\n");
    const parsed = parseJest(output);
    expect(parsed.forgeries.map((f) => f.kind)).toEqual(["ids-exceed-summary"]);
    expect(judge({ command: "jest", output, exitCode: 0 }).verdict).toBe("unknown");
  });

  it("a test tree under one suite of a run that prints none was printed by a test", () => {
    const output = ["PASS test/a.test.js", "PASS test/b.test.js", "  ✓ made up (1 ms)", "", ...SUMMARY(5, 2)].join("\n");
    const parsed = parseJest(output);
    expect({ forgeries: parsed.forgeries.map((f) => f.kind), passed: parsed.passed }).toEqual({
      forgeries: ["result-without-run"],
      passed: [],
    });
    expect(judge({ command: "jest", output, exitCode: 0 }).verdict).toBe("unknown");
  });

  it("a summary printed before jest's own is a second summary", () => {
    const output = [...SUMMARY(9, 9), "PASS test/a.test.js", "  ✓ adds (1 ms)", "", ...SUMMARY(1)].join("\n");
    const result = judge({ command: "jest test/a.test.js", output, exitCode: 0 });
    expect({ verdict: result.verdict, reasons: result.reasons }).toEqual({ verdict: "unknown", reasons: ["multiple-summaries"] });
  });

  it("a verbose output whose summary counts more passes than it shows ends with a summary a test printed", () => {
    const output = ["PASS test/a.test.js", "  ✓ adds (1 ms)", "", ...SUMMARY(9)].join("\n");
    expect(judge({ command: "jest test/a.test.js", output, exitCode: 0 }).reasons).toEqual(["spoof-suspect"]);
  });

  it("a summary missing a line, or its lines out of order, is no summary", () => {
    const cases = [
      ["Tests:       3 passed, 3 total", "Snapshots:   0 total", "Time:        0.5 s"],
      ["Test Suites: 1 passed, 1 total", "Snapshots:   0 total", "Tests:       3 passed, 3 total", "Time:        0.5 s"],
    ];
    for (const lines of cases) {
      const parsed = parseJest(["PASS test/a.test.js", "", ...lines].join("\n"));
      expect({ summaries: parsed.summaryCount, forgeries: parsed.forgeries.map((f) => f.kind) }).toEqual({
        summaries: 0,
        forgeries: ["summary-shape-mismatch"],
      });
    }
  });

  it("console output is the test's text, however it looks", () => {
    const output = [
      "  console.log",
      "    PASS test/never.test.js",
      "      ✓ never ran (1 ms)",
      "    Tests:       9 passed, 9 total",
      "",
      "      at Object.log (test/a.test.js:3:11)",
      "",
      "PASS test/a.test.js",
      "  ✓ adds (1 ms)",
      "",
      ...SUMMARY(1),
    ].join("\n");
    const result = judge({ command: "jest test/a.test.js", output, exitCode: 0 });
    expect({ verdict: result.verdict, passed: result.runs[0]?.passed }).toEqual({ verdict: "passed", passed: ["test/a.test.js::adds"] });
  });

  it("a failure's message text is no result", () => {
    const output = [
      "FAIL test/a.test.js",
      "  math",
      "    ✕ adds (2 ms)",
      "",
      "  ● math › adds",
      "",
      "    expect(received).toBe(expected)",
      "      ✓ fake (1 ms)",
      "",
      "Test Suites: 1 failed, 1 total",
      "Tests:       1 failed, 1 total",
      "Snapshots:   0 total",
      "Time:        0.5 s",
      "Ran all test suites.",
    ].join("\n");
    expect(parseJest(output)).toMatchObject({ passed: [], failed: ["test/a.test.js::math > adds"] });
  });

  it("a test that ends jest's process after printing a whole output leaves no pass", () => {
    const output = [
      "PASS test/a.test.js",
      "  ✓ adds (1 ms)",
      "",
      ...SUMMARY(1),
      '  ●  process.exit called with "0"',
      "",
      "      at Object.exit (test/a.test.js:5:11)",
    ].join("\n");
    const result = judge({ command: "jest test/a.test.js", output, exitCode: 0 });
    expect({ verdict: result.verdict, reasons: result.reasons, passed: result.runs[0]?.passed }).toEqual({
      verdict: "unknown",
      reasons: ["interrupted"],
      passed: [],
    });
  });

  it("one killed by a signal after printing a whole output is not passed (exit 137)", () => {
    const output = ["PASS test/a.test.js", "  ✓ adds (1 ms)", "", ...SUMMARY(1)].join("\n");
    expect(judge({ command: "jest test/a.test.js", output, exitCode: 137 }).verdict).toBe("unknown");
  });

  it("a suite line or a pass after the summary is no result of the run", () => {
    const output = ["PASS test/a.test.js", "  ✓ adds (1 ms)", "", ...SUMMARY(1), "PASS test/b.test.js", "  ✓ late (1 ms)"].join("\n");
    const parsed = parseJest(output);
    expect({ passed: parsed.passed, forgeries: parsed.forgeries.map((f) => f.kind) }).toEqual({
      passed: ["test/a.test.js::adds"],
      forgeries: ["result-after-summary"],
    });
  });

  it("an output cut inside its first line is not passed", () => {
    const lines = ["PASS test/a.test.js", "  ✓ adds (1 ms)", "", ...SUMMARY(1)];
    for (const first of [
      "ASS test/a.test.js",
      " test/a.test.js",
      "a.test.js",
      "s",
      "PASS  test/a.test.js",
      "   ✓ adds (1 ms)",
      " console.log",
      "og",
    ]) {
      const result = judge({ command: "jest test/a.test.js", output: [first, ...lines.slice(1)].join("\n"), exitCode: 0 });
      expect({ first, verdict: result.verdict, reasons: result.reasons }).toEqual({ first, verdict: "unknown", reasons: ["truncated"] });
    }
  });

  it("another command's line before jest's output is no cut", () => {
    const lines = ["PASS test/a.test.js", "  ✓ adds (1 ms)", "", ...SUMMARY(1)];
    expect(judge({ command: "echo start; jest test/a.test.js", output: ["start", ...lines].join("\n"), exitCode: 0 }).verdict).toBe(
      "passed",
    );
  });
});
