// The process-group runner: exit statuses in the shell's convention (docs/tools.md, docs/cli.md:
// 128 + the signal's number), and a group ended whole, also by a member that ignores SIGTERM.
import { once } from "node:events";
import { constants } from "node:os";

import { describe, expect, it } from "vitest";

import { groupAlive, reapGroup, shellExitCode, signalNumber, spawnProcessGroup } from "../../src/process/process-group.js";

describe("shellExitCode", () => {
  it.each<[number | null, NodeJS.Signals | null, number]>([
    [0, null, 0],
    [3, null, 3],
    [null, "SIGHUP", 129],
    [null, "SIGINT", 130],
    [null, "SIGKILL", 137],
    [null, "SIGTERM", 143],
    // Beyond the common ones: every signal the platform knows maps to its own number.
    [null, "SIGUSR1", 128 + constants.signals.SIGUSR1],
    [null, "SIGXCPU", 128 + constants.signals.SIGXCPU],
  ])("code %s, signal %s -> %i", (code, signal, status) => {
    expect(shellExitCode(code, signal)).toBe(status);
  });

  it("a signal name the platform lacks has number 0", () => {
    expect(signalNumber("SIGNOPE" as NodeJS.Signals)).toBe(0);
  });
});

describe("reapGroup", () => {
  it("ends a group whose members ignore SIGTERM, with SIGKILL after the grace period", async () => {
    const child = spawnProcessGroup("sh", ["-c", "trap '' TERM; sleep 600 & trap '' TERM; echo up; wait"], {
      env: process.env,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const pid = child.pid;
    if (pid === undefined) throw new Error("sh did not start");
    await once(child.stdout, "data");
    expect(groupAlive(pid)).toBe(true);
    const exited = once(child, "exit");
    await reapGroup(pid, 200);
    expect(await exited).toEqual([null, "SIGKILL"]);
    expect(groupAlive(pid)).toBe(false);
  });
});
