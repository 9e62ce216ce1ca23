// I/O: reads the package.json a package manager would use for a script run (`npm test`), for the
// pure analysis, which takes it as data (AnalyzeOptions.packageScripts, src/shell/package-scripts.ts).
import { lstatSync, readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";

import { analyzeCommand } from "../grammar/analyze-command.js";
import type { AnalyzeOptions } from "../shell/analyze-parsed.js";
import { type PackageManifest, type PackageScripts, scriptDirectories } from "../shell/package-scripts.js";
import type { CommandAnalysis } from "../shell/types.js";

/**
 * Finds the package.json a package manager uses from `directory` (npm searches upward to the first
 * directory holding a package.json or a node_modules; `--prefix` names it exactly) and reads it;
 * null when there is none or it cannot be read.
 */
export type PackageScriptResolver = (directory: string, options: { exact: boolean }) => PackageManifest | null;

const MAX_PACKAGE_JSON = 1024 * 1024;
const MAX_BINS = 4096;
// Programs a runner starts through (interpreters, wrappers): no package's bin stands in for them.
const NEVER_A_BIN = new Set([
  "node",
  "nodejs",
  "python",
  "python3",
  "go",
  "env",
  "timeout",
  "sh",
  "bash",
  "dash",
  "npx",
  "npm",
  "pnpm",
  "yarn",
  "uv",
  "coverage",
]);
const RISKY_NPMRC = /^\s*(script-shell|node-options|shell|scripts-prepend-node-path|userconfig|globalconfig)\s*=/m;

/**
 * Reads package.json as npm finds it from `directory`.
 * @example readPackageManifest("/repo/sub", { exact: false })?.scripts.test // "vitest run"
 */
export const readPackageManifest: PackageScriptResolver = (directory, { exact }) => {
  const root = findPackageRoot(resolve(directory), exact);
  if (root === null) return null;
  const text = readSmallFile(join(root, "package.json"));
  if (text === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return null;
  const record = json as Record<string, unknown>;
  const scripts: Record<string, string> = {};
  const raw = record.scripts;
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
    for (const [name, value] of Object.entries(raw as Record<string, unknown>)) if (typeof value === "string") scripts[name] = value;
  }
  return {
    dir: directory.startsWith("/") ? root : relative(process.cwd(), root) || ".",
    name: typeof record.name === "string" ? record.name : null,
    version: typeof record.version === "string" ? record.version : null,
    scripts,
    configRisk: npmrcRisk(root),
    plantedBins: plantedBins(root),
  };
};

/**
 * Analyses a line with the package.json of each script run in it read by `resolver` (default: from
 * disk): what `BashEvidence`, `evidenceTools`, `judge --cwd` and `run` use.
 * @example analyzeWithPackageScripts("npm test", { cwd: "/repo" }).invocations[0].kind // "node-test"
 */
export function analyzeWithPackageScripts(
  line: string,
  options: AnalyzeOptions & { resolveScripts?: PackageScriptResolver | false } = {},
): CommandAnalysis {
  return resolvePackageScripts(line, options).analysis;
}

/** {@link analyzeWithPackageScripts}, with the package.json data the analysis was made with. */
export function resolvePackageScripts(
  line: string,
  options: AnalyzeOptions & { resolveScripts?: PackageScriptResolver | false } = {},
): { analysis: CommandAnalysis; scripts: PackageScripts } {
  const { resolveScripts, ...analyze } = options;
  let analysis = analyzeCommand(line, analyze);
  if (resolveScripts === false) return { analysis, scripts: analyze.packageScripts ?? {} };
  const resolver = resolveScripts ?? readPackageManifest;
  const known: Record<string, PackageManifest | null> = { ...(analyze.packageScripts ?? {}) };
  // A script may run another script elsewhere (`npm --prefix sub test` inside a script): a few rounds.
  for (let round = 0; round < 4; round++) {
    const runs = analysis.packageRuns ?? [];
    const wanted = scriptDirectories(runs).filter((dir) => !(dir in known));
    if (wanted.length === 0) break;
    for (const dir of wanted) {
      const exact = runs.some((run) => run.directory === dir && run.exactDirectory);
      known[dir] = safely(() => resolver(dir, { exact }));
    }
    analysis = analyzeCommand(line, { ...analyze, packageScripts: known });
  }
  return { analysis, scripts: known };
}

/** Marks the script runs of `analysis` whose package.json changed during the line: `script-changed` (a failure still counts). */
export function markChangedScripts(analysis: CommandAnalysis, changed: readonly string[]): void {
  if (changed.length === 0) return;
  const runs = analysis.packageRuns ?? [];
  runs.forEach((run, at) => {
    if (run.directory === null || !changed.includes(run.directory)) return;
    run.problem = "script-changed";
    run.detail = `${run.directory}: package.json changed during the line`;
    for (const inv of analysis.invocations) if (inv.script?.run === at) inv.scriptProblem = "script-changed";
  });
}

/** The package.json data an analysis was made with, read again: the directories whose package.json changed since. */
export function changedPackageScripts(
  analysis: CommandAnalysis,
  before: PackageScripts,
  resolver: PackageScriptResolver = readPackageManifest,
): string[] {
  const changed: string[] = [];
  for (const run of analysis.packageRuns ?? []) {
    if (run.directory === null || !(run.directory in before)) continue;
    const now = safely(() => resolver(run.directory!, { exact: run.exactDirectory }));
    if (JSON.stringify(now) !== JSON.stringify(before[run.directory])) changed.push(run.directory);
  }
  return [...new Set(changed)];
}

function safely(read: () => PackageManifest | null): PackageManifest | null {
  try {
    return read();
  } catch {
    return null;
  }
}

function findPackageRoot(start: string, exact: boolean): string | null {
  if (exact) return isFile(join(start, "package.json")) ? start : null;
  for (let dir = start; ; dir = dirname(dir)) {
    if (isFile(join(dir, "package.json"))) return dir;
    // npm stops at a node_modules too, and finds no package.json there.
    if (isDirectory(join(dir, "node_modules"))) return null;
    if (dirname(dir) === dir) return null;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function readSmallFile(path: string): string | null {
  try {
    const stat = statSync(path);
    if (!stat.isFile() || stat.size > MAX_PACKAGE_JSON) return null;
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

// A project or user .npmrc that changes the shell or node a script runs with.
function npmrcRisk(root: string): string | null {
  for (const file of [join(root, ".npmrc"), join(homedir(), ".npmrc")]) {
    const text = readSmallFile(file);
    const match = text === null ? null : RISKY_NPMRC.exec(text);
    if (match !== null) return `${file} sets ${match[1]!}`;
  }
  return null;
}

// npm puts node_modules/.bin of the package and of every directory above it first on a script's PATH.
function plantedBins(root: string): string[] {
  const planted: string[] = [];
  for (let dir = root; ; dir = dirname(dir)) {
    const bin = join(dir, "node_modules", ".bin");
    let names: string[];
    try {
      names = readdirSync(bin).slice(0, MAX_BINS);
    } catch {
      names = [];
    }
    for (const name of names) if (NEVER_A_BIN.has(name) || !installedLink(bin, name)) planted.push(name);
    if (dirname(dir) === dir) break;
  }
  return [...new Set(planted)];
}

// A bin npm installed: a link into node_modules/<package>/ beside .bin.
function installedLink(bin: string, name: string): boolean {
  try {
    const path = join(bin, name);
    if (!lstatSync(path).isSymbolicLink()) return false;
    const target = resolve(bin, readlinkSync(path));
    const modules = dirname(bin) + sep;
    return target.startsWith(modules) && !target.startsWith(bin + sep);
  } catch {
    return false;
  }
}
