// The journal against damage (issue 21, item 4, in part): a torn last line followed by a restart must
// not swallow the next event (an invalidation lost so would bring a cleared target back); a line of
// the wrong shape and random corruption are skipped and counted, never thrown.
import fc from "fast-check";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createFileJournal, readJournal, replayJournal } from "../../src/evidence/journal.js";
import type { LedgerEvent } from "../../src/evidence/ledger.js";
import type { VerificationRecord } from "../../src/types.js";

const dir = mkdtempSync(join(tmpdir(), "ae-journal-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const record = (seq: number, target: string): VerificationRecord =>
  ({ seq, target, runner: "python -m pytest", command: `python -m pytest ${target}`, workspace: "/w", exitCode: 0, timedOut: false, verified: true, applicability: "current", postTestEdits: [], postTestCommands: [], outcome: "passed", passed: [], failed: [], reasons: [], truncated: false, filtered: false, baseline: false }) as unknown as VerificationRecord;
const recordEvent = (seq: number, target: string): LedgerEvent => ({ type: "record", record: record(seq, target) });
const stateEvent = (verified: string[], applicability: "current" | "unknown"): LedgerEvent =>
  ({ type: "state", verified: verified.map((target) => ({ target, seq: 1 })), records: [{ seq: 1, applicability, postTestEdits: null, postTestCommands: ["touch a.py"] }] }) as unknown as LedgerEvent;

describe("a torn last line, then a restart", () => {
  it("the next event starts on a line of its own: the invalidation is kept, the target stays cleared", () => {
    const path = join(dir, "torn.jsonl");
    const first = createFileJournal(path);
    first.append(recordEvent(1, "tests"));
    first.append(stateEvent(["tests"], "current"));
    first.close();
    // A crash in the middle of the next write.
    writeFileSync(path, readFileSync(path, "utf8") + '{"type":"state","verified":[],"rec', { flag: "w" });
    const second = createFileJournal(path);
    second.append(stateEvent([], "unknown"));
    second.close();
    const state = readJournal(path);
    expect({ verified: state.verified, applicability: state.records[0]?.applicability, skipped: state.skipped }).toEqual({ verified: [], applicability: "unknown", skipped: 1 });
  });

  it("a whole journal gets no extra blank line", () => {
    const path = join(dir, "whole.jsonl");
    const first = createFileJournal(path);
    first.append(recordEvent(1, "tests"));
    first.close();
    createFileJournal(path).close();
    expect(readFileSync(path, "utf8").endsWith("}\n")).toBe(true);
    expect(readFileSync(path, "utf8").includes("\n\n")).toBe(false);
  });
});

describe("lines of the wrong shape", () => {
  it.each([
    ["null", "null"],
    ["a number", "42"],
    ["an array", "[1,2]"],
    ["a string", '"state"'],
    ["no type", '{"record":{"seq":1}}'],
    ["a record without its record", '{"type":"record"}'],
    ["a record whose seq is not a number", '{"type":"record","record":{"seq":"1"}}'],
    ["a state without records", '{"type":"state","verified":[]}'],
    ["a state whose records are not a list", '{"type":"state","verified":[],"records":{}}'],
    ["a state with a record change of no seq", '{"type":"state","verified":[],"records":[{"applicability":"unknown"}]}'],
    ["a state with an applicability it never writes", '{"type":"state","verified":[],"records":[{"seq":1,"applicability":"fresh"}]}'],
    ["a state whose verified is not a list", '{"type":"state","verified":"tests","records":[]}'],
  ])("%s is skipped and counted", (_name, line) => {
    const good = JSON.stringify(recordEvent(1, "tests"));
    const state = replayJournal(`${good}\n${line}\n`);
    expect({ records: state.records.length, skipped: state.skipped }).toEqual({ records: 1, skipped: 1 });
  });
});

describe("random corruption", () => {
  const journal = [recordEvent(1, "tests"), stateEvent(["tests"], "current"), recordEvent(2, "tests/a.py"), stateEvent([], "unknown")].map((e) => JSON.stringify(e)).join("\n") + "\n";

  it("3,000 random edits (bytes changed, cut, repeated): replay never throws", () => {
    fc.assert(
      fc.property(fc.nat(journal.length - 1), fc.nat(journal.length), fc.string({ maxLength: 8 }), (at, cut, insert) => {
        const broken = journal.slice(0, at) + insert + journal.slice(Math.min(journal.length, at + (cut % 16)));
        const state = replayJournal(broken);
        return Array.isArray(state.records) && Array.isArray(state.verified) && state.skipped >= 0;
      }),
      { numRuns: 3_000 },
    );
  });

  it("truncation at every offset never throws and never restores a target the full journal cleared without the state that cleared it", () => {
    for (let end = 0; end <= journal.length; end++) {
      const state = replayJournal(journal.slice(0, end));
      // The last state clears `tests`; any prefix shows either no state, the first one, or the last.
      expect(state.verified.length).toBeLessThanOrEqual(1);
    }
  });
});
