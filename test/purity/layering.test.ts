// Imports point inward (scripts/layers.mjs, after the MCP SDK's layeringInvariants test): every
// import of every file of src/, type-only and import() included, goes where its part may go; the
// parts form no cycle; and no file switches the matching lint rule off.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { LAYERS, mayImport, partOf } from "../../scripts/layers.mjs";
import { partCycles, repoRoot, srcImports, tsFilesUnder } from "../support/import-graph.js";

const imports = srcImports();

describe("layering of src/", () => {
  it("names every folder and top-level file of src/ in scripts/layers.mjs", () => {
    expect(readdirSync(join(repoRoot, "src")).filter((name) => !(name in LAYERS))).toEqual([]);
  });

  it("has no import that points outward", () => {
    const outward = imports.filter(({ file, target }) => !mayImport(partOf(file), target));
    expect(
      outward.map(({ file, target }) => `src/${file} imports src/${target}: ${LAYERS[partOf(file)]?.route ?? "unknown part"}`),
    ).toEqual([]);
  });

  it("has no cycle between its parts", () => {
    expect(partCycles(imports, partOf)).toEqual([]);
  });

  it("sees a cycle and an outward import when there is one", () => {
    const cycle = [
      { file: "tools/a.ts", target: "evidence/b.ts" },
      { file: "evidence/b.ts", target: "tools/a.ts" },
    ];
    expect(partCycles(cycle, partOf)).toEqual([["evidence", "tools", "evidence"]]);
    expect(cycle.map(({ file, target }) => mayImport(partOf(file), target))).toEqual([false, false]);
    expect(mayImport("evidence", "grammar/analyze-command.ts")).toBe(true);
    expect(mayImport("evidence", "grammar/bash-grammar.ts")).toBe(false);
  });

  it("switches the lint rule off nowhere", () => {
    const disabled = tsFilesUnder("src").filter((file) =>
      /eslint-disable[^\n]*no-restricted-imports/.test(readFileSync(join(repoRoot, file), "utf8")),
    );
    expect(disabled).toEqual([]);
  });
});
