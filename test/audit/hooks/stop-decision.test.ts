// The Stop hook's policy (decideStop) on audits: the rules of the table in docs/hooks.md that the
// recorded CLI sessions (stop-labels.test.ts) do not reach one by one. The audits are data in the
// shape auditEvents returns: the policy reads nothing else.
import { describe, expect, it } from "vitest";

import type { AuditedRun, SessionAudit } from "../../../src/audit/audit-transcript.js";
import { decideStop } from "../../../src/audit/hooks/stop-decision.js";
import type { LabelledClaim } from "../../../src/audit/labels.js";

const SUITE = "python -m pytest -q";

const run = (line: number, outcome: AuditedRun["outcome"], staleBy: AuditedRun["staleBy"] = null): AuditedRun => ({
  line,
  command: SUITE,
  outcome,
  reasons: [],
  baseline: false,
  filtered: false,
  masked: false,
  sidechain: false,
  staleBy,
});

const ref = (r: AuditedRun): NonNullable<LabelledClaim["run"]> => ({ line: r.line, command: r.command, outcome: r.outcome });

function claim(
  sentence: string,
  label: LabelledClaim["label"],
  reason: LabelledClaim["reason"],
  on: AuditedRun | null,
  sameTreeFailure?: AuditedRun,
): LabelledClaim {
  return {
    kind: label === "disclosed" ? "fail" : "pass",
    scope: { kind: "suite" },
    sentence,
    start: 0,
    label,
    reason,
    run: on === null ? null : ref(on),
    ...(sameTreeFailure === undefined ? {} : { sameTreeFailure: ref(sameTreeFailure) }),
  };
}

function audit(runs: AuditedRun[], claims: LabelledClaim[], openFailure: AuditedRun | null = null): SessionAudit {
  const last = runs.at(-1) ?? null;
  return {
    path: null,
    format: "claude-code",
    shellCalls: runs.length,
    runs,
    lastRun: last === null ? null : { ...last, stale: last.staleBy !== null },
    openFailure,
    finalMessage: claims.map((c) => c.sentence).join(". "),
    claims,
    disclosed: claims.some((c) => c.label === "disclosed"),
    findings: [],
    problems: [],
  };
}

const failed = run(2, "failed");
const disclosure = claim("test_bad still fails", "disclosed", "disclosure", null);

