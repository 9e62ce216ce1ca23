// Walks the local import graph of src/ as text: which modules a file reaches, and what they import.
// Used by the purity, optional-peer and CLI start-up tests.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** The repository root. */
export const repoRoot = resolve(import.meta.dirname, "../..");

// Static value imports and re-exports; `import type` is erased.
const STATIC_IMPORT_RE = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?["']([^"']+)["']/gm;
const DYNAMIC_IMPORT_RE = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Static value imports of one file, in order (`import()` runs only when called, so it is not one). */
export function staticImports(source: string): string[] {
  return [...source.matchAll(STATIC_IMPORT_RE)].map((m) => m[1]!);
}

/** Every import of one file that can load code: static value imports, then `import()` calls. */
export function valueImports(source: string): string[] {
  return [...staticImports(source), ...[...source.matchAll(DYNAMIC_IMPORT_RE)].map((m) => m[1]!)];
}

/** The .ts file a relative specifier names (`./x.js` -> `./x.ts`, a folder -> its index.ts). */
export function resolveLocal(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, ".ts"), base, `${base}.ts`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/**
 * Follows the relative imports `importsOf` finds, from `entry` on; `onImport` sees every import of
 * every file reached. Returns the files reached, relative to the repository root.
 */
export function walkImports(entry: string, importsOf: (source: string) => string[], onImport: (file: string, spec: string) => void = () => {}): string[] {
  const seen = new Set<string>();
  const stack = [resolve(repoRoot, entry)];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of importsOf(readFileSync(file, "utf8"))) {
      onImport(relative(repoRoot, file), spec);
      if (!spec.startsWith(".")) continue;
      const next = resolveLocal(file, spec);
      if (next !== undefined) stack.push(next);
    }
  }
  return [...seen].map((file) => relative(repoRoot, file));
}
