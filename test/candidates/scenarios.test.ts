// Issue 16's table with three candidates each, run for real (git worktrees, evidenceTools, pytest):
// one fixes everything, one fixes part, one fixes part and breaks a passing test. Each candidate runs
// its own test command through the observed bash tool after its edit; the base is a candidate that
// changes nothing. rankCandidates and compareCandidates must decide mechanically by outcome (red is
// pytest's own `failed`, even when `| tail -5` makes the line exit 0) and canonical keys (`tests` =
// `tests/`, `-q` = `-rA`), with runCandidate's verify step and without it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { compareCandidates } from "../../src/candidates/compare.js";
import { rankCandidates, type RankedCandidate } from "../../src/candidates/rank.js";
import { type RunCandidateOptions, type RunCandidateResult, runCandidates } from "../../src/candidates/run-candidate.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { createRepo, removeAll } from "./git-fixture.js";

const BUGGY = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n";
const TESTS =
  "from calc import add, mul, sub\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n";
const FIX_ALL = BUGGY.replace("a - b", "a + b").replace("return a + b\n\n\ndef mul", "return a - b\n\n\ndef mul");
const FIX_PART = BUGGY.replace("a - b", "a + b");
const FIX_PART_BREAK_MUL = FIX_PART.replace("a * b", "a ** b");
const VERIFY = { command: "python3 -m pytest -rA tests" };

const RA = "python3 -m pytest -rA tests";
const TAIL = "python3 -m pytest -rA tests 2>&1 | tail -5";
const SLASH = "python3 -m pytest -rA tests/";
const Q = "python3 -m pytest -q tests";

const ID = (name: string): string => `tests/test_calc.py::${name}`;
const [ADD, SUB, MUL] = [ID("test_add"), ID("test_sub"), ID("test_mul")];

type Label = "fix-all" | "fix-part" | "fix-part-break-mul";
const LABELS: Label[] = ["fix-all", "fix-part", "fix-part-break-mul"];
const CONTENT: Record<Label, string> = { "fix-all": FIX_ALL, "fix-part": FIX_PART, "fix-part-break-mul": FIX_PART_BREAK_MUL };

/** [label, rank, status, failToPass, passToPass, passToFail, failToFail, candidateOnly, baseOnly] */
type Row = [string, number, string, string[], string[], string[], string[], { passed: string[]; failed: string[] }, string[]];
const none = { passed: [], failed: [] };
const row = (r: RankedCandidate): Row => [
  r.label,
  r.rank,
  r.status,
  r.tests.failToPass,
  r.tests.passToPass,
  r.tests.passToFail,
  r.tests.failToFail,
  r.tests.candidateOnly,
  r.tests.baseOnly,
];

// Every id named on both sides: the decision the table asks for.
const FULL: Row[] = [
  ["fix-all", 1, "green", [ADD, SUB], [MUL], [], [], none, []],
  ["fix-part", 2, "red", [ADD], [MUL], [], [SUB], none, []],
  ["fix-part-break-mul", 3, "red", [ADD], [], [MUL], [SUB], none, []],
];

interface Scenario {
  name: string;
  /** The command each side typed; the base's agent runs its own (without the verify step). */
  commands: Record<Label | "base", string>;
  /** Exit codes of the candidates' own runs: `| tail -5` exits 0 whatever pytest said. */
  exits: Record<Label, number>;
  /** The ranking without the verify step. */
  unverified: Row[];
  /** fix-all's own run passes but prints no ids (`-q`): its ranking says so (`no-ids:`). */
  silentFixer?: boolean;
}

