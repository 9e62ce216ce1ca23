import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { isEvidenceError } from "../../src/errors.js";
import type { ToolResult } from "../../src/host/tool.js";
import { type BashData, type BashRunData, type BashToolOptions, createBashTool, readBashOutput } from "../../src/tools/bash.js";
import { makeTempDir } from "../support/temp-dir.js";
import { survivors, uniqueSleep } from "./helpers.js";

let ws: { dir: string; cleanup: () => void };
let scratch: { dir: string; cleanup: () => void };

beforeAll(() => {
  ws = makeTempDir("ae-bash-ws-");
  scratch = makeTempDir("ae-bash-tmp-");
});
afterAll(() => {
  ws.cleanup();
  scratch.cleanup();
});

function bash(options: Partial<BashToolOptions> = {}) {
  return createBashTool({ cwd: ws.dir, headless: false, tempDir: scratch.dir, ...options });
}

function ran(result: ToolResult<BashData>): BashRunData {
  if (result.data?.status !== "completed") throw new Error(`expected a completed run, got ${result.text}`);
  return result.data;
}

describe("bash: running commands", () => {
  it.each([false, true])("runs in the workspace and reports the exit code (headless %s)", async (headless) => {
    const result = await bash({ headless }).execute({ command: "pwd; echo oops >&2; exit 3" });
    const data = ran(result);
    expect({ text: result.text, exitCode: data.exitCode, timedOut: data.timedOut, isError: result.isError }).toEqual({
      text: `${ws.dir}\n[stderr]\noops\nExit code: 3`,
      exitCode: 3,
      timedOut: false,
      isError: undefined,
    });
    expect(await readBashOutput(data)).toEqual({ stdout: `${ws.dir}\n`, stderr: "oops\n" });
  });

  it("reports a shell ended by a signal as 128 + the signal number", async () => {
    const data = ran(await bash().execute({ command: "kill -9 $$" }));
    expect({ exitCode: data.exitCode, signal: data.signal }).toEqual({ exitCode: 137, signal: "SIGKILL" });
  });

  it("prints `exit 124` as a plain exit code, not a timeout", async () => {
    const data = ran(await bash().execute({ command: "exit 124" }));
    expect({ exitCode: data.exitCode, timedOut: data.timedOut }).toEqual({ exitCode: 124, timedOut: false });
  });

  it("returns invalid input as an error result instead of throwing", async () => {
    const result = await bash().execute({ command: "" });
    expect({ isError: result.isError, data: result.data }).toEqual({ isError: true, data: undefined });
  });

  it("keeps parallel calls apart", async () => {
    const tool = bash();
    const [a, b] = await Promise.all([tool.execute({ command: "sleep 0.2; echo a" }), tool.execute({ command: "echo b; exit 2" })]);
    expect([a.text, b.text]).toEqual(["a\nExit code: 0", "b\nExit code: 2"]);
  });
});

describe("bash: timeouts and aborts kill the whole process group", () => {
  it.each([false, true])(
    "a timeout is a result (124, timedOut) and leaves no process of the group alive (headless %s)",
    async (headless) => {
      const marker = uniqueSleep();
      const started = Date.now();
      const result = await bash({ headless }).execute({
        command: `echo before; sleep ${marker} & (sleep ${marker} &); sleep ${marker}`,
        timeoutMs: 500,
      });
      const data = ran(result);
      expect({ exitCode: data.exitCode, timedOut: data.timedOut, aborted: data.aborted, isError: result.isError }).toEqual({
        exitCode: 124,
        timedOut: true,
        aborted: false,
        isError: undefined,
      });
      expect(result.text).toBe("before\nCommand timed out after 500 ms; its process group was killed.\nExit code: 124");
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(survivors(marker, data.processGroup)).toEqual([]);
    },
  );

  it.each([false, true])("an aborted ctx.signal kills the group like a timeout (headless %s)", async (headless) => {
    const marker = uniqueSleep();
    const controller = new AbortController();
    // The abort comes 400 ms after the tool starts the command (timed from a fixed point, a busy machine
    // could abort before a slow sandbox started it: a command that never ran).
    const onCommandStart = (): void => void setTimeout(() => controller.abort(), 400);
    const result = await bash({ headless }).execute(
      { command: `sleep ${marker} & sleep ${marker}` },
      { signal: controller.signal, onCommandStart },
    );
    const data = ran(result);
    expect({ exitCode: data.exitCode, timedOut: data.timedOut, aborted: data.aborted }).toEqual({
      exitCode: 130,
      timedOut: false,
      aborted: true,
    });
    expect(survivors(marker, data.processGroup)).toEqual([]);
  });

  it("escalates to SIGKILL for a process that ignores SIGTERM", async () => {
    const marker = uniqueSleep();
    const result = await bash({ killGraceMs: 300 }).execute({
      command: `trap '' TERM; sleep ${marker} & trap '' TERM; wait`,
      timeoutMs: 300,
    });
    const data = ran(result);
    expect(data.timedOut).toBe(true);
    expect(survivors(marker, data.processGroup)).toEqual([]);
  });

  it("reaps background jobs the command left behind when it exits", async () => {
    const marker = uniqueSleep();
    const started = Date.now();
    const data = ran(await bash().execute({ command: `sleep ${marker} & echo left` }));
    expect({ exitCode: data.exitCode, elapsedUnder5s: Date.now() - started < 5_000 }).toEqual({ exitCode: 0, elapsedUnder5s: true });
    expect(survivors(marker, data.processGroup)).toEqual([]);
  });

  it("does not start a command whose signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await bash().execute({ command: "touch started-anyway" }, { signal: controller.signal });
    expect({ data: result.data, ranAnyway: existsSync(join(ws.dir, "started-anyway")) }).toEqual({
      data: { status: "not-run", command: "touch started-anyway", reason: "aborted-before-start", rule: null },
      ranAnyway: false,
    });
  });
});

