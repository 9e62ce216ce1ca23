// The JavaScript package managers' exec wrappers (`npx X`, `npm exec X`, `pnpm exec X`, `yarn exec X`):
// the options they take, those that change which program runs (refused, or a risk), and the
// directory the program runs in.
import { basename } from "./basename.js";
import type { StrippedWrappers } from "./wrappers.js";

/** npm's global options that take the next word as their value. */
export const NPM_GLOBAL_VALUED = new Set([
  "--prefix",
  "-C",
  "--loglevel",
  "--cache",
  "--userconfig",
  "--globalconfig",
  "--script-shell",
  "--node-options",
]);
// npm's options that change which program `npx X` runs, or how: refused (the command is then no runner).
const NPM_EXEC_REFUSED = new Set([
  "-c",
  "--call",
  "-w",
  "--workspace",
  "--workspaces",
  "-ws",
  "--userconfig",
  "--globalconfig",
  "--node-options",
  "--script-shell",
  "-r",
  "--recursive",
  "--shell-mode",
  "--parallel",
  "--filter",
  "-F",
]);
const NPM_EXEC_FLAGS = new Set([
  "--yes",
  "-y",
  "--no",
  "--no-install",
  "--ignore-existing",
  "-q",
  "--quiet",
  "--silent",
  "-s",
  "--no-color",
  "--no-update-notifier",
  "--no-audit",
  "--no-fund",
]);

// `npx [options] [--] X ...`: `-p pkg` / `--package pkg` installs pkg and runs its X (a risk); `-c` runs a shell string (refused).
export function stripNpmExec(words: readonly string[], at: number, into: StrippedWrappers): number {
  let i = at;
  while (i < words.length) {
    const word = words[i]!;
    if (word === "--") return execTarget(words, i + 1, into);
    if (!word.startsWith("-") || word === "-") return execTarget(words, i, into);
    const eq = word.indexOf("=");
    const option = eq > 0 ? word.slice(0, eq) : word;
    if (option === "-p" || option === "--package") {
      const value = eq > 0 ? word.slice(eq + 1) : words[i + 1];
      if (value === undefined) return -1;
      into.risks.push(`npx --package ${value} runs that package's program`);
      i += eq > 0 ? 1 : 2;
    } else if (NPM_EXEC_REFUSED.has(option)) return -1;
    else if (NPM_EXEC_FLAGS.has(option)) i++;
    else if (option === "--prefix" || option === "--cache" || option === "--loglevel") i += eq > 0 ? 1 : 2;
    else return -1;
  }
  return i;
}

// Programs no package is expected to provide: run through npx they are whatever node_modules/.bin holds under that name first.
const INTERPRETERS = new Set(["node", "nodejs", "python", "python3", "go", "sh", "bash", "env", "timeout", "uv", "coverage"]);

function execTarget(words: readonly string[], at: number, into: StrippedWrappers): number {
  const name = basename(words[at] ?? "");
  if (INTERPRETERS.has(name)) into.risks.push(`npx runs node_modules/.bin/${name} before the ${name} on PATH`);
  return at;
}

/** A directory no analysis can resolve: the package root a manager finds by searching upward for package.json. */
export const PACKAGE_ROOT = "$PACKAGE_ROOT";

interface ManagerExec {
  subcommands: Set<string>;
  valued: Set<string>;
  directories: Set<string>;
  /** The program runs in the package's root (pnpm, yarn), not where the line is. */
  packageRoot: boolean;
}

// `npm [global options] exec|x [options] [--] X` (in the directory of `--prefix`), `pnpm [-C DIR] exec X`,
// `yarn [--cwd DIR] exec X` (in the package root); null when the subcommand is another.
export function stripManagerExec(words: readonly string[], at: number, into: StrippedWrappers, manager: ManagerExec): number | null {
  const { subcommands, valued, directories } = manager;
  let i = at;
  const dirs: string[] = [];
  while (i < words.length && words[i]!.startsWith("-") && words[i] !== "--") {
    const word = words[i]!;
    const eq = word.indexOf("=");
    const option = eq > 0 ? word.slice(0, eq) : word;
    if (NPM_EXEC_REFUSED.has(option) && !directories.has(option)) return subcommandAfter(words, i, subcommands) ? -1 : null;
    if (valued.has(option)) {
      const value = eq > 0 ? word.slice(eq + 1) : words[i + 1];
      if (value === undefined) return null;
      if (directories.has(option)) dirs.push(value);
      i += eq > 0 ? 1 : 2;
    } else i++;
  }
  if (!subcommands.has(words[i] ?? "")) return null;
  into.directories.push(...dirs, ...(manager.packageRoot ? [PACKAGE_ROOT] : []));
  return stripNpmExec(words, i + 1, into);
}

function subcommandAfter(words: readonly string[], at: number, subcommands: Set<string>): boolean {
  return words.slice(at).some((word) => subcommands.has(word));
}