const sameExits = { "fix-all": 0, "fix-part": 1, "fix-part-break-mul": 1 };
const SCENARIOS: Scenario[] = [
  {
    name: "1. everyone types `python3 -m pytest -rA tests`",
    commands: { base: RA, "fix-all": RA, "fix-part": RA, "fix-part-break-mul": RA },
    exits: sameExits,
    unverified: FULL,
  },
  {
    name: "2. everyone types `... -rA tests 2>&1 | tail -5` (every line exits with tail's 0)",
    commands: { base: TAIL, "fix-all": TAIL, "fix-part": TAIL, "fix-part-break-mul": TAIL },
    exits: { "fix-all": 0, "fix-part": 0, "fix-part-break-mul": 0 },
    unverified: FULL,
  },
  {
    name: "3. `tests` against `tests/`",
    commands: { base: RA, "fix-all": SLASH, "fix-part": RA, "fix-part-break-mul": SLASH },
    exits: sameExits,
    unverified: FULL,
  },
  {
    // -q prints no PASSED lines: a -q candidate's passing ids are unknown (baseOnly); its failures are named.
    name: "4a. `-q` against `-rA`: the partial and the breaking candidate type `-q`",
    commands: { base: RA, "fix-all": RA, "fix-part": Q, "fix-part-break-mul": Q },
    exits: sameExits,
    unverified: [
      ["fix-all", 1, "green", [ADD, SUB], [MUL], [], [], none, []],
      ["fix-part", 2, "red", [], [], [], [SUB], none, [ADD, MUL]],
      ["fix-part-break-mul", 3, "red", [], [], [MUL], [SUB], none, [ADD]],
    ],
  },
  {
    name: "4b. `-q` against `-rA`: the fixer types `-q` (as in canonical-keys.test.ts)",
    commands: { base: RA, "fix-all": Q, "fix-part": RA, "fix-part-break-mul": RA },
    exits: sameExits,
    // The green -q run proves its target, not which base ids it still holds (a candidate may delete a
    // failing test): its ids count in no table, and red candidates rank after it before fixes count.
    unverified: [
      ["fix-all", 1, "green", [], [], [], [], none, [ADD, MUL, SUB]],
      ["fix-part", 2, "red", [ADD], [MUL], [], [SUB], none, []],
      ["fix-part-break-mul", 3, "red", [ADD], [], [MUL], [SUB], none, []],
    ],
    silentFixer: true,
  },
];

const createToolset = (dir: string) => evidenceTools(["bash", "file_write"], { cwd: dir });
type Tools = ReturnType<typeof createToolset>["tools"];
const call = (tools: Tools, name: string, input: unknown) => tools.find((tool) => tool.name === name)!.execute(input as never);

