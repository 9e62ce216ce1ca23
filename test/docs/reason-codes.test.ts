// The docs' reason tables and src/reasons.ts name the same codes: a code without a row, or a row
// that names no code, fails here.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { EXIT_ATTRIBUTION_REASONS, REASON_DEFINITIONS, type ReasonCode } from "../../src/reasons.js";
import { repoRoot } from "../support/import-graph.js";

const doc = (name: string): string => readFileSync(join(repoRoot, "docs", name), "utf8");

/** The first column's code of every row of the table that follows `heading`. */
function tableCodes(text: string, heading: string): string[] {
  const start = text.indexOf(heading);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const rows = text
    .slice(start)
    .split("\n\n")
    .find((block) => block.startsWith("| reason |"));
  expect(rows, `a table after ${heading}`).toBeDefined();
  return rows!
    .split("\n")
    .slice(2)
    .map((row) => /^\| `([^`]+)` \|/.exec(row)?.[1] ?? row);
}

const codes = Object.keys(REASON_DEFINITIONS) as ReasonCode[];
const ofVerdict = codes.filter((code) => REASON_DEFINITIONS[code].scope === "verdict");

describe("reason codes in the docs", () => {
  it("docs/runners.md has one row per code of the judge, the ledger and the audit", () => {
    expect(tableCodes(doc("runners.md"), "### Reason codes, with an example of each").sort()).toEqual(
      codes.filter((code) => !ofVerdict.includes(code)).sort(),
    );
  });

  it("docs/verdict.md has one row per code of `run` itself, with the definition's meaning", () => {
    const text = doc("verdict.md");
    expect(tableCodes(text, "### Reason codes of `run` itself")).toEqual(ofVerdict);
    for (const code of ofVerdict) expect(text).toContain(`| \`${code}\` | ${REASON_DEFINITIONS[code].meaning} |`);
  });

  it("docs/shell.md names every exit attribution reason, and its masked reasons are all reasons", () => {
    const text = doc("shell.md");
    const section = text.slice(text.indexOf("## Exit-status attribution"), text.indexOf("## Read-only commands"));
    for (const reason of Object.keys(EXIT_ATTRIBUTION_REASONS)) expect(section, reason).toContain(`\`${reason}\``);
    const masked = section.slice(section.indexOf("`masked` reasons:"));
    // Each listed reason opens an item: after the colon, a comma or a line break, then `(`, `,` or `.`.
    const named = [...masked.matchAll(/(?:: |, |\n)`([a-z]+(?:-[a-z0-9]+)*)`(?= \(|,|\.)/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(15);
    expect(named.filter((name) => !(name in EXIT_ATTRIBUTION_REASONS))).toEqual([]);
  });
});
