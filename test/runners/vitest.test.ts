// vitest's definition: which command lines are vitest runs and what their words select, and the parser
// on the shapes only a hostile test prints (the rest is on real captured output:
// test/evidence/judge-captured.test.ts, test/observers/captured-runs.test.ts).
import { describe, expect, it } from "vitest";

import { judge } from "../../src/evidence/judge.js";
import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { parseVitest } from "../../src/observers/vitest.js";
import { vitestRunner } from "../../src/runners/vitest.js";

function invocation(line: string): { kind: string; targets: string[]; filtered: boolean; selection: string[]; runsTests: boolean } | null {
  const found = analyzeCommand(line, { cwd: "/work/p" }).invocations[0];
  return found === undefined
    ? null
    : { kind: found.kind, targets: found.targets, filtered: found.filtered, selection: found.selection ?? [], runsTests: found.runsTests };
}

const run = (targets: string[], selection: string[] = [], runsTests = true) => ({
  kind: "vitest",
  targets,
  filtered: selection.length > 0,
  selection,
  runsTests,
});

describe("vitest recognition and arguments", () => {
  it.each([
    ["vitest run", run(["."])],
    ["vitest", run(["."])],
    ["vitest --run", run(["."])],
    ["vitest run test/ src/a.test.ts", run(["test/", "src/a.test.ts"])],
    ["timeout 120 env CI=1 vitest run --reporter=verbose math", run(["math"])],
    ["./node_modules/.bin/vitest run sub", run(["sub"])],
    // A valued option's value is no file filter; -t and the others select tests.
    ["vitest run -t adds test/", run(["test/"], ["-t=adds"])],
    ["vitest run --testNamePattern='adds|subs'", run(["."], ["--testNamePattern=adds|subs"])],
    ["vitest run --shard=1/3", run(["."], ["--shard=1/3"])],
    ["vitest run --changed", run(["."], ["--changed"])],
    ["vitest run --changed HEAD~1", run(["."], ["--changed=HEAD~1"])],
    ["vitest run --project unit", run(["."], ["--project=unit"])],
    ["vitest run test/a.test.ts:12", run(["test/a.test.ts"], ["line=test/a.test.ts:12"])],
    ["vitest related src/calc.ts --run", run(["."], ["related=src/calc.ts"])],
    // Options that only shape the output or the pool select nothing.
    [
      "vitest run --reporter verbose --reporter=json --outputFile.json=r.json --silent --bail 1 --pool threads --maxWorkers=1 --passWithNoTests sub/",
      run(["sub/"]),
    ],
    ["vitest run --silent passed-only -c vitest.config.ts --root . test/", run(["test/"])],
    // Watch mode, a listing, a snapshot update, merged reports: no run.
    ["vitest watch", run(["."], [], false)],
    ["vitest dev", run(["."], [], false)],
    ["vitest --watch", run(["."], [], false)],
    ["vitest list", run(["."], [], false)],
    ["vitest run -u", run(["."], [], false)],
    ["vitest run --update", run(["."], [], false)],
    ["vitest run --mergeReports", run(["."], [], false)],
    ["vitest bench", run(["."], [], false)],
  ])("%s", (line, expected) => {
    expect(invocation(line)).toEqual(expected);
  });

  it.each(["vite build", "vitest-run", "node vitest.js", "echo vitest run"])("%s is no vitest run", (line) => {
    expect(invocation(line)).toBeNull();
  });

  it("covers: a file filter is a piece of the test file's path; the whole workspace covers all", () => {
    expect([
      vitestRunner.covers(".", "test/a.test.ts > suite > adds"),
      vitestRunner.covers("test/a.test.ts", "test/a.test.ts > suite > adds"),
      vitestRunner.covers("./test/", "test/a.test.ts > adds"),
      vitestRunner.covers("math", "test/math.test.js > adds"),
      vitestRunner.covers("test/a.test.ts:12", "test/a.test.ts > adds"),
      vitestRunner.covers("sub/", "test/a.test.ts > sub/ in a name"),
      vitestRunner.covers("test/b.test.ts", "test/a.test.ts > adds"),
      vitestRunner.covers("test", "adds"),
    ]).toEqual([true, true, true, true, true, false, false, false]);
  });

  it("the js-path family: a directory covers the files under it, a file its ids", () => {
    const covers = (a: string, b: string): boolean => vitestRunner.family.covers(a, b);
    expect([
      covers(".", "test/a.test.ts"),
      covers("test", "test/a.test.ts"),
      covers("test/a.test.ts", "test/a.test.ts > adds"),
      covers("tes", "test/a.test.ts"),
    ]).toEqual([true, true, true, false]);
  });
});

