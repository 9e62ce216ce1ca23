// The public surface (issue 17, section 3): package.json maps exactly the entries docs/api.md lists,
// each loads from dist/ in a fresh process with exactly the value exports docs/api.md lists for it
// (with the grammar file out of reach: no entry reads it at import), and the root entry stays small.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { repoRoot } from "../support/import-graph.js";

const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
  exports: Record<string, string | { types: string; import: string; default: string }>;
};
const apiDoc = readFileSync(join(repoRoot, "docs", "api.md"), "utf8");

// | `agent-evidence/x` | for | `a`, `b` |
const documented = new Map(
  [...apiDoc.matchAll(/^\| `(agent-evidence(?:\/[a-z-]+)?)` \| [^|]+ \| ([^|]+) \|$/gm)].map((m) => [
    m[1]!,
    [...m[2]!.matchAll(/`([^`]+)`/g)].map((n) => n[1]!),
  ]),
);

function entryFile(subpath: string): string {
  const entry = manifest.exports[subpath];
  if (entry === undefined || typeof entry === "string") throw new Error(`no export ${subpath}`);
  return entry.import;
}

describe("the public entries", () => {
  it("are exactly the documented ones, each with its types, import and require targets", () => {
    const mapped = Object.keys(manifest.exports).filter((key) => key !== "./package.json");
    expect(mapped.map((key) => (key === "." ? "agent-evidence" : `agent-evidence/${key.slice(2)}`)).sort()).toEqual(
      [...documented.keys()].sort(),
    );
    for (const key of mapped) {
      const entry = manifest.exports[key] as { types: string; import: string; default: string };
      expect(entry.types, key).toBe(entry.import.replace(/\.js$/, ".d.ts"));
      expect(entry.default, key).toBe(entry.import);
    }
  });

  it.each([...documented.keys()])("%s loads from dist/ with exactly its documented value exports, without the grammar", (name) => {
    const file = join(repoRoot, entryFile(name === "agent-evidence" ? "." : `./${name.slice("agent-evidence/".length)}`));
    const script = `const m = await import(${JSON.stringify(file)}); console.log(JSON.stringify(Object.keys(m).sort()));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      env: { ...process.env, AGENT_EVIDENCE_GRAMMAR: "/nonexistent/bash.grammar" },
    });
    expect(JSON.parse(out)).toEqual([...documented.get(name)!].sort());
  });

  it("keeps the root entry to at most 40 names, types included, as docs/api.md counts them", () => {
    const source = readFileSync(join(repoRoot, "src", "index.ts"), "utf8");
    const names = [...source.matchAll(/^export (?:type )?\{([^}]+)\}/gm)].flatMap((m) =>
      m[1]!
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== ""),
    );
    expect(names.length).toBeLessThanOrEqual(40);
    const types = /The root entry's types: ([\s\S]+?): (\d+) names with the values/.exec(apiDoc)!;
    expect(Number(types[2])).toBe(names.length);
    expect(
      [...types[1]!.matchAll(/`([^`]+)`/g)]
        .map((m) => m[1])
        .concat(documented.get("agent-evidence")!)
        .sort(),
    ).toEqual([...names].sort());
  });
});
