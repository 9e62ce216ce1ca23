import { describe, expect, it } from "vitest";
import { compareCandidates, recordColour, type CandidateComparisonResult, type CandidateKey } from "../../src/candidates/compare.js";
import type { VerificationRecord } from "../../src/types.js";

const RUNNER = "python -m pytest";
let seq = 0;

function record(target: string, exitCode: number | null, verified: boolean, extra: Partial<VerificationRecord> = {}): VerificationRecord {
  seq += 1;
  return {
    seq,
    target,
    runner: RUNNER,
    command: `python -m pytest ${target}`,
    workspace: "/w",
    exitCode,
    timedOut: exitCode === null,
    verified,
    applicability: "current",
    postTestEdits: [],
    postTestCommands: [],
    outcome: verified ? "passed" : exitCode === 0 ? "unknown" : "failed",
    passed: [],
    failed: [],
    reasons: [],
    truncated: false,
    filtered: false,
    baseline: false,
    ...extra,
  };
}

const green = (target: string, extra?: Partial<VerificationRecord>): VerificationRecord => record(target, 0, true, extra);
const red = (target: string, extra?: Partial<VerificationRecord>): VerificationRecord => record(target, 1, false, extra);
const key = (target: string, command = `python -m pytest ${target}`): CandidateKey => ({ target, runner: RUNNER, command });
const compare = (a: VerificationRecord[], b: VerificationRecord[]): CandidateComparisonResult => compareCandidates({ testRecords: a }, { testRecords: b });
const summary = (result: CandidateComparisonResult): unknown => ({
  decision: result.decision,
  mechanical: result.mechanical,
  shared: result.shared,
  agreeing: result.agreeing,
  conflicting: result.conflicting,
  codes: result.reasons.map((reason) => reason.slice(0, reason.indexOf(":"))),
});

describe("recordColour", () => {
  it.each([
    ["exit 0 and verified", record("t", 0, true), "green"],
    ["exit 1 and not verified", record("t", 1, false), "red"],
    ["exit 0 but unverified (truncated, nothing collected)", record("t", 0, false, { truncated: true }), undefined],
    ["exit 2 yet verified", record("t", 2, true), undefined],
    ["timed out without an exit code", record("t", null, false), undefined],
  ])("%s", (_name, input, expected) => {
    expect(recordColour(input)).toEqual(expected);
  });
});

describe("compareCandidates", () => {
  it.each([
    ["green in a, red in b: a wins", [green("t.py")], [red("t.py")], { decision: "a", mechanical: true, shared: [key("t.py")], agreeing: [], conflicting: [key("t.py")], codes: ["a-wins"] }],
    ["red in a, green in b: b wins", [red("t.py")], [green("t.py")], { decision: "b", mechanical: true, shared: [key("t.py")], agreeing: [], conflicting: [key("t.py")], codes: ["b-wins"] }],
    [
      "every separating key points to a, the rest agree",
      [green("x.py"), green("y.py"), red("z.py")],
      [red("x.py"), green("y.py"), red("z.py")],
      { decision: "a", mechanical: true, shared: [key("x.py"), key("y.py"), key("z.py")], agreeing: [key("y.py"), key("z.py")], conflicting: [key("x.py")], codes: ["a-wins"] },
    ],
    [
      "conflict: one key favours a, another favours b",
      [green("x.py"), red("y.py")],
      [red("x.py"), green("y.py")],
      { decision: "judge", mechanical: false, shared: [key("x.py"), key("y.py")], agreeing: [], conflicting: [key("x.py"), key("y.py")], codes: ["conflict", "favours-a", "favours-b"] },
    ],
    ["no shared keys", [green("x.py")], [red("y.py")], { decision: "judge", mechanical: false, shared: [], agreeing: [], conflicting: [], codes: ["no-shared-keys"] }],
    ["both green on the only shared key", [green("x.py")], [green("x.py")], { decision: "judge", mechanical: false, shared: [key("x.py")], agreeing: [key("x.py")], conflicting: [], codes: ["no-separating-key"] }],
    [
      "stale records only never decide",
      [green("x.py", { applicability: "unknown" })],
      [red("x.py", { applicability: "unknown" })],
      { decision: "judge", mechanical: false, shared: [], agreeing: [], conflicting: [], codes: ["no-evidence", "stale-ignored"] },
    ],
    [
      "a stale green does not beat a current red; a current key still decides",
      [green("x.py", { applicability: "unknown" }), green("y.py")],
      [green("x.py"), red("y.py")],
      { decision: "a", mechanical: true, shared: [key("y.py")], agreeing: [], conflicting: [key("y.py")], codes: ["a-wins", "stale-ignored"] },
    ],
    [
      "different commands for the same target are different keys (-vv)",
      [green("t.py", { command: "python -m pytest -vv t.py" })],
      [red("t.py")],
      { decision: "judge", mechanical: false, shared: [], agreeing: [], conflicting: [], codes: ["no-shared-keys"] },
    ],
    [
      "different runners for the same target and command are different keys",
      [green("t.py", { runner: "pytest" })],
      [red("t.py")],
      { decision: "judge", mechanical: false, shared: [], agreeing: [], conflicting: [], codes: ["no-shared-keys"] },
    ],
    [
      "surrounding whitespace in the key is ignored",
      [green("t.py", { command: "  python -m pytest t.py " })],
      [red("t.py")],
      { decision: "a", mechanical: true, shared: [key("t.py")], agreeing: [], conflicting: [key("t.py")], codes: ["a-wins"] },
    ],
    [
      "unverified exit 0 and timeouts never decide",
      [record("t.py", 0, false), record("u.py", null, false)],
      [red("t.py"), red("u.py")],
      { decision: "judge", mechanical: false, shared: [], agreeing: [], conflicting: [], codes: ["no-evidence"] },
    ],
    [
      "the latest current record of a key speaks for it",
      [red("t.py"), green("t.py")],
      [green("t.py"), red("t.py")],
      { decision: "a", mechanical: true, shared: [key("t.py")], agreeing: [], conflicting: [key("t.py")], codes: ["a-wins"] },
    ],
  ])("%s", (_name, a, b, expected) => {
    expect(summary(compare(a, b))).toEqual(expected);
  });

  it("swapping the candidates swaps a mechanical winner", () => {
    const a = [green("x.py"), red("y.py")];
    const b = [red("x.py"), red("y.py")];
    expect([compare(a, b).decision, compare(b, a).decision]).toEqual(["a", "b"]);
  });

  it("reasons name the deciding target and command", () => {
    expect(compare([green("tests/test_x.py")], [red("tests/test_x.py")]).reasons).toEqual([
      "a-wins: tests/test_x.py by `python -m pytest tests/test_x.py` is green in a and red in b",
    ]);
  });
});
