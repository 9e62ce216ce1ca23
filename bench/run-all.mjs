#!/usr/bin/env node
// Runs every benchmark under bench/<name>/index.mjs (or only those named on the command line).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const names = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(here, d.name, "index.mjs")))
  .map((d) => d.name)
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();

let failed = false;
for (const name of names) {
  console.log(`\n## bench/${name}`);
  const result = spawnSync(process.execPath, ["--expose-gc", join(here, name, "index.mjs")], { stdio: "inherit" });
  if (result.status !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