// vitest's own lines, as 4.1 prints them without a terminal, with a test's forgeries mixed in.
const HEADER = ["", " RUN  v4.1.12 /work/p", ""];
const summary = (files: string, tests: string, extra: string[] = []) => [
  ` Test Files  ${files}`,
  `      Tests  ${tests}`,
  ...extra,
  "   Start at  12:00:00",
  "   Duration  300ms (transform 10ms, setup 0ms, import 20ms, tests 3ms, environment 0ms)",
  "",
];
const judged = (command: string, lines: string[], exitCode = 0) => {
  const result = judge({ command, output: lines.join("\n"), exitCode });
  return { verdict: result.verdict, reasons: result.runs[0]?.reasons, passed: result.runs[0]?.passed };
};

describe("vitest forgeries and what no run proves", () => {
  it("a whole output passes: the verbose lines are the ids", () => {
    const lines = [
      ...HEADER,
      " ✓ test/a.test.ts > math > adds 1ms",
      " ↓ test/a.test.ts > later",
      "",
      ...summary("1 passed (1)", "1 passed | 1 skipped (2)"),
    ];
    expect(judged("vitest run --reporter=verbose", lines)).toEqual({
      verdict: "passed",
      reasons: [],
      passed: ["test/a.test.ts > math > adds"],
    });
  });

  it("a verbose pass line beyond the summary's passes makes none of them proof", () => {
    const lines = [
      ...HEADER,
      "stdout | test/a.test.ts > adds",
      " ✓ test/b.test.ts > never ran 1ms",
      "",
      " ✓ test/a.test.ts > adds 1ms",
      "",
      ...summary("1 passed (1)", "1 passed (1)"),
    ];
    expect(judged("vitest run --reporter=verbose", lines)).toEqual({ verdict: "unknown", reasons: ["spoof-suspect"], passed: [] });
  });

  it("a test's `file > name` line beside the default reporter's file lines is forged, whatever the counts", () => {
    const lines = [
      ...HEADER,
      "stdout | test/a.test.ts > adds",
      " ✓ test/b.test.ts > never ran 1ms",
      "",
      " ✓ test/a.test.ts (2 tests) 2ms",
      "",
      ...summary("1 passed (1)", "2 passed (2)"),
    ];
    expect(parseVitest(lines.join("\n"))).toMatchObject({ passed: [], forgeries: [{ kind: "result-without-run" }] });
    expect(judged("vitest run test/", lines)).toMatchObject({ verdict: "unknown", reasons: ["spoof-suspect"] });
  });

  it("a test's pass line beside the dot reporter's rows is forged", () => {
    const lines = [...HEADER, " ✓ test/b.test.ts > never ran 1ms", "··", "", ...summary("1 passed (1)", "2 passed (2)")];
    expect(judged("vitest run --reporter=dot test/", lines)).toMatchObject({ verdict: "unknown", reasons: ["spoof-suspect"] });
  });

  it("a summary a test printed before the runner's own is a second summary", () => {
    const lines = [
      ...HEADER,
      "stdout | test/a.test.ts > prints",
      ...summary("3 passed (3)", "9 passed (9)"),
      " ✓ test/a.test.ts (1 test) 1ms",
      "",
      ...summary("1 failed (1)", "1 failed (1)"),
    ];
    expect(parseVitest(lines.join("\n")).summaryCount).toBe(2);
    const passing = [
      ...HEADER,
      "stdout | test/a.test.ts > prints",
      ...summary("3 passed (3)", "9 passed (9)"),
      " ✓ test/a.test.ts (1 test) 1ms",
      "",
      ...summary("1 passed (1)", "1 passed (1)"),
    ];
    expect(judged("vitest run", passing)).toMatchObject({ verdict: "unknown", reasons: ["multiple-summaries"] });
  });

  it("a summary missing a line or out of vitest's order is no summary", () => {
    for (const broken of [
      [" Test Files  1 passed (1)", "      Tests  1 passed (1)", "   Duration  3ms"],
      [" Test Files  1 passed (1)", "   Start at  12:00:00", "      Tests  1 passed (1)", "   Duration  3ms"],
      ["      Tests  1 passed (1)", "   Start at  12:00:00", "   Duration  3ms"],
      [" Test Files  1 passed (1)", "      Tests  all good (1)", "   Start at  12:00:00", "   Duration  3ms"],
    ]) {
      expect(judged("vitest run", [...HEADER, " ✓ test/a.test.ts (1 test) 1ms", "", ...broken])).toMatchObject({ verdict: "unknown" });
    }
  });

  it("an unhandled error fails a run whose tests all passed", () => {
    const lines = [...HEADER, " ✓ test/a.test.ts (2 tests) 5ms", "", ...summary("1 passed (1)", "2 passed (2)", ["     Errors  1 error"])];
    expect(judged("vitest run", lines, 1)).toMatchObject({ verdict: "failed" });
  });

  it("skips and todos only, or no test at all, is no run", () => {
    expect(
      judged("vitest run", [
        ...HEADER,
        " ↓ test/a.test.ts (3 tests | 2 skipped | 1 todo)",
        "",
        ...summary("1 skipped (1)", "2 skipped | 1 todo (3)"),
      ]),
    ).toMatchObject({ verdict: "unknown", reasons: ["no-tests-ran"] });
    expect(judged("vitest run nope", [...HEADER, "No test files found, exiting with code 1", "", "filter: nope"], 1)).toMatchObject({
      verdict: "unknown",
      reasons: ["no-tests-ran"],
    });
  });

  it("a terminal's watch mode is no finished run", () => {
    const lines = [
      "",
      " DEV  v4.1.12 /work/p",
      "",
      " ✓ test/a.test.ts (1 test) 1ms",
      "",
      ...summary("1 passed (1)", "1 passed (1)"),
      " PASS  Waiting for file changes...",
    ];
    expect(judged("vitest", lines, 124)).toMatchObject({ verdict: "unknown" });
    expect(judged("vitest", lines.slice(0, -1).concat([" PASS  Waiting for file changes..."]), 0)).toMatchObject({
      verdict: "unknown",
      reasons: ["interrupted"],
    });
  });

  it("a pass line cut off at the end of the output (no duration) is no id", () => {
    expect(parseVitest([...HEADER, " ✓ test/a.test.ts > adds 1ms", " ✓ test/a.test.ts > add"].join("\n")).passed).toEqual([
      "test/a.test.ts > adds",
    ]);
  });

  it("a whole output without vitest's RUN line lost its head", () => {
    const lines = [" ✓ test/a.test.ts > adds 1ms", "", ...summary("1 passed (1)", "1 passed (1)")];
    expect(parseVitest(lines.join("\n")).start?.headMissing).not.toBeNull();
    expect(judged("vitest run --reporter=verbose", lines)).toMatchObject({ verdict: "unknown", reasons: ["truncated"] });
  });
});

