// execa loads on the first process a tool starts (src/tools/load-execa.ts), not when an entry of the
// package is imported (issue 18, target 3): no entry reaches a static import of it, and what the
// loader hands over is execa's own function.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { execa } from "execa";
import { describe, expect, it } from "vitest";

import { loadExeca } from "../../src/tools/load-execa.js";
import { repoRoot, staticImports, walkImports } from "../support/import-graph.js";

const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
  exports: Record<string, string | { import: string }>;
};
const entries = Object.values(manifest.exports)
  .map((target) => (typeof target === "string" ? target : target.import))
  .filter((file) => file.endsWith(".js"))
  .map((file) => file.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"));

describe("loadExeca", () => {
  it("hands over execa's own function, the same one on every call", async () => {
    const first = await loadExeca();
    expect(first).toBe(execa);
    expect(await loadExeca()).toBe(first);
  });

  it.each(entries)("%s reaches no static import of execa", (entry) => {
    const reached: string[] = [];
    const files = walkImports(entry, staticImports, (file, spec) => {
      if (spec === "execa" || spec.startsWith("execa/")) reached.push(file);
    });
    expect(files.length).toBeGreaterThan(0);
    expect(reached).toEqual([]);
  });
});
