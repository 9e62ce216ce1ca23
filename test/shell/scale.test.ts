// Big lines an agent can send: thousands of statements, links and pipeline stages, deep nesting, long
// words, heredocs and redirections. Each is analysed and attributed as its small form is, or meets a
// documented cap that makes it opaque or unknown; none throws or overflows the stack. Time is measured
// in bench/scale, never asserted here.
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { statusTemplates } from "../../src/shell/attribute-exit.js";
import type { CommandAnalysis, ExitAttribution } from "../../src/shell/index.js";
import { attributeExit } from "../../src/shell/index.js";

const t = (runnerExit: number): ExitAttribution => ({ status: "trusted", runnerExit, reason: "runner-status" });
const s = (reason: string): ExitAttribution => ({ status: "success-implied", runnerExit: 0, reason });
const f = (reason: string): ExitAttribution => ({ status: "failure-implied", runnerExit: null, reason });
const m = (reason: string): ExitAttribution => ({ status: "masked", runnerExit: null, reason });
const runs = (n: number, join: string): string => Array.from({ length: n }, (_, i) => `pytest tests/test_${i}.py`).join(join);
/** `first` for every run but the last, then `last`. */
const allBut = (n: number, first: ExitAttribution, last: ExitAttribution): ExitAttribution[] => [
  ...Array.from({ length: n - 1 }, () => first),
  last,
];

describe("10,000 runs in one line: the attribution of its four-run form", () => {
  const N = 10_000;
  it.each<[string, string, number | null, ExitAttribution, ExitAttribution]>([
    ["`;`, exit 0", "; ", 0, m("later-statement"), t(0)],
    ["`;`, exit 1", "; ", 1, m("later-statement"), t(1)],
    ["newlines, exit 0", "\n", 0, m("later-statement"), t(0)],
    ["`;`, no exit status", "; ", null, m("no-exit-status"), m("no-exit-status")],
    ["`&&`, exit 0", " && ", 0, s("exit-0-implies-runner-0"), t(0)],
    ["`&&`, exit 1", " && ", 1, m("later-command-may-have-failed"), m("may-not-have-run")],
    ["`||`, exit 0", " || ", 0, m("or-connector"), m("may-not-have-run")],
    ["`||`, exit 1", " || ", 1, f("exit-implies-runner-failed"), t(1)],
  ])("%s", (_name, join, exit, first, last) => {
    const analysis = analyzeCommand(runs(N, join));
    expect(analysis.opaque).toBe(false);
    expect(analysis.invocations.map((inv) => inv.targets[0])).toEqual(Array.from({ length: N }, (_, i) => `tests/test_${i}.py`));
    expect(attributeExit(analysis, exit)).toEqual(allBut(N, first, last));
    expect(attributeExit(analyzeCommand(runs(4, join)), exit)).toEqual(allBut(4, first, last));
  });

  it("10,000 runs inside one subshell, one group and one bash -c", () => {
    for (const line of [`( ${runs(N, "; ")} )`, `{ ${runs(N, "; ")}; }`, `bash -c '${runs(N, "; ")}'`]) {
      expect(attributeExit(analyzeCommand(line), 0)).toEqual(allBut(N, m("later-statement"), t(0)));
    }
  });

  it("10,000 runs, each with `> log; echo EXIT=$?`: each reads its own printed status", () => {
    const line = Array.from({ length: N }, (_, i) => `pytest t${i}.py > log${i} 2>&1; echo "rc_${i}=$?"`).join("; ");
    const analysis = analyzeCommand(line);
    const lines = ["rc_0=0", "rc_7=1", `rc_${N - 1}=0`];
    const attributions = attributeExit(analysis, 0, { status: { templates: statusTemplates(analysis), lines } });
    expect([attributions[0], attributions[7], attributions[N - 1]]).toEqual([
      { status: "trusted", runnerExit: 0, reason: "status-printed" },
      { status: "trusted", runnerExit: 1, reason: "status-printed" },
      { status: "trusted", runnerExit: 0, reason: "status-printed" },
    ]);
    expect(attributions[1]).toEqual(m("later-statement"));
  });
});

