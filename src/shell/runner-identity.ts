// Is the runner a line starts the real one, running the workspace's code? What a line can do to make it
// something else besides a function, an alias or a PATH prepend (shadowing.ts): read a script into the
// shell (`source`), run text it builds (`eval "$X"`), pin a name to a file (`hash -p`), load builtins
// (`enable -f`), have bash read a file first (`BASH_ENV`), send `cd` elsewhere (`CDPATH`), point the
// interpreter at other modules (`PYTHONPATH`), or have go run or compile something else (`-exec`,
// `-toolexec`, `-overlay`, also through `GOFLAGS` and `go env -w`). Pure: what the files hold is not
// known here, so each of these makes the runs it reaches `shadowed-runner`.
import { posix } from "node:path";

import type { IdentityScope } from "../runners/definition.js";
import { builtinRunners, type RunnerRegistry } from "../runners/registry.js";
import type { RunnerKind } from "../types.js";
import type { SimpleCommand } from "./types.js";
import { basename, stripWrappers } from "./wrappers.js";

/** The function bash runs in place of a command PATH does not find. */
export const NOT_FOUND_HANDLER = "command_not_found_handle";

export type { IdentityScope } from "../runners/definition.js";

/** One thing in a line that can change what a runner is. */
export interface IdentityRisk {
  scope: IdentityScope;
  reason: string;
}

// Variables that change which modules Python loads (PYTHONSTARTUP only for interactive shells, but
// cheap to name) and which ones make bash read a file before it runs anything.
// PYTHONPYCACHEPREFIX: bytecode read from a tree the workspace does not show (a stale .pyc there is
// invisible to the mtime-reset check, which looks in __pycache__).
const PYTHON_VARS = new Set([
  "PYTHONPATH",
  "PYTHONHOME",
  "PYTHONSTARTUP",
  "PYTHONUSERBASE",
  "PYTHONPLATLIBDIR",
  "PYTHONEXECUTABLE",
  "PYTHONPYCACHEPREFIX",
]);
const SHELL_VARS = new Set(["BASH_ENV", "ENV", "CDPATH"]);
// pytest reads options and plugins from these: a `-k`, `--deselect`, `-p plugin` or `-o` the line does not show.
const PYTEST_VARS = new Set(["PYTEST_ADDOPTS", "PYTEST_PLUGINS"]);
// GOFLAGS flags that change neither what runs nor how: anything else (`-run`, `-skip`, `-tags`, `-exec`,
// `-toolexec`, `-overlay`, `-count=0`, ...) may select, skip or replace tests the line does not show.
const BENIGN_GOFLAG = /^--?(?:mod=\w+|modcacherw|buildvcs=\w+|trimpath|p=\d+|v|x|race|vet=\w+)$/;
// A virtualenv's activate script (`source .venv/bin/activate`): it puts the venv's bin first in PATH
// and defines `deactivate`. It is trusted as the venv's own pytest is (see docs/runners.md).
const VENV_ACTIVATE = /^(?:\.\/)?(?:[\w.-]+\/)*\.?(?:venv|env|virtualenv)\/bin\/activate$/;

// node loads what these name before any test file: a `--require`/`--import` of a planted module, a reporter.
const NODE_VARS = new Set(["NODE_OPTIONS", "NODE_PATH"]);
// cargo builds with the compiler, wrapper and flags these name, and runs test binaries through a target
// runner (`CARGO_TARGET_<TRIPLE>_RUNNER`): another program in place of the tests, or one more at build time.
const CARGO_VARS = new Set([
  "RUSTC",
  "RUSTDOC",
  "RUSTC_WRAPPER",
  "RUSTC_WORKSPACE_WRAPPER",
  "RUSTFLAGS",
  "RUSTDOCFLAGS",
  "CARGO_ENCODED_RUSTFLAGS",
  "CARGO_ENCODED_RUSTDOCFLAGS",
  "CARGO_HOME",
  "CARGO_BUILD_RUSTC",
  "CARGO_BUILD_RUSTDOC",
  "CARGO_BUILD_RUSTC_WRAPPER",
  "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER",
  "CARGO_BUILD_RUSTFLAGS",
  "CARGO_BUILD_RUSTDOCFLAGS",
]);
const isCargoVar = (name: string): boolean => CARGO_VARS.has(name) || /^CARGO_TARGET_\w+_(?:RUNNER|LINKER|RUSTFLAGS)$/.test(name);
const RISKY_NAMES = new Set([...PYTHON_VARS, ...SHELL_VARS, ...NODE_VARS, ...CARGO_VARS, "GOFLAGS"]);

