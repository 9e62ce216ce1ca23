// The CLI starts without loading any command's implementation: `--version`, `--help` and the hooks
// (which a client runs after every tool call) do not pay for tree-sitter, the judge or the audit.
// Commands load what they need with import() when they run.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
// Static value imports only: `import type` is erased, and `import()` runs when the command does.
const STATIC_IMPORT_RE = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?["']([^"']+)["']/gm;
const HEAVY = ["src/grammar/", "src/evidence/", "src/verdict/", "src/audit/", "src/demo/", "src/tools/", "src/candidates/", "src/adapters/"];

function resolveLocal(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, ".ts"), base, `${base}.ts`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

function staticReach(entry: string): string[] {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(STATIC_IMPORT_RE)) {
      const spec = match[1]!;
      if (!spec.startsWith(".")) continue;
      const next = resolveLocal(file, spec);
      if (next !== undefined) stack.push(next);
    }
  }
  return [...seen].map((file) => relative(root, file));
}

describe("CLI start-up", () => {
  it("loads no command implementation before a command runs", () => {
    const reached = staticReach(join(root, "src/cli/main.ts"));
    expect(reached).toContain("src/cli/run.ts");
    expect(reached.filter((file) => HEAVY.some((folder) => file.startsWith(folder)))).toEqual([]);
  });
});
