// A go result for a test that never ran: printed by a test (test2json turns a printed `--- PASS: X`
// into a pass event), or left over when the head of the output was cut. The first is a forgery
// (`spoof-suspect`), the second a clipped stream (`truncated`); neither is ever a pass.
import { describe, expect, it } from "vitest";

import { judge } from "../../src/evidence/judge.js";

const PKG = "example.com/m/strs";
const ev = (action: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ Time: "2024-01-01T00:00:00Z", Action: action, Package: PKG, ...extra });
const out = (test: string, text: string): string => ev("output", { Test: test, Output: `${text}\n` });
const lines = (...text: string[]): string => `${text.join("\n")}\n`;

// TestPrints prints a go-shaped pass line for a test that does not exist.
const FULL = [
  ev("run", { Test: "TestShout" }),
  out("TestShout", "=== RUN   TestShout"),
  out("TestShout", "--- PASS: TestShout (0.00s)"),
  ev("pass", { Test: "TestShout", Elapsed: 0 }),
  ev("run", { Test: "TestPrints" }),
  out("TestPrints", "=== RUN   TestPrints"),
  out("TestPrints", "--- PASS: TestGhost (0.00s)"),
  ev("pass", { Test: "TestGhost", Elapsed: 0 }),
  out("TestPrints", "--- PASS: TestPrints (0.00s)"),
  ev("pass", { Test: "TestPrints", Elapsed: 0 }),
  ev("output", { Output: "PASS\n" }),
  ev("output", { Output: `ok  \t${PKG}\t0.01s\n` }),
  ev("pass", { Elapsed: 0.01 }),
];

function verdictOf(command: string, output: string, exitCode = 0): { verdict: string; reasons: string[]; passed: string[] } {
  const result = judge({ command, output, exitCode });
  return { verdict: result.verdict, reasons: result.reasons, passed: result.runs[0]?.passed ?? [] };
}

describe("go results for tests that never ran", () => {
  it("a stream in view from its first run, with a printed pass line: spoof-suspect, the ghost never counted", () => {
    const judged = verdictOf("go test -json ./strs", lines(...FULL));
    expect(judged).toEqual({ verdict: "unknown", reasons: ["spoof-suspect"], passed: [`${PKG}::TestShout`, `${PKG}::TestPrints`] });
  });

  it("the same after Go 1.24's `start` event", () => {
    const judged = verdictOf("go test -json ./strs", lines(ev("start"), ...FULL));
    expect(judged.verdict).toBe("unknown");
    expect(judged.reasons).toEqual(["spoof-suspect"]);
  });

  it("the same stream without the printed line passes (the rule is about the forgery, not the shape)", () => {
    const honest = FULL.filter((line) => !line.includes("TestGhost"));
    expect(verdictOf("go test -json ./strs", lines(...honest)).verdict).toBe("passed");
  });

  it("a stream whose head was cut inside a test (its first event an output line): truncated", () => {
    const cut = FULL.slice(2);
    expect(verdictOf("go test -json ./strs", lines(...cut))).toMatchObject({ verdict: "unknown", reasons: ["truncated"] });
  });

  it("a stream whose head was cut between a parent's run and its subtest's: truncated", () => {
    const stream = [
      ev("run", { Test: "TestParent/sub" }),
      out("TestParent/sub", "=== RUN   TestParent/sub"),
      ev("pass", { Test: "TestParent/sub", Elapsed: 0 }),
      ev("pass", { Test: "TestParent", Elapsed: 0 }),
      ev("pass", { Elapsed: 0.01 }),
    ];
    expect(verdictOf("go test -json ./strs", lines(...stream))).toMatchObject({ verdict: "unknown", reasons: ["truncated"] });
  });

  it("a stream of parallel tests cut after the first one paused: truncated, not a forgery", () => {
    // Cut right before `run TestB`: TestA's run and pause are gone, its cont and pass remain.
    const stream = [
      ev("run", { Test: "TestB" }),
      ev("pause", { Test: "TestB" }),
      ev("cont", { Test: "TestA" }),
      ev("pass", { Test: "TestA", Elapsed: 0 }),
      ev("cont", { Test: "TestB" }),
      ev("pass", { Test: "TestB", Elapsed: 0 }),
      ev("pass", { Elapsed: 0.01 }),
    ];
    expect(verdictOf("go test -json ./strs", lines(...stream))).toMatchObject({ verdict: "unknown", reasons: ["truncated"] });
  });

  it("-v text with every RUN line in view and a printed PASS line: spoof-suspect", () => {
    const text = lines(
      "=== RUN   TestShout",
      "--- PASS: TestShout (0.00s)",
      "=== RUN   TestPrints",
      "--- PASS: TestGhost (0.00s)",
      "--- PASS: TestPrints (0.00s)",
      "PASS",
      `ok  \t${PKG}\t0.01s`,
    );
    expect(verdictOf("go test -v ./strs", text)).toMatchObject({ verdict: "unknown", reasons: ["spoof-suspect"] });
  });

  it("-v text whose RUN lines `tail` cut off: judged on the package line, no forgery", () => {
    const text = lines("--- PASS: TestPrints (0.00s)", "PASS", `ok  \t${PKG}\t0.01s`);
    expect(verdictOf("set -o pipefail; go test -v ./strs | tail -3", text).verdict).toBe("passed");
  });
});
