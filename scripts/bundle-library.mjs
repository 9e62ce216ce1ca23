// Bundles the library's public entries (issue 18, target 3), run by scripts/bundle-cli.mjs after tsc.
// Importing an entry was mostly module loading: `agent-evidence/shell` reached 65 of tsc's modules
// and spent about three quarters of its import on resolving, reading and linking them one by one
// (the same code as one file imports in a quarter of the time). esbuild writes each entry that
// package.json exports (dist/index.js, dist/entries/*.js, dist/adapters/*.js) over tsc's copy, code
// split: one build for all of them, so every module has one copy however many entries a program
// imports (module state, classes), in shared chunks in dist/chunks/. tsc's other modules stay in
// dist/ (their .d.ts files are the entries' types); no export reaches them.
//
// Every module lands in a chunk, none in an entry file: a virtual entry that imports all the others
// makes each module reachable from two entries at least, and its own output is removed afterwards.
// So code that finds files from import.meta.url always runs from dist/chunks/, two levels under the
// package like dist/<folder>/ of tsc: package.json, demo/, and the grammar (the define below tells
// src/grammar/bash-grammar.ts which folder of the package this bundle is); the audit's worker thread is
// an entry of its own beside the chunks (dist/chunks/audit-worker.js).
//
// Packages stay imports resolved from node_modules at run time (zod, execa, saxes, chokidar, the
// optional peers): an app's bundler or package manager shares them as before.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const CHUNKS = "chunks";
const ALL = "library-all-entries";

/** Bundles the entries package.json exports into dist/ with esbuild (the module, passed in). */
export async function bundleLibrary(esbuild, root) {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const entryPoints = {};
  for (const target of Object.values(manifest.exports)) {
    const file = typeof target === "string" ? target : target.import;
    const match = /^\.\/dist\/(.+)\.js$/.exec(file);
    if (match !== null) entryPoints[match[1]] = `src/${match[1]}.ts`;
  }
  entryPoints[`${CHUNKS}/audit-worker`] = "src/audit/audit-worker.ts";
  const outdir = join(root, "dist");
  rmSync(join(outdir, CHUNKS), { recursive: true, force: true });

  const allEntries = {
    name: "all-entries",
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${ALL}$`) }, () => ({ path: ALL, namespace: ALL }));
      build.onLoad({ filter: /.*/, namespace: ALL }, () => ({
        contents: Object.values(entryPoints)
          .map((path, i) => `export * as e${i} from ${JSON.stringify(`./${path}`)};`)
          .join("\n"),
        resolveDir: root,
        loader: "js",
      }));
    },
  };

  await esbuild.build({
    absWorkingDir: root,
    entryPoints: { ...entryPoints, [`${CHUNKS}/${ALL}`]: ALL },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    chunkNames: `${CHUNKS}/[name]-[hash]`,
    sourcemap: true,
    packages: "external",
    plugins: [allEntries],
    define: { AGENT_EVIDENCE_PACKAGE_BUNDLE: JSON.stringify(`dist/${CHUNKS}`) },
    logLevel: "warning",
  });
  for (const suffix of [".js", ".js.map"]) rmSync(join(outdir, CHUNKS, `${ALL}${suffix}`), { force: true });
}
