// Splits one command line's output between its runs, in line order, without keeping the text:
// each run owns the output up to and including its own final summary; a loop's run owns every
// summary it prints (one parser per iteration). Only the unfinished line is held in memory.
import { stripAnsi } from "../observers/lines.js";
import type { OutputParser, ParsedRunOutput } from "../observers/types.js";
import type { ShareSplit } from "../runners/definition.js";
import type { TestInvocation } from "../shell/types.js";
import type { IdList } from "../types.js";
import type { SignalScanner } from "./judge-host-notes.js";

/** A held partial line is handed on once it grows past this (no runner's status line is this long). */
const MAX_HELD_LINE = 64 * 1024;
/** What the clipping check of an over-long line's pieces reads twice, so a note cut between two pieces is seen (a note is far shorter). */
const WINDOW_OVERLAP = 4096;
/** Lines of a unit (a go package) held back while their owner is not known yet. */
const MAX_PENDING_UNIT = 8 * 1024 * 1024;

/** One run's share of the output: one parse per loop iteration (exactly one for a run outside a loop). */
export interface RoutedRun {
  segments: RoutedSegment[];
}

/** One parser's share: what it read, whether it held any text, and its last non-blank line. */
export interface RoutedSegment {
  parsed: ParsedRunOutput<IdList>;
  nonBlank: boolean;
  /** The last non-blank line (ANSI kept, at most 256 characters): go prints a bare `FAIL` there when a package failed. */
  lastLine: string;
}

/** Routes output to the runs' parsers. */
export interface OutputRouter {
  push(chunk: string): void;
  /** Ends every parser; `runs[i]` belongs to `invocations[i]`. */
  end(): RoutedRun[];
}

/** One run of the line: its invocation, where its runner's share of the output ends, and its parser. */
export interface RouterSlot {
  invocation: TestInvocation;
  split: ShareSplit;
  createParser: () => OutputParser<IdList>;
}

interface Slot extends RouterSlot {
  done: RoutedSegment[];
}

/**
 * Creates the router. With one run outside a loop, chunks go straight to its parser (the fast path
 * for big logs); otherwise output is read line by line to find where each run's share ends.
 */