describe("decideStop", () => {
  it("a contradicted claim blocks even beside a disclosure; a stale one does not", () => {
    expect(decideStop(audit([failed], [claim("All tests pass", "contradicted", "last-run-failed", failed), disclosure]))).toMatch(
      /^Your final message says "All tests pass", but the last test run \(`python -m pytest -q`, transcript line 2\) failed/,
    );
    const passed = run(4, "passed", { kind: "edit-tool", tool: "Edit", paths: ["calc.py"], line: 6 });
    expect(decideStop(audit([passed], [claim("All tests pass", "stale", "edited-after-run", passed)]))).toMatch(
      /^Your final message says "All tests pass", but files changed after the test run `python -m pytest -q` \(transcript line 4\) that passed: Edit calc.py \(transcript line 6\)/,
    );
    expect(decideStop(audit([passed], [claim("All tests pass", "stale", "edited-after-run", passed), disclosure]))).toBeNull();
  });

  it.each([
    ["unsupported", "partial-run", "the last run, `python -m pytest -q` (transcript line 4), did not run all it is about"],
    ["unclear", "last-run-unknown", "the outcome of the last run, `python -m pytest -q` (transcript line 4), is unknown"],
  ] as const)("%s while a run on the same code failed: blocks, naming both runs; without that failure it allows", (label, reason, why) => {
    const later = run(4, label === "unclear" ? "unknown" : "passed");
    const text = decideStop(audit([failed, later], [claim("All tests pass", label, reason, later, failed)]));
    expect(text).toBe(
      `Your final message says "All tests pass", but no test run backs it (${why}), and the test run \`${SUITE}\` (transcript line 2) failed on this code. Run the tests the claim is about and report what they print, or say in your final message that \`${SUITE}\` fails.`,
    );
    expect(decideStop(audit([failed, later], [claim("All tests pass", label, reason, later, failed), disclosure]))).toBeNull();
    expect(decideStop(audit([later], [claim("All tests pass", label, reason, later)]))).toBeNull();
  });

  it("--strict blocks an unsupported claim with no failure, not an unclear one", () => {
    const unsupported = audit([], [claim("All tests pass", "unsupported", "no-run", null)]);
    expect(decideStop(unsupported)).toBeNull();
    expect(decideStop(unsupported, { strict: true })).toBe(
      `Your final message says "All tests pass", but no test run backs it (no test ran in this session). Run the tests the claim is about and report what they print, or say in your final message that they were not run.`,
    );
    const unknown = run(4, "unknown");
    expect(decideStop(audit([unknown], [claim("All tests pass", "unclear", "last-run-unknown", unknown)]), { strict: true })).toBeNull();
  });

  it("the worst claim answers first: a contradicted claim after an unsupported one", () => {
    const a = audit(
      [failed],
      [
        claim("test_add passes", "unsupported", "partial-run", failed),
        claim("Everything passes", "contradicted", "last-run-failed", failed),
      ],
    );
    expect(decideStop(a, { strict: true })).toMatch(/^Your final message says "Everything passes"/);
  });

  it("once per claim: a claim an earlier block named allows, and the run rules are skipped with it; another claim still blocks", () => {
    const a = audit([failed], [claim("All tests pass", "contradicted", "last-run-failed", failed)]);
    const earlier = decideStop(a)!;
    expect(decideStop(a, { earlierReasons: [`Stop hook feedback:\n[agent-evidence hook claude-stop]: ${earlier}`] })).toBeNull();
    expect(decideStop(a, { earlierReasons: ['Your final message says "Everything passes", but ...'] })).toBe(earlier);
    const two = audit(
      [failed],
      [
        claim("All tests pass", "contradicted", "last-run-failed", failed),
        claim("the suite is green", "contradicted", "last-run-failed", failed),
      ],
    );
    expect(decideStop(two, { earlierReasons: [earlier] })).toMatch(/^Your final message says "the suite is green"/);
  });

  it("a hidden failed run blocks only in its own turn; a recorded run (line 0) is this turn's", () => {
    const hidden = audit([failed], []);
    expect(decideStop(hidden)).toMatch(
      /^The last test run \(`python -m pytest -q`, transcript line 2\) failed and your final message does not say so/,
    );
    expect(decideStop(hidden, { turnStartLine: 1 })).not.toBeNull();
    expect(decideStop(hidden, { turnStartLine: 5 })).toBeNull();
    expect(decideStop(audit([run(0, "failed")], []), { turnStartLine: 5 })).not.toBeNull();
    // Not once-only: the same hidden failure blocks again while it stays (within the session's budget).
    expect(decideStop(hidden, { earlierReasons: [decideStop(hidden)!] })).not.toBeNull();
  });

  it("an open failure and a stale last run of this turn block a message without claims", () => {
    const passed = run(4, "passed");
    expect(decideStop(audit([failed, passed], [], failed))).toMatch(
      /^The test run \(`python -m pytest -q`, transcript line 2\) failed, no later run that passed reran all of it/,
    );
    const stale = run(4, "passed", { kind: "shell", command: "sed -i s/+/-/ calc.py", line: 6 });
    expect(decideStop(audit([stale], []))).toBe(
      "Files changed after the last test run (`python -m pytest -q`): `sed -i s/+/-/ calc.py` came after it. Rerun `python -m pytest -q` to test the current code, or say in your final message that the tests were not rerun after the change.",
    );
    expect(decideStop(audit([stale], []), { turnStartLine: 7 })).toBeNull();
  });
});
