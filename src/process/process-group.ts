// The one place the library starts a process group, signals it, reaps it and maps how a process
// ended to an exit status. The bash tool (src/tools/bash-run.ts) and `agent-evidence run`
// (src/verdict/run-process.ts) start their commands here; what each does with the output is its own.
// A group's leader is started detached, so the group id is its pid and `kill(-pgid)` reaches every
// process the command starts that does not leave the group itself.
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { constants } from "node:os";
import type { Readable, Writable } from "node:stream";
import { setTimeout as delay } from "node:timers/promises";

/** Exit status reported for a command killed by its timeout (as `timeout(1)` does). */
export const TIMEOUT_EXIT = 124;

/** The number of a signal on this platform (`SIGTERM` is 15); 0 for a name the platform lacks. */
export function signalNumber(signal: NodeJS.Signals): number {
  return constants.signals[signal] ?? 0;
}

/** Exit status in the shell's convention: the code itself, or 128 + the number of the signal that ended the process. */
export function shellExitCode(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return 128 + (signal === null ? 0 : signalNumber(signal));
}

type InputMode = "pipe" | "ignore";
type OutputMode = "pipe" | "ignore" | "inherit";

/** Options of {@link spawnProcessGroup}. */
export interface ProcessGroupOptions<I extends InputMode, O extends OutputMode, E extends OutputMode> {
  cwd?: string;
  /** The whole environment of the leader (nothing is added to it). */
  env: NodeJS.ProcessEnv;
  stdio: [I, O, E];
}

/**
 * Starts `file args` as the leader of a new process group (its pid is the group id). Throws what
 * `spawn` throws (an argument with a NUL byte); a program that cannot start has no pid and emits
 * `error`, as with `spawn`.
 */
export function spawnProcessGroup<I extends InputMode, O extends OutputMode, E extends OutputMode>(
  file: string,
  args: readonly string[],
  options: ProcessGroupOptions<I, O, E>,
): ChildProcessByStdio<I extends "pipe" ? Writable : null, O extends "pipe" ? Readable : null, E extends "pipe" ? Readable : null> {
  return spawn(file, args, { cwd: options.cwd, env: options.env, stdio: options.stdio, detached: true }) as ChildProcessByStdio<
    I extends "pipe" ? Writable : null,
    O extends "pipe" ? Readable : null,
    E extends "pipe" ? Readable : null
  >;
}

/** Sends `signal` to every process of group `pgid`; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    // EPERM means a member exists but belongs to someone else: the group is still alive.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * True while group `pgid` has a member that is not a zombie. `kill(-pgid, 0)` alone also counts
 * zombies and exiting processes, which linger until an init process (slow, or absent in a container,
 * or a sandbox's pid namespace being torn down) reaps them; /proc tells them apart (Linux only;
 * elsewhere every member counts).
 */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  if (process.platform !== "linux") return true;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true;
  }
  // Synchronous on purpose: ~100 small reads take a few ms, far less than a round trip through the
  // libuv thread pool for each of them on a busy machine.
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // Fields after the parenthesised command name: state, ppid, pgrp, ...
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
  }
  return false;
}

const POLL_MS = 20;

/** Ends a group: SIGTERM, then SIGKILL once `graceMs` passed with any member still alive. */
export async function reapGroup(pgid: number, graceMs: number): Promise<void> {
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

/** A watchdog from {@link startGroupWatchdog}. */
export interface GroupWatchdog {
  /** Names the group to kill if this process dies. */
  arm(pgid: number): void;
  /** The group ended normally: the watchdog exits without killing anything. */
  release(): void;
}

/**
 * Ties a group's life to this process's, even through a SIGKILL that runs no handler: a tiny shell in
 * a group of its own waits on a pipe from us. `arm` tells it the group; when this process dies the
 * pipe ends (EOF, `read` fails) and the shell kills that whole group; `release` sends a line instead,
 * and it just exits. Start it before the group: a watchdog that cannot start throws, so no group runs
 * unwatched.
 */
export function startGroupWatchdog(): GroupWatchdog {
  const dog = spawnProcessGroup("sh", ["-c", 'read -r g || exit 0; read -r _ || kill -9 "-$g" 2>/dev/null'], {
    env: process.env,
    stdio: ["pipe", "ignore", "ignore"],
  });
  dog.on("error", () => undefined);
  if (dog.pid === undefined) throw new Error("cannot start the watchdog that ends the suite if agent-evidence run dies (sh)");
  dog.stdin.on("error", () => undefined);
  dog.unref();
  let armed = false;
  return {
    arm(pgid: number): void {
      armed = true;
      dog.stdin.write(`${pgid}\n`);
    },
    release(): void {
      dog.stdin.end(armed ? "\n" : "\n\n");
    },
  };
}
