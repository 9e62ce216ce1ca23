// The ledger journal: one JSON line per record and per transition, flushed to disk before the
// tool call returns, so a crash loses no completed record.
import { closeSync, fstatSync, fsyncSync, openSync, readFileSync, readSync, writeSync } from "node:fs";
import type { VerificationRecord } from "../types.js";
import type { LedgerEvent, LedgerJournal, VerifiedEntry } from "./ledger.js";

/**
 * Opens (appending) a JSONL journal file; every event is written and fsynced at once. A file whose
 * last line was torn (a crash mid-write) first gets the missing newline: otherwise the next event
 * would join the torn line and be skipped with it on replay (an invalidation lost that way would
 * bring a cleared target back).
 */
export function createFileJournal(path: string): LedgerJournal & { close(): void } {
  const fd = openSync(path, "a+");
  const size = fstatSync(fd).size;
  if (size > 0) {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    if (last[0] !== 10) {
      writeSync(fd, "\n");
      fsyncSync(fd);
    }
  }
  return {
    append(event: LedgerEvent): void {
      writeSync(fd, JSON.stringify(event) + "\n");
      fsyncSync(fd);
    },
    close(): void {
      closeSync(fd);
    },
  };
}

/** The state a journal describes. `skipped` counts lines that were not valid events (a torn last line). */
export interface JournalState {
  records: VerificationRecord[];
  verified: VerifiedEntry[];
  skipped: number;
}

/** Replays a journal's text: later events win; a torn or malformed line is skipped and counted. */
export function replayJournal(text: string): JournalState {
  const records = new Map<number, VerificationRecord>();
  let verified: VerifiedEntry[] = [];
  let skipped = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let event: LedgerEvent;
    try {
      event = JSON.parse(line) as LedgerEvent;
    } catch {
      skipped += 1;
      continue;
    }
    // A line of the wrong shape (valid JSON, not an event this journal writes) is skipped like a torn one.
    if (!isEvent(event)) {
      skipped += 1;
      continue;
    }
    if (event.type === "record") {
      records.set(event.record.seq, event.record);
    } else if (event.type === "state") {
      verified = event.verified;
      for (const change of event.records) {
        const record = records.get(change.seq);
        if (record === undefined) continue;
        record.applicability = change.applicability;
        record.postTestEdits = change.postTestEdits;
        record.postTestCommands = change.postTestCommands;
      }
    } else {
      skipped += 1;
    }
  }
  return { records: [...records.values()].sort((a, b) => a.seq - b.seq), verified, skipped };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

// The shapes replay reads: a record with a numeric seq, or a state with its lists.
function isEvent(value: unknown): value is LedgerEvent {
  if (!isObject(value)) return false;
  if (value.type === "record") return isObject(value.record) && Number.isInteger(value.record.seq);
  if (value.type !== "state") return false;
  return (
    Array.isArray(value.verified) &&
    value.verified.every(isObject) &&
    Array.isArray(value.records) &&
    value.records.every((change) => isObject(change) && Number.isInteger(change.seq) && (change.applicability === "current" || change.applicability === "unknown"))
  );
}

/** Reads and replays a journal file. */
export function readJournal(path: string): JournalState {
  return replayJournal(readFileSync(path, "utf8"));
}
