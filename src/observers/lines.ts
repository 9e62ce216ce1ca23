// Shared plumbing for the parsers: chunk -> line splitting with a bounded line length, ANSI removal,
// and first-occurrence bookkeeping for markers and forgery signals.
import type { ForgeryKind, ForgerySignal, MarkerKind, RunMarker } from "./types.js";

/** Lines longer than this are cut: no runner's own status line is this long, and memory stays bounded. */
export const MAX_LINE_LENGTH = 64 * 1024;

const ESC = String.fromCharCode(27);
// CSI sequences: ESC [ parameters intermediates final-byte (colour codes, cursor moves).
const ANSI_RE = new RegExp(`${ESC}\\[[0-9;?]*[ -/]*[@-~]`, "g");

/** Removes ANSI escape sequences (colour codes from `--color=yes`). */
export function stripAnsi(text: string): string {
  return text.includes(ESC) ? text.replace(ANSI_RE, "") : text;
}

/** Splits chunks into lines (without `\n` or a trailing `\r`); keeps only the unfinished tail. */
export function createLineSplitter(onLine: (line: string) => void): { push(chunk: string): void; end(): void } {
  let tail = "";
  let tailTooLong = false;
  const emit = (line: string): void => {
    onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
  };
  return {
    push(chunk: string): void {
      let start = 0;
      let newline = chunk.indexOf("\n");
      while (newline !== -1) {
        const piece = chunk.slice(start, newline);
        if (tail === "" && !tailTooLong) emit(piece.length > MAX_LINE_LENGTH ? piece.slice(0, MAX_LINE_LENGTH) : piece);
        else {
          emit(tailTooLong ? tail : (tail + piece).slice(0, MAX_LINE_LENGTH));
          tail = "";
          tailTooLong = false;
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
      if (tail !== "" || tailTooLong) emit(tail);
      tail = "";
      tailTooLong = false;
    },
  };
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
