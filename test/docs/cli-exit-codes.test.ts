// docs/cli.md lists every exit status each command can return: its tables must hold exactly the
// codes of src/cli/exit-codes.ts (the one place they are defined), one table per command.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

import { describe, expect, it } from "vitest";

import { CLI_EXIT_CODES, type CliCommand } from "../../src/cli/exit-codes.js";
import { VERDICT_EXIT } from "../../src/verdict/schema.js";

const page = readFileSync(resolve(import.meta.dirname, "../../docs/cli.md"), "utf8");

// "### `agent-evidence run`" (or "### `agent-evidence` (no command)") and the table under it.
function documentedTables(markdown: string): Map<string, number[]> {
  const tables = new Map<string, number[]>();
  const sections = markdown.split(/^### /m).slice(1);
  for (const section of sections) {
    const heading = /^`agent-evidence(?: ([^`]+))?`/.exec(section);
    if (heading === null) continue;
    const command = heading[1] ?? "(no command)";
    const rows = section.split("\n").filter((line) => /^\|\s*\d/.test(line));
    const codes = rows.flatMap((row) => (row.split("|")[1] ?? "").split(",").map((code) => Number(code.trim())));
    expect(tables.has(command), `two tables for ${command}`).toBe(false);
    tables.set(command, codes);
  }
  return tables;
}

describe("docs/cli.md exit tables", () => {
  const tables = documentedTables(page);

  it("has one table per command, and none for a command the CLI does not have", () => {
    expect([...tables.keys()].sort()).toEqual(Object.keys(CLI_EXIT_CODES).sort());
  });

  it.each(Object.entries(CLI_EXIT_CODES) as [CliCommand, readonly number[]][])(
    "%s: the table lists exactly its codes",
    (command, codes) => {
      expect(tables.get(command)).toEqual([...codes].sort((a, b) => a - b));
    },
  );

  it("run's codes include every verdict status (VERDICT_EXIT)", () => {
    expect(CLI_EXIT_CODES.run).toEqual(expect.arrayContaining(Object.values(VERDICT_EXIT)));
  });

  it("the parser reads codes and rejects a missing row (a test that can fail)", () => {
    const sample = "### `agent-evidence x`\n\n| exit | meaning |\n| ---: | --- |\n| 0 | ok |\n| 129, 130 | signals |\n";
    expect(documentedTables(sample)).toEqual(new Map([["x", [0, 129, 130]]]));
  });
});
