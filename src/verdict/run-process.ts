// Runs a suite command through bash in its own process group and streams the combined output,
// complete and uncapped, to the log file and to listeners. A timeout kills the whole group. Each
// chunk is handled once, as it is read: queued for the log's write, hashed, handed to `onBytes` (the
// echo), and decoded once for `onOutput` (the judge and the clipping scan).
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { finished } from "node:stream";
import { StringDecoder } from "node:string_decoder";

import { NamedFileError, openOutputFile } from "../io/named-files.js";
import { reapGroup, shellExitCode, signalGroup, spawnProcessGroup, startGroupWatchdog, TIMEOUT_EXIT } from "../process/process-group.js";

/** Options of {@link runSuiteProcess}. */
export interface SuiteProcessOptions {
  command: string;
  cwd: string;
  logPath: string;
  /** Seconds; undefined or 0 means no timeout. */
  timeoutSeconds?: number;
  /** Grace period between SIGTERM and SIGKILL, ms. */
  killGraceMs?: number;
  /** Receives the decoded output in order, in pieces of at most {@link TEXT_PIECE} bytes (terminal echo, parsers, progress). */
  onOutput?: (chunk: string) => void;
  /** Receives every chunk of output as the bytes the suite wrote, in order, before `onOutput` sees its text. */
  onBytes?: (chunk: Buffer) => void;
  env?: NodeJS.ProcessEnv;
  /** Aborting kills the whole group (SIGTERM, then SIGKILL after the grace period). */
  signal?: AbortSignal;
}

/** What the run produced. */
export interface SuiteProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** The run was stopped through `signal`. */
  aborted: boolean;
  bytes: number;
  logSha256: string;
  durationMs: number;
}

/**
 * Bytes the log may hold queued for its writes: the pipe is read on while the file system writes
 * (in libuv's pool, several chunks per write), instead of stopping at each 64 KiB chunk (the stream's
 * default of 16 KiB) until its write is done.
 */
export const LOG_WRITE_QUEUE = 1 << 20;

/**
 * The text of a chunk goes to `onOutput` in pieces of at most this many bytes; its readers take lines
 * across pieces as across the pipe's chunks. The judge keeps a little of each piece until the next
 * (the unfinished line), so each piece outlives a collection of V8's young generation, which grows
 * with what survives: to 32 MB for 64 KiB pieces. With 8 KiB pieces the 1 GiB bench/run suite's
 * peak RSS is about 20 MB lower, for about 0.1 s more CPU.
 */
export const TEXT_PIECE = 8 * 1024;

/** Decodes `chunk` (continuing `decoder`'s text) and hands the text on in pieces of at most {@link TEXT_PIECE} bytes. */
export function decodeInPieces(decoder: StringDecoder, chunk: Buffer, onText: (text: string) => void): void {
  for (let at = 0; at < chunk.length; at += TEXT_PIECE) {
    const text = decoder.write(chunk.subarray(at, at + TEXT_PIECE));
    if (text !== "") onText(text);
  }
}

/**
 * Runs the command; resolves when the process group leader exits and the log is flushed. A log that
 * cannot be created throws before the command starts, one that fails mid-run (disk full) rejects
 * after it ends: both a NamedFileError.
 */
export function runSuiteProcess(options: SuiteProcessOptions): Promise<SuiteProcessResult> {
  const started = Date.now();
  const logName = `the log file ${options.logPath}`;
  const log = createWriteStream("", { fd: openOutputFile(options.logPath, logName), highWaterMark: LOG_WRITE_QUEUE });
  // A failed log write stops the writing, never the reading: the suite must not block on a full pipe.
  let logError: NamedFileError | null = null;
  const failLog = (error: NodeJS.ErrnoException): NamedFileError => {
    logError ??= new NamedFileError("write", error.code ?? "EIO", options.logPath, `cannot write ${logName} (${error.code ?? "EIO"})`, {
      cause: error,
    });
    return logError;
  };
  log.on("error", (error: NodeJS.ErrnoException) => {
    failLog(error);
    child.stdout.resume();
  });
  const hash = createHash("sha256");
  const decoder = new StringDecoder("utf8");
  let bytes = 0;
  let timedOut = false;
  // The watchdog first, so it is there before any suite process exists (no watchdog, no suite).
  const watchdog = startGroupWatchdog();
  // The outer bash merges stderr into stdout on one pipe (order kept), then execs the inner
  // `bash -c COMMAND` so the command runs exactly as given.
  const child = spawnProcessGroup("bash", ["-c", 'exec bash -c "$1" 2>&1', "bash", options.command], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (child.pid !== undefined) watchdog.arm(child.pid);
  let timer: NodeJS.Timeout | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (): void => {
    if (child.pid !== undefined) stopping ??= reapGroup(child.pid, options.killGraceMs ?? 2000);
  };
  if (options.timeoutSeconds !== undefined && options.timeoutSeconds > 0) {
    timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutSeconds * 1000);
  }
  let aborted = false;
  const onAbort = (): void => {
    aborted = true;
    stop();
  };
  if (options.signal?.aborted === true) onAbort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  child.stdout.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
    hash.update(chunk);
    if (logError === null && !log.write(chunk)) {
      child.stdout.pause();
      log.once("drain", () => child.stdout.resume());
    }
    options.onBytes?.(chunk);
    if (options.onOutput !== undefined) decodeInPieces(decoder, chunk, options.onOutput);
  });
  return new Promise((resolve, reject) => {
    const settle = (): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      watchdog.release();
    };
    child.on("error", (error) => {
      settle();
      log.end();
      reject(error);
    });
    // When the leader exits, no member of its group may outlive it or hold the pipe open.
    child.on("exit", () => {
      if (child.pid !== undefined) signalGroup(child.pid, "SIGKILL");
    });
    child.on("close", (code, signal) => {
      settle();
      const rest = decoder.end();
      if (rest !== "") options.onOutput?.(rest);
      if (logError !== null) {
        log.destroy();
        reject(logError);
        return;
      }
      log.end();
      // finished() reports a failed last flush (disk full) too; end's callback may run before the error.
      finished(log, (error) => {
        if (error !== undefined && error !== null) {
          reject(failLog(error));
          return;
        }
        resolve({
          exitCode: timedOut ? TIMEOUT_EXIT : code === null && signal === null ? null : shellExitCode(code, signal),
          signal,
          timedOut,
          aborted,
          bytes,
          logSha256: hash.digest("hex"),
          durationMs: Date.now() - started,
        });
      });
    });
  });
}
