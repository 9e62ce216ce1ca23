// I/O seam: reads tree-sitter's runtime and the bash grammar (.wasm) once, at import time.
// The pure folders (src/shell) receive the loaded parser; they never read files themselves.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type * as TreeSitter from "@vscode/tree-sitter-wasm";

const require = createRequire(import.meta.url);

/** The loaded tree-sitter parser for bash. */
export type BashParser = TreeSitter.Parser;

async function loadBashParser(): Promise<BashParser> {
  const runtime = require("@vscode/tree-sitter-wasm") as typeof TreeSitter;
  const wasmDir = dirname(require.resolve("@vscode/tree-sitter-wasm"));
  await runtime.Parser.init({ locateFile: (file: string) => join(wasmDir, file) });
  const language = await runtime.Language.load(readFileSync(join(wasmDir, "tree-sitter-bash.wasm")));
  const parser = new runtime.Parser();
  parser.setLanguage(language);
  return parser;
}

/** The bash parser, ready before any importer runs (top-level await). */
export const bashParser: BashParser = await loadBashParser();
