// The ledger's transitions as data: the events the journal keeps, and the one function that applies
// them, live (ledger.ts) and on replay (journal.ts).
import type { VerificationRecord } from "../types.js";
import type { HarnessDigest } from "./harness.js";
import type { TargetKey } from "./targets.js";

/**
 * A journal sink: receives every transition, in order. `commit` (when present) is called at the end
 * of each public transition, before it returns: a file journal makes the events durable there.
 */
export interface LedgerJournal {
  append(event: LedgerEvent): void;
  commit?(): void;
}

/**
 * One transition, as the journal keeps it (deltas: no event repeats earlier state). `begin`/`end`
 * bracket a command; a `measured` command waits for its measured effect, so a `begin` that never
 * met its `end` (a crash mid-command) is replayed as a change. `invalidate` makes every record
 * unknown and clears the verified targets (`command` and `edits` are its cause; `reason` when it had
 * neither, such as a damaged journal). `verified` replaces the verified targets. `baseline` keeps the
 * workspace's harness as the session found it (harness.ts); the first one counts.
 */
export type LedgerEvent =
  | { type: "begin"; call: number; command: string; measured: boolean }
  | { type: "end"; call: number }
  | { type: "record"; record: VerificationRecord }
  | { type: "invalidate"; command?: string; edits?: (string | null)[]; reason?: string }
  | { type: "verified"; verified: VerifiedEntry[] }
  | { type: "baseline"; harness: HarnessDigest };

/** What the ledger knows: its records, the verified targets, and the harness baseline once taken. */
export interface LedgerState {
  records: VerificationRecord[];
  verified: VerifiedEntry[];
  harness?: HarnessDigest;
}

/**
 * How one event changes the state: the one definition of a transition, used live by the ledger and by
 * journal replay. `begin` and `end` change nothing here (replay keeps the open commands itself).
 */
export function applyLedgerEvent(state: LedgerState, event: LedgerEvent): void {
  switch (event.type) {
    case "record":
      state.records.push(copyRecord(event.record));
      return;
    case "invalidate":
      state.verified = [];
      for (const record of state.records) {
        record.applicability = "unknown";
        if (event.command !== undefined) record.postTestCommands.push(event.command);
        if (event.edits !== undefined) record.postTestEdits.push(...event.edits);
      }
      return;
    case "verified":
      state.verified = event.verified.map((v) => ({ family: v.family, key: v.key }));
      return;
    case "baseline":
      state.harness ??= { ...event.harness };
      return;
    case "begin":
    case "end":
      return;
    default: {
      const never: never = event;
      throw new Error(`unhandled ledger event ${JSON.stringify(never)}`);
    }
  }
}

/** A verified target with the family that decides what it overlaps. */
export interface VerifiedEntry {
  family: TargetKey["family"];
  key: string;
}

/** A deep copy of a record (its lists are never shared). */
export function copyRecord(record: VerificationRecord): VerificationRecord {
  return {
    ...record,
    postTestEdits: [...record.postTestEdits],
    postTestCommands: [...record.postTestCommands],
    passed: [...record.passed],
    failed: [...record.failed],
    reasons: [...record.reasons],
  };
}
