// Reads a package manager's command line (`npm test`, `npm run test -- -t x`, `pnpm -C sub test`,
// `yarn test`): which script it runs, from which directory, with which arguments. Pure: the script's
// text comes from package.json, which the caller reads (src/observation/package-scripts.ts).
import type { ScriptReasonCode } from "../reasons.js";
import { basename } from "./wrappers.js";

/** The package managers whose scripts are followed. */
export type PackageManager = "npm" | "pnpm" | "yarn";

/** A script run (`npm test`), read from the manager's words. */
export interface ScriptCommand {
  manager: PackageManager;
  /** The script's name (`test`). */
  script: string;
  /** The arguments the manager appends to the script's text. */
  args: string[];
  /** Directory options (`--prefix DIR`, `-C DIR`, `--dir DIR`, `--cwd DIR`), in order. */
  directories: string[];
  /** npm `--prefix`/`-C`: the directory is the package's, with no search upward. */
  exactDirectory: boolean;
  /** `--if-present`: a missing script is no error (and no run). */
  ifPresent: boolean;
  /** `--silent`/`-s`: npm prints no `> pkg@1.0.0 test` banner. */
  silent: boolean;
  /** The `pre<name>` and `post<name>` scripts run too (npm and pnpm; not under `--ignore-scripts`). */
  lifecycle: boolean;
  /** `pnpm X` / `yarn X`: the script X when package.json has one, else the program X from node_modules/.bin. */
  orBin: boolean;
  /** Why the run cannot be followed (a reason code: `script-workspaces`, `script-config`, `script-arguments-unclear`), or null. */
  problem: ScriptReasonCode | null;
  /** The option behind {@link problem}. */
  detail?: string;
}

const NPM_RUN = new Set(["run", "run-script", "rum", "urn"]);
const NPM_TEST = new Set(["test", "t", "tst"]);
// npm's own flags that change nothing about which script runs or how.
const NPM_FLAGS = new Set([
  "--silent",
  "-s",
  "--if-present",
  "--ignore-scripts",
  "--foreground-scripts",
  "--no-color",
  "-q",
  "--quiet",
  "-d",
  "-dd",
  "--verbose",
  "--no-audit",
  "--no-fund",
  "--no-update-notifier",
  "--no-progress",
  "--progress",
  "--json",
  "--color",
]);
const NPM_VALUED = new Set(["--loglevel", "--cache", "--color", "--logs-dir"]);
// Options that change the shell or the node a script runs with, or the config that decides it.
const CONFIG_OPTIONS = new Set([
  "--script-shell",
  "--node-options",
  "--userconfig",
  "--globalconfig",
  "--shell",
  "--scripts-prepend-node-path",
  "--call",
  "-c",
]);
const WORKSPACE_OPTIONS = new Set([
  "-w",
  "--workspace",
  "--workspaces",
  "-ws",
  "--include-workspace-root",
  "-r",
  "--recursive",
  "--filter",
  "-F",
  "--parallel",
]);
// Built-in commands of pnpm and yarn: never a script run through `pnpm X` / `yarn X`.
const BUILTINS = new Set([
  "add",
  "audit",
  "bin",
  "cache",
  "config",
  "create",
  "dedupe",
  "deploy",
  "dlx",
  "env",
  "exec",
  "fetch",
  "help",
  "import",
  "info",
  "init",
  "install",
  "i",
  "install-test",
  "it",
  "licenses",
  "link",
  "list",
  "ls",
  "login",
  "logout",
  "outdated",
  "pack",
  "patch",
  "prune",
  "publish",
  "rebuild",
  "remove",
  "rm",
  "root",
  "run",
  "run-script",
  "server",
  "setup",
  "start",
  "store",
  "tag",
  "test",
  "t",
  "tst",
  "unlink",
  "update",
  "up",
  "upgrade",
  "version",
  "why",
  "workspace",
  "workspaces",
  "global",
  "owner",
  "team",
  "policies",
  "node",
  "generate-lock-entry",
  "import",
  "autoclean",
  "check",
  "self-update",
]);

/**
 * The script run a command starts (words from the program on), or null when it is no script run.
 * @example readScriptCommand(["npm", "test", "--", "-t", "add"]) // { manager: "npm", script: "test", args: ["-t", "add"], ... }
 */
export function readScriptCommand(words: readonly string[]): ScriptCommand | null {
  const program = basename(words[0] ?? "");
  if (program === "npm") return readNpm(words);
  if (program === "pnpm" || program === "yarn") return readPnpmOrYarn(program, words);
  return null;
}

function blank(manager: PackageManager): ScriptCommand {
  return {
    manager,
    script: "",
    args: [],
    directories: [],
    exactDirectory: false,
    ifPresent: false,
    silent: false,
    lifecycle: true,
    orBin: false,
    problem: null,
  };
}

