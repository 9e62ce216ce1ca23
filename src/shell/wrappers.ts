// Strips the launchers agents put in front of a command (env, timeout, uv run, ...) to find the real one.

/** The result of stripping wrappers from a command's words. */
export interface StrippedWrappers {
  /** Index of the first word after the wrappers (the real command's name). */
  start: number;
  /** Basenames of the wrappers passed, in order (`env`, `timeout`, `uv`, ...). */
  wrappers: string[];
  /** `NAME=value` pairs set through `env`. */
  env: { name: string; value: string }[];
  /** Directory changes made by wrapper options (`uv --directory D`, `env -C D`), in order. */
  directories: string[];
  /** False when a wrapper's own syntax was not understood; the command is then never a runner. */
  ok: boolean;
  /** Why a wrapper may run another program than the one named (`npx -p pkg X` runs pkg's X), in order. */
  risks: string[];
}

const MAX_WRAPPERS = 8;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const DURATION = /^\d+(\.\d+)?[smhd]?$/;

/** The text after the last `/` (`.venv/bin/pytest` -> `pytest`). */
export function basename(word: string): string {
  const slash = word.lastIndexOf("/");
  return slash < 0 ? word : word.slice(slash + 1);
}

/** Strips leading wrappers; `words[start]` is then the real command (or `start === words.length`). */
export function stripWrappers(words: readonly string[]): StrippedWrappers {
  const result: StrippedWrappers = { start: 0, wrappers: [], env: [], directories: [], ok: true, risks: [] };
  for (let depth = 0; depth < MAX_WRAPPERS && result.start < words.length; depth++) {
    const name = basename(words[result.start]!);
    const next = stripOne(name, words, result.start + 1, result);
    if (next === null) return result;
    if (next < 0) return { ...result, ok: false };
    result.wrappers.push(name);
    result.start = next;
  }
  if (
    result.start < words.length &&
    stripOne(basename(words[result.start]!), words, result.start + 1, { ...result, env: [], directories: [], risks: [] }) !== null
  ) {
    return { ...result, ok: false };
  }
  return result;
}

// Returns the index after this wrapper, null when `name` is no wrapper, -1 when its syntax is not understood.
function stripOne(name: string, words: readonly string[], at: number, into: StrippedWrappers): number | null {
  switch (name) {
    case "env":
      return stripEnv(words, at, into);
    case "timeout":
      return stripTimeout(words, at);
    case "time":
      return skipOptions(
        words,
        at,
        new Set(["-p", "-v", "-a", "--portability", "--verbose", "--append"]),
        new Set(["-o", "-f", "--output", "--format"]),
      );
    case "nice":
      return stripNice(words, at);
    case "stdbuf":
      return skipOptions(words, at, new Set(), new Set(["-i", "-o", "-e", "--input", "--output", "--error"]), /^-[ioe].+$/);
    case "uv":
      return stripRunSubcommand(
        words,
        at,
        UV_VALUE_OPTIONS,
        into,
        new Set(["--directory"]),
        new Set(["-m", "--module", "-s", "--script", "--gui-script"]),
      );
    case "poetry":
      return stripRunSubcommand(
        words,
        at,
        new Set(["-C", "--directory", "-P", "--project"]),
        into,
        new Set(["-C", "--directory"]),
        new Set(),
      );
    case "pipenv":
    case "rye":
      return stripRunSubcommand(words, at, new Set(), into, new Set(), new Set());
    case "pdm":
      return stripRunSubcommand(
        words,
        at,
        new Set(["-p", "--project", "--venv"]),
        into,
        new Set(),
        new Set(["-l", "--list", "-j", "--json"]),
      );
    case "hatch":
      return stripHatch(words, at);
    case "npx":
      return stripNpmExec(words, at, into);
    case "npm":
      return stripManagerExec(words, at, into, {
        subcommands: new Set(["exec", "x"]),
        valued: NPM_GLOBAL_VALUED,
        directories: new Set(["--prefix", "-C"]),
        packageRoot: false,
      });
    case "pnpm":
      return stripManagerExec(words, at, into, {
        subcommands: new Set(["exec"]),
        valued: new Set(["-C", "--dir"]),
        directories: new Set(["-C", "--dir"]),
        packageRoot: true,
      });
    case "yarn":
      return stripManagerExec(words, at, into, {
        subcommands: new Set(["exec"]),
        valued: new Set(["--cwd"]),
        directories: new Set(["--cwd"]),
        packageRoot: true,
      });
    default:
      return null;
  }
}

const UV_VALUE_OPTIONS = new Set([
  "--with",
  "--with-editable",
  "--with-requirements",
  "--python",
  "-p",
  "--extra",
  "--no-extra",
  "--group",
  "--only-group",
  "--no-group",
  "--package",
  "--env-file",
  "--directory",
  "--project",
  "--index",
  "--default-index",
  "--index-url",
  "--extra-index-url",
  "--find-links",
  "-f",
  "--index-strategy",
  "--keyring-provider",
  "--resolution",
  "--prerelease",
  "--exclude-newer",
  "--link-mode",
  "--config-setting",
  "-C",
  "--no-binary-package",
  "--no-build-package",
  "--reinstall-package",
  "--upgrade-package",
  "-P",
  "--refresh-package",
  "--cache-dir",
  "--config-file",
  "--color",
  "--python-preference",
  "--allow-insecure-host",
  "--python-platform",
]);

