// A one-line progress display on stderr for TTYs: elapsed time, bytes, tests seen so far.
const PASS_RE = /(?:^|\s)PASSED(?:\s|$)|^--- PASS: |\.\.\. ok$|"Action":"pass","Package":"[^"]*","Test":/;
const FAIL_RE = /(?:^|\s)(?:FAILED|ERROR)(?:\s|$)|^--- FAIL: |\.\.\. (?:FAIL|ERROR)$|"Action":"fail","Package":"[^"]*","Test":/;

/** Counts passed/failed lines as the runner reports them (display only, never evidence). */
export function createProgressCounter(): {
  push(chunk: string): void;
  readonly passed: number;
  readonly failed: number;
  readonly bytes: number;
} {
  let carry = "";
  let passed = 0;
  let failed = 0;
  let bytes = 0;
  return {
    push(chunk: string): void {
      bytes += Buffer.byteLength(chunk);
      const lines = (carry + chunk).split("\n");
      carry = (lines.pop() ?? "").slice(-4096);
      for (const line of lines) {
        if (PASS_RE.test(line)) passed += 1;
        else if (FAIL_RE.test(line)) failed += 1;
      }
    },
    get passed() {
      return passed;
    },
    get failed() {
      return failed;
    },
    get bytes() {
      return bytes;
    },
  };
}

/** Renders the progress line (no newline). */
export function renderProgress(elapsedMs: number, bytes: number, passed: number, failed: number): string {
  const seconds = (elapsedMs / 1000).toFixed(1);
  const size = bytes < 1 << 20 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / (1 << 20)).toFixed(1)} MiB`;
  return `agent-evidence run: ${seconds}s, ${size}, ${passed} passed, ${failed} failed`;
}

/** Where the progress line goes (process.stderr in the CLI). */
export interface ProgressTarget {
  isTTY?: boolean | undefined;
  write(text: string): unknown;
}

/** True when a progress line should be shown: the target is a TTY and `CI` is unset or empty. */
export function shouldShowProgress(stream: Pick<ProgressTarget, "isTTY">, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && (env.CI === undefined || env.CI === "");
}

/** Moves the cursor to the line's start and erases the line (the progress line's own). */
export const CLEAR_LINE = "\r\u001b[2K";

/** The progress line on a terminal the suite's output shares. */
export interface ProgressLine {
  /** Draws `text` in place of the last progress line, unless the suite's output is mid-line. */
  draw(text: string): void;
  /** Call before echoing output: takes the progress line off the terminal. */
  yieldToOutput(): void;
  /** Call after echoing output: whether it ended its line (`\n`), or left one open. */
  outputEnded(endsLine: boolean): void;
  /** Takes the progress line off the terminal for good. */
  clear(): void;
}

/**
 * The progress line's state on a shared terminal. It is drawn only where the suite's output is at a
 * line's start: erasing the line there erases nothing of the runner's. A runner mid-line (`pytest -v`
 * printing `tests/a.py::t PASSED` in two writes, a dot line still growing) keeps its partial line,
 * and the progress waits for the next newline.
 */
export function createProgressLine(target: ProgressTarget): ProgressLine {
  let shown = false;
  let midLine = false;
  return {
    draw(text) {
      if (midLine) return;
      target.write(`${CLEAR_LINE}${text}`);
      shown = true;
    },
    yieldToOutput() {
      if (!shown) return;
      target.write(CLEAR_LINE);
      shown = false;
    },
    outputEnded(endsLine) {
      midLine = !endsLine;
    },
    clear() {
      this.yieldToOutput();
    },
  };
}
