// Walks the local import graph of src/ as text: which modules a file reaches, and what they import.
// Used by the purity, layering, optional-peer and CLI start-up tests.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** The repository root. */
export const repoRoot = resolve(import.meta.dirname, "../..");

// Static value imports and re-exports; `import type` is erased.
const STATIC_IMPORT_RE = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?["']([^"']+)["']/gm;
const DYNAMIC_IMPORT_RE = /\bimport\(\s*["']([^"']+)["']\s*\)/g;
// Every import and re-export, `import type` included: a type is a dependency too.
const ANY_IMPORT_RE = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?["']([^"']+)["']/gm;

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
export function walkImports(
  entry: string,
  importsOf: (source: string) => string[],
  onImport: (file: string, spec: string) => void = () => {},
): string[] {
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

/** Every .ts file under `dir` (relative to the repository root), depth first. */
export function tsFilesUnder(dir: string): string[] {
  const absolute = resolve(repoRoot, dir);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute).flatMap((name) => {
    const path = join(absolute, name);
    return statSync(path).isDirectory() ? tsFilesUnder(relative(repoRoot, path)) : path.endsWith(".ts") ? [relative(repoRoot, path)] : [];
  });
}

/** One import between two files of src/, both relative to src/. */
export interface SrcImport {
  file: string;
  target: string;
}

/** Every relative import of every file of src/: static, type-only and `import()` alike. */
export function srcImports(): SrcImport[] {
  const src = join(repoRoot, "src");
  return tsFilesUnder("src").flatMap((file) => {
    const source = readFileSync(join(repoRoot, file), "utf8");
    const specs = [...source.matchAll(ANY_IMPORT_RE), ...source.matchAll(DYNAMIC_IMPORT_RE)]
      .map((m) => m[1]!)
      .filter((spec) => spec.startsWith("."));
    return specs.flatMap((spec) => {
      const target = resolveLocal(join(repoRoot, file), spec);
      return target === undefined ? [] : [{ file: relative(src, join(repoRoot, file)), target: relative(src, target) }];
    });
  });
}

/**
 * The cycles between parts of src/ (`partOf` names a file's part: its folder, or itself at the top),
 * each as the parts in order, the first repeated at the end; empty when the parts form a DAG.
 */
export function partCycles(imports: readonly SrcImport[], partOf: (pathInSrc: string) => string): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const { file, target } of imports) {
    const [from, to] = [partOf(file), partOf(target)];
    if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
  }
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (part: string): void => {
    state.set(part, "open");
    path.push(part);
    for (const next of [...(edges.get(part) ?? [])].sort()) {
      if (state.get(next) === "open") cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (state.get(next) === undefined) visit(next);
    }
    path.pop();
    state.set(part, "done");
  };
  for (const part of [...edges.keys()].sort()) if (state.get(part) === undefined) visit(part);
  return cycles;
}
