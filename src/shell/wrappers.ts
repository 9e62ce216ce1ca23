// Strips the launchers agents put in front of a command (env, timeout, uv run, ...) to find the real one:
// the table of wrappers and the plain launchers (env, timeout, time, nice, stdbuf) are here; the Python
// managers' `run` is in python-run-wrappers.ts, the package managers' `exec` in package-exec-wrappers.ts.
import { basename } from "./basename.js";
import { NPM_GLOBAL_VALUED, stripManagerExec, stripNpmExec } from "./package-exec-wrappers.js";
import { stripHatch, stripRunSubcommand, UV_VALUE_OPTIONS } from "./python-run-wrappers.js";

export { basename } from "./basename.js";

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