export function createOutputRouter(slotsIn: readonly RouterSlot[], scanner: SignalScanner): OutputRouter {
  const slots: Slot[] = slotsIn.map((s) => ({ ...s, done: [] }));
  // The stash window closes when the first stashed run ends, which only line mode can tell.
  const watchesStash = slots.some((s) => s.invocation.afterStash);
  const lineMode = slots.length > 1 || slots.some((s) => s.invocation.repeated) || watchesStash;
  let current = 0;
  let parser: OutputParser<IdList> | null = slots.length > 0 ? slots[0]!.createParser() : null;
  let nonBlank = false;
  let lastLine = "";
  let settled = new Set<string>();
  let held = "";
  let midLine = false;

  const endSegment = (): void => {
    const slot = slots[current]!;
    slot.done.push({ parsed: parser!.end(), nonBlank, lastLine });
    if (slot.invocation.afterStash) scanner.closeStashWindow();
    nonBlank = false;
    lastLine = "";
    settled = new Set();
    if (!slot.invocation.repeated) current += 1;
    parser = current < slots.length ? slots[current]!.createParser() : null;
  };

  // Later runs exist, so this run's share may end here (a loop's run never hands over: fail closed).
  const mayHandOver = (): boolean => current < slots.length - 1 && !slots[current]!.invocation.repeated;
  const splits = (): boolean => current < slots.length - 1 || slots[current]!.invocation.repeated;

  // go prints a package's test lines before the line that names the package (a runner that splits by
  // unit): while a later run may take over, hold those lines (bounded) until that line says whose they are.
  const pending: string[] = [];
  let pendingSize = 0;

  const unitHandOver = (unit: string): boolean => {
    const slot = slots[current]!;
    const names = (s: Slot): boolean => s.split.by === "unit" && s.split.names(s.invocation.targets, unit);
    // A unit settled twice, or one only a later run names, starts the next run's share.
    const later = slots.slice(current + 1).some(names);
    return settled.has(unit) || (mayHandOver() && later && !names(slot));
  };

  const afterLine = (line: string, summariesBefore: number): void => {
    const split = slots[current]!.split;
    if (!splits()) return;
    switch (split.by) {
      case "unit":
        return;
      case "verdict-line":
        if (parser!.summaryCount > 0 && split.pattern.test(stripAnsi(line).trim())) endSegment();
        return;
      case "summary":
        if (parser!.summaryCount > summariesBefore) endSegment();
        return;
      default: {
        const never: never = split;
        return never;
      }
    }
  };

  const feed = (line: string, complete: boolean): void => {
    if (parser === null) return;
    scanner.scan(line, current);
    if (line.trim() !== "") {
      nonBlank = true;
      lastLine = line.slice(0, 256);
    }
    const summariesBefore = parser.summaryCount;
    parser.push(complete ? `${line}\n` : line);
    if (complete) afterLine(line, summariesBefore);
  };

  const flushPending = (): void => {
    for (const line of pending) feed(line, true);
    pending.length = 0;
    pendingSize = 0;
  };

  const onLine = (line: string, complete: boolean): void => {
    if (parser === null) return;
    const split = slots[current]!.split;
    if (!complete || midLine || split.by !== "unit" || !splits()) {
      flushPending();
      feed(line, complete);
      return;
    }
    const unit = split.unitOf(line);
    if (unit === null) {
      pending.push(line);
      pendingSize += line.length;
      if (pendingSize > MAX_PENDING_UNIT) flushPending();
      return;
    }
    if (unitHandOver(unit)) endSegment();
    flushPending();
    feed(line, true);
    settled.add(unit);
  };

  // The end of the last piece of an over-long line handed on: read again with the next piece's start.
  let pieceEnd = "";
  const pushLines = (chunk: string): void => {
    let start = 0;
    for (let newline = chunk.indexOf("\n"); newline !== -1; newline = chunk.indexOf("\n", start)) {
      const piece = chunk.slice(start, newline);
      const line = held === "" ? piece : held + piece;
      held = "";
      if (midLine) scanner.scanWindow(pieceEnd + line.slice(0, WINDOW_OVERLAP));
      onLine(line, true);
      midLine = false;
      pieceEnd = "";
      start = newline + 1;
    }
    held += chunk.slice(start);
    if (held.length > MAX_HELD_LINE) {
      // A huge line: hand its start to the current parser and keep reading it there.
      if (midLine) scanner.scanWindow(pieceEnd + held.slice(0, WINDOW_OVERLAP));
      onLine(held, false);
      pieceEnd = held.slice(-WINDOW_OVERLAP);
      held = "";
      midLine = true;
    }
  };

  // Fast path: scan complete lines in blocks for the line-level signals, parse the chunk as it is.
  // The chunk is scanned in place: joining it to the carried partial line would copy it.
  let carry = "";
  const pushFast = (chunk: string): void => {
    parser?.push(chunk);
    const last = chunk.lastIndexOf("\n");
    if (last === -1) {
      // The line goes on: what keepEnd drops is checked for a clipping note first, with the kept end as overlap.
      if (carry.length + chunk.length > MAX_HELD_LINE) scanner.scanWindow(carry + chunk);
      carry = keepEnd(carry, chunk);
      return;
    }
    let from = 0;
    if (carry !== "") {
      const first = chunk.indexOf("\n");
      const head = carry + chunk.slice(0, first);
      scanner.scan(head, current);
      const headLast = lastNonBlankLine(head, 0, head.length);
      if (headLast !== null) lastLine = headLast;
      from = first + 1;
    }
    if (from < last) {
      scanner.scanRange(chunk, from, last, current);
      const found = lastNonBlankLine(chunk, from, last);
      if (found !== null) lastLine = found;
    }
    carry = chunk.slice(last + 1);
    if (carry.length > MAX_HELD_LINE) {
      scanner.scanWindow(carry);
      carry = carry.slice(-MAX_HELD_LINE);
    }
  };

  return {
    push(chunk: string): void {
      if (chunk === "") return;
      if (lineMode) pushLines(chunk);
      else pushFast(chunk);
    },
    end(): RoutedRun[] {
      if (lineMode && held !== "") onLine(held, false);
      flushPending();
      if (!lineMode && carry !== "") {
        scanner.scan(carry, current);
        if (carry.trim() !== "") lastLine = carry.trimEnd().slice(0, 256);
      }
      held = "";
      carry = "";
      if (parser !== null) {
        const slot = slots[current]!;
        slot.done.push({ parsed: parser.end(), nonBlank: lineMode ? nonBlank : true, lastLine });
        parser = null;
      }
      // Runs that got no output still get an (empty) parse.
      return slots.map((slot) => ({
        segments: slot.done.length > 0 ? slot.done : [{ parsed: slot.createParser().end(), nonBlank: false, lastLine: "" }],
      }));
    },
  };
}

// The last MAX_HELD_LINE characters of carry + chunk, built without a string longer than that: slicing
// the joined string would flatten it into one past V8's large-object size, per chunk, on an endless line.
function keepEnd(carry: string, chunk: string): string {
  if (chunk.length >= MAX_HELD_LINE) return chunk.slice(-MAX_HELD_LINE);
  const over = carry.length + chunk.length - MAX_HELD_LINE;
  return over > 0 ? carry.slice(over) + chunk : carry + chunk;
}

/** The last line of `text.slice(start, end)` that is not blank, without trailing whitespace (256 characters at most), or null. */
export function lastNonBlankLine(text: string, start: number, end: number): string | null {
  let at = end;
  while (at > start && /\s/.test(text[at - 1]!)) at -= 1;
  if (at === start) return null;
  const lineStart = Math.max(start, text.lastIndexOf("\n", at - 1) + 1);
  return text.slice(lineStart, at).slice(0, 256);
}
