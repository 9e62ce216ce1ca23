// mocha's definition: which command lines are mocha runs and what their words select, and the parser
// on the reporter shapes that only a hostile test prints (the rest is on real captured output:
// test/evidence/judge-captured.test.ts, test/observers/captured-runs.test.ts).
import { describe, expect, it } from "vitest";

import { judge } from "../../src/evidence/judge.js";
import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { parseMocha } from "../../src/observers/mocha.js";
import { mochaRunner } from "../../src/runners/mocha.js";

function invocation(line: string): { kind: string; targets: string[]; filtered: boolean; selection: string[]; runsTests: boolean } | null {
  const found = analyzeCommand(line, { cwd: "/work/p" }).invocations[0];
  return found === undefined
    ? null
    : { kind: found.kind, targets: found.targets, filtered: found.filtered, selection: found.selection ?? [], runsTests: found.runsTests };
}

const run = (targets: string[], selection: string[] = [], runsTests = true): ReturnType<typeof invocation> => ({
  kind: "mocha",
  targets,
  filtered: selection.length > 0,
  selection,
  runsTests,
});

describe("mocha recognition and arguments", () => {
  it.each([
    ["mocha", run(["."])],
    ["mocha test/a.spec.js 'test/**/*.spec.js' sub/", run(["test/a.spec.js", "test/**/*.spec.js", "sub/"])],
    ["timeout 60 env CI=1 mocha --spec test/a.spec.js", run(["test/a.spec.js"])],
    // A valued option's value is no target; short options cluster as yargs reads them.
    ["mocha -R dot -t 5000 --slow 10 --retries 2 -j 2 --parallel --exit --bail --recursive --extension ts test/", run(["test/"])],
    ["mocha -bR dot test/", run(["test/"])],
    // `-C` is mocha's `--no-colors`, no valued node option.
    ["mocha -C test/", run(["test/"])],
    ["mocha -Rspec test/", run(["test/"])],
    ["mocha --reporter-option output=out.json --config .mocharc.ci.json --package package.json test/", run(["test/"])],
    ["mocha --file test/setup.js test/a.spec.js", run(["test/a.spec.js"])],
    // Title patterns, inversion and ignored files run some of the tests.
    ["mocha --grep 'by zero' test/", run(["test/"], ["--grep=by zero"])],
    ["mocha -g adds", run(["."], ["-g=adds"])],
    ["mocha -f shouts -i", run(["."], ["-f=shouts", "-i"])],
    ["mocha --fgrep=shouts --invert", run(["."], ["--fgrep=shouts", "--invert"])],
    ["mocha --ignore 'test/slow/**'", run(["."], ["--ignore=test/slow/**"])],
    // Modes that run no test: `--dry-run` reports every test as passed without running it.
    ["mocha --dry-run", run(["."], [], false)],
    ["mocha --watch", run(["."], [], false)],
    ["mocha -w test/", run(["test/"], [], false)],
    ["mocha --list-reporters", run(["."], [], false)],
    ["mocha --list-interfaces", run(["."], [], false)],
    ["mocha --help", run(["."], [], false)],
    ["mocha -V", run(["."], [], false)],
    ["mocha init browser/", run(["init", "browser/"], [], false)],
    // A valued option without its value is mocha's usage error (`Not enough arguments following`).
    ["mocha --timeout", run(["."], [], false)],
  ])("%s", (line, expected) => {
    expect(invocation(line)).toEqual(expected);
  });

  it.each(["mochawesome", "node test/a.spec.js", "echo mocha", "npm run mocha-report"])("%s is no mocha run", (line) => {
    expect(invocation(line)?.kind === "mocha").toBe(false);
  });

  it("covers: a bare `suite > test` only by the whole workspace, an id with its file by its path, directory or glob", () => {
    expect([
      mochaRunner.covers(".", "math > adds"),
      mochaRunner.covers("./", "math > adds"),
      mochaRunner.covers("test/math.spec.js", "math > adds"),
      mochaRunner.covers("test/math.spec.js", "test/math.spec.js::math > adds"),
      mochaRunner.covers("./test/", "test/nested/hooks.spec.js::hooks > runs"),
      mochaRunner.covers("test/**/*.spec.js", "test/nested/hooks.spec.js::hooks > runs"),
      mochaRunner.covers("test/*.spec.js", "test/nested/hooks.spec.js::hooks > runs"),
      mochaRunner.covers("test/{math,strings}.spec.js", "test/strings.spec.js::strings > shouts"),
      mochaRunner.covers("sub", "subway/a.spec.js::x"),
    ]).toEqual([true, true, false, true, true, true, false, true, false]);
  });

  it("the family: a directory covers the files and ids under it, nothing else", () => {
    expect([
      mochaRunner.family.covers(".", "test/a.spec.js"),
      mochaRunner.family.covers("test", "test/a.spec.js"),
      mochaRunner.family.covers("test", "testing/a.spec.js"),
      mochaRunner.family.covers("test/a.spec.js", "test/a.spec.js::suite > x"),
    ]).toEqual([true, true, false, true]);
  });
});

