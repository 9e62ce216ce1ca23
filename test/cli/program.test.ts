import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

import { describe, expect, it } from "vitest";

const cli = resolve(import.meta.dirname, "../../dist/cli/main.js");

function runCli(args: string[]) {
  return spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });
}

describe("agent-evidence CLI entry", () => {
  it("prints help and exits 0", () => {
    const result = runCli(["--help"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Usage: agent-evidence");
  });

  it("prints the package version", () => {
    const result = runCli(["--version"]);
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it.each([[["--bogus"]], [["no-such-command"]]])("exits 64 with one line on a usage error: %j", (args) => {
    const result = runCli(args);
    expect(result.status).toBe(64);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^agent-evidence: /);
  });

  it.each([
    [["hook"]],
    [["hook", "install"]],
    [["audit"]],
    [["patch"]],
    [["patch", "bogus"]],
    [["run"]],
    [["run", "--timeout", "x", "--", "true"]],
    [["judge"]],
    [["judge", "--command", "pytest", "--exit-code", "x"]],
    [["verify-verdict"]],
    [["triage", "/nonexistent/log"]],
    [["demo", "--bogus"]],
    [["mcp", "--bogus"]],
  ])("every subcommand exits 64 with one line on a usage error: %j", (args) => {
    const result = runCli(args);
    expect(result.status).toBe(64);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});
