// I/O seam: loads the tree-sitter runtime and the bash grammar from grammar/bash.grammar on first use,
// synchronously, so that importing the package costs nothing and analyzeCommand() stays synchronous.
// The pure folders (src/shell) receive the loaded parser; they never read files themselves.
//
// web-tree-sitter's own loader is asynchronous only in form: with the wasm bytes in hand, every step
// can run at once, but it awaits promises in between. The runtime is therefore evaluated in a vm
// context whose microtasks run as soon as a script run in it returns (microtaskMode "afterEvaluate"),
// with a WebAssembly object whose instantiate/compile finish synchronously: the one script that calls
// Parser.init() and Language.load() returns with the parser built.
//
// Node's modules that only the load needs (crypto, fs, url, util, v8, vm) are taken when it runs,
// through process.getBuiltinModule (synchronous, Node 20.16+), not imported at the top: importing
// them made up about a fifth of the import of `agent-evidence/shell`, which loads this module.
import { basename, dirname, join } from "node:path";

import { EvidenceError } from "../errors.js";
import type { BashParser } from "../shell/syntax-tree.js";

/** The grammar file's name: the one asset a bundled app must copy next to its bundle. */
export const GRAMMAR_FILE = "bash.grammar";
/** Names an explicit grammar file, for an app that keeps it somewhere else. */
export const GRAMMAR_ENV = "AGENT_EVIDENCE_GRAMMAR";
const GRAMMAR_FORMAT = "agent-evidence-grammar/1";
/** SHA-256 of grammar/bash.grammar as committed (scripts/pack-grammar.mjs writes both). */
export const GRAMMAR_SHA256 = "2d6e9972112f770507ad19f44e962ff0ba326ecd0e64d29e9ab35136c9edca81";

interface GrammarPack {
  runtimeSource: Uint8Array;
  runtimeWasm: Uint8Array;
  bashWasm: Uint8Array;
}

let loaded: BashParser | undefined;

/**
 * The bash parser, loaded on the first call (about 15 ms; later calls return the same parser).
 * @throws {EvidenceError} E_GRAMMAR when the grammar file is missing or unreadable.
 */
export function bashParser(): BashParser {
  loaded ??= loadBashParser(grammarPath());
  return loaded;
}

/**
 * Loads the bash grammar now instead of on the first analysis, for callers who want to pay early
 * or to learn at start-up that the grammar file is missing.
 * @example await ready(); // analyzeCommand() and judge() now start without loading anything
 */
export function ready(): Promise<void> {
  // A throw inside the executor rejects the promise with the E_GRAMMAR error.
  return new Promise((resolve) => {
    bashParser();
    resolve();
  });
}

/** Where the grammar file is: $AGENT_EVIDENCE_GRAMMAR, else the package's grammar/ folder, else beside a bundle. */
export function grammarPath(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env[GRAMMAR_ENV];
  if (explicit !== undefined && explicit !== "") return explicit;
  const here = moduleDirectory();
  // This module is src/grammar/ or dist/grammar/ of the package, or inside one of the package's own
  // bundles, the CLI's in dist/cli/ or the library's in dist/chunks/: two levels under grammar/
  // either way. The bundles name their folder (scripts/bundle-cli.mjs and scripts/bundle-library.mjs
  // define the marker), and the module must still be there: an app that bundles the library again
  // carries the marker into a file of its own, whose copy of the grammar sits beside it.
  const bundleFolder = typeof AGENT_EVIDENCE_PACKAGE_BUNDLE === "string" ? AGENT_EVIDENCE_PACKAGE_BUNDLE : undefined;
  const inBundleFolder = bundleFolder !== undefined && [basename(dirname(here)), basename(here)].join("/") === bundleFolder;
  const inPackage = basename(here) === "grammar" || inBundleFolder;
  return inPackage ? join(here, "..", "..", "grammar", GRAMMAR_FILE) : join(here, GRAMMAR_FILE);
}

// The folder of the package's own bundle this module is in (`dist/cli`, `dist/chunks`), set by
// esbuild's define in those bundles; undeclared anywhere else.
declare const AGENT_EVIDENCE_PACKAGE_BUNDLE: string | undefined;

function moduleDirectory(): string {
  // import.meta.url is empty in a CommonJS bundle (esbuild --format=cjs); __filename is the bundle there.
  const url = import.meta.url as string | undefined;
  if (typeof url === "string" && url !== "") return dirname(process.getBuiltinModule("node:url").fileURLToPath(url));
  if (typeof __filename === "string") return dirname(__filename);
  return process.cwd();
}

/**
 * Splits a grammar file: one JSON header line naming the entries, then their bytes in order. The
 * file must be this version's grammar byte for byte (its SHA-256 is pinned here): a damaged grammar
 * can still compile and then parse command lines wrongly, and a stray copy beside a bundle may be
 * another version's. Hashing the 1.7 MB costs about 4 ms.
 */
export function readGrammarPack(bytes: Uint8Array, path: string, expectedSha256: string = GRAMMAR_SHA256): GrammarPack {
  const bad = (why: string): EvidenceError => new EvidenceError("E_GRAMMAR", `${path} is not this version's bash grammar: ${why}`);
  const sha256 = process.getBuiltinModule("node:crypto").createHash("sha256").update(bytes).digest("hex");
  if (sha256 !== expectedSha256) throw bad(`its SHA-256 is ${sha256}, not ${expectedSha256}`);
  const newline = bytes.indexOf(0x0a);
  const header = JSON.parse(Buffer.from(bytes.subarray(0, newline)).toString("utf8")) as { format: string; entries: { name: string; size: number }[] };
  if (header.format !== GRAMMAR_FORMAT) throw bad(`the format is not ${GRAMMAR_FORMAT}`);
  const parts = new Map<string, Uint8Array>();
  let at = newline + 1;
  for (const entry of header.entries) {
    parts.set(entry.name, bytes.subarray(at, at + entry.size));
    at += entry.size;
  }
  const part = (name: string): Uint8Array => {
    const found = parts.get(name);
    if (found === undefined) throw bad(`it has no ${name}`);
    return found;
  };
  return { runtimeSource: part("tree-sitter.js"), runtimeWasm: part("tree-sitter.wasm"), bashWasm: part("tree-sitter-bash.wasm") };
}

