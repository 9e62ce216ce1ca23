// Every command's --help ends with its exit statuses (issue 17, section 7), exactly the ones of
// src/cli/exit-codes.ts, which docs/cli.md's tables are checked against too.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

import { describe, expect, it } from "vitest";

import { CLI_EXIT_CODES, type CliCommand } from "../../src/cli/exit-codes.js";

const cli = resolve(import.meta.dirname, "../../dist/cli/main.js");

// The statuses of the help text's "Exit status:" block, in order.
function helpStatuses(help: string): number[] {
  const block = help.split("\nExit status:\n")[1];
  if (block === undefined) return [];
  return block
    .split("\n")
    .map((line) => /^ {2}(\d+) {2,}\S/.exec(line)?.[1])
    .filter((status) => status !== undefined)
    .map(Number);
}

describe("--help", () => {
  it.each(Object.keys(CLI_EXIT_CODES) as CliCommand[])("of %s lists exactly its exit statuses", (command) => {
    const args = command === "(no command)" ? ["--help"] : [...command.split(" "), "--help"];
    const result = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    expect(helpStatuses(result.stdout)).toEqual([...CLI_EXIT_CODES[command]]);
  });

  it("the reader finds statuses and nothing else (a test that can fail)", () => {
    expect(helpStatuses("Usage: x\n\nExit status:\n  0   ok\n  64  usage error\n(docs)\n")).toEqual([0, 64]);
    expect(helpStatuses("Usage: x\n")).toEqual([]);
  });
});
