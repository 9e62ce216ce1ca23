// Process groups and temp directories the bash tools still own. When the Node process exits, live
// groups are killed (a detached group would otherwise outlive us) and the temp directories removed.
import { readdirSync, readFileSync, rmSync } from "node:fs";

const liveGroups = new Set<number>();
const tempDirs = new Set<string>();
let hooked = false;

function onExit(): void {
  for (const pgid of liveGroups) signalGroup(pgid, "SIGKILL");
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}

function hook(): void {
  if (hooked) return;
  hooked = true;
  process.once("exit", onExit);
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

/** Remembers a live process group until {@link forgetGroup}. */
export function trackGroup(pgid: number): void {
  hook();
  liveGroups.add(pgid);
}

/** Forgets a process group once it is gone. */
export function forgetGroup(pgid: number): void {
  liveGroups.delete(pgid);
}

/** Removes `dir` when the process exits (unless {@link forgetTempDir} was called first). */
export function trackTempDir(dir: string): void {
  hook();
  tempDirs.add(dir);
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
