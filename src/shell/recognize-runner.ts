// Finds a test runner behind a command's wrappers: pytest, go test, Django's runners, python -m unittest.
import { posix } from "node:path";
import type { RunnerKind } from "../types.js";
import type { ArgumentSyntax } from "./runner-options.js";
import { basename, stripHatchEnvironment, stripWrappers } from "./wrappers.js";

/** A runner found in a command's words. */
export interface RunnerMatch {
  kind: RunnerKind;
  syntax: ArgumentSyntax;
  /** The runner's words (`python -m pytest`, `go test`, `python tests/runtests.py`). */
  runnerWords: string[];
  /** The words after the runner. */
  args: string[];
  /** Basenames of every program the shell looks up on the way (wrappers, interpreter): for shadowing. */
  programs: string[];
  /** Some program is named without a `/`, so PATH decides which one runs. */
  pathLookup: boolean;
  /** `NAME=value` pairs given through `env`. */
  env: { name: string; value: string }[];
  /** Directory changes made by wrapper options. */
  directories: string[];
}

const PYTEST_NAMES = /^(pytest|py\.test)(-3)?$/;
const INTERPRETER = /^(python(\d+(\.\d+)*)?|pypy(\d+(\.\d+)*)?)$/;
const COVERAGE = /^coverage(\d+(\.\d+)*)?$/;
// Interpreter flags that change nothing about which program runs (-W and -X take a value).
const PYTHON_FLAGS = new Set(["B", "E", "I", "O", "P", "q", "s", "S", "u", "v", "b", "d", "R"]);
const COVERAGE_VALUED = new Set(["--rcfile", "--source", "--include", "--omit", "--concurrency", "--context", "--data-file", "--save-signal"]);

type Found = Omit<RunnerMatch, "programs" | "pathLookup" | "env" | "directories">;

/**
 * Recognises a runner; `workspaceName` is the basename of the directory the command runs in
 * (`runtests.py` counts only inside `tests/`).
 */
export function recognizeRunner(words: readonly string[], workspaceName: string | null): RunnerMatch | null {
  const stripped = stripWrappers(words);
  if (!stripped.ok || stripped.start >= words.length) return null;
  const command = words.slice(stripped.start);
  if (stripped.wrappers.at(-1) === "hatch") command[0] = stripHatchEnvironment(command[0]!);
  const found = findRunner(command, workspaceName);
  if (found === null) return null;
  const pathLookup = stripped.wrappers.length > 0 || !command[0]!.includes("/");
  return { ...found, programs: [...stripped.wrappers, basename(command[0]!)], pathLookup, env: stripped.env, directories: stripped.directories };
}

function findRunner(command: string[], workspaceName: string | null): Found | null {
  const name = basename(command[0]!);
  if (PYTEST_NAMES.test(name)) return split(command, 1, "pytest", "pytest");
  if (name === "go" && command[1] === "test") return split(command, 2, "go", "go");
  if (name === "django-admin" && command[1] === "test") return split(command, 2, "django", "django-manage");
  if (COVERAGE.test(name) && command[1] === "run") return readProgram(command, skipCoverageOptions(command, 2), workspaceName);
  if (INTERPRETER.test(name)) {
    const start = skipPythonFlags(command, 1);
    return start < 0 ? null : readProgram(command, start, workspaceName);
  }
  return readScript(command, 0, workspaceName);
}

// `-m MODULE ...` or `SCRIPT ...` after an interpreter or `coverage run`.
function readProgram(command: string[], at: number, workspaceName: string | null): Found | null {
  if (at < 0 || at >= command.length) return null;
  const word = command[at]!;
  const module = word === "-m" ? command[at + 1] : word.startsWith("-m") ? word.slice(2) : undefined;
  if (module === undefined) return word.startsWith("-") ? null : readScript(command, at, workspaceName);
  const next = word === "-m" ? at + 2 : at + 1;
  switch (module) {
    case "pytest":
      return split(command, next, "pytest", "pytest");
    case "unittest":
      return split(command, next, "unittest", "unittest");
    case "django":
      return command[next] === "test" ? split(command, next + 1, "django", "django-manage") : null;
    case "coverage":
      return command[next] === "run" ? readProgram(command, skipCoverageOptions(command, next + 1), workspaceName) : null;
    default:
      return null;
  }
}

function readScript(command: string[], at: number, workspaceName: string | null): Found | null {
  const script = command[at]!;
  const normalized = posix.normalize(script);
  if (/(^|\/)tests\/runtests\.py$/.test(normalized) || (normalized === "runtests.py" && workspaceName === "tests")) {
    return split(command, at + 1, "django", "django-runtests");
  }
  if (basename(normalized) === "manage.py" && command[at + 1] === "test") return split(command, at + 2, "django", "django-manage");
  return null;
}

function split(command: string[], end: number, kind: RunnerKind, syntax: ArgumentSyntax): Found {
  return { kind, syntax, runnerWords: command.slice(0, end), args: command.slice(end) };
}

// Returns the index after the interpreter's harmless flags, or -1 for a flag that changes what runs (-c, -i, ...).
function skipPythonFlags(command: string[], at: number): number {
  let i = at;
  while (i < command.length) {
    const word = command[i]!;
    if (!word.startsWith("-") || word === "-" || word.startsWith("-m")) return i;
    if (word === "-W" || word === "-X" || word === "--check-hash-based-pycs") {
      i += 2;
      continue;
    }
    if (/^-[WX]./.test(word)) {
      i++;
      continue;
    }
    if (word.startsWith("--")) return -1;
    if (![...word.slice(1)].every((flag) => PYTHON_FLAGS.has(flag) || flag === "O")) return -1;
    i++;
  }
  return i;
}

function skipCoverageOptions(command: string[], at: number): number {
  let i = at;
  while (i < command.length) {
    const word = command[i]!;
    if (word === "-m" || !word.startsWith("-")) return i;
    if (word === "--") return i + 1;
    i += COVERAGE_VALUED.has(word) ? 2 : 1;
  }
  return -1;
}