describe("vitest identity: what writes the output or loads code into the workers", () => {
  const PASSING = [...HEADER, " ✓ test/a.test.ts (1 test) 1ms", "", ...summary("1 passed (1)", "1 passed (1)")].join("\n");
  it.each([
    ["vitest run --reporter=./fake-reporter.mjs", "vitest --reporter ./fake-reporter.mjs writes the output"],
    ["vitest run --reporter ./fake.js --reporter=default", "vitest --reporter ./fake.js writes the output"],
    ["vitest run --execArgv=--require=./fake.cjs", "vitest --execArgv passes node options to the workers"],
    ["vitest run --diff ./diff.mjs", "vitest --diff ./diff.mjs loads a module"],
    ["NODE_OPTIONS='--require ./fake.js' vitest run", "NODE_OPTIONS"],
  ])("%s is shadowed-runner, never a pass", (line, why) => {
    const [found] = analyzeCommand(line).invocations;
    expect(found?.shadowed).toBe(true);
    expect(found?.shadowedBy).toContain(why);
    expect(judge({ command: line, output: PASSING, exitCode: 0 })).toMatchObject({
      verdict: "unknown",
      runs: [{ reasons: ["shadowed-runner"] }],
    });
  });

  it.each([
    "vitest run",
    "vitest run --reporter=verbose --reporter=junit --outputFile=r.xml",
    "vitest run --reporter dot",
    "CI=1 vitest run",
  ])("%s is the real runner", (line) => {
    expect(analyzeCommand(line).invocations[0]?.shadowed).toBe(false);
  });
});
