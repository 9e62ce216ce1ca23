// The host seam's reports: what an observer reads from a tool's `data`, and that the native tools
// return exactly those shapes and carry their marks as typed members.
import { tmpdir } from "node:os";

import { describe, expect, it } from "vitest";

import { readCommandReport, readEditReport } from "../../src/host/reports.js";
import { NATIVE_BASH, PER_CALL_SHELL, START_HOOK } from "../../src/host/tool.js";
import { createBashTool } from "../../src/tools/bash.js";

const logs = { stdout: { logPath: "/logs/out" }, stderr: { logPath: "/logs/err" } };

describe("readCommandReport", () => {
  it.each([
    [
      "a completed run",
      { status: "completed", exitCode: 0, ...logs },
      { status: "completed", exitCode: 0, ...logs, truncated: false, timedOut: false },
    ],
    [
      "flags read as === true",
      { status: "completed", exitCode: 124, ...logs, truncated: "yes", timedOut: true, timeoutMs: 500 },
      { status: "completed", exitCode: 124, ...logs, truncated: false, timedOut: true, timeoutMs: 500 },
    ],
    [
      "a refused command",
      { status: "not-run", command: "rm -rf /", reason: "blocked-by-policy", rule: null },
      { status: "not-run", command: "rm -rf /", reason: "blocked-by-policy" },
    ],
    ["a stream given as text, not a log", { status: "completed", exitCode: 0, stdout: "1 passed", stderr: { logPath: "/logs/err" } }, null],
    ["an exit code as text", { status: "completed", exitCode: "0", ...logs }, null],
    ["a not-run without its reason", { status: "not-run", command: "x" }, null],
    ["no data", undefined, null],
    ["null", null, null],
    ["a string", "completed", null],
  ])("%s", (_name, data, expected) => {
    expect(readCommandReport(data)).toEqual(expected);
  });
});

describe("readEditReport", () => {
  it.each([
    ["file_write's data", { completed: true, changed: true, path: "a.py", mode: "overwrite" }, { changed: true, paths: ["a.py"] }],
    [
      "apply_patch's data, paths merged once",
      { completed: true, changed: false, paths: ["a.py", "b.py"], changedPaths: ["b.py"] },
      { changed: false, paths: ["b.py", "a.py"] },
    ],
    ["changed unknown", { completed: true, changed: "maybe", paths: ["a.py", 3] }, { changed: null, paths: ["a.py"] }],
    [
      "a list under path, a path under paths",
      { completed: true, path: ["a.py"], paths: "b.py" },
      { changed: null, paths: ["b.py", "a.py"] },
    ],
    ["no paths", { completed: true, changed: true }, { changed: true, paths: [] }],
    ["an edit not completed", { completed: false, changed: true, path: "a.py" }, null],
    ["completed as text", { completed: "true", path: "a.py" }, null],
    ["null", null, null],
  ])("%s", (_name, data, expected) => {
    expect(readEditReport(data)).toEqual(expected);
  });
});

describe("the native bash tool", () => {
  it("carries its marks as non-enumerable typed members and returns a CommandReport", async () => {
    const bash = createBashTool({ cwd: tmpdir(), sandbox: false });
    expect([bash[START_HOOK], bash[NATIVE_BASH], bash[PER_CALL_SHELL]]).toEqual([true, true, true]);
    expect(Object.getOwnPropertySymbols({ ...bash })).toEqual([]);
    const result = await bash.execute({ command: "echo hi" });
    expect(readCommandReport(result.data)).toMatchObject({ status: "completed", exitCode: 0, truncated: false, timedOut: false });
    const refused = await bash.execute({ command: "rm -rf /" });
    expect(readCommandReport(refused.data)).toMatchObject({ status: "not-run", command: "rm -rf /" });
  });
});
