// Backs the lint rule: the pure folders reach no file-system or process module, directly or transitively.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { LAYERS } from "../../scripts/layers.mjs";
import { repoRoot as root, valueImports, walkImports } from "../support/import-graph.js";

// The pure folders scripts/layers.mjs names (shell, runners, observers, patches, host, evidence).
const PURE = Object.entries(LAYERS)
  .filter(([part, layer]) => layer.pure && !part.endsWith(".ts"))
  .map(([part]) => `src/${part}`);
const FORBIDDEN = new Set(["fs", "node:fs", "fs/promises", "node:fs/promises", "child_process", "node:child_process"]);

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

function forbiddenReach(entry: string): string[] {
  const found: string[] = [];
  walkImports(entry, valueImports, (file, spec) => {
    if (FORBIDDEN.has(spec)) found.push(`${file} imports ${spec}`);
  });
  return found;
}

describe("pure folders", () => {
  it("the import scanner sees value imports and ignores type-only ones", () => {
    expect(
      valueImports(
        `import { readFileSync } from "node:fs";\nimport type { X } from "fs";\nexport { y } from "./y.js";\nconst m = await import("child_process");`,
      ),
    ).toEqual(["node:fs", "./y.js", "child_process"]);
  });

  it.each(PURE)("%s reaches no fs or child_process module through its import graph", (folder) => {
    const files = tsFiles(join(root, folder));
    const problems = files.flatMap(forbiddenReach);
    expect(problems).toEqual([]);
  });
});
