// Finds a test runner behind a command's wrappers. The shell reads what every runner shares (the
// wrappers, a Python interpreter's flags and `-m MODULE` or script, `coverage run`); each runner
// definition then says whether the command is one of its runs.
import type { RunnerDefinition, RunnerWords } from "../runners/definition.js";
import { builtinRunners, type RunnerRegistry } from "../runners/registry.js";
import { stripHatchEnvironment } from "./python-run-wrappers.js";
import { basename, stripWrappers } from "./wrappers.js";

/** A runner found in a command's words. */
export interface RunnerMatch {
  kind: string;
  definition: RunnerDefinition;
  /** Which of the runner's argument syntaxes to read, when it has several. */
  syntax: string | undefined;
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
  /** Why a wrapper may run another program than the one named (`npx -p pkg X`). */
  risks: string[];
}

const INTERPRETER = /^(python(\d+(\.\d+)*)?|pypy(\d+(\.\d+)*)?)$/;
const COVERAGE = /^coverage(\d+(\.\d+)*)?$/;
// Interpreter flags that change nothing about which program runs (-W and -X take a value).
const PYTHON_FLAGS = new Set(["B", "E", "I", "O", "P", "q", "s", "S", "u", "v", "b", "d", "R"]);
const COVERAGE_VALUED = new Set([
  "--rcfile",
  "--source",
  "--include",
  "--omit",
  "--concurrency",
  "--context",
  "--data-file",
  "--save-signal",
]);

/**
 * Recognises a runner of `runners` (default: the built-ins); `workspaceName` is the basename of the
 * directory the command runs in (Django's `runtests.py` counts only inside `tests/`).
 */
export function recognizeRunner(
  words: readonly string[],
  workspaceName: string | null,
  runners: RunnerRegistry = builtinRunners,
): RunnerMatch | null {
  const stripped = stripWrappers(words);
  if (!stripped.ok || stripped.start >= words.length) return null;
  const command = words.slice(stripped.start);
  if (stripped.wrappers.at(-1) === "hatch") command[0] = stripHatchEnvironment(command[0]!);
  const program = basename(command[0]!);
  const view: RunnerWords = { words: command, program, python: pythonProgram(command, program), workspaceName };
  for (const definition of runners.runners) {
    const found = definition.recognize(view);
    if (found === null) continue;
    const end = Math.max(1, Math.min(found.end, command.length));
    const pathLookup = stripped.wrappers.length > 0 || !command[0]!.includes("/");
    return {
      kind: definition.kind,
      definition,
      syntax: found.syntax,
      runnerWords: command.slice(0, end),
      args: command.slice(end),
      programs: [...stripped.wrappers, program],
      pathLookup,
      env: stripped.env,
      directories: stripped.directories,
      risks: stripped.risks,
    };
  }
  return null;
}

// What a Python interpreter or `coverage run` starts (`-m MODULE` or a script), or the command's own
// script; null for an interpreter flag that changes what runs (`-c`, `-i`, ...) or nothing to run.
function pythonProgram(command: string[], program: string): RunnerWords["python"] {
  if (COVERAGE.test(program) && command[1] === "run") return readProgram(command, skipCoverageOptions(command, 2));
  if (INTERPRETER.test(program)) {
    const start = skipPythonFlags(command, 1);
    return start < 0 ? null : readProgram(command, start);
  }
  return { script: command[0]!, next: 1 };
}

// `-m MODULE ...` or `SCRIPT ...` after an interpreter or `coverage run` (`-m coverage run` goes on).
function readProgram(command: string[], at: number): RunnerWords["python"] {
  if (at < 0 || at >= command.length) return null;
  const word = command[at]!;
  const module = word === "-m" ? command[at + 1] : word.startsWith("-m") ? word.slice(2) : undefined;
  if (module === undefined) return word.startsWith("-") ? null : { script: word, next: at + 1 };
  const next = word === "-m" ? at + 2 : at + 1;
  if (module === "coverage") return command[next] === "run" ? readProgram(command, skipCoverageOptions(command, next + 1)) : null;
  return { module, next };
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
