// A pytest test that runs until it is killed, for the adapters' abort tests: it reports its pid and
// process group in a file outside the workspace (so the run changes nothing the ledger watches),
// and the test aborts once that file exists.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { makeTempDir } from "../tools/helpers.js";

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