describe.each(SCENARIOS)("$name", (scenario) => {
  let repo: string;
  const plain = new Map<string, RunCandidateResult>();
  const verified = new Map<string, RunCandidateResult>();
  beforeAll(async () => {
    repo = await createRepo("scenario", {
      "calc.py": BUGGY,
      "tests/test_calc.py": TESTS,
      "conftest.py": "",
      ".gitignore": "__pycache__/\n.pytest_cache/\n",
    });
    const agent =
      (content: string | null, command: string) =>
      async (tools: Tools): Promise<void> => {
        if (content !== null) await call(tools, "file_write", { path: "calc.py", mode: "overwrite", content });
        await call(tools, "bash", { command });
      };
    const list: { into: Map<string, RunCandidateResult>; options: RunCandidateOptions<Tools, undefined> }[] = [
      // Without the verify step the base's agent runs the base's command on the unchanged code.
      { into: plain, options: { repo, label: "base", agent: agent(null, scenario.commands.base), createToolset } },
      ...LABELS.map((label) => ({
        into: plain,
        options: { repo, label, agent: agent(CONTENT[label], scenario.commands[label]), createToolset },
      })),
      // With it the base's agent does nothing: the verify step is its only run.
      { into: verified, options: { repo, label: "base", agent: () => Promise.resolve(), createToolset, verify: VERIFY } },
      ...LABELS.map((label) => ({
        into: verified,
        options: { repo, label, agent: agent(CONTENT[label], scenario.commands[label]), createToolset, verify: VERIFY },
      })),
    ];
    const settled = await runCandidates(
      list.map((entry) => entry.options),
      { concurrency: 4 },
    );
    settled.forEach((result, index) => {
      if (result.status === "fulfilled") list[index]!.into.set(result.value.label, result.value);
    });
    const failed = settled.filter((result) => result.status === "rejected");
    if (failed.length > 0)
      throw new AggregateError(
        failed.map((result) => result.reason as Error),
        "a candidate failed",
      );
  });
  afterAll(async () => {
    await Promise.all([...plain.values(), ...verified.values()].map((result) => result.workspace.dispose()));
    if (repo !== undefined) await removeAll(repo);
  });

  const candidates = (runs: Map<string, RunCandidateResult>): RunCandidateResult[] => LABELS.map((label) => runs.get(label)!);
  const ownRuns = (runs: Map<string, RunCandidateResult>): unknown =>
    Object.fromEntries(
      LABELS.map((label) => {
        const result = runs.get(label)!;
        return [
          label,
          result.testRecords
            .slice(0, result.testRecords.length - result.verification.length)
            .map((r) => [r.command, r.exitCode, r.outcome, r.verified]),
        ];
      }),
    );
  const expectedOwnRuns = Object.fromEntries(
    LABELS.map((label) => [
      label,
      [[scenario.commands[label], scenario.exits[label], label === "fix-all" ? "passed" : "failed", label === "fix-all"]],
    ]),
  );

  const expectCompare = (runs: Map<string, RunCandidateResult>): void => {
    const [fixAll, , regression] = candidates(runs);
    const verdict = compareCandidates(fixAll!, regression!);
    const key = (k: { family: string; target: string; selection: string[] }): unknown => [k.family, k.target, k.selection];
    expect(
      {
        decision: verdict.decision,
        mechanical: verdict.mechanical,
        shared: verdict.shared.map(key),
        conflicting: verdict.conflicting.map(key),
        agreeing: verdict.agreeing,
      },
      verdict.reasons.join("\n"),
    ).toEqual({
      decision: "a",
      mechanical: true,
      shared: [["python", "tests", []]],
      conflicting: [["python", "tests", []]],
      agreeing: [],
    });
    expect(verdict.reasons).toEqual([expect.stringMatching(/^a-wins: tests by `python3 -m pytest .*` is green in a and red in b$/)]);
    expect(compareCandidates(regression!, fixAll!).decision).toBe("b");
  };

  describe("without the verify step", () => {
    it("red from pytest's own outcome, whatever the exit code", () => {
      expect(ownRuns(plain)).toEqual(expectedOwnRuns);
      for (const result of plain.values()) expect(result.verification).toEqual([]);
    });

    it("rankCandidates against the base: fix-all first alone and green, the regression in passToFail", () => {
      const ranked = rankCandidates(candidates(plain), { base: plain.get("base")! });
      expect(ranked.map(row), ranked.map((r) => `${r.label}: ${r.reasons.join("; ")}`).join("\n")).toEqual(scenario.unverified);
      expect(ranked.filter((r) => r.rank === 1).map((r) => r.label)).toEqual(["fix-all"]);
      expect(ranked.find((r) => r.label === "fix-part-break-mul")!.reasons[0]).toBe(`regressions: 1 pass-to-fail (${MUL})`);
      const noIds = ranked.find((r) => r.label === "fix-all")!.reasons.filter((reason) => reason.startsWith("no-ids: "));
      expect(noIds).toHaveLength(scenario.silentFixer === true ? 1 : 0);
    });

    it("compareCandidates(fix-all, regression) decides for fix-all on the canonical key", () => {
      expectCompare(plain);
    });
  });

  describe("with the verify step", () => {
    it("each candidate ran its own command and then the verify command", () => {
      expect(ownRuns(verified)).toEqual(expectedOwnRuns);
      expect(verified.get("base")!.testRecords.map((r) => r.command)).toEqual([VERIFY.command]);
      for (const label of LABELS) {
        const result = verified.get(label)!;
        expect(result.testRecords.map((r) => r.command)).toEqual([scenario.commands[label], VERIFY.command]);
        expect(result.verification.map((r) => [r.command, r.exitCode, r.outcome])).toEqual([
          [VERIFY.command, label === "fix-all" ? 0 : 1, label === "fix-all" ? "passed" : "failed"],
        ]);
      }
    });

    it("rankCandidates against the base: fix-all first alone and green, the regression in passToFail", () => {
      const ranked = rankCandidates(candidates(verified), { base: verified.get("base")! });
      expect(ranked.map(row), ranked.map((r) => `${r.label}: ${r.reasons.join("; ")}`).join("\n")).toEqual(FULL);
      expect(ranked.find((r) => r.label === "fix-part-break-mul")!.reasons[0]).toBe(`regressions: 1 pass-to-fail (${MUL})`);
    });

    it("compareCandidates(fix-all, regression) decides for fix-all on the canonical key", () => {
      expectCompare(verified);
    });
  });
});