// `npm [options] test|t|run NAME [args] [-- args]`: npm reads options anywhere before `--`; the
// words after the script's name that are no option are passed on, as is everything after `--`.
function readNpm(words: readonly string[]): ScriptCommand | null {
  const found = blank("npm");
  let command: string | null = null;
  let named = false;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === "--") {
      if (command === null || (!named && !NPM_TEST.has(command))) return null;
      found.args.push(...words.slice(i + 1));
      break;
    }
    if (word.startsWith("-") && word !== "-") {
      const eq = word.indexOf("=");
      const option = eq > 0 ? word.slice(0, eq) : word;
      const value = eq > 0 ? word.slice(eq + 1) : words[i + 1];
      if (option === "--prefix" || option === "-C") {
        if (value === undefined) return null;
        found.directories.push(value);
        found.exactDirectory = true;
        if (eq < 0) i++;
      } else if (WORKSPACE_OPTIONS.has(option)) {
        setProblem(found, "script-workspaces", option);
        if (eq < 0 && (option === "-w" || option === "--workspace" || option === "--filter" || option === "-F")) i++;
      } else if (CONFIG_OPTIONS.has(option)) {
        setProblem(found, "script-config", option);
        if (eq < 0 && option !== "--scripts-prepend-node-path") i++;
      } else if (NPM_VALUED.has(option) && eq < 0 && !(option === "--color" && !/^(always|true|false)$/.test(value ?? ""))) i++;
      else if (NPM_FLAGS.has(option)) {
        if (option === "--silent" || option === "-s") found.silent = true;
        if (option === "--loglevel" && value === "silent") found.silent = true;
        if (option === "--if-present") found.ifPresent = true;
        if (option === "--ignore-scripts") found.lifecycle = false;
      } else setProblem(found, "script-arguments-unclear", option);
      if (option === "--loglevel" && value === "silent") found.silent = true;
      continue;
    }
    if (command === null) {
      if (!NPM_TEST.has(word) && !NPM_RUN.has(word)) return null;
      command = word;
      if (NPM_TEST.has(word)) {
        found.script = "test";
        named = true;
      }
      continue;
    }
    if (!named) {
      found.script = word;
      named = true;
      continue;
    }
    found.args.push(word);
  }
  // `npm run` alone lists the scripts.
  return command === null || !named ? null : found;
}

// `pnpm [-C DIR] test|run NAME [args]` passes every word after the name on (a first `--` dropped);
// `yarn [--cwd DIR] test|run NAME [args]` the same. `pnpm X` / `yarn X` runs the script X, else the program X.
function readPnpmOrYarn(manager: "pnpm" | "yarn", words: readonly string[]): ScriptCommand | null {
  const found = blank(manager);
  if (manager === "yarn") found.lifecycle = true;
  let i = 1;
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith("-")) break;
    const eq = word.indexOf("=");
    const option = eq > 0 ? word.slice(0, eq) : word;
    const value = eq > 0 ? word.slice(eq + 1) : words[i + 1];
    const directoryOption = manager === "pnpm" ? option === "-C" || option === "--dir" : option === "--cwd";
    if (directoryOption) {
      if (value === undefined) return null;
      found.directories.push(value);
      if (eq < 0) i++;
    } else if (option === "--silent" || option === "-s") found.silent = true;
    else if (option === "--if-present") found.ifPresent = true;
    else if (WORKSPACE_OPTIONS.has(option)) {
      setProblem(found, "script-workspaces", option);
      if (eq < 0 && (option === "--filter" || option === "-F")) i++;
    } else setProblem(found, "script-arguments-unclear", option);
  }
  const command = words[i];
  if (command === undefined) return null;
  let rest: number;
  if (NPM_TEST.has(command)) {
    found.script = "test";
    rest = i + 1;
  } else if (command === "run" || command === "run-script") {
    // pnpm reads its own options between `run` and the name.
    let j = i + 1;
    while (j < words.length && words[j]!.startsWith("-")) {
      const option = words[j]!;
      if (option === "--if-present") found.ifPresent = true;
      else if (option === "--silent" || option === "-s") found.silent = true;
      else if (WORKSPACE_OPTIONS.has(option)) setProblem(found, "script-workspaces", option);
      else setProblem(found, "script-arguments-unclear", option);
      j++;
    }
    if (j >= words.length) return null;
    found.script = words[j]!;
    rest = j + 1;
  } else if (BUILTINS.has(command)) return null;
  else {
    found.script = command;
    found.orBin = true;
    rest = i + 1;
  }
  const args = words.slice(rest);
  // Measured on pnpm 9.15 and yarn 1.22: `pnpm test -- x` and yarn drop a first `--`; `pnpm run NAME -- x` passes it on.
  const dropsDashes = manager === "yarn" || command !== "run";
  found.args = args[0] === "--" && dropsDashes ? args.slice(1) : [...args];
  return found;
}

function setProblem(found: ScriptCommand, problem: ScriptReasonCode, detail: string): void {
  if (found.problem !== null) return;
  found.problem = problem;
  found.detail = detail;
}
