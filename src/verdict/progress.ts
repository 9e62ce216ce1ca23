// A one-line progress display on stderr for TTYs: elapsed time, bytes, tests seen so far.
const PASS_RE = /(?:^|\s)PASSED(?:\s|$)|^--- PASS: |\.\.\. ok$|"Action":"pass","Package":"[^"]*","Test":/;
const FAIL_RE = /(?:^|\s)(?:FAILED|ERROR)(?:\s|$)|^--- FAIL: |\.\.\. (?:FAIL|ERROR)$|"Action":"fail","Package":"[^"]*","Test":/;

/** Counts passed/failed lines as the runner reports them (display only, never evidence). */
export function createProgressCounter(): { push(chunk: string): void; readonly passed: number; readonly failed: number; readonly bytes: number } {
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
