// The ledger journal: one authenticated line per transition (deltas, never a repeat of earlier
// state), made durable before the tool call returns, and replayed by streaming.
//
// A line is `<hmac> <json>`: HMAC-SHA256 over the previous valid line's hmac and this line's JSON,
// with a key kept in a seal file outside the workspace (by default under the user's state
// directory, which the sandbox masks). The seal also holds the chain's tip (how many lines, and the
// last hmac), rewritten with every commit, so a journal cut short is told from one that ended there.
// Replay is fail-closed: a line that is torn, forged or of the wrong shape, a tip the journal does not
// reach, and a measured command that never finished each make everything before them unknown.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { closeSync, fdatasyncSync, fstatSync, openSync, readSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";

import { EvidenceError } from "../errors.js";
import type { HarnessDigest } from "../evidence/harness.js";
import { stateHome } from "../state-home.js";
import type { VerificationRecord } from "../types.js";
import { createSeal, type JournalSeal, type JournalTip, MAC_HEX, openSeal, readSeal, type SealFile } from "./journal-seal.js";

export type { JournalSeal, JournalTip } from "./journal-seal.js";
import { applyLedgerEvent, type LedgerEvent, type LedgerJournal, type LedgerState, type VerifiedEntry } from "../evidence/ledger-events.js";

/** Where the journal's seal (its key and tip) lives; by default {@link defaultSealPath}. */
export interface JournalOptions {
  seal?: string;
}

/** The state a journal describes, and what replay had to distrust. */
export interface JournalState {
  records: VerificationRecord[];
  verified: VerifiedEntry[];
  /** The harness baseline the journal keeps (harness.ts), or undefined when none was written. */
  harness: HarnessDigest | undefined;
  /** Lines that were not valid authenticated events (torn, forged, of the wrong shape, too long). */
  skipped: number;
  /** One sentence per reason replay made everything unknown (at most {@link MAX_WARNINGS}, then a count). */
  warnings: string[];
  /** The chain's tip after replay: where a writer continues. */
  tip: JournalTip;
}

/** A journal file open for appending. */
export interface FileJournal extends LedgerJournal {
  commit(): void;
  close(): void;
}

/** Longest line replay reads (a record with many test ids stays far below it). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
export const MAX_WARNINGS = 20;

/**
 * The default seal of a journal: `$XDG_STATE_HOME/agent-evidence/journal-seals/<sha256 of its
 * absolute path>.seal` (`~/.local/state` when XDG_STATE_HOME is unset). The sandbox hides the home
 * directory, so the agent's commands can neither read the key nor rewrite the tip.
 */
export function defaultSealPath(journal: string): string {
  const id = createHash("sha256").update(resolve(journal)).digest("hex");
  return join(stateHome(), "journal-seals", `${id}.seal`);
}

/** The hmac of a line whose JSON is `json`, following the line whose hmac is `previous` ("" for the first). */
export function lineMac(key: Buffer, previous: string, json: string): string {
  return createHmac("sha256", key).update(previous).update("\n").update(json).digest("hex");
}

/** The journal's own first event of every writer session (not a ledger transition). */
type OpenEvent = { type: "open"; version: 2 };

/**
 * Replays journal lines against a seal: the pure core of {@link readJournal}. Later events win; each
 * line that is not a valid authenticated event is skipped, counted, and makes everything unknown.
 */
export function replayJournal(lines: Iterable<string | null>, seal: JournalSeal): JournalState {
  const replay = new Replay(seal);
  for (const line of lines) replay.push(line);
  return replay.finish();
}

class Replay {
  readonly #seal: JournalSeal;
  readonly #state: LedgerState = { records: [], verified: [] };
  readonly #open = new Map<number, boolean>();
  readonly #warnings: string[] = [];
  #reasons = 0;
  #previous = "";
  #lines = 0;
  #macAtTip: string | null = null;
  #skipped = 0;
  #lineNumber = 0;
  #lastSkipped = false;

  constructor(seal: JournalSeal) {
    this.#seal = seal;
  }

