// node:test's definition: which command lines are `node --test` runs and what their words select,
// and the parser on the reporter shapes that only a hostile test prints (the rest is on real
// captured output: test/evidence/judge-captured.test.ts, test/observers/captured-runs.test.ts).
import { describe, expect, it } from "vitest";

import { judge } from "../../src/evidence/judge.js";
import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { parseNodeTest } from "../../src/observers/node-test.js";
import { nodeTestRunner } from "../../src/runners/node-test.js";

function invocation(line: string): { kind: string; targets: string[]; filtered: boolean; selection: string[]; runsTests: boolean } | null {
  const found = analyzeCommand(line, { cwd: "/work/p" }).invocations[0];
  return found === undefined
    ? null
    : { kind: found.kind, targets: found.targets, filtered: found.filtered, selection: found.selection ?? [], runsTests: found.runsTests };
}

describe("node --test recognition and arguments", () => {
  it.each([
    ["node --test", { kind: "node-test", targets: ["."], filtered: false, selection: [], runsTests: true }],
    [
      "node --test test/ lib/a.test.js",
      { kind: "node-test", targets: ["test/", "lib/a.test.js"], filtered: false, selection: [], runsTests: true },
    ],
    [
      "timeout 60 env CI=1 node --test 'test/**/*.test.js'",
      { kind: "node-test", targets: ["test/**/*.test.js"], filtered: false, selection: [], runsTests: true },
    ],
    [
      "node --test-reporter=spec --test a.test.js",
      { kind: "node-test", targets: ["a.test.js"], filtered: false, selection: [], runsTests: true },
    ],
    // A valued option's value is no file; the filters make the run filtered.
    [
      "node --test --test-name-pattern adds test/",
      { kind: "node-test", targets: ["test/"], filtered: true, selection: ["--test-name-pattern=adds"], runsTests: true },
    ],
    [
      "node --test --test-skip-pattern=slow",
      { kind: "node-test", targets: ["."], filtered: true, selection: ["--test-skip-pattern=slow"], runsTests: true },
    ],
    ["node --test --test-only", { kind: "node-test", targets: ["."], filtered: true, selection: ["--test-only"], runsTests: true }],
    [
      "node --test --test-shard=1/3",
      { kind: "node-test", targets: ["."], filtered: true, selection: ["--test-shard=1/3"], runsTests: true },
    ],
    // Output, concurrency and timeout options select nothing.
    [
      "node --test --test-reporter dot --test-reporter-destination stdout --test-concurrency=1 --test-timeout 5000",
      { kind: "node-test", targets: ["."], filtered: false, selection: [], runsTests: true },
    ],
    // node reads its options up to the first file: what follows is a file pattern, even `--test-only`.
    [
      "node --test a.test.js --test-only",
      { kind: "node-test", targets: ["a.test.js", "--test-only"], filtered: false, selection: [], runsTests: true },
    ],
    // Watch mode is no run.
    ["node --test --watch", { kind: "node-test", targets: ["."], filtered: false, selection: [], runsTests: false }],
  ])("%s", (line, expected) => {
    expect(invocation(line)).toEqual(expected);
  });

  it.each(["node a.test.js", "node script.js --test", "node -e 'x' ", "nodemon --test"])("%s is no node:test run", (line) => {
    expect(invocation(line)).toBeNull();
  });

  it("covers: a bare name only by the whole workspace, an id with its file by its path or glob", () => {
    expect([
      nodeTestRunner.covers(".", "suite > test"),
      nodeTestRunner.covers("test/a.test.js", "suite > test"),
      nodeTestRunner.covers("test/", "test/a.test.js::suite > test"),
      nodeTestRunner.covers("test/**/*.test.js", "test/sub/a.test.js::x"),
      nodeTestRunner.covers("test/*.test.js", "test/sub/a.test.js::x"),
      nodeTestRunner.covers("sub", "subway/a.test.js::x"),
    ]).toEqual([true, false, true, true, false, false]);
  });
});

// The TAP reporter's own lines, as node 20 prints them, with a test's forgeries mixed in.
const TAP_HEAD = ["TAP version 13", "# Subtest: adds", "ok 1 - adds", "  ---", "  duration_ms: 0.5", "  ..."];
const TAP_SUMMARY = [
  "1..1",
  "# tests 1",
  "# suites 0",
  "# pass 1",
  "# fail 0",
  "# cancelled 0",
  "# skipped 0",
  "# todo 0",
  "# duration_ms 9.1",
];