describe("pipelines of 1,000 stages", () => {
  const cats = (n: number): string[] => Array.from({ length: n }, (_, i) => `cat f${i}`);
  it.each<[string, string, number, ExitAttribution[]]>([
    ["the runner last: its status is the line's", `${cats(999).join(" | ")} | pytest`, 1, [t(1)]],
    ["the runner first, no pipefail", `pytest | ${Array(999).fill("cat").join(" | ")}`, 1, [m("inconsistent-evidence")]],
    [
      "the runner first, pipefail: cat reading a pipe cannot fail",
      `set -o pipefail; pytest | ${Array(999).fill("cat").join(" | ")}`,
      1,
      [t(1)],
    ],
    [
      "1,000 runners in one pipeline: too many paths for each",
      runs(1_000, " | "),
      0,
      Array.from({ length: 1_000 }, () => m("too-complex")),
    ],
  ])("%s", (_name, line, exit, expected) => {
    expect(attributeExit(analyzeCommand(line), exit)).toEqual(expected);
  });

  it("the runner's results reach the output through 1,000 cats", () => {
    expect(analyzeCommand(`pytest | ${Array(1_000).fill("cat").join(" | ")}`).invocations[0]!.output).toBe("direct");
    expect(analyzeCommand(`pytest | ${Array(1_000).fill("cat").join(" | ")} | sed s/a/b/`).invocations[0]!.output).toBe("transformed");
  });
});

describe("lines with too many paths give up at once, masked, for every run", () => {
  it.each([
    [
      "set -euo pipefail and 1,000 runs with && echo",
      `set -euo pipefail; ${Array.from({ length: 1_000 }, (_, i) => `pytest t${i} | tail -3 && echo OK${i % 3}`).join("; ")}`,
      1_000,
    ],
    [
      "1,000 runs with && echo OK || echo BAD",
      Array.from({ length: 1_000 }, (_, i) => `pytest t${i} && echo OK${i} || echo BAD${i}`).join("; "),
      1_000,
    ],
  ])("%s", (_name, line, count) => {
    const attributions = attributeExit(analyzeCommand(line), 0, { output: "OK0\nOK1" });
    expect(attributions).toHaveLength(count);
    expect(new Set(attributions.map((a) => a.reason))).toEqual(new Set(["too-complex"]));
  });
});

