// Runs one argv in its own process group with execa, streaming both outputs into captures. A timeout
// or an abort kills the whole group (SIGTERM, then SIGKILL after a grace period); when the shell exits,
// whatever it left running in its group is reaped the same way, so the call always returns.
import { constants } from "node:os";
import { pipeline } from "node:stream/promises";
import { setTimeout as delay } from "node:timers/promises";
import { loadExeca } from "./load-execa.js";
import type { OutputCapture } from "./output-capture.js";
import { forgetGroup, groupAlive, signalGroup, trackGroup } from "./process-registry.js";

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
const POLL_MS = 20;

/** Exit code in the shell's convention: the code itself, or 128 + the signal number. */
export function shellExitCode(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const number = signal === null ? undefined : constants.signals[signal];
  return 128 + (number ?? 0);
}

/** Runs the request to completion; never rejects for the command's own failures. */
export async function runProcessGroup(request: RunRequest): Promise<RunOutcome> {
  const execa = await loadExeca();
  const started = Date.now();
  const child = execa(request.file, request.args, {
    cwd: request.cwd,
    env: request.env,
    extendEnv: request.extendEnv ?? true,
    detached: true,
    cleanup: false,
    stdin: "ignore",
    buffer: false,
    reject: false,
  });
  // execa's own result is not used: its promise waits for the pipes, which a stray process can hold.
  const settled = child.then(
    (result) => result,
    (error: unknown) => error,
  );
  const pid = child.pid;
  if (pid === undefined) {
    const result = await settled;
    const message = result instanceof Error ? result.message : (result as { shortMessage?: string }).shortMessage;
    return { started: false, error: message ?? "the process did not start" };
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
    piped.then(() => true, () => true),
    delay(DRAIN_MS, false, { signal: stopWaiting.signal }).catch(() => false),
  ]);
  stopWaiting.abort();
  if (!drained) {
    child.stdout.destroy();
    child.stderr.destroy();
    await Promise.all([request.stdout.closeLog(), request.stderr.closeLog()]);
  }
  await settled;
  return { started: true, pid, code: exit.code, signal: exit.signal, timedOut, aborted, durationMs };
}

/** SIGTERM to the group, then SIGKILL once `graceMs` passed with any member still alive. */
async function reapGroup(pgid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pgid, "SIGTERM")) return;
  const deadline = Date.now() + graceMs;
  // Short first waits: most processes die at once, and a call should not pay a full poll interval.
  for (let wait = 1; Date.now() < deadline; wait = Math.min(wait * 2, POLL_MS)) {
    await delay(wait);
    if (!groupAlive(pgid)) return;
  }
  signalGroup(pgid, "SIGKILL");
  // SIGKILL is not instant: wait (bounded) until no member is left running.
  for (let i = 0; i < 250 && groupAlive(pgid); i += 1) await delay(POLL_MS);
}