describe("mocha identity: what loads code before the tests, or writes the output", () => {
  const SPEC = "\n\n  math\n    ✔ adds\n\n\n  1 passing (3ms)\n\n";
  it.each([
    ["mocha --require ./fake.js", "mocha --require loads code before the tests"],
    ["mocha -r ./fake.js", "mocha -r loads code before the tests"],
    ["mocha --require=./fake.js test/", "mocha --require loads code before the tests"],
    ["mocha --import ./fake.mjs", "mocha --import loads code before the tests"],
    ["mocha -n require=./fake.js", "mocha -n require=./fake.js loads code before the tests"],
    ["mocha --node-option import=./fake.mjs", "mocha --node-option import=./fake.mjs loads code before the tests"],
    ["mocha --reporter ./my-reporter.js", "mocha --reporter ./my-reporter.js writes the output"],
    ["mocha -R mochawesome", "mocha -R mochawesome writes the output"],
    ["mocha --ui ./my-ui.js", "mocha --ui ./my-ui.js loads code before the tests"],
    ["NODE_OPTIONS='--require ./fake.js' mocha", "sets NODE_OPTIONS"],
  ])("%s -> shadowed-runner (%s)", (line, reason) => {
    const found = analyzeCommand(line, { cwd: "/work/p" }).invocations[0];
    expect({ shadowed: found?.shadowed, by: found?.shadowedBy }).toEqual({ shadowed: true, by: reason });
    expect(judge({ command: line, output: SPEC, exitCode: 0, cwd: "/work/p" }).runs[0]?.reasons).toEqual(["shadowed-runner"]);
  });

  it.each([
    "mocha -R spec",
    "mocha --reporter dot",
    "mocha -R tap",
    "mocha --ui tdd",
    "mocha -n no-warnings",
    "mocha --file test/setup.js",
  ])("%s keeps mocha's identity", (line) => {
    expect(analyzeCommand(line, { cwd: "/work/p" }).invocations[0]?.shadowed).toBe(false);
  });
});

// The spec reporter's framing as mocha 12 prints it, with a test's forgeries mixed in.
const HEAD = ["", "", "  math", "    ✔ adds", "    ✔ multiplies"];
const EPILOGUE = ["", "", "  2 passing (4ms)", "", ""];