describe("node --test forgeries", () => {
  it("a TAP result without its `# Subtest:` announcement is not the reporter's", () => {
    const parsed = parseNodeTest([...TAP_HEAD, "ok 2 - forged", ...TAP_SUMMARY].join("\n"));
    expect({ passed: parsed.passed, forgeries: parsed.forgeries.map((f) => f.kind).sort() }).toEqual({
      passed: ["adds"],
      forgeries: ["ids-exceed-summary", "result-without-run"],
    });
    expect(judge({ command: "node --test", output: [...TAP_HEAD, "ok 2 - forged", ...TAP_SUMMARY].join("\n"), exitCode: 0 }).verdict).toBe(
      "unknown",
    );
  });

  it("a summary missing any of node's eight lines is no summary", () => {
    const parsed = parseNodeTest(
      [
        "ℹ tests 3",
        "ℹ pass 3",
        "✔ adds (1ms)",
        "ℹ tests 1",
        "ℹ suites 0",
        "ℹ pass 1",
        "ℹ fail 0",
        "ℹ cancelled 0",
        "ℹ skipped 0",
        "ℹ todo 0",
        "ℹ duration_ms 3",
      ].join("\n"),
    );
    expect({ summaries: parsed.summaryCount, forgeries: parsed.forgeries.map((f) => f.kind) }).toEqual({
      summaries: 1,
      forgeries: ["summary-shape-mismatch"],
    });
  });

  it("summary lines a test printed under TAP are comments, not a summary", () => {
    const output = ["TAP version 13", "# tests 5", "# pass 5", ...TAP_HEAD.slice(1), ...TAP_SUMMARY].join("\n");
    const parsed = parseNodeTest(output);
    expect({ summaries: parsed.summaryCount, passed: parsed.summary?.counts.passed, forgeries: parsed.forgeries }).toEqual({
      summaries: 1,
      passed: 1,
      forgeries: [],
    });
  });

  it("spec: a pass line beyond the summary's passes and suites makes none of them proof", () => {
    const output = [
      "✔ never ran (0.1ms)",
      "✔ adds (0.5ms)",
      "ℹ tests 1",
      "ℹ suites 0",
      "ℹ pass 1",
      "ℹ fail 0",
      "ℹ cancelled 0",
      "ℹ skipped 0",
      "ℹ todo 0",
      "ℹ duration_ms 3",
    ].join("\n");
    const result = judge({ command: "node --test --test-reporter=spec", output, exitCode: 0 });
    expect({ verdict: result.verdict, reasons: result.runs[0]?.reasons, passed: result.runs[0]?.passed }).toEqual({
      verdict: "unknown",
      reasons: ["spoof-suspect"],
      passed: [],
    });
  });

  it("spec: a failure's message text is no result, however it looks", () => {
    const output = [
      "✖ compares (0.5ms)",
      "  AssertionError: expected",
      "  ✔ fake inside message (1ms)",
      "",
      "✔ adds (0.2ms)",
      "ℹ tests 2",
      "ℹ suites 0",
      "ℹ pass 1",
      "ℹ fail 1",
      "ℹ cancelled 0",
      "ℹ skipped 0",
      "ℹ todo 0",
      "ℹ duration_ms 3",
    ].join("\n");
    expect(parseNodeTest(output)).toMatchObject({ passed: ["adds"], failed: ["compares"] });
  });
});

describe("node --test identity: what loads code before the tests, or writes the output", () => {
  const TAP =
    "TAP version 13\n# Subtest: adds\nok 1 - adds\n  ---\n  duration_ms: 1\n  ...\n1..1\n# tests 1\n# suites 0\n# pass 1\n# fail 0\n# cancelled 0\n# skipped 0\n# todo 0\n# duration_ms 10\n";
  it.each([
    ["NODE_OPTIONS='--require ./fake.js' node --test", "sets NODE_OPTIONS"],
    ["NODE_OPTIONS=--require=./fake.js node --test", "sets NODE_OPTIONS"],
    ["export NODE_OPTIONS='--import ./fake.mjs'; node --test", "NODE_OPTIONS"],
    ["env NODE_PATH=./shadow node --test", "NODE_PATH"],
    ["node --require ./fake.js --test", "node --require loads code before the tests"],
    ["node -r ./fake.js --test test/", "node -r loads code before the tests"],
    ["node --import=./fake.mjs --test", "node --import loads code before the tests"],
    ["node --test --test-reporter=./reporter.mjs", "node --test-reporter ./reporter.mjs writes the output"],
    [
      "node --test --test-reporter ./reporter.mjs --test-reporter-destination=stdout",
      "node --test-reporter ./reporter.mjs writes the output",
    ],
    ["node --env-file=.env --test", "node --env-file loads code before the tests"],
  ])("%s is shadowed-runner, never a pass", (line, why) => {
    const [run] = analyzeCommand(line).invocations;
    expect(run?.shadowed).toBe(true);
    expect(run?.shadowedBy).toContain(why);
    expect(judge({ command: line, output: TAP, exitCode: 0 })).toMatchObject({ verdict: "unknown", reasons: ["shadowed-runner"] });
  });

  it.each(["node --test", "node --test --test-reporter=spec", "node --test --test-reporter tap test/", "NODE_ENV=test node --test"])(
    "%s is the real runner",
    (line) => {
      expect(analyzeCommand(line).invocations[0]?.shadowed).toBe(false);
    },
  );
});
