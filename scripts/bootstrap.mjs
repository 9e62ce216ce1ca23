#!/usr/bin/env node
// Bootstrap for both README commands: node dependencies, then the real runners the command uses
// (`--for demo`: pytest, git and bubblewrap; `--for test`, the default: every runner of the suite)
// through apt when root; otherwise a message naming exactly what to install.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { aptPackages, blockingRequirements, missingRequirements, PURPOSES, renderInstallHint } from "./runners.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const nodeOnly = process.argv.includes("--node-only");
const forAt = process.argv.indexOf("--for");
const purpose = forAt === -1 ? "test" : process.argv[forAt + 1];
if (!PURPOSES.includes(purpose)) {
  console.error(`agent-evidence bootstrap: --for takes ${PURPOSES.join(" or ")}`);
  process.exit(2);
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { stdio: "inherit", cwd: root, ...options });
  return result.status === 0;
}

function nodeDependenciesMissing() {
  const marker = join(root, "node_modules", ".package-lock.json");
  if (!existsSync(marker)) return true;
  return statSync(join(root, "package-lock.json")).mtimeMs > statSync(marker).mtimeMs + 1000;
}

if (nodeDependenciesMissing()) {
  console.error("agent-evidence bootstrap: installing node dependencies (npm ci)");
  if (!run("npm", ["ci", "--no-audit", "--no-fund"])) {
    console.error("agent-evidence bootstrap: npm ci failed");
    process.exit(1);
  }
}

if (!nodeOnly) {
  let missing = missingRequirements(purpose);
  if (missing.length > 0 && typeof process.getuid === "function" && process.getuid() === 0) {
    const packages = aptPackages(purpose);
    console.error(`agent-evidence bootstrap: installing ${packages.join(" ")} with apt-get`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    run("apt-get", ["update", "-q"], { env });
    run("apt-get", ["install", "-y", "-q", ...packages], { env });
    missing = missingRequirements(purpose);
  }
  if (missing.length > 0) console.error(renderInstallHint(missing, purpose));
  if (blockingRequirements(missing, purpose).length > 0) process.exit(1);
}