describe("deep nesting: bounded, never a stack overflow", () => {
  const n = 10_000;
  it.each<[string, string, { opaque: boolean; invocations: number; reason?: string }]>([
    ["`((((...))))` is arithmetic, not a runner", `${"(".repeat(n)}pytest${")".repeat(n)}`, { opaque: false, invocations: 0 }],
    ["a deep arithmetic command, then the runner", `((${"(".repeat(n)}1${")".repeat(n)})); pytest`, { opaque: false, invocations: 1 }],
    ["a deep $(( )) expansion", `echo $((${"1+(".repeat(n)}1${")".repeat(n)})); pytest`, { opaque: false, invocations: 1 }],
    ["nested ${a:-${b:-...}}", `echo ${"${a:-".repeat(n)}x${"}".repeat(n)}; pytest`, { opaque: false, invocations: 1 }],
    ["nested $( $( ... ) )", `echo ${"$(echo ".repeat(n)}x${")".repeat(n)}; pytest`, { opaque: false, invocations: 1 }],
    ['nested "$( "$( ... )" )"', `echo ${'"$('.repeat(n)}x${')"'.repeat(n)}; pytest`, { opaque: false, invocations: 1 }],
    ["nested <( <( ... ) )", `diff ${"<(cat ".repeat(n)}x${")".repeat(n)}; pytest`, { opaque: false, invocations: 1 }],
    ["10,000 nested subshells", `${"( ".repeat(n)}pytest${" )".repeat(n)}`, { opaque: true, invocations: 0, reason: "too-deep" }],
    ["10,000 nested groups", `${"{ ".repeat(n)}pytest; ${"}; ".repeat(n)}`, { opaque: true, invocations: 0, reason: "too-deep" }],
    ["10,000 nested ifs", `${"if true; then ".repeat(n)}pytest; ${"fi; ".repeat(n)}`, { opaque: true, invocations: 0, reason: "too-deep" }],
    [
      "10,000 nested loops",
      `${"for i in 1; do ".repeat(n)}pytest; ${"done; ".repeat(n)}`,
      { opaque: true, invocations: 0, reason: "too-deep" },
    ],
    ["10,000 `!`", `${"! ".repeat(n)}pytest`, { opaque: false, invocations: 0 }],
  ])("%s", (_name, line, expected) => {
    const analysis = analyzeCommand(line);
    expect({ opaque: analysis.opaque, invocations: analysis.invocations.length }).toEqual({
      opaque: expected.opaque,
      invocations: expected.invocations,
    });
    if (expected.reason !== undefined) expect(analysis.parsed.opaqueReasons).toContain(expected.reason);
    expect(() => attributeExit(analysis, 0, { output: "x" })).not.toThrow();
  });

  it("bash -c quoted four levels deep is followed; a fifth is opaque", () => {
    const wrap = (script: string): string => `bash -c '${script.replace(/'/g, `'\\''`)}'`;
    let four = "pytest -q";
    for (let i = 0; i < 4; i++) four = wrap(four);
    expect(attributeExit(analyzeCommand(four), 1)).toEqual([t(1)]);
    const five = analyzeCommand(wrap(four));
    expect(five.opaque).toBe(true);
    expect(five.parsed.opaqueReasons).toContain("nesting-too-deep");
  });

  it("99 subshells around bash -c around 99 subshells are followed; 100 are too deep", () => {
    const nest = (k: number, body: string): string => `${"( ".repeat(k)}${body}${" )".repeat(k)}`;
    expect(attributeExit(analyzeCommand(nest(99, `bash -c '${nest(99, "pytest -q")}'`)), 1)).toEqual([t(1)]);
    expect(analyzeCommand(nest(100, "pytest -q")).parsed.opaqueReasons).toContain("too-deep");
  });
});

describe("long words, heredocs and redirections", () => {
  it("10,000 targets in one command", () => {
    const targets = Array.from({ length: 10_000 }, (_, i) => `tests/test_${i}.py`);
    expect(analyzeCommand(`pytest -q ${targets.join(" ")}`).invocations[0]!.targets).toEqual(targets);
  });

  it("a heredoc of 100,000 lines, then the runner", () => {
    const body = Array.from({ length: 100_000 }, (_, i) => `line ${i}`).join("\n");
    expect(attributeExit(analyzeCommand(`cat > conftest.py <<'EOF'\n${body}\nEOF\npytest -q`), 1)).toEqual([t(1)]);
  });

  it("1,000 heredocs, then the runner", () => {
    const line = `${Array.from({ length: 1_000 }, (_, i) => `cat <<E${i} > f${i}\nline\nE${i}`).join("\n")}\npytest -q`;
    expect(attributeExit(analyzeCommand(line), 0)).toEqual([t(0)]);
  });

  it("10,000 redirections on the runner, its log printed later", () => {
    const line = `pytest ${Array.from({ length: 10_000 }, (_, i) => `2>>e${i}`).join(" ")} > log; cat log`;
    expect(analyzeCommand(line).invocations[0]!.output).toBe("from-file");
  });

  it("5,000 runs into one log, each tailed after it: each reads as its small form", () => {
    const line = Array.from({ length: 5_000 }, (_, i) => `pytest t${i}.py > log 2>&1; tail -5 log`).join("; ");
    const invocations = analyzeCommand(line).invocations;
    expect(invocations).toHaveLength(5_000);
    expect(new Set(invocations.map((inv) => JSON.stringify([inv.output, inv.window])))).toEqual(
      new Set([JSON.stringify(["from-file", { lines: 5 }])]),
    );
  });

  it("text teed into more than 64 files counts as printed by none of them", () => {
    const tees = (k: number): string => `pytest | ${Array.from({ length: k }, (_, i) => `tee f${i}`).join(" | ")} > /dev/null; cat f0`;
    expect(analyzeCommand(tees(64)).invocations[0]!.output).toBe("from-file");
    expect(analyzeCommand(tees(65)).invocations[0]!.output).toBe("hidden");
    expect(analyzeCommand(tees(10_000)).invocations[0]!.output).toBe("hidden");
  });

  it("10,000 pushd: a directory past 4,096 characters is unknown, and popd still unwinds", () => {
    const at = (k: number, tail = ""): string | null =>
      analyzeCommand(`${Array(k).fill("pushd d").join("; ")}; ${tail}pytest`, { cwd: "/repo" }).invocations[0]!.workspace;
    expect(at(2_045)).toBe(`/repo${"/d".repeat(2_045)}`);
    expect(at(2_046)).toBeNull();
    expect(at(10_000)).toBeNull();
    expect(at(2_046, `${Array(2_046).fill("popd").join("; ")}; `)).toBe("/repo");
  });
});

describe("property: sharing one line's simulations changes no attribution", () => {
  // Dense in runners, markers, errexit and control flow; each line's runs attributed together and one by one.
  const simple = fc.constantFrom(
    "pytest a",
    "pytest b -q",
    "go test ./...",
    "cd sub",
    "true",
    "false",
    "git push",
    "echo OK",
    "echo BROKEN",
    "echo EXIT=$?",
    "exit",
    "exit 1",
    "set -e",
    "set +e",
    "set -o pipefail",
    "ruff check .",
    "cat log",
  );
  const command = fc.oneof(
    { weight: 6, arbitrary: simple },
    { weight: 1, arbitrary: fc.array(simple, { minLength: 1, maxLength: 3 }).map((c) => `( ${c.join("; ")} )`) },
    { weight: 1, arbitrary: fc.array(simple, { minLength: 1, maxLength: 3 }).map((c) => `{ ${c.join("; ")}; }`) },
    { weight: 1, arbitrary: fc.array(simple, { minLength: 1, maxLength: 3 }).map((c) => `bash -c '${c.join("; ")}'`) },
    { weight: 1, arbitrary: simple.map((c) => `! ${c}`) },
    { weight: 1, arbitrary: simple.map((c) => `${c} | tail -3`) },
  );
  const list = fc
    .array(fc.tuple(command, fc.constantFrom("; ", " && ", " || ", "\n", " & ")), { minLength: 1, maxLength: 12 })
    .map((parts) => parts.map(([c, sep], i) => (i === parts.length - 1 ? c : c + sep)).join(""));
  const alone = (analysis: CommandAnalysis, index: number): CommandAnalysis => ({
    ...analysis,
    invocations: [analysis.invocations[index]!],
  });

  it("1,000 random lines, three exit statuses, with and without markers in the output", () => {
    fc.assert(
      fc.property(list, fc.constantFrom(0, 1, null), fc.constantFrom(undefined, "OK", "BROKEN\nOK"), (line, exit, output) => {
        const analysis = analyzeCommand(line);
        const options = output === undefined ? {} : { output };
        expect(attributeExit(analysis, exit, options)).toEqual(
          analysis.invocations.map((_inv, i) => attributeExit(alone(analysis, i), exit, options)[0]),
        );
      }),
      { numRuns: 1_000 },
    );
  });
});
