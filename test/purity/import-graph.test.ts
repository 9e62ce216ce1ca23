// Backs the lint rule: the pure folders reach no file-system or process module, directly or transitively.
import { readFileSync, readdirSync, existsSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const PURE = ["src/shell", "src/observers", "src/patches"];
const FORBIDDEN = new Set(["fs", "node:fs", "fs/promises", "node:fs/promises", "child_process", "node:child_process"]);
const IMPORT_RE = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm;

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** Value imports of one file (type-only imports are erased and cannot do I/O). */
export function valueImports(source: string): string[] {
  return [...source.matchAll(IMPORT_RE)].map((m) => (m[1] ?? m[2])!);
}

function resolveLocal(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, ".ts"), base, `${base}.ts`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

function forbiddenReach(entry: string): string[] {
  const seen = new Set<string>();
  const found: string[] = [];
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of valueImports(readFileSync(file, "utf8"))) {
      if (FORBIDDEN.has(spec)) found.push(`${relative(root, file)} imports ${spec}`);
      else if (spec.startsWith(".")) {
        const next = resolveLocal(file, spec);
        if (next) stack.push(next);
      }
    }
  }
  return found;
}

describe("pure folders", () => {
  it("the import scanner sees value imports and ignores type-only ones", () => {
    expect(valueImports(`import { readFileSync } from "node:fs";\nimport type { X } from "fs";\nexport { y } from "./y.js";\nconst m = await import("child_process");`)).toEqual([
      "node:fs",
      "./y.js",
      "child_process",
    ]);
  });

  it.each(PURE)("%s reaches no fs or child_process module through its import graph", (folder) => {
    const files = tsFiles(join(root, folder));
    const problems = files.flatMap(forbiddenReach);
    expect(problems).toEqual([]);
  });
});
