// Process helpers of the adapters' abort tests, and a pytest test that runs until it is killed: it reports its pid and
// process group in a file outside the workspace (so the run changes nothing the ledger watches),
// and the test aborts once that file exists.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import { makeTempDir } from "../support/temp-dir.js";

/** The command that runs the slow test. */
export const SLOW_PYTEST_COMMAND = "python3 -m pytest -rA -p no:cacheprovider test_slow.py";

/** A workspace holding `test_slow.py` (sleeps 30 s) and where it reports its pid and group. */
export function makeSlowPytestProject(): { dir: string; started: () => Promise<{ pid: number; pgid: number }>; cleanup: () => void } {
  const project = makeTempDir("ae-adapters-abort-");
  const side = makeTempDir("ae-adapters-abort-pid-");
  const pidFile = join(side.dir, "pid");
  writeFileSync(
    join(project.dir, "test_slow.py"),
    `import os, time\n\ndef test_slow():\n    with open(${JSON.stringify(pidFile)}, "w") as f:\n        f.write(f"{os.getpid()} {os.getpgrp()}")\n    time.sleep(30)\n`,
  );
  return {
    dir: project.dir,
    // Resolves once the test runs (polls the file; the pytest run itself takes under a few seconds to start).
    started: async () => {
      while (!existsSync(pidFile) || readFileSync(pidFile, "utf8").trim().split(" ").length < 2) await sleep(50);
      const [pid, pgid] = readFileSync(pidFile, "utf8").trim().split(" ").map(Number);
      return { pid: pid ?? 0, pgid: pgid ?? 0 };
    },
    cleanup: () => {
      project.cleanup();
      side.cleanup();
    },
  };
}

/** True while a process group has a live member (kill -0 of the group; ESRCH: none left). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}

/** Polls `check` every 25 ms until it holds or `ms` pass; its last answer. */
export async function waitFor(check: () => boolean, ms = 15_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

// Gone: no such process (ESRCH), or exited and waiting for whoever inherited it to reap it (a zombie).
export function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}
