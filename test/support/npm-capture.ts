// Real package-manager runs on a copy of test/fixtures/npm-scripts-project: the machine's npm (and
// node, python3 -m pytest) run each command line through bash, stdout and stderr as one stream (as
// the bash tool returns them), with its exit status and how long it took.
import { spawn, spawnSync } from "node:child_process";
import { cpSync } from "node:fs";
import { join } from "node:path";

import { repoRoot } from "./import-graph.js";
import { tempDirPath } from "./temp-dir.js";

/** The fixture project the package-manager captures run in. */
export const NPM_SCRIPTS_FIXTURE = join(repoRoot, "test", "fixtures", "npm-scripts-project");

// npm's update check and colours off, as in an agent's tool call.
const QUIET_NPM = { NO_COLOR: "1", FORCE_COLOR: "0", npm_config_update_notifier: "false", npm_config_fund: "false" };

/** One real capture. */
export interface NpmCapture {
  command: string;
  output: string;
  exitCode: number;
  durationMs: number;
}

/** A fresh copy of the fixture project (a temp directory, never inside the repository). */
export function copyNpmScriptsProject(): string {
  const dir = tempDirPath("ae-npm-scripts-");
  cpSync(NPM_SCRIPTS_FIXTURE, dir, { recursive: true });
  return dir;
}

/** Runs `command` with bash in `cwd` (npm's update check and colours off, as in a tool call), stderr merged into stdout. */
export function captureNpm(command: string, cwd: string, env: Record<string, string> = {}): NpmCapture {
  const started = Date.now();
  const result = spawnSync("bash", ["-c", `exec 2>&1; ${command}`], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...QUIET_NPM, ...env },
    timeout: 60_000,
  });
  return { command, output: result.stdout ?? "", exitCode: result.status ?? -1, durationMs: Date.now() - started };
}

/** {@link captureNpm} without blocking: several captures can run at once. */
export function captureNpmAsync(command: string, cwd: string, env: Record<string, string> = {}): Promise<NpmCapture> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", `exec 2>&1; ${command}`], {
      cwd,
      env: { ...process.env, ...QUIET_NPM, ...env },
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 60_000,
    });
    let output = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
    });
    child.on("close", (code) => resolve({ command, output, exitCode: code ?? -1, durationMs: Date.now() - started }));
  });
}

/** Runs `jobs` with at most `limit` at a time, results in order. */
export async function inPool<T>(jobs: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const at = next++;
      results[at] = await jobs[at]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}
