#!/usr/bin/env node
// Bundles the CLI (issue 18, target 3): `node dist/cli/main.js judge ...` costs a cold process, and
// half of a short call went to loading ~80 modules one by one (resolution, reading, the CommonJS
// lexer for commander). esbuild writes dist/cli/main.js over tsc's copy as a few ES module files:
// the entry (the program, its commands and commander), one chunk per command implementation that
// main.js imports lazily, and shared chunks, all beside it in dist/cli/ (bundle-*.js), so the code
// that finds files from import.meta.url (package.json, demo/, the audit worker) finds what it found
// from dist/cli/ before. The audit's worker is an entry of its own (dist/cli/audit-worker.js), the one
// the bundled audit pool starts. The library entries (dist/index.js, ...) stay tsc's, unbundled.
//
// Bundled: our sources and the small CommonJS dependencies the start-up path loads (commander,
// saxes and its xmlchars, shell-quote). Every other package (zod, execa, chokidar, the optional MCP
// SDK and ripgrep, the framework peers) stays an import resolved from node_modules at run time, as
// before: one copy of zod shared with the MCP SDK, and a missing optional SDK still fails its import.
// The grammar is found from the bundle through a define (src/grammar/bash-grammar.ts, grammarPath).
//
// Then the library's entries (scripts/bundle-library.mjs): dist/index.js and the subpath entries,
// bundled the same way for the same reason (the import of `agent-evidence/shell`, for one).
//
// Run by `npm run build` and `prepack` after tsc. Without esbuild (an install that skipped dev
// dependencies) tsc's unbundled dist/cli/main.js and entries stay, and work, only slower to start.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { bundleLibrary } from "./bundle-library.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = join(root, "dist", "cli");
const BUNDLED_PACKAGES = new Set(["commander", "saxes", "xmlchars", "shell-quote"]);

let esbuild;
try {
  esbuild = await import("esbuild");
} catch {
  console.error("bundle-cli: esbuild is not installed; dist/cli/main.js stays tsc's unbundled copy (slower start-up)");
  process.exit(0);
}

// A rebuild's chunks have new hashes: the old ones go first.
for (const name of readdirSync(outdir)) if (/^bundle-.*\.js(\.map)?$/.test(name)) rmSync(join(outdir, name));

const externalPackages = {
  name: "external-packages",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("node:")) return { external: true };
      const name = args.path.startsWith("@") ? args.path.split("/").slice(0, 2).join("/") : args.path.split("/")[0];
      return BUNDLED_PACKAGES.has(name) ? undefined : { external: true };
    });
  },
};

// A bundled package's own source map names its TypeScript sources, which it does not ship: map to
// its JavaScript instead, so every map carries the text of each source it names.
const ownSourceMapsDropped = {
  name: "own-source-maps-dropped",
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.js$/ }, (args) => ({
      contents: readFileSync(args.path, "utf8").replace(/^\/\/# sourceMappingURL=.*$/m, ""),
      loader: "js",
    }));
  },
};

await esbuild.build({
  absWorkingDir: root,
  entryPoints: { main: "src/cli/main.ts", "audit-worker": "src/audit/audit-worker.ts" },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  entryNames: "[name]",
  chunkNames: "bundle-[name]-[hash]",
  sourcemap: true,
  plugins: [externalPackages, ownSourceMapsDropped],
  define: { AGENT_EVIDENCE_PACKAGE_BUNDLE: JSON.stringify("dist/cli") },
  // The bundled CommonJS packages require node's built-in modules: give them a require.
  banner: {
    js: 'import { createRequire as __agentEvidenceCreateRequire } from "node:module";\nconst require = __agentEvidenceCreateRequire(import.meta.url);',
  },
  logLevel: "warning",
});

await bundleLibrary(esbuild, root);
