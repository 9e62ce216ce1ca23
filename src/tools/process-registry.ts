// Process groups, temp directories and cgroups the tools still own. When the Node process exits, or
// receives SIGTERM, SIGINT or SIGHUP, live groups are killed (a detached group would otherwise outlive
// us), the cgroups removed and the temp directories deleted. Node's default for those signals skips
// `exit` handlers, so they are handled here too; when ours is the only handler the signal is raised
// again afterwards, so the process still dies of it.
import { rmSync } from "node:fs";

import { signalGroup } from "../process/process-group.js";

const liveGroups = new Set<number>();
const tempDirs = new Set<string>();
const cgroups = new Map<string, (dir: string) => void>();
const HOST_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
let hooked = false;

function cleanUp(): void {
  for (const pgid of liveGroups) signalGroup(pgid, "SIGKILL");
  liveGroups.clear();
  for (const [dir, remove] of cgroups) remove(dir);
  cgroups.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  cleanUp();
  if (process.listenerCount(signal) === 1) {
    for (const name of HOST_SIGNALS) process.removeListener(name, onSignal);
    process.kill(process.pid, signal);
  }
}

function hook(): void {
  if (hooked) return;
  hooked = true;
  process.once("exit", cleanUp);
  for (const signal of HOST_SIGNALS) process.on(signal, onSignal);
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

/** Removes `dir` when the process exits or is signalled. */
export function trackTempDir(dir: string): void {
  hook();
  tempDirs.add(dir);
}

/** Removes `dir` with `remove` when the process exits or is signalled, unless untracked first. */
export function trackCgroup(dir: string, remove: (dir: string) => void): void {
  hook();
  cgroups.set(dir, remove);
}

/** Forgets a cgroup once it is removed. */
export function untrackCgroup(dir: string): void {
  cgroups.delete(dir);
}
