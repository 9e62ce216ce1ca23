import { describe, expect, it } from "vitest";

import { type CandidateComparisonResult, type CandidateKey, compareCandidates, recordColour } from "../../src/candidates/compare.js";
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
    outcome: verified ? "passed" : exitCode === 0 || exitCode === null ? "unknown" : "failed",
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
const key = (target: string, command = `python -m pytest ${target}`, selection: string[] = []): CandidateKey => ({
  family: "python",
  target,
  selection,
  command,
});
const compare = (a: VerificationRecord[], b: VerificationRecord[]): CandidateComparisonResult =>
  compareCandidates({ testRecords: a, root: "/w" }, { testRecords: b, root: "/w" });
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
    ["passed and verified", record("t", 0, true), "green"],
    ["failed, exit 1", record("t", 1, false), "red"],
    ["failed by the runner's own summary, though the line exited 0 (`| tail -5`)", record("t", 0, false, { outcome: "failed" }), "red"],
    ["exit 0 but unknown (truncated, nothing collected)", record("t", 0, false, { truncated: true }), undefined],
    ["exit 1 but unknown (a usage error, a clipped log)", record("t", 1, false, { outcome: "unknown" }), undefined],
    ["a filtered pass: passed, never verified", record("t", 0, false, { outcome: "passed", filtered: true }), undefined],
    ["timed out without an exit code", record("t", null, false), undefined],
  ])("%s", (_name, input, expected) => {
    expect(recordColour(input)).toEqual(expected);
  });
});

describe("compareCandidates", () => {
  it.each([
    [
      "green in a, red in b: a wins",
      [green("t.py")],
      [red("t.py")],
      { decision: "a", mechanical: true, shared: [key("t.py")], agreeing: [], conflicting: [key("t.py")], codes: ["a-wins"] },
    ],
    [
      "red in a, green in b: b wins",
      [red("t.py")],
      [green("t.py")],
      { decision: "b", mechanical: true, shared: [key("t.py")], agreeing: [], conflicting: [key("t.py")], codes: ["b-wins"] },
    ],
    [
      "every separating key points to a, the rest agree",
      [green("x.py"), green("y.py"), red("z.py")],
      [red("x.py"), green("y.py"), red("z.py")],
      {
        decision: "a",
        mechanical: true,
        shared: [key("x.py"), key("y.py"), key("z.py")],
        agreeing: [key("y.py"), key("z.py")],
        conflicting: [key("x.py")],
        codes: ["a-wins"],
      },
    ],
    [
      "conflict: one key favours a, another favours b",
      [green("x.py"), red("y.py")],
      [red("x.py"), green("y.py")],
      {
        decision: "judge",
        mechanical: false,
        shared: [key("x.py"), key("y.py")],
        agreeing: [],
        conflicting: [key("x.py"), key("y.py")],
        codes: ["conflict", "favours-a", "favours-b"],
      },
    ],
    [
      "no shared keys",
      [green("x.py")],
      [red("y.py")],
      { decision: "judge", mechanical: false, shared: [], agreeing: [], conflicting: [], codes: ["no-shared-keys"] },
    ],
    [
      "both green on the only shared key",
      [green("x.py")],
      [green("x.py")],
      {
        decision: "judge",
        mechanical: false,
        shared: [key("x.py")],
        agreeing: [key("x.py")],
        conflicting: [],
        codes: ["no-separating-key"],
      },
    ],
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
      {
        decision: "a",
        mechanical: true,
        shared: [key("y.py")],
        agreeing: [],
        conflicting: [key("y.py")],
        codes: ["a-wins", "stale-ignored"],
      },
    ],
    [
      "flags that change only the output are one key (-vv against none)",
      [green("t.py", { command: "python -m pytest -vv t.py" })],
      [red("t.py")],
      {
        decision: "a",
        mechanical: true,
        shared: [key("t.py", "python -m pytest -vv t.py")],
        agreeing: [],
        conflicting: [key("t.py", "python -m pytest -vv t.py")],
        codes: ["a-wins"],
      },
    ],
    [
      "`pytest` and `python -m pytest` are one runner family",
      [green("t.py", { runner: "pytest", command: "pytest -q t.py" })],
      [red("t.py")],
      {
        decision: "a",
        mechanical: true,
        shared: [key("t.py", "pytest -q t.py")],
        agreeing: [],
        conflicting: [key("t.py", "pytest -q t.py")],
        codes: ["a-wins"],
      },
    ],
    [
      "`tests` and `tests/` are one target",
      [green("tests/", { command: "python -m pytest -rA tests/" })],
      [red("tests")],
      {
        decision: "a",
        mechanical: true,
        shared: [key("tests", "python -m pytest -rA tests/")],
        agreeing: [],
        conflicting: [key("tests", "python -m pytest -rA tests/")],
        codes: ["a-wins"],
      },
    ],
    [
      "`cd sub && pytest t.py` and `pytest sub/t.py` are one target in the worktree",
      [green("t.py", { command: "cd sub && python -m pytest t.py", workspace: "/w/sub" })],
      [red("sub/t.py")],
      {
        decision: "a",
        mechanical: true,
        shared: [key("sub/t.py", "cd sub && python -m pytest t.py")],
        agreeing: [],
        conflicting: [key("sub/t.py", "cd sub && python -m pytest t.py")],
        codes: ["a-wins"],
      },
    ],
    [
      "different selections are different keys (-k a against -k b)",
      [red("t.py", { command: "python -m pytest -k a t.py", filtered: true })],
      [red("t.py", { command: "python -m pytest -k b t.py", filtered: true })],
      { decision: "judge", mechanical: false, shared: [], agreeing: [], conflicting: [], codes: ["no-shared-keys"] },
    ],
    [
      "the same selection however it is spelled (-k a, -ka) is one key",
      [red("t.py", { command: "python -m pytest -k a t.py", filtered: true })],
      [red("t.py", { command: "python -m pytest -q -ka t.py", filtered: true })],
      {
        decision: "judge",
        mechanical: false,
        shared: [key("t.py", "python -m pytest -k a t.py", ["-k=a"])],
        agreeing: [key("t.py", "python -m pytest -k a t.py", ["-k=a"])],
        conflicting: [],
        codes: ["no-separating-key"],
      },
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
