// Shared plumbing for the parsers: chunk -> line splitting with a bounded line length, ANSI removal,
// and first-occurrence bookkeeping for markers and forgery signals.
import type { ForgeryKind, ForgerySignal, MarkerKind, RunMarker } from "./types.js";

/** Lines longer than this are cut: no runner's own status line is this long, and memory stays bounded. */
export const MAX_LINE_LENGTH = 64 * 1024;

const ESC = String.fromCharCode(27);
// CSI sequences: ESC [ parameters intermediates final-byte (colour codes, cursor moves).
const ANSI_RE = new RegExp(`${ESC}\\[[0-9;?]*[ -/]*[@-~]`, "g");

/**
 * A copy of `text` that does not share memory with the string it was sliced from: V8 keeps a slice's
 * whole parent alive (a 64 KiB input chunk for a 20-character id), so strings kept until the end are copied.
 */
export function ownString(text: string): string {
  // Short slices are copies already. Reading a character of a concatenation makes V8 flatten it into a
  // new string, and the garbage collector then replaces the concatenation by that string.
  if (text.length < 13) return text;
  const copy = text.slice(0, 1) + text.slice(1);
  // The comparison uses the character, so the read is not optimised away.
  return copy.charCodeAt(0) === text.charCodeAt(0) ? copy : text;
}

/** Removes ANSI escape sequences (colour codes from `--color=yes`). */
export function stripAnsi(text: string): string {
  return text.includes(ESC) ? text.replace(ANSI_RE, "") : text;
}

/** Receives one line as `text.slice(start, end)`: `end` excludes the `\n`, not a trailing `\r`, and may pass MAX_LINE_LENGTH. */
export type LineRangeHandler = (text: string, start: number, end: number) => void;

/** The line a range stands for, as {@link createLineSplitter} hands it over: cut to MAX_LINE_LENGTH, one trailing `\r` removed. */
export function lineAt(text: string, start: number, end: number): string {
  const cut = end - start > MAX_LINE_LENGTH ? start + MAX_LINE_LENGTH : end;
  return text.slice(start, cut > start && text.charCodeAt(cut - 1) === 13 ? cut - 1 : cut);
}

/**
 * Splits chunks into line ranges without copying: a line inside one chunk comes as (chunk, start, end),
 * a line spanning chunks as (joined line, 0, length). Keeps only the unfinished tail, cut to MAX_LINE_LENGTH.
 */
export function createRangeSplitter(onRange: LineRangeHandler): { push(chunk: string): void; end(): void } {
  let tail = "";
  let tailTooLong = false;
  return {
    push(chunk: string): void {
      let start = 0;
      let newline = chunk.indexOf("\n");
      while (newline !== -1) {
        if (tail === "" && !tailTooLong) onRange(chunk, start, newline);
        else {
          const line = tailTooLong ? tail : (tail + chunk.slice(start, newline)).slice(0, MAX_LINE_LENGTH);
          tail = "";
          tailTooLong = false;
          onRange(line, 0, line.length);
        }
        start = newline + 1;
        newline = chunk.indexOf("\n", start);
      }
      if (start < chunk.length && !tailTooLong) {
        tail += chunk.slice(start);
        if (tail.length > MAX_LINE_LENGTH) {
          tail = tail.slice(0, MAX_LINE_LENGTH);
          tailTooLong = true;
        }
      }
    },
    end(): void {
      if (tail !== "" || tailTooLong) {
        const line = tail;
        tail = "";
        tailTooLong = false;
        onRange(line, 0, line.length);
      }
    },
  };
}

/** Splits chunks into lines (without `\n` or a trailing `\r`); keeps only the unfinished tail. */
export function createLineSplitter(onLine: (line: string) => void): { push(chunk: string): void; end(): void } {
  return createRangeSplitter((text, start, end) => onLine(lineAt(text, start, end)));
}

/** Keeps the first marker of each kind and the first forgery signal of each kind. */
export class Findings {
  readonly markers: RunMarker[] = [];
  readonly forgeries: ForgerySignal[] = [];
  private readonly seenMarkers = new Set<MarkerKind>();
  private readonly seenForgeries = new Set<ForgeryKind>();

  /** Records a marker unless one of the same kind was recorded already. */
  mark(kind: MarkerKind, line: number, detail: string): void {
    if (this.seenMarkers.has(kind)) return;
    this.seenMarkers.add(kind);
    this.markers.push({ kind, line, detail: detail.slice(0, 500) });
  }

  /** Records a forgery signal unless one of the same kind was recorded already. */
  forge(kind: ForgeryKind, line: number, detail: string): void {
    if (this.seenForgeries.has(kind)) return;
    this.seenForgeries.add(kind);
    this.forgeries.push({ kind, line, detail: detail.slice(0, 500) });
  }

  /** True when a marker of this kind was recorded. */
  has(kind: MarkerKind): boolean {
    return this.seenMarkers.has(kind);
  }

  /**
   * The fields of a parse that every runner without coverage gates or a rootdir fills the same way:
   * these findings, the number of lines read, and ids that are distinct tests.
   */
  runFields(lines: number): {
    markers: RunMarker[];
    forgeries: ForgerySignal[];
    gates: never[];
    rootdir: null;
    lines: number;
    distinctIds: true;
  } {
    return { markers: this.markers, forgeries: this.forgeries, gates: [], rootdir: null, lines, distinctIds: true };
  }
}

/** Outcome flags collected per id across phases and report styles. */
export const PASS = 1;
/** A failure or error in any phase. */
export const FAIL = 2;
/** Skipped, xfailed, non-strict xpassed, expected failure. */
export const SKIP = 4;

/** Splits an id -> flags map into the three lists: any failure wins, then a pass, then a skip. */
export function classifyIds(flags: Map<string, number>): { passed: string[]; failed: string[]; skipped: string[] } {
  const passed: string[] = [];
  const failed: string[] = [];
  const skipped: string[] = [];
  for (const [id, bits] of flags) {
    if ((bits & FAIL) !== 0) failed.push(id);
    else if ((bits & PASS) !== 0) passed.push(id);
    else skipped.push(id);
  }
  return { passed, failed, skipped };
}
