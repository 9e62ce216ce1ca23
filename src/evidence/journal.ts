// The ledger journal: one JSON line per record and per transition, flushed to disk before the
// tool call returns, so a crash loses no completed record.
import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from "node:fs";
import type { VerificationRecord } from "../types.js";
import type { LedgerEvent, LedgerJournal, VerifiedEntry } from "./ledger.js";

/** Opens (appending) a JSONL journal file; every event is written and fsynced at once. */
export function createFileJournal(path: string): LedgerJournal & { close(): void } {
  const fd = openSync(path, "a");
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

/** Reads and replays a journal file. */
export function readJournal(path: string): JournalState {
  return replayJournal(readFileSync(path, "utf8"));
}
