#!/usr/bin/env node
// Writes grammar/bash.grammar: the tree-sitter runtime (its Emscripten glue and wasm) and the bash
// grammar's wasm, taken byte for byte from the pinned @vscode/tree-sitter-wasm devDependency, in one
// file so that an installed or bundled copy has exactly one asset to find. Run after bumping that
// package: it also pins the file's SHA-256 in src/grammar/bash-grammar.ts (the loader refuses any
// other file). test/grammar/grammar-pack.test.ts fails while either differs from the package.
//
// Layout: one JSON header line, then the entries' bytes back to back in header order.
//   {"format":"agent-evidence-grammar/1","source":"@vscode/tree-sitter-wasm@0.3.1","entries":[{"name","size","sha256"}]}\n<bytes>
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const GRAMMAR_FORMAT = "agent-evidence-grammar/1";
export const GRAMMAR_ENTRIES = ["tree-sitter.js", "tree-sitter.wasm", "tree-sitter-bash.wasm"];

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The pack's bytes, built from the installed upstream package. */
export function buildGrammarPack() {
  const require = createRequire(join(root, "package.json"));
  const packageJson = require.resolve("@vscode/tree-sitter-wasm/package.json");
  const { name, version } = JSON.parse(readFileSync(packageJson, "utf8"));
  const wasmDir = join(dirname(packageJson), "wasm");
  const bodies = GRAMMAR_ENTRIES.map((entry) => readFileSync(join(wasmDir, entry)));
  const entries = GRAMMAR_ENTRIES.map((entry, index) => ({
    name: entry,
    size: bodies[index].length,
    sha256: createHash("sha256").update(bodies[index]).digest("hex"),
  }));
  const header = JSON.stringify({ format: GRAMMAR_FORMAT, source: `${name}@${version}`, entries });
  return Buffer.concat([Buffer.from(`${header}\n`, "utf8"), ...bodies]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = join(root, "grammar", "bash.grammar");
  const bytes = buildGrammarPack();
  writeFileSync(target, bytes);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const loader = join(root, "src", "grammar", "bash-grammar.ts");
  writeFileSync(loader, readFileSync(loader, "utf8").replace(/(export const GRAMMAR_SHA256 = ")[0-9a-f]{64}(")/, `$1${sha256}$2`));
  process.stdout.write(`wrote ${target} (${bytes.length} bytes, sha256 ${sha256}) and pinned it in ${loader}\n`);
}