// Runs inside the grammar's context: a WebAssembly whose promises are already settled, then the init.
const SYNC_WEBASSEMBLY = `
WebAssembly = ((real) => {
  const settled = (make) => { try { return Promise.resolve(make()); } catch (error) { return Promise.reject(error); } };
  const sync = Object.create(real);
  sync.compile = (bytes) => settled(() => new real.Module(bytes));
  sync.instantiate = (source, imports) => settled(() => {
    if (source instanceof real.Module) return new real.Instance(source, imports);
    const module = new real.Module(source);
    return { module, instance: new real.Instance(module, imports) };
  });
  return sync;
})(WebAssembly);`;
const INIT = `
(async () => {
  const { Parser, Language } = module.exports;
  // Views of this realm over the file's bytes (Language.load checks instanceof Uint8Array): no copy.
  const view = (bytes) => new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const runtimeWasm = view(grammarInput.runtimeWasm);
  await Parser.init({
    instantiateWasm(imports, receive) {
      const compiled = new WebAssembly.Module(runtimeWasm);
      return receive(new WebAssembly.Instance(compiled, imports), compiled);
    },
  });
  const language = await Language.load(view(grammarInput.bashWasm));
  grammarInput = null;
  const parser = new Parser();
  parser.setLanguage(language);
  grammarOutput.parser = parser;
})().catch((error) => { grammarOutput.error = error; });`;

function loadBashParser(path: string): BashParser {
  const { existsSync, readFileSync } = process.getBuiltinModule("node:fs");
  const { createContext, Script } = process.getBuiltinModule("node:vm");
  const { pathToFileURL } = process.getBuiltinModule("node:url");
  if (!existsSync(path)) {
    throw new EvidenceError("E_GRAMMAR", `the bash grammar is not at ${path}: copy node_modules/agent-evidence/grammar/${GRAMMAR_FILE} beside the bundle, or set ${GRAMMAR_ENV} to its path`);
  }
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new EvidenceError("E_GRAMMAR", `cannot read the bash grammar at ${path}: ${(error as Error).message}`, { cause: error });
  }
  const pack = readGrammarPack(bytes, path);
  const output: { parser?: BashParser; error?: unknown } = {};
  const runtimeModule = { exports: {} as Record<string, unknown> };
  const context = createContext(
    {
      module: runtimeModule,
      exports: runtimeModule.exports,
      // The runtime asks for its own URL once; it reads no file (the bytes are handed in).
      __filename: path,
      require: (name: string) => {
        if (name === "url") return { pathToFileURL };
        throw new Error(`the grammar runtime asked for ${name}`);
      },
      // Its messages go to stderr: stdout may be an MCP or hook protocol stream.
      console: { log: toStderr, warn: toStderr, error: toStderr, info: toStderr, debug: toStderr },
      TextDecoder,
      TextEncoder,
      grammarInput: { runtimeWasm: pack.runtimeWasm, bashWasm: pack.bashWasm },
      grammarOutput: output,
    },
    { name: "agent-evidence bash grammar", microtaskMode: "afterEvaluate" },
  );
  try {
    new Script(SYNC_WEBASSEMBLY).runInContext(context);
    new Script(Buffer.from(pack.runtimeSource).toString("utf8"), { filename: path }).runInContext(context);
    withLiftoffOnly(() => {
      new Script(INIT).runInContext(context);
    });
  } catch (error) {
    throw new EvidenceError("E_GRAMMAR", `cannot start the bash grammar from ${path}: ${messageOf(error)}`, { cause: error });
  }
  if (output.parser === undefined) {
    const why = output.error === undefined ? "its loader did not finish synchronously" : messageOf(output.error);
    throw new EvidenceError("E_GRAMMAR", `cannot start the bash grammar from ${path}: ${why}`, { cause: output.error });
  }
  return output.parser;
}

// Errors made inside the grammar's context are not instances of this realm's Error.
function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === "string" ? message : typeof error === "string" ? error : "unknown error";
}

function toStderr(...args: unknown[]): void {
  process.stderr.write(`${process.getBuiltinModule("node:util").format(...args)}\n`);
}

// V8's optimising tier for the grammar's WebAssembly (TurboFan, compiled on background threads) cost
// about two thirds of a short CLI call's CPU and 40 MB, and parsing is no faster with it (40,000
// command lines: 0.95 s with it, 0.70 s with Liftoff alone). The flag is read when a module is
// compiled, so it is set for the grammar's two modules only and put back afterwards, unless the
// process was started with its own choice.
function withLiftoffOnly(run: () => void): void {
  const { setFlagsFromString } = process.getBuiltinModule("node:v8");
  const chosen = /--(no-)?liftoff-only\b/.test([...process.execArgv, process.env.NODE_OPTIONS ?? ""].join(" "));
  if (!chosen) setFlagsFromString("--liftoff-only");
  try {
    run();
  } finally {
    if (!chosen) setFlagsFromString("--no-liftoff-only");
  }
}
