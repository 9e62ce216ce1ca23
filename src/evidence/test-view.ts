// The per-test view of the evidence: for each target and each test id the records name, whether it is
// proven passing now, failing, stale, or unknown, and the record that says so. Pure: records in.
import { onlyTargetNotProven } from "../reasons.js";
import type { VerificationRecord } from "../types.js";

/** What the evidence says of one target or test id now. */
export type TestState = "passing" | "failing" | "stale" | "unknown";

/** One target or test id, and the record its state rests on (the latest that names it). */
export interface TestViewEntry {
  /** The target as typed, or the test id as the runner printed it. */
  key: string;
  state: TestState;
  /** The record's `seq`, and its command. */
  record: { seq: number; command: string };
}

/** The per-test view: targets and test ids, each sorted by key. */
export interface TestView {
  targets: TestViewEntry[];
  tests: TestViewEntry[];
}

/**
 * The state of every target and test id the records name. A target is passing while its latest
 * record is current and verified, failing while that record is current and failed. A test id is
 * passing or failing by its latest record that names it, when that record is current and the runner
 * decided it (passed, failed, or unknown only for lack of target coverage); a record that no longer
 * applies makes it stale; anything else is unknown.
 * @example testView(evidence.verificationRecords).tests // [{ key: "tests/t.py::test_a", state: "passing", record: { seq: 1, command: "pytest -rA tests" } }]
 */
export function testView(records: readonly VerificationRecord[]): TestView {
  const targets = new Map<string, TestViewEntry>();
  const tests = new Map<string, TestViewEntry>();
  for (const record of [...records].sort((a, b) => a.seq - b.seq)) {
    const ref = { seq: record.seq, command: record.command };
    const current = record.applicability === "current";
    targets.set(record.target, {
      key: record.target,
      state: !current ? "stale" : record.verified ? "passing" : record.outcome === "failed" ? "failing" : "unknown",
      record: ref,
    });
    const decided = record.outcome !== "unknown" || onlyTargetNotProven(record.reasons);
    const idState = (outcome: "passing" | "failing"): TestState =>
      !current ? "stale" : outcome === "failing" || decided ? outcome : "unknown";
    for (const id of record.passed) tests.set(id, { key: id, state: idState("passing"), record: ref });
    for (const id of record.failed) tests.set(id, { key: id, state: idState("failing"), record: ref });
  }
  const sorted = (map: Map<string, TestViewEntry>): TestViewEntry[] =>
    [...map.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { targets: sorted(targets), tests: sorted(tests) };
}
