// Runs one argv in its own process group (src/process/process-group.ts), streaming both outputs into
// captures. A timeout or an abort kills the whole group (SIGTERM, then SIGKILL after a grace period);
// when the shell exits, whatever it left running in its group is reaped the same way, so the call
// always returns.
import { once } from "node:events";
import { pipeline } from "node:stream/promises";
import { setTimeout as delay } from "node:timers/promises";

import { groupAlive, reapGroup, spawnProcessGroup } from "../process/process-group.js";
import type { OutputCapture } from "./output-capture.js";
import { forgetGroup, trackGroup } from "./process-registry.js";

/** What {@link runProcessGroup} needs. */
export interface RunRequest {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string> | undefined;
  /** Whether `env` extends the host's environment (default true). */
  extendEnv?: boolean;
  timeoutMs: number;
  killGraceMs: number;
  signal: AbortSignal | undefined;
  stdout: OutputCapture;
  stderr: OutputCapture;
}

/** How one process group ended. */
export type RunOutcome =
  | {
      started: true;
      pid: number;
      /** The shell's exit code, or null when a signal ended it. */
      code: number | null;
      signal: NodeJS.Signals | null;
      timedOut: boolean;
      aborted: boolean;
      durationMs: number;
    }
  | { started: false; error: string };

// How long the pipes may stay open once the group is gone (a process that left the group with
// setsid can hold them forever; its later output is not part of this call).
const DRAIN_MS = 1_000;

/** Runs the request to completion; never rejects for the command's own failures. */
export async function runProcessGroup(request: RunRequest): Promise<RunOutcome> {
  const started = Date.now();
  const env = request.extendEnv === false ? (request.env ?? {}) : { ...process.env, ...request.env };
  let child;
  try {
    child = spawnProcessGroup(request.file, request.args, { cwd: request.cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    return { started: false, error: error instanceof Error ? error.message : String(error) };
  }
  // A start failure comes as `error` (awaited below); none is expected later, but one must not throw.
  child.on("error", () => undefined);
  const pid = child.pid;
  if (pid === undefined) {
    const [error] = (await once(child, "error")) as [Error];
    return { started: false, error: error.message };
  }
  trackGroup(pid);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  const piped = Promise.all([pipeline(child.stdout, request.stdout), pipeline(child.stderr, request.stderr)]);
  piped.catch(() => undefined);

  let reaping: Promise<void> | undefined;
  const reap = (): Promise<void> => (reaping ??= reapGroup(pid, request.killGraceMs));
  let timedOut = false;
  let aborted = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void reap();
  }, request.timeoutMs);
  const onAbort = (): void => {
    if (timedOut) return;
    aborted = true;
    void reap();
  };
  request.signal?.addEventListener("abort", onAbort, { once: true });
  if (request.signal?.aborted === true) onAbort();

  const exit = await exited;
  clearTimeout(timer);
  request.signal?.removeEventListener("abort", onAbort);
  const durationMs = Date.now() - started;
  // Background jobs the command left in its group die with the call.
  if (groupAlive(pid)) await reap();
  else if (reaping !== undefined) await reaping;
  forgetGroup(pid);

  const stopWaiting = new AbortController();
  const drained = await Promise.race([
    piped.then(
      () => true,
      () => true,
    ),
    delay(DRAIN_MS, false, { signal: stopWaiting.signal }).catch(() => false),
  ]);
  stopWaiting.abort();
  if (!drained) {
    child.stdout.destroy();
    child.stderr.destroy();
    await Promise.all([request.stdout.closeLog(), request.stderr.closeLog()]);
  }
  return { started: true, pid, code: exit.code, signal: exit.signal, timedOut, aborted, durationMs };
}
