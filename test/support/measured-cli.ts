// The built CLI as a child process, measured: exit status, output, peak memory (GNU time's maximum
// resident set size) and wall time. stdin can be a stream of any length written as the CLI reads it,
// so a "2 GB" input costs only what the CLI takes before it stops reading.
import { spawn } from "node:child_process";
import { resolve } from "node:path";

/** The built CLI entry point (`npm run build`). */
export const cliPath = resolve(import.meta.dirname, "../../dist/cli/main.js");

/** What to give the CLI on stdin. */
export type MeasuredStdin = { kind: "none" } | { kind: "bytes"; bytes: Uint8Array } | { kind: "zeros"; bytes: number };

/** Options of {@link runMeasuredCli}. */
export interface MeasuredCliOptions {
  stdin?: MeasuredStdin;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Kill the CLI (SIGKILL) after this long; `timedOut` is then true. */
  timeoutMs?: number;
  /** Another build of the CLI (default {@link cliPath}), e.g. to compare with an earlier commit. */
  cli?: string;
}

/** One measured run. */
export interface MeasuredCliResult {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident set size of the CLI process, KiB. */
  peakRssKb: number;
  ms: number;
  timedOut: boolean;
  /** Bytes of stdin the CLI's pipe accepted before it exited. */
  stdinWritten: number;
}

const CHUNK = Buffer.alloc(1 << 20);
// GNU time's report, after the CLI's own stderr: a status line for a non-zero exit, then our format.
const RSS_LINE = /(?:Command (?:exited with non-zero status|terminated by signal) \d+\n)?\nAE-PEAK-RSS-KB (\d+)\n?$/;

/** Runs `node dist/cli/main.js ...args` under /usr/bin/time and measures it. */
export function runMeasuredCli(args: readonly string[], options: MeasuredCliOptions = {}): Promise<MeasuredCliResult> {
  const started = Date.now();
  const child = spawn("/usr/bin/time", ["-f", "\nAE-PEAK-RSS-KB %M", process.execPath, options.cli ?? cliPath, ...args], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", "pipe"],
    // Its own process group: a timeout kills time and the CLI together.
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  // Kept up to 4 MiB each: a test reads the first lines, never megabytes.
  child.stdout.setEncoding("utf8").on("data", (text: string) => {
    if (stdout.length < 1 << 22) stdout += text;
  });
  // GNU time's line comes last: the tail is kept apart from the head.
  let tail = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    if (stderr.length < 1 << 22) stderr += text;
    tail = (tail + text).slice(-4096);
  });
  let exited = false;
  let timedOut = false;
  let stdinWritten = 0;
  // The CLI stops reading at its cap and exits; the writer then meets EPIPE, which ends the stream.
  child.stdin.on("error", () => undefined);
  const stdin = options.stdin ?? { kind: "none" };
  if (stdin.kind === "none") child.stdin.end();
  else if (stdin.kind === "bytes") child.stdin.end(stdin.bytes);
  else {
    const pump = (): void => {
      while (!exited && !child.stdin.destroyed && stdinWritten < stdin.bytes) {
        const size = Math.min(CHUNK.length, stdin.bytes - stdinWritten);
        stdinWritten += size;
        if (!child.stdin.write(size === CHUNK.length ? CHUNK : CHUNK.subarray(0, size))) {
          child.stdin.once("drain", pump);
          return;
        }
      }
      if (!exited && !child.stdin.destroyed) child.stdin.end();
    };
    pump();
  }
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        }, options.timeoutMs);
  return new Promise((resolvePromise, reject) => {
    child.on("error", reject);
    child.on("exit", () => {
      exited = true;
      child.stdin.destroy();
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const rss = RSS_LINE.exec(tail);
      resolvePromise({
        status: code,
        stdout,
        stderr: rss === null ? stderr : stderr.replace(RSS_LINE, ""),
        peakRssKb: rss === null ? Number.NaN : Number(rss[1]),
        ms: Date.now() - started,
        timedOut,
        stdinWritten,
      });
    });
  });
}