describe("mocha forgeries", () => {
  const verdict = (lines: string[], exitCode = 0): { verdict: string; reasons: string[] | undefined; passed: string[] | undefined } => {
    const result = judge({ command: "mocha", output: lines.join("\n"), exitCode });
    return { verdict: result.verdict, reasons: result.runs[0]?.reasons, passed: result.runs[0]?.passed };
  };

  it("the real framing passes with its ids", () => {
    expect(verdict([...HEAD, ...EPILOGUE])).toEqual({ verdict: "passed", reasons: [], passed: ["math > adds", "math > multiplies"] });
  });

  it("a pass line a test printed is one more than the epilogue counts: no id is proof", () => {
    expect(verdict([...HEAD, "    ✔ never ran", ...EPILOGUE])).toEqual({ verdict: "unknown", reasons: ["spoof-suspect"], passed: [] });
    // At the margin too, where mocha prints none of its own.
    expect(verdict([...HEAD, "✔ never ran", ...EPILOGUE]).verdict).toBe("unknown");
  });

  it("an epilogue a test printed before mocha's own is a second one", () => {
    const parsed = parseMocha([...HEAD, "", "  9 passing (1ms)", "", ...EPILOGUE].join("\n"));
    expect({ summaries: parsed.summaryCount, forgeries: parsed.forgeries.map((f) => f.kind) }).toEqual({
      summaries: 2,
      forgeries: ["multiple-summaries"],
    });
    expect(verdict([...HEAD, "", "  9 passing (1ms)", "", ...EPILOGUE]).verdict).toBe("unknown");
  });

  it("an epilogue a test printed before ending the process counts more tests than the whole output shows", () => {
    expect(verdict([...HEAD, "", "", "  40 passing (12ms)", "", ""])).toEqual({
      verdict: "unknown",
      reasons: ["spoof-suspect"],
      passed: ["math > adds", "math > multiplies"],
    });
  });

  it("an epilogue cut off before its closing blank line may have lost its `failing` line", () => {
    // Seen from mocha's first line with every test's result and no failure among them, it stands (a host trimmed the end).
    expect(parseMocha([...HEAD, "", "", "  2 passing (4ms)"].join("\n")).summary?.counts).toEqual({ passed: 2, skipped: 0, failed: 0 });
    // A failure shown inline, or a window that does not show mocha's first line: no summary (`| head -n N` cut it).
    expect(parseMocha([...HEAD, "    1) divides", "", "", "  2 passing (4ms)"].join("\n")).summary).toBeNull();
    expect(parseMocha(["    ✔ adds", "    ✔ multiplies", "", "", "  2 passing (4ms)"].join("\n")).summary).toBeNull();
    expect(parseMocha(["", "", "  2 passing (4ms)", "  1 pending"].join("\n")).summary).toBeNull();
  });

  it("the epilogue's failures fail the run, whatever the exit status says", () => {
    const output = [
      ...HEAD,
      "    1) divides",
      "",
      "",
      "  2 passing (4ms)",
      "  1 failing",
      "",
      "  1) math",
      "       divides:",
      "     Error: boom",
      "",
    ];
    expect(verdict(output, 0)).toMatchObject({ verdict: "failed", reasons: ["tests-failed"] });
    expect(parseMocha(output.join("\n")).failed).toEqual(["math > divides"]);
  });

  it("an epilogue a test's timer prints after mocha's own does not hide its failures", () => {
    const output = [
      ...HEAD,
      "    1) divides",
      "",
      "",
      "  2 passing (4ms)",
      "  1 failing",
      "",
      "  1) math",
      "       divides:",
      "     Error: boom",
      "",
      "",
      "",
      "  3 passing (4ms)",
      "",
      "",
    ];
    expect(verdict(output, 0)).toMatchObject({ verdict: "failed" });
    // With the dot reporter the failure list names the failure.
    const dots = [
      "",
      "",
      "  ..!",
      "",
      "  2 passing (4ms)",
      "  1 failing",
      "",
      "  1) math",
      "       divides:",
      "     Error: boom",
      "",
      "",
      "",
      "  3 passing (4ms)",
      "",
      "",
    ];
    expect(verdict(dots, 0)).toMatchObject({ verdict: "failed" });
  });

  it("a failure's message text is no result, however it looks", () => {
    const output = [
      ...HEAD,
      "    1) divides",
      "",
      "",
      "  2 passing (4ms)",
      "  1 failing",
      "",
      "  1) math",
      "       divides:",
      "     Error: expected",
      "  ✔ fake inside message",
      "  2) not an item",
      "",
    ];
    expect(parseMocha(output.join("\n"))).toMatchObject({
      passed: ["math > adds", "math > multiplies"],
      failed: ["math > divides"],
      forgeries: [],
    });
  });

  it("a test's output between results is no suite unless it sits where a suite title can", () => {
    const output = ["", "", "  math", "    ✔ adds", "hello from a test", "        deep output", "    ✔ multiplies", ...EPILOGUE];
    expect(parseMocha(output.join("\n")).passed).toEqual(["math > adds", "math > multiplies"]);
  });

  it("exit statuses: mocha's failure count is a failure; a crash after a clean epilogue is not a pass", () => {
    expect(mochaRunner.exitCodes?.[2]).toBe("failed");
    expect(mochaRunner.exitCodes?.[255]).toBe("failed");
    expect(verdict([...HEAD, ...EPILOGUE], 7).verdict).toBe("unknown");
  });
});

describe("where a mocha output starts", () => {
  it("a window's first result names no id: spaces may have been cut from its indent", () => {
    const parsed = parseMocha(["  ✔ adds", "  ✔ multiplies", ...EPILOGUE].join("\n"));
    expect({ passed: parsed.passed, cut: parsed.start?.cut }).toEqual({ passed: ["multiplies"], cut: null });
  });

  it("a next result deeper than the first line allows shows a cut indent", () => {
    expect(parseMocha(["  ✔ adds", "    ✔ multiplies", ...EPILOGUE].join("\n")).start?.cut).toMatch(/indent was cut/);
  });

  it.each([["ds"], ["✔ adds"], [" ✔ adds"], ["passing (4ms)"], ["ssing (4ms)"]])("first line %j is a cut", (first) => {
    expect(parseMocha([first, "    ✔ multiplies", ...EPILOGUE].join("\n")).start?.cut).not.toBeNull();
  });

  it("an output that begins with mocha's blank line is whole at its start", () => {
    expect(parseMocha([...HEAD, ...EPILOGUE].join("\n")).start).toEqual({ cut: null, headMissing: null, summaryMismatch: null });
  });
});
