// An output that fails while being written (here: the file size limit, `ulimit -f`, which makes
// write(2) fail with EFBIG as a full disk fails with ENOSPC; node ignores SIGXFSZ) exits 74 (EX_IOERR)
// with one line, and `run` leaves the `incomplete` verdict it wrote first, never a verdict for a log
// that was not kept.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { EXIT_IO } from "../../src/cli/exit-codes.js";
import { cliPath } from "../support/measured-cli.js";
import { tempDirPath } from "../support/temp-dir.js";

let dir = "";
beforeAll(() => {
  dir = tempDirPath("ae-write-errors-");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The CLI with a file size limit of `blocks` (sh's unit: 512 bytes in dash, 1024 in bash); stderr goes to a pipe, outside the limit.
function withFileSizeLimit(blocks: number, args: string[]): { status: number | null; stderr: string } {
  const result = spawnSync("sh", ["-c", `ulimit -f ${blocks}; exec "$0" "$@"`, process.execPath, cliPath, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  return { status: result.status, stderr: result.stderr.replace(/\0/g, "") };
}

describe("an output that fails mid-write exits 74", () => {
  it("run: the log outgrows the limit; the verdict stays incomplete", () => {
    const cwd = join(dir, "run");
    mkdirSync(cwd);
    const result = withFileSizeLimit(8, ["run", "--cmd", "head -c 100000 /dev/zero", "--cwd", cwd, "--out", cwd]);
    expect(result.status).toBe(EXIT_IO);
    expect(result.stderr.trimEnd().split("\n").at(-1)).toBe(
      `agent-evidence: run: cannot write the log file ${join(cwd, "suite.log")} (EFBIG)`,
    );
    const verdict = JSON.parse(readFileSync(join(cwd, "verdict.json"), "utf8")) as { status: string; reasons: string[] };
    expect([verdict.status, verdict.reasons]).toEqual(["incomplete", ["run-not-finished"]]);
  });

  it("audit --report: the report cannot be written", () => {
    const empty = join(dir, "empty");
    mkdirSync(empty);
    const report = join(dir, "report.html");
    const result = withFileSizeLimit(0, ["audit", "--no-progress", "--report", report, empty]);
    expect(result.status).toBe(EXIT_IO);
    expect(result.stderr.trimEnd().split("\n").at(-1)).toBe(`agent-evidence: audit: cannot write --report ${report} (EFBIG)`);
  });
});

// stdout that cannot take the answer: 74, never the verdict's status (0 would read as "passed" with no JSON).
describe("stdout that fails exits 74", () => {
  it("judge, stdout on a full disk (/dev/full): one line on stderr", () => {
    const log = join(dir, "one-pass.log");
    writeFileSync(log, "1 passed in 0.01s\n");
    const full = openSync("/dev/full", "w");
    try {
      const result = spawnSync(process.execPath, [cliPath, "judge", "--command", "pytest", "--exit-code", "0", "--output", log], {
        stdio: ["ignore", full, "pipe"],
        encoding: "utf8",
      });
      expect(result.status).toBe(EXIT_IO);
      expect(result.stderr).toMatch(/^agent-evidence: cannot write the output: ENOSPC[^\n]*\n$/);
    } finally {
      closeSync(full);
    }
  });

  it("--help into a pipe its reader closed: quiet, 74", async () => {
    const child = spawn(process.execPath, [cliPath, "--help"], { stdio: ["ignore", "pipe", "pipe"] });
    // Closed before the CLI has started: its first write gets EPIPE.
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    const status = await new Promise<number | null>((done) => child.on("close", (code) => done(code)));
    expect([status, stderr]).toEqual([EXIT_IO, ""]);
  });
});
