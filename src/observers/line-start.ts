// Where the shown output starts. A host that keeps the end of a long output can cut it inside a line
// and say nothing: the first line shown is then the tail of a line the runner printed, and everything
// before it is lost. Each runner knows its own line shapes; these helpers answer, for such a shape,
// "is this first line a proper piece of it?". Pure.
import { MAX_LINE_LENGTH, stripAnsi } from "./lines.js";

/** How a parser's output begins, as far as its runner's line shapes tell (see {@link ParsedRunOutput.start}). */
export interface OutputStart {
  /** The first line is a piece cut from one of the runner's lines: what came before it is lost. */
  cut: string | null;
  /**
   * The first lines show that the runner printed something before them (a progress line counting fewer
   * tests than ran, a padded summary without its session header, a result without its `=== RUN`). A
   * `tail` window shows exactly that; an output shown whole does not, so there it is a lost head too.
   */
  headMissing: string | null;
  /**
   * Shown whole, the output's final summary has a shape its runner does not print with the lines around
   * it (pytest pads its summary exactly when it prints the session header): a test printed it.
   */
  summaryMismatch: string | null;
}

/** `line` starts with a proper suffix of one of `literals` (its first character at least cut off) and what follows matches `rest`. */
export function startsWithCutLiteral(line: string, literals: readonly string[], rest: RegExp): boolean {
  for (const literal of literals) {
    for (let cut = 1; cut < literal.length; cut++) {
      const piece = literal.slice(cut);
      if (line.startsWith(piece) && rest.test(line.slice(piece.length))) return true;
    }
  }
  return false;
}

/** `line` is a proper, non-empty suffix of one of `texts`. */
export function isProperSuffix(line: string, texts: readonly string[]): boolean {
  return line.length > 0 && texts.some((text) => text.length > line.length && text.endsWith(line));
}

/**
 * Keeps the first two lines a parser read that show any text (each up to {@link MAX_LINE_LENGTH}
 * characters), for the start checks at `end()`. A first line cut down to a colour code or to nothing
 * shows no text: the next one is then the first that does. Memory stays bounded whatever the input.
 */
export class HeadLines {
  first: string | null = null;
  second: string | null = null;

  /** Records the line `text.slice(start, end)`; call it for every line in order, cheap after the second. */
  note(text: string, start: number, end: number): void {
    if (this.second !== null) return;
    const line = text.slice(start, Math.min(end, start + MAX_LINE_LENGTH));
    if (stripAnsi(line).trim() === "") return;
    if (this.first === null) this.first = line;
    else this.second = line;
  }
}
