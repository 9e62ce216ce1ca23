import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";

import { afterEach, describe, expect, it, vi } from "vitest";

import { runCli } from "../../src/cli/program.js";
import { tempDirPath } from "../support/temp-dir.js";

interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

// Runs the real CLI entry in-process (the same runCli that dist/cli/main.js calls), stdin replaced.
async function triage(args: string[], stdin = ""): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  vi.spyOn(process, "stdin", "get").mockReturnValue(Readable.from([Buffer.from(stdin, "utf8")]) as unknown as typeof process.stdin);
  const status = await runCli(["triage", ...args]);
  vi.restoreAllMocks();
  return { status, stdout, stderr };
}

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

const LOG = "FAILED t.py::test_a - assert 1 == 2\nE   assert 1 == 2\nE   AssertionError\n\x85FAILED t.py::test_b\n";
const EXPECTED = {
  failed: ["FAILED t.py::test_a - assert 1 == 2", "FAILED t.py::test_b"],
  errors: ["  assert 1 == 2", "  AssertionError"],
  assertions: [],
  failureCount: 2,
};

describe("agent-evidence triage", () => {
  it("reads a file and prints the four keys in order", async () => {
    const file = join(tempDirPath("triage-cli-"), "log.txt");
    writeFileSync(file, LOG);
    const run = await triage([file]);
    expect(run).toEqual({ status: 0, stdout: `${JSON.stringify(EXPECTED)}\n`, stderr: "" });
    expect(Object.keys(JSON.parse(run.stdout) as object)).toEqual(["failed", "errors", "assertions", "failureCount"]);
  });

  it("reads stdin when no file is given", async () => {
    expect(await triage([], LOG)).toEqual({ status: 0, stdout: `${JSON.stringify(EXPECTED)}\n`, stderr: "" });
  });

  it("prints empty lists and 0 for a log without markers (which proves nothing)", async () => {
    expect((await triage([], "===== 3 passed in 0.01s =====\n")).stdout).toBe(
      '{"failed":[],"errors":[],"assertions":[],"failureCount":0}\n',
    );
  });

  it.each([
    ["a missing file", ["/nonexistent/agent-evidence/log.txt"]],
    ["two files", ["a.txt", "b.txt"]],
    ["an unknown option", ["--bogus"]],
  ])("exits 64 with one line on a usage error: %s", async (_name, args) => {
    const run = await triage(args);
    expect(run.status).toBe(64);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^agent-evidence: /);
  });
});
