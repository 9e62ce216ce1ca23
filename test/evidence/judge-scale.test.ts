// The judge on big lines: thousands of runs sharing one output, a 1,000-stage pipeline, many echo
// markers and status echoes, and echo texts no regex can hold. Outputs are real captured runs,
// repeated. Time is measured in bench/scale, never asserted here.
import { beforeAll, describe, expect, it } from "vitest";

import { judge } from "../../src/evidence/judge.js";
import { createSignalScanner } from "../../src/evidence/judge-host-notes.js";
import { type CapturedRun, ensureCaptured, loadCapture } from "../support/capture.js";

let pass: CapturedRun;
let fail: CapturedRun;
beforeAll(async () => {
  await ensureCaptured();
  pass = loadCapture("py9-q-pass");
  fail = loadCapture("py9-x-mixed");
});

const line = (runs: readonly CapturedRun[], join: string): string => runs.map((run) => run.line).join(join);
const output = (runs: readonly CapturedRun[]): string => runs.map((run) => run.output).join("");

describe("10,000 runs in one line, each with its real output", () => {
  const N = 10_000;
  it.each([["; "], [" && "], ["\n"]])("joined by %j: every run passed, as two do", (join) => {
    const runs = Array.from({ length: N }, () => pass);
    const result = judge({ command: line(runs, join), output: output(runs), exitCode: 0, cwd: pass.cwd });
    const two = judge({ command: line([pass, pass], join), output: output([pass, pass]), exitCode: 0, cwd: pass.cwd });
    expect(two.verdict).toBe("passed");
    expect({ verdict: result.verdict, reasons: result.reasons, runs: result.runs.length }).toEqual({
      verdict: "passed",
      reasons: [],
      runs: N,
    });
    expect(new Set(result.runs.map((run) => JSON.stringify(run)))).toEqual(new Set([JSON.stringify(two.runs[1])]));
  });

  it("one failing run among 10,000 is the one that failed", () => {
    const runs = Array.from({ length: N }, (_, i) => (i === 5_000 ? fail : pass));
    const result = judge({ command: line(runs, "; "), output: output(runs), exitCode: 0, cwd: pass.cwd });
    expect(result.verdict).toBe("failed");
    expect(result.runs.flatMap((run, i) => (run.outcome === "passed" ? [] : [[i, run.outcome, run.failed]]))).toEqual([
      [5_000, "failed", ["tests/test_mixed.py::test_fails"]],
    ]);
  });

  it("10,000 runs sharing one summary: each judged as in a line of ten", () => {
    const runs = (n: number): string => Array.from({ length: n }, (_, i) => `pytest t${i}.py`).join("; ");
    const shape = (n: number): string[] =>
      judge({ command: runs(n), output: "1 passed in 0.01s\n", exitCode: 0 }).runs.map((run) => `${run.outcome}:${run.reasons.join("+")}`);
    const ten = shape(10);
    expect(ten).toEqual(["unknown:spoof-suspect", ...Array<string>(8).fill("unknown:masked-exit-no-summary"), "unknown:no-summary"]);
    expect(shape(N)).toEqual([ten[0], ...Array<string | undefined>(N - 2).fill(ten[1]), ten[9]]);
  });
});

describe("a 1,000-stage pipeline", () => {
  it("the runner's output through 1,000 cats is judged as through one", () => {
    const one = judge({ command: `${pass.line} | cat`, output: pass.output, exitCode: 0, cwd: pass.cwd });
    const many = judge({
      command: `${pass.line} | ${Array(1_000).fill("cat").join(" | ")}`,
      output: pass.output,
      exitCode: 0,
      cwd: pass.cwd,
    });
    expect(one.verdict).toBe("passed");
    expect(many).toEqual(one);
  });
});

describe("the line's own texts: markers and status echoes", () => {
  it("40 status echoes (more than are searched as needles): the printed failure is read", () => {
    const command = Array.from({ length: 40 }, (_, i) => `${pass.line} > log${i} 2>&1; echo "rc_${i}=$?"`).join("; ");
    const printed = Array.from({ length: 40 }, (_, i) => `rc_${i}=${i === 2 ? 1 : 0}\n`).join("");
    const result = judge({ command, output: printed, exitCode: 0, cwd: pass.cwd });
    expect(result.verdict).toBe("failed");
    expect(result.runs.map((run) => run.reasons.join("+"))).toEqual(
      Array.from({ length: 40 }, (_, i) => (i === 2 ? "runner-exit-nonzero" : "output-not-shown")),
    );
  });

  it.each([
    ["5 markers (searched as needles)", 5, 256],
    ["1,000 markers (checked line by line)", 1_000, 16],
    ["2 markers of 100,000 characters (no regex holds them)", 2, 100_000],
  ])("%s: seen exactly where a line is the text", (_name, count, length) => {
    const texts = Array.from({ length: count }, (_, i) => `M${i}:`.padEnd(length, "x"));
    const scanner = createSignalScanner({ markerTexts: texts, watchStash: false });
    const shown = texts.filter((_t, i) => i % 2 === 0);
    // A shown marker as a whole line (ANSI colour, CR and blanks around it), a hidden one only inside a longer line.
    const block = texts.map((text, i) => (i % 2 === 0 ? `  \u001b[32m${text}\u001b[0m \r` : `say ${text}`)).join("\n");
    scanner.scan(block, 0);
    expect([...scanner.line.markersSeen].sort()).toEqual([...shown].sort());
  });

  it("an echo of 100,000 characters does not break the judge", () => {
    const text = "x".repeat(100_000);
    const result = judge({ command: `${pass.line} && echo ${text}`, output: `${pass.output}${text}\n`, exitCode: 0, cwd: pass.cwd });
    expect(result.verdict).toBe("passed");
  });

  it("attack: an echo that spells a host's note does not hide the note", () => {
    const note = "Command timed out after 120s\n";
    const plain = judge({ command: pass.line, output: note + pass.output, exitCode: 0, cwd: pass.cwd });
    const spelled = judge({
      command: `${pass.line} && echo timed out after`,
      output: `${note}${pass.output}timed out after\n`,
      exitCode: 0,
      cwd: pass.cwd,
    });
    expect(plain.reasons).toEqual(["timeout"]);
    expect(spelled.reasons).toEqual(["timeout"]);
  });
});