// `value` is "" when it is not known here (`export GOFLAGS` of a value set earlier): GOFLAGS then counts.
function variableRisk(name: string, value: string, how: string): IdentityRisk | null {
  if (PYTHON_VARS.has(name) || PYTEST_VARS.has(name)) return { scope: "python", reason: `${how} ${name}` };
  if (SHELL_VARS.has(name)) return { scope: "any", reason: `${how} ${name}` };
  if (NODE_VARS.has(name)) return { scope: "node", reason: `${how} ${name}` };
  if (isCargoVar(name)) return { scope: "cargo", reason: `${how} ${name}` };
  if (
    name === "GOFLAGS" &&
    (value === "" ||
      /\$/.test(value) ||
      !value
        .trim()
        .split(/\s+/)
        .every((flag) => BENIGN_GOFLAG.test(flag)))
  )
    return { scope: "go", reason: `${how} GOFLAGS${value === "" ? "" : `=${value}`}` };
  return null;
}

/**
 * What a simple command does to every command after it in the shell (and, standing alone, in a
 * persistent shell's later lines): the risks of {@link IdentityRisk}. Its own `NAME=value cmd` prefix
 * is read by {@link invocationIdentityRisk} for the command itself.
 */
export function commandIdentityRisks(command: SimpleCommand): IdentityRisk[] {
  const risks: IdentityRisk[] = [];
  const add = (risk: IdentityRisk | null): void => {
    if (risk !== null) risks.push(risk);
  };
  // `NAME=value` standing alone sets it in the shell; before `bash -c '...'` it reaches the inner line.
  const wrapped = stripWrappers(command.words);
  if (command.words.length === 0 || command.nested !== undefined) {
    for (const a of [...command.assignments, ...wrapped.env]) add(variableRisk(a.name, a.value, "sets"));
  }
  // `builtin source f` and `command . f` are `source f` and `. f`.
  let words = command.words;
  while (words.length > 1 && (words[0] === "builtin" || words[0] === "command") && !words[1]!.startsWith("-")) words = words.slice(1);
  const [name, ...args] = words;
  if (name === undefined) return risks;
  const program = basename(name);
  if (program === "source" || program === ".") {
    const file = args[0] ?? "";
    if (!VENV_ACTIVATE.test(file.replace(/^["']|["']$/g, ""))) add({ scope: "any", reason: `${program} ${file}`.trim() });
  } else if (program === "eval") {
    // A static `eval` is read like the line itself (its definitions count as functions and aliases).
    if (command.evaluated === undefined) add({ scope: "any", reason: "eval of text built at run time" });
  } else if (program === "hash") {
    if (args.some((a) => /^-\w*p/.test(a))) add({ scope: "any", reason: "hash -p" });
  } else if (program === "enable") {
    if (args.length > 0) add({ scope: "any", reason: `enable ${args.join(" ")}` });
  } else if (program === "trap") {
    // A DEBUG (or RETURN) trap runs its text before every command: it can define the runner.
    if (args.some((a) => a === "DEBUG" || a === "RETURN")) add({ scope: "any", reason: `trap ... ${args.at(-1) ?? ""}`.trim() });
  } else if (program === "export" || program === "declare" || program === "typeset" || program === "readonly" || program === "local") {
    for (const word of args) {
      const eq = word.indexOf("=");
      // `export PYTHONPATH` exports a value set some other way (`read`, `printf -v`).
      if (eq === -1) add(variableRisk(word, "", program));
      else if (eq > 0) add(variableRisk(word.slice(0, eq), word.slice(eq + 1), program));
    }
  } else if (program === "read" || program === "mapfile" || program === "readarray" || (program === "printf" && args.includes("-v"))) {
    for (const word of args)
      if (RISKY_NAMES.has(word))
        add({
          scope: PYTHON_VARS.has(word)
            ? "python"
            : word === "GOFLAGS"
              ? "go"
              : NODE_VARS.has(word)
                ? "node"
                : CARGO_VARS.has(word)
                  ? "cargo"
                  : "any",
          reason: `${program} into ${word}`,
        });
  } else if (program === "go" && args[0] === "env" && args.includes("-w")) {
    add({ scope: "go", reason: "go env -w" });
  }
  return risks;
}

/** The environment that can swap a runner of `kind` for another program (its definition says; unknown kinds: only the shared risks). */
export function runnerInterpreter(kind: RunnerKind, runners: RunnerRegistry = builtinRunners): IdentityScope {
  return runners.get(kind)?.identityScope ?? "any";
}

/** Directories anyone can write, where a planted runner would sit. */
const TEMP_DIRS = /^\/(?:tmp|var\/tmp|dev\/shm)\//;
// A virtualenv's interpreter or runner (`.venv/bin/python`, `venv/bin/pytest`): the project's own.
const VENV_PROGRAM = /^(?:\.\/)?(?:[\w.-]+\/)*\.?(?:venv|env|virtualenv)\/bin\/[^/]+$/;

/** A relative path into a virtualenv's `bin` (`.venv/bin/pytest`): trusted here, checked by the live tools. */
export function isVenvProgram(path: string): boolean {
  return VENV_PROGRAM.test(path);
}

/**
 * Why the runner a command starts may not be the real one, from the command alone: a program named by
 * a path inside the working tree or in a temp dir (a script the agent wrote; a virtualenv's `bin` is
 * the project's own and trusted), its own `PYTHONPATH=...`/`GOFLAGS=...` prefix, go's `-exec`,
 * `-toolexec` or `-overlay`. `interpreter` says which variables reach it. Null when none.
 */
export function invocationIdentityRisk(
  command: SimpleCommand,
  runnerWords: readonly string[],
  args: readonly string[],
  env: readonly { name: string; value: string }[],
  interpreter: IdentityScope,
): string | null {
  const program = runnerWords[0] ?? "";
  if (program.includes("/") && !program.startsWith("/") && !program.startsWith("~") && !program.startsWith("$") && !isVenvProgram(program))
    return `runs ${program}, a path inside the working tree`;
  if (TEMP_DIRS.test(program)) return `runs ${program}, in a temp directory`;
  // Wrapper words before the runner (`env X=1`, `timeout 60`) may name a planted program too.
  const wrappers = stripWrappers(command.words);
  for (const word of command.words.slice(0, wrappers.start))
    if (TEMP_DIRS.test(word) || (word.startsWith("./") && !isVenvProgram(word))) return `runs ${word} before the runner`;
  for (const pair of [...command.assignments, ...env]) {
    const risk = variableRisk(pair.name, pair.value, "sets");
    if (risk !== null && (risk.scope === "any" || risk.scope === interpreter)) return risk.reason;
  }
  return null;
}

/**
 * Top-level modules a `python -m pytest` run imports after Python put its first `sys.path` entry in
 * place (measured: `runpy` of pytest 7.2.1 on Python 3.11, plugins off, against the modules loaded at
 * start-up), plus the runners' own packages. A module or package of one of these names in that
 * directory is imported instead of the real one, and can print any result.
 */
export const SHADOWABLE_MODULES: ReadonlySet<string> = new Set([
  "pytest",
  "_pytest",
  "pluggy",
  "py",
  "iniconfig",
  "packaging",
  "exceptiongroup",
  "tomli",
  "tomllib",
  "pygments",
  "attr",
  "attrs",
  "django",
  "unittest",
  "__future__",
  "argparse",
  "array",
  "ast",
  "base64",
  "bdb",
  "calendar",
  "cmd",
  "code",
  "codeop",
  "copy",
  "csv",
  "dataclasses",
  "datetime",
  "decimal",
  "difflib",
  "dis",
  "email",
  "faulthandler",
  "fcntl",
  "gc",
  "gettext",
  "glob",
  "heapq",
  "inspect",
  "json",
  "linecache",
  "locale",
  "logging",
  "numbers",
  "opcode",
  "pdb",
  "platform",
  "pprint",
  "pyexpat",
  "quopri",
  "readline",
  "runpy",
  "select",
  "selectors",
  "shlex",
  "signal",
  "socket",
  "string",
  "subprocess",
  "textwrap",
  "token",
  "tokenize",
  "traceback",
  "unicodedata",
  "uuid",
  "xml",
  "importlib",
  "typing",
  "warnings",
  "sitecustomize",
  "usercustomize",
]);

const PYTHON_PROGRAM = /^python(?:\d+(?:\.\d+)?)?$/;

/**
 * The directory a Python-launched runner puts first on `sys.path`, where a same-named module shadows
 * the real one: the working directory for `python -m MODULE`, the script's directory for `python
 * SCRIPT`. Null when none can be named (`-I`/`-P`: no such entry; not a Python program; an unknown
 * working directory). Only the live tools can look inside it; the pure judge cannot know.
 */
export function pythonPathFirst(runnerWords: readonly string[], cwd: string | null): string | null {
  const program = runnerWords[0] ?? "";
  if (!PYTHON_PROGRAM.test(program.split("/").pop() ?? "") || cwd === null) return null;
  for (let i = 1; i < runnerWords.length; i++) {
    const word = runnerWords[i]!;
    if (word === "-m") return cwd;
    if (/^-[^-]*[IP]/.test(word)) return null;
    if (!word.startsWith("-")) return posix.dirname(posix.isAbsolute(word) ? word : posix.join(cwd, word));
  }
  return null;
}