describe("bash: output bounds", () => {
  it("shows the model at most maxOutputChars per stream as head + tail with a clipping marker, and logs everything", async () => {
    const result = await bash({ maxOutputChars: 1_000 }).execute({ command: "seq 1 200000; seq 1 50000 >&2" });
    const data = ran(result);
    const [out, err] = result.text.split("[stderr]\n");
    expect(out?.startsWith("1\n2\n3\n")).toBe(true);
    expect(out).toMatch(/\n\[\.\.\. \d+ bytes of stdout clipped \.\.\.\]\n/);
    expect(err).toMatch(/\n\[\.\.\. \d+ bytes of stderr clipped \.\.\.\]\n[\s\S]*\n50000\nExit code: 0$/);
    const visible = result.text
      .replace(/\[\.\.\. \d+ bytes of std(out|err) clipped \.\.\.\]/g, "")
      .replace("[stderr]", "")
      .replace("Exit code: 0", "");
    expect(visible.length).toBeLessThanOrEqual(2_000 + 4);
    const raw = await readBashOutput(data);
    expect({
      stdoutLines: raw.stdout.split("\n").length - 1,
      stderrLines: raw.stderr.split("\n").length - 1,
      truncated: data.truncated,
    }).toEqual({
      stdoutLines: 200_000,
      stderrLines: 50_000,
      truncated: false,
    });
    expect(data.stdout.bytes).toBe(statSync(data.stdout.logPath).size);
  });

  it("marks output past the raw cap as truncated and keeps counting the bytes", async () => {
    const result = await bash({ rawCapBytes: 1_000 }).execute({ command: "seq 1 10000" });
    const data = ran(result);
    expect({ truncated: data.truncated, stdout: { ...data.stdout, logPath: "" }, logSize: statSync(data.stdout.logPath).size }).toEqual({
      truncated: true,
      stdout: { bytes: 48_894, loggedBytes: 1_000, truncated: true, logPath: "" },
      logSize: 1_000,
    });
    expect(result.text).toMatch(/\n9999\n10000\n\[the raw output exceeded 1000 bytes; [^\n]+\]\nExit code: 0$/);
  });

  it("never cuts a multi-byte character in half", async () => {
    const result = await bash({ maxOutputChars: 11 }).execute({ command: "printf 'é%.0s' $(seq 1 100)" });
    expect(result.text).toBe("éééééé\n[... 178 bytes of stdout clipped ...]\nééééé\nExit code: 0");
  });

  it("keeps only the last logRetention calls' logs", async () => {
    const tool = bash({ logRetention: 2 });
    const first = ran(await tool.execute({ command: "echo 1" }));
    ran(await tool.execute({ command: "echo 2" }));
    const third = ran(await tool.execute({ command: "echo 3" }));
    expect([existsSync(first.stdout.logPath), readFileSync(third.stdout.logPath, "utf8")]).toEqual([false, "3\n"]);
  });
});

describe("bash: construction mistakes throw one EvidenceError sentence", () => {
  it.each<[string, Record<string, unknown>, string]>([
    ["missing cwd", {}, 'createBashTool option "cwd" is undefined; accepted: the path of an existing directory.'],
    ["bad timeout", { timeoutMs: -1 }, 'createBashTool option "timeoutMs" is -1; accepted: an integer from 1 to 2147483647.'],
    ["bad headless", { headless: "yes" }, 'createBashTool option "headless" is "yes"; accepted: true or false.'],
    ["bad name", { name: "run tests" }, 'Tool option "name" is "run tests"; accepted: 1 to 64 characters from a-z, A-Z, 0-9, "_" and "-".'],
    [
      "unknown option",
      { timeout: 5 },
      'createBashTool has no option "timeout"; accepted: cwd, name, sandbox, headless, network, bwrapPath, writablePaths, readablePaths, hiddenPaths, pidsLimit, memoryLimitBytes, timeoutMs, killGraceMs, maxOutputChars, rawCapBytes, tempDir, logRetention, env, confirm, progressIntervalMs.',
    ],
  ])("%s", (_label, extra, message) => {
    const base = "cwd" in extra || Object.keys(extra).length === 0 ? {} : { cwd: ws.dir };
    let caught: unknown;
    try {
      createBashTool({ ...base, ...extra } as unknown as BashToolOptions);
    } catch (error) {
      caught = error;
    }
    expect(isEvidenceError(caught, "E_INVALID_OPTION") ? caught.message : caught).toBe(message);
  });
});
