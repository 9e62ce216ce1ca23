// `agent-evidence run` stopped in the middle (issue 21, item 5): after a passing run, a second run
// killed by SIGTERM, SIGINT, SIGHUP or SIGKILL leaves a verdict.json that is not `passed`, and no
// process of its suite survives it (the suite starts a background child too).
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { verdictSchema } from "../../src/verdict/schema.js";
import { tempDirPath } from "../support/temp-dir.js";

const ROOT = resolve(import.meta.dirname, "../..");
const cli = join(ROOT, "dist/cli/main.js");
// Debian's pytest (python3-pytest), as the other verdict tests use.
const PY = "/usr/bin/python3";

let dir = "";
beforeAll(() => {
  dir = tempDirPath("ae-run-signals-");
  cpSync(join(ROOT, "test/fixtures/py-project"), dir, { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A process that exited but is not reaped yet (a zombie, state Z) is gone for this purpose: whoever
// inherits an orphan reaps it in its own time. A process is named by its pid and its start time (field
// 22 of /proc/PID/stat): with pid_max at 32,768 a busy suite can hand a dead process's pid to a new one.
const statFields = (pid: number): string[] | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // After the command name, which may hold spaces and parentheses: field 3 (the state) onwards.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
};
const startTime = (pid: number): string | null => statFields(pid)?.[19] ?? null;
const alive = ({ pid, started }: { pid: number; started: string | null }): boolean => {
  const fields = statFields(pid);
  return fields !== null && fields[0] !== "Z" && fields[19] === started;
};

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

const readPid = (name: string): number => Number(readFileSync(join(dir, name), "utf8").trim());
// The shell creates a pid file before it writes the number: wait for the number itself.
const hasPid = (name: string): boolean => existsSync(join(dir, name)) && /^\d+\n/.test(readFileSync(join(dir, name), "utf8"));

describe("agent-evidence run stopped by a signal after a passing run", () => {
  it.each(["SIGTERM", "SIGINT", "SIGHUP", "SIGKILL"] as const)(
    "%s: the verdict is not passed and the suite is gone",
    async (signal) => {
      const out = join(dir, `verdict-${signal}.json`);
      const first = spawnSync(
        process.execPath,
        [cli, "run", "--verdict", out, "--log", join(dir, "first.log"), "--cwd", dir, "--", PY, "-m", "pytest", "-q", "tests/test_pass.py"],
        { encoding: "utf8" },
      );
      expect(first.status).toBe(0);
      expect(verdictSchema.parse(JSON.parse(readFileSync(out, "utf8"))).status).toBe("passed");

      for (const name of ["suite.pid", "bg.pid"]) rmSync(join(dir, name), { force: true });
      const suite = "sleep 60 & echo $! > bg.pid; echo $$ > suite.pid; wait";
      const child = spawn(
        process.execPath,
        [cli, "run", "--verdict", out, "--log", join(dir, "second.log"), "--cwd", dir, "--cmd", suite],
        { stdio: "ignore" },
      );
      const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
      expect(await waitFor(() => hasPid("suite.pid") && hasPid("bg.pid"), 15_000)).toBe(true);
      const pids = [readPid("suite.pid"), readPid("bg.pid")].map((pid) => ({ pid, started: startTime(pid) }));
      expect(pids.every(alive)).toBe(true);

      child.kill(signal);
      const code = await exited;
      const verdict = verdictSchema.parse(JSON.parse(readFileSync(out, "utf8")));
      expect(verdict.status).toBe("incomplete");
      if (signal === "SIGKILL") {
        // No handler ran: the verdict written before the suite started stands.
        expect(verdict.reasons).toEqual(["run-not-finished"]);
      } else {
        expect(verdict.reasons).toContain("interrupted");
        expect(code).toBe(128 + { SIGTERM: 15, SIGINT: 2, SIGHUP: 1 }[signal]);
      }
      // The watchdog kills the group when `run` dies without a word.
      // Generous: on a loaded machine the watchdog's shell may be slow to be scheduled.
      await waitFor(() => pids.every((p) => !alive(p)), 45_000);
      // On failure this shows each survivor's /proc state line (who holds it, in which state).
      // and which watchdog shells are still waiting.
      const watchdogs = (): string =>
        spawnSync("ps", ["-eo", "pid,pgid,stat,args"], { encoding: "utf8" })
          .stdout.split("\n")
          .filter((l) => l.includes("read -r g"))
          .join("\n");
      expect(
        pids.map((p) => (alive(p) ? readFileSync(`/proc/${p.pid}/stat`, "utf8").slice(0, 80) : "gone")),
        watchdogs(),
      ).toEqual(pids.map(() => "gone"));
    },
    120_000,
  );
});