  /** One line without its newline; null for a line longer than {@link MAX_LINE_BYTES}. */
  push(line: string | null): void {
    this.#lineNumber += 1;
    if (line !== null && line.trim() === "") return;
    if (line === null) return this.#skip("longer than the longest line the journal writes");
    const space = line.indexOf(" ");
    const mac = line.slice(0, space);
    const json = line.slice(space + 1);
    if (space !== MAC_HEX || !/^[0-9a-f]+$/.test(mac)) return this.#skip("not a journal line (torn, or not written by the journal)");
    const expected = Buffer.from(lineMac(this.#seal.key, this.#previous, json), "hex");
    if (!timingSafeEqual(expected, Buffer.from(mac, "hex")))
      return this.#skip("its hmac does not match (forged, altered, or an earlier line is missing)");
    this.#previous = mac;
    this.#lines += 1;
    if (this.#seal.tip !== null && this.#lines === this.#seal.tip.lines) this.#macAtTip = mac;
    let event: unknown;
    try {
      event = JSON.parse(json);
    } catch {
      return this.#skip("authenticated but not JSON");
    }
    if (isOpenEvent(event)) {
      this.#lastSkipped = false;
      return this.#closeOpen("a command was running when the journal's previous writer stopped");
    }
    if (!isLedgerEvent(event)) return this.#skip("authenticated but not an event this journal writes");
    this.#lastSkipped = false;
    if (event.type === "begin") this.#open.set(event.call, event.measured);
    else if (event.type === "end") this.#open.delete(event.call);
    else applyLedgerEvent(this.#state, event);
  }

  finish(): JournalState {
    this.#closeOpen("a command was running when the journal ends");
    const tip = this.#seal.tip;
    if (tip !== null && this.#lines < tip.lines)
      this.#distrust(`the journal holds ${this.#lines} valid lines; its seal says ${tip.lines} were written (cut short)`);
    else if (tip !== null && tip.lines > 0 && this.#macAtTip !== tip.mac) this.#distrust(`line ${tip.lines} is not the one the seal names`);
    const warnings = this.#reasons > MAX_WARNINGS ? [...this.#warnings, `and ${this.#reasons - MAX_WARNINGS} more`] : [...this.#warnings];
    return {
      records: [...this.#state.records].sort((a, b) => a.seq - b.seq),
      verified: this.#state.verified,
      harness: this.#state.harness,
      skipped: this.#skipped,
      warnings,
      tip: { lines: this.#lines, mac: this.#previous },
    };
  }

  #skip(why: string): void {
    this.#skipped += 1;
    // A run of bad lines needs one invalidation: nothing valid came between them.
    if (this.#lastSkipped) return;
    this.#lastSkipped = true;
    this.#distrust(`line ${this.#lineNumber} skipped: ${why}`);
  }

  // A measured command that began and never ended may have changed anything.
  #closeOpen(why: string): void {
    const measured = [...this.#open.values()].some(Boolean);
    this.#open.clear();
    if (measured) this.#distrust(why);
  }

  #distrust(reason: string): void {
    this.#reasons += 1;
    if (this.#warnings.length < MAX_WARNINGS) this.#warnings.push(reason);
    applyLedgerEvent(this.#state, { type: "invalidate", reason });
  }
}

/**
 * Reads and replays a journal file, streaming (memory per line, plus the state). A non-empty
 * journal needs its seal: without it nothing can be authenticated, so it is an `E_IO` error.
 */
export function readJournal(path: string, options: JournalOptions = {}): JournalState {
  const sealPath = options.seal ?? defaultSealPath(path);
  const fd = openJournalFile(path, "r");
  try {
    if (fstatSync(fd).size === 0) return replayJournal([], { key: Buffer.alloc(0), tip: null });
    const seal = readSeal(sealPath);
    if (seal === null)
      throw new EvidenceError(
        "E_IO",
        `The journal ${path} has no seal at ${sealPath}: its lines cannot be authenticated (restore it with the seal it was written with).`,
      );
    return replayJournal(readLines(fd), seal);
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens a journal for appending and returns what it held. A new journal gets a new seal (a fresh
 * key); an existing one continues its chain, after a newline if its last line was torn.
 */
export function openJournal(path: string, options: JournalOptions = {}): { state: JournalState; journal: FileJournal } {
  const sealPath = options.seal ?? defaultSealPath(path);
  const fd = openJournalFile(path, "a+");
  try {
    const size = fstatSync(fd).size;
    let state: JournalState;
    let seal: SealFile;
    if (size === 0) {
      seal = createSeal(sealPath);
      state = replayJournal([], { key: seal.key, tip: null });
    } else {
      const existing = readSeal(sealPath);
      if (existing === null)
        throw new EvidenceError(
          "E_IO",
          `The journal ${path} has no seal at ${sealPath}: its lines cannot be authenticated, so it cannot be continued.`,
        );
      state = replayJournal(readLines(fd), existing);
      seal = openSeal(sealPath, existing.key);
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      // A torn last line gets its newline, so the next event starts a line of its own.
      if (last[0] !== 10) writeSync(fd, "\n");
    }
    return { state, journal: new JournalWriter(fd, seal, state.tip) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Opens (appending) a journal file; see {@link openJournal}. */
export function createFileJournal(path: string, options: JournalOptions = {}): FileJournal {
  return openJournal(path, options).journal;
}

class JournalWriter implements FileJournal {
  readonly #fd: number;
  readonly #seal: SealFile;
  #tip: JournalTip;
  #pending: string[] = [];
  #closed = false;

  constructor(fd: number, seal: SealFile, tip: JournalTip) {
    this.#fd = fd;
    this.#seal = seal;
    this.#tip = { ...tip };
    this.#add({ type: "open", version: 2 });
    this.commit();
  }

  append(event: LedgerEvent): void {
    this.#add(event);
  }

  /**
   * Writes the pending lines and syncs them, then moves the seal's tip. The tip is not synced: every
   * process sees it at once, and a seal that lags its journal after a power loss only means a cut of
   * the lines written since then goes unnoticed (an agent cannot cause a power loss).
   */
  commit(): void {
    if (this.#pending.length === 0 || this.#closed) return;
    const text = this.#pending.join("");
    this.#pending = [];
    writeSync(this.#fd, text);
    fdatasyncSync(this.#fd);
    this.#seal.writeTip(this.#tip);
  }

  close(): void {
    if (this.#closed) return;
    this.commit();
    this.#closed = true;
    closeSync(this.#fd);
    this.#seal.close();
  }

  #add(event: LedgerEvent | OpenEvent): void {
    if (this.#closed) return;
    const json = JSON.stringify(event);
    const mac = lineMac(this.#seal.key, this.#tip.mac, json);
    this.#tip = { lines: this.#tip.lines + 1, mac };
    this.#pending.push(`${mac} ${json}\n`);
  }
}

// The journal itself: a regular file (never a FIFO or a device, which would block or never end).
function openJournalFile(path: string, flags: "r" | "a+"): number {
  let fd: number;
  try {
    fd = openSync(path, flags, 0o600);
  } catch (error) {
    throw new EvidenceError("E_IO", `Cannot open the journal ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw new EvidenceError("E_IO", `The journal ${path} is not a regular file.`);
  }
  return fd;
}

// Lines of an open file, read in chunks; a line over MAX_LINE_BYTES comes out as null.
function* readLines(fd: number): Generator<string | null> {
  const chunk = Buffer.alloc(1024 * 1024);
  let parts: Buffer[] = [];
  let partBytes = 0;
  let tooLong = false;
  let position = 0;
  for (;;) {
    const read = readSync(fd, chunk, 0, chunk.length, position);
    if (read === 0) break;
    position += read;
    let start = 0;
    for (let nl = chunk.indexOf(10, 0); nl !== -1 && nl < read; nl = chunk.indexOf(10, start)) {
      if (!tooLong && partBytes + (nl - start) <= MAX_LINE_BYTES) parts.push(Buffer.from(chunk.subarray(start, nl)));
      else tooLong = true;
      yield tooLong ? null : Buffer.concat(parts).toString("utf8");
      parts = [];
      partBytes = 0;
      tooLong = false;
      start = nl + 1;
    }
    if (start < read && !tooLong) {
      partBytes += read - start;
      if (partBytes > MAX_LINE_BYTES) {
        tooLong = true;
        parts = [];
      } else parts.push(Buffer.from(chunk.subarray(start, read)));
    }
  }
  if (tooLong) yield null;
  else if (partBytes > 0) yield Buffer.concat(parts).toString("utf8");
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === "string";

function isOpenEvent(value: unknown): value is OpenEvent {
  return isObject(value) && value.type === "open" && value.version === 2;
}

// The shapes replay applies; anything else is skipped like a torn line.
function isLedgerEvent(value: unknown): value is LedgerEvent {
  if (!isObject(value)) return false;
  switch (value.type) {
    case "begin":
      return Number.isInteger(value.call) && isString(value.command) && typeof value.measured === "boolean";
    case "end":
      return Number.isInteger(value.call);
    case "record":
      return (
        isObject(value.record) &&
        Number.isInteger(value.record.seq) &&
        Array.isArray(value.record.postTestCommands) &&
        Array.isArray(value.record.postTestEdits)
      );
    case "invalidate":
      return (
        (value.command === undefined || isString(value.command)) &&
        (value.edits === undefined || (Array.isArray(value.edits) && value.edits.every((e) => e === null || isString(e)))) &&
        (value.reason === undefined || isString(value.reason))
      );
    case "verified":
      return Array.isArray(value.verified) && value.verified.every((v) => isObject(v) && isString(v.family) && isString(v.key));
    case "baseline":
      return isObject(value.harness) && Object.values(value.harness).every(isString);
    default:
      return false;
  }
}