function stripEnv(words: readonly string[], at: number, into: StrippedWrappers): number {
  let i = at;
  while (i < words.length) {
    const word = words[i]!;
    if (word === "--") return i + 1;
    if (ASSIGNMENT.test(word)) {
      const eq = word.indexOf("=");
      into.env.push({ name: word.slice(0, eq), value: word.slice(eq + 1) });
      i++;
    } else if (word === "-i" || word === "-" || word === "--ignore-environment") i++;
    else if (word === "-u" || word === "--unset") i += 2;
    else if (word.startsWith("--unset=") || /^-u./.test(word)) i++;
    else if (word === "-C" || word === "--chdir") {
      if (words[i + 1] === undefined) return -1;
      into.directories.push(words[i + 1]!);
      i += 2;
    } else if (word.startsWith("--chdir=")) {
      into.directories.push(word.slice("--chdir=".length));
      i++;
    } else if (word.startsWith("-")) return -1;
    else return i;
  }
  return i;
}

function stripTimeout(words: readonly string[], at: number): number {
  let i = at;
  while (i < words.length) {
    const word = words[i]!;
    if (word === "--") {
      i++;
      break;
    }
    if (word === "--preserve-status" || word === "--foreground" || word === "-v" || word === "--verbose") i++;
    else if (word === "-s" || word === "-k" || word === "--signal" || word === "--kill-after") i += 2;
    else if (/^-[sk]./.test(word) || word.startsWith("--signal=") || word.startsWith("--kill-after=")) i++;
    else if (word.startsWith("-")) return -1;
    else break;
  }
  const duration = words[i];
  return duration !== undefined && DURATION.test(duration) ? i + 1 : -1;
}

function stripNice(words: readonly string[], at: number): number {
  let i = at;
  while (i < words.length) {
    const word = words[i]!;
    if (word === "--") return i + 1;
    if (word === "-n" || word === "--adjustment") i += 2;
    else if (/^-n-?\d+$/.test(word) || /^-\d+$/.test(word) || word.startsWith("--adjustment=")) i++;
    else if (word.startsWith("-")) return -1;
    else return i;
  }
  return i;
}

// Options are skipped: `valued` take the next word, `joined` matches a self-contained option with its value.
function skipOptions(words: readonly string[], at: number, flags: Set<string>, valued: Set<string>, joined?: RegExp): number {
  let i = at;
  while (i < words.length) {
    const word = words[i]!;
    if (word === "--") return i + 1;
    if (!word.startsWith("-") || word === "-") return i;
    if (valued.has(word)) i += 2;
    else if (flags.has(word) || (joined?.test(word) ?? false) || (word.startsWith("--") && word.includes("="))) i++;
    else return -1;
  }
  return i;
}

// `<tool> [global options] run [options] [--] CMD`: unknown options are taken as flags without a value.
function stripRunSubcommand(
  words: readonly string[],
  at: number,
  valued: Set<string>,
  into: StrippedWrappers,
  directoryOptions: Set<string>,
  refused: Set<string>,
): number {
  let i = at;
  let sawRun = false;
  while (i < words.length) {
    const word = words[i]!;
    if (!sawRun) {
      if (word === "run") {
        sawRun = true;
        i++;
        continue;
      }
      if (!word.startsWith("-")) return -1;
    } else if (word === "--") return i + 1;
    else if (!word.startsWith("-")) return i;
    if (refused.has(word)) return -1;
    const eq = word.indexOf("=");
    const option = eq > 0 ? word.slice(0, eq) : word;
    if (directoryOptions.has(option)) {
      const value = eq > 0 ? word.slice(eq + 1) : words[i + 1];
      if (value === undefined) return -1;
      into.directories.push(value);
    }
    i += eq < 0 && valued.has(word) ? 2 : 1;
  }
  return sawRun ? i : -1;
}

// `hatch [-e ENV] run [ENV:]CMD`: the `ENV:` prefix of the command word is handled by the caller.
function stripHatch(words: readonly string[], at: number): number {
  let i = at;
  while (i < words.length && words[i] !== "run") {
    const word = words[i]!;
    if (word === "-e" || word === "--env" || word === "-p" || word === "--project" || word === "--data-dir" || word === "--cache-dir")
      i += 2;
    else if (word.startsWith("-")) i++;
    else return -1;
  }
  return i < words.length ? i + 1 : -1;
}

/** `hatch run test:pytest` -> `pytest`: the environment prefix of a hatch command word. */
export function stripHatchEnvironment(word: string): string {
  const match = /^[A-Za-z0-9_.+-]+:(.+)$/.exec(word);
  return match !== null && !match[1]!.startsWith(":") ? match[1]! : word;
}

const NPM_GLOBAL_VALUED = new Set([
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
function stripNpmExec(words: readonly string[], at: number, into: StrippedWrappers): number {
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
function stripManagerExec(words: readonly string[], at: number, into: StrippedWrappers, manager: ManagerExec): number | null {
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
