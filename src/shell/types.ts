// The data shapes of shell analysis. Everything here is plain data (JSON-serialisable).
import type { ExitAttributionReason, OpenCode, ScriptReasonCode } from "../reasons.js";
import type { RunnerKind } from "../types.js";
import type { OutputRoute, OutputWindow } from "./output-route.js";
import type { PackageScriptRun } from "./package-scripts.js";

/** A redirect attached to a command: `2>&1`, `> log.txt`, `>> out`, `&> all`, `<<EOF`, ... */
export interface Redirect {
  /** Explicit file descriptor (`2` in `2>&1`), or null when absent. */
  fd: number | null;
  /** The operator as written: `>`, `>>`, `<`, `&>`, `&>>`, `>&`, `<&`, `>|`, `<<`, `<<-`, `<<<`. */
  op: string;
  /** The unquoted target (`1` for `2>&1`, the file name, or the heredoc delimiter). */
  target: string;
  /** A heredoc's body as written (before any expansion), when the parser saw it. */
  body?: string;
}

/** A simple command: assignments, words and redirects. */
export interface SimpleCommand {
  type: "simple";
  /** Source text of the command. */
  text: string;
  /** Leading `NAME=value` assignments. */
  assignments: { name: string; value: string }[];
  /** The command words, unquoted (name first). Words with expansions keep their literal text. */
  words: string[];
  redirects: Redirect[];
  /** True when any word holds `$(...)` or backticks. */
  hasSubstitution: boolean;
  /** True when any word holds a parameter expansion (`$VAR`, `${X}`) or an unquoted glob. */
  hasExpansion: boolean;
  /** For `bash -c '...'`, `sh -c`, `bash -lc`: the parsed inner line. */
  nested?: ParsedLine;
  /**
   * For `eval WORDS...` whose words hold no expansion: the parsed text eval runs. Read only for what it
   * defines (functions, aliases, PATH); its commands are not invocations of the line.
   */
  evaluated?: ParsedLine;
  /** For a package manager's script run (`npm test`) followed into the script: the text of {@link nested} (package-scripts.ts). */
  script?: string;
}

/** `( ... )` */
export interface Subshell {
  type: "subshell";
  text: string;
  body: Statement[];
  redirects: Redirect[];
}

/** `{ ...; }` */
export interface Group {
  type: "group";
  text: string;
  body: Statement[];
  redirects: Redirect[];
}

/** Loops, conditionals, case, function definitions: their bodies may run zero or more times. */
export interface Compound {
  type: "compound";
  kind: "for" | "while" | "until" | "if" | "case" | "function" | "other";
  text: string;
  /** For `function`: the defined name. */
  name?: string;
  body: Statement[];
  redirects: Redirect[];
}

export type CommandNode = SimpleCommand | Subshell | Group | Compound;

/** Commands joined by `|` or `|&`. */
export interface Pipeline {
  commands: CommandNode[];
  /** operators[i] joins commands[i] and commands[i + 1]. */
  operators: ("|" | "|&")[];
  /** `! cmd` */
  negated: boolean;
}

/** Pipelines joined by `&&` / `||`. connectors[i] joins pipelines[i] and pipelines[i + 1]. */
export interface AndOrList {
  pipelines: Pipeline[];
  connectors: ("&&" | "||")[];
}

/** One statement, ended by newline, `;`, `&` or the end of input. */
export interface Statement {
  list: AndOrList;
  background: boolean;
}

/** A parsed command line. */
export interface ParsedLine {
  text: string;
  statements: Statement[];
  /** True when the grammar could not parse the line cleanly: everything downstream fails closed. */
  opaque: boolean;
  /** Why the line is opaque (e.g. `syntax-error`, `unterminated-quote`, `ts-bash-345`). */
  opaqueReasons: string[];
}

/** A recognised test-runner invocation found in a command line. */
export interface TestInvocation {
  kind: RunnerKind;
  /** Runner text after stripping wrappers, e.g. `python -m pytest`, `go test`, `python tests/runtests.py`. */
  runner: string;
  /** Arguments after the runner. */
  args: string[];
  /** Non-option arguments; `["."]` when none (the whole workspace). */
  targets: string[];
  /** Selection options narrowed what runs (`-k`, `-m`, `--deselect`, `--lf`, `--sw`, go `-run`, `--tag`). */
  filtered: boolean;
  /** Those options as `name=value`, sorted (runner-options.ts `RunnerArguments.selection`); absent when not read. */
  selection?: string[];
  /** False for modes that run no test (`--collect-only`, `--help`, `--version`, go `-list`, `-run '^$'`). */
  runsTests: boolean;
  /**
   * The runner may not be the real one, or not on the workspace's code: a function, alias or `PATH=`
   * prepend in the line, a sourced script, `eval` of built text, `hash -p`, `BASH_ENV`, `CDPATH`,
   * `PYTHONPATH`, go's `-exec`/`-toolexec`/`-overlay`, a runner path inside the working tree or a temp
   * dir (src/shell/runner-identity.ts). Such a run is `shadowed-runner`.
   */
  shadowed: boolean;
  /** Why {@link shadowed}, or null. */
  shadowedBy: string | null;
  /**
   * Harness files (conftest.py, pytest.ini, a go TestMain, ...: src/evidence/harness.ts) of this
   * runner that changed since the session began, as the live tools found them before or after the
   * run. The run then reports through a harness that is not the project's: a pass is `harness-changed`.
   */
  harnessChanged?: string[];
  /**
   * Links in the workspace whose target lies outside it where the agent can write (`mod.py ->
   * /tmp/good.py`), as the live tools found them: the code the run tested is not the workspace's, and
   * can change without the workspace changing. A pass is then `link-outside-workspace`.
   */
  linksOutside?: string[];
  /**
   * Files whose content changed while their mtime and size were put back (`touch -r`), still with
   * that stat, as the live tools' snapshots saw them: Python's bytecode cache and go's test cache key
   * on exactly these and may answer for the old content. A pass is then `mtime-reset`.
   */
  statResets?: string[];
  /** Basenames of the programs the shell looks up to start it (wrappers, interpreter, runner). */
  programs: string[];
  /** Some of those programs are found through PATH (named without a `/`). */
  pathLookup: boolean;
  /**
   * Where the runner's results go (stdout for pytest and go, stderr for unittest and Django):
   * `direct`, `from-file` (a later command prints the file), `transformed` (through a command that
   * can rewrite text) or `hidden` (`/dev/null`, a file never printed). See output-route.ts.
   */
  output: OutputRoute;
  /**
   * A `tail -n N` / `head -n N` between the runner's results and the output (see output-route.ts), or
   * null when they are shown whole (or not shown at all).
   */
  window: OutputWindow | null;
  /** Absolute (or cwd-relative) directory it runs in, or null when it cannot be resolved. */
  workspace: string | null;
  /** Report files the invocation writes (`--junitxml=FILE`). */
  reportFiles: string[];
  /**
   * The directory Python puts first on `sys.path` for this run (the working directory under `python -m`,
   * the script's directory for `python SCRIPT`), where a module named like one the runner imports would
   * shadow it; null when there is none or it is unknown. The live tools look inside it.
   */
  pathFirst: string | null;
  /** go test: `-json` was given. */
  json: boolean;
  /** pytest `-rA`-style per-test report requested (`-rA`, `-ra` with P, `-v`): informational. */
  verbose: boolean;
  /** Inside a loop: the invocation may run zero or several times. */
  repeated: boolean;
  /** Ran after `git stash` (push/save) in the same line, before any `git stash pop/apply`. */
  afterStash: boolean;
  /** Index of this command in `CommandAnalysis.commands` (line order). */
  commandIndex: number;
  /** Source text of the simple command. */
  text: string;
  /** Run by a package manager's script (`npm test` running `vitest run`): `CommandAnalysis.packageRuns[run]`. */
  script?: { manager: string; name: string; run: number };
  /** Why the script it runs in proves nothing (`script-unknown-program`, `script-changed`, ...): a failure still counts, nothing else. */
  scriptProblem?: ScriptReasonCode;
}

/** Every simple command of the line, flattened in line order (nested `bash -c` included). */
export type { CommandEffect } from "./command-effect.js";
import type { CommandEffect } from "./command-effect.js";

export interface AnalyzedCommand {
  /** Index in line order. */
  index: number;
  text: string;
  /** First word after stripping wrappers (`tail`, `sed`, `pytest`), or "" when none. */
  name: string;
  words: string[];
  /** Set when this command is a recognised test invocation. */
  invocation?: TestInvocation;
  /**
   * True for commands that only read or filter output and change no file: `tail`, `head`, `grep`,
   * `tee` (to a log), `cat` of stdin, `wc`, `sort`, `echo`/`printf` without a file redirect, `true`,
   * `cd`, `pushd`, `set` ... The ledger treats the other commands as possible edits.
   */
  readOnly: boolean;
  /** What the command can change (command-effect.ts; docs/shell.md). A test invocation's is `unknown`. */
  effect: CommandEffect;
  /**
   * True when the command may still run after a later command of the line started: a background job,
   * a stage of a pipeline, a `trap`, a process substitution. Its effect can land after any runner in
   * the line, wherever it stands.
   */
  runsLate?: boolean;
  /** True when the command may still run after the line ended: a background job, a `trap`, a process substitution (not a pipeline stage). */
  outlivesLine?: boolean;
}

/** The result of analysing one command line. */
export interface CommandAnalysis {
  line: string;
  parsed: ParsedLine;
  opaque: boolean;
  commands: AnalyzedCommand[];
  /** The recognised test invocations, in line order. */
  invocations: TestInvocation[];
  /**
   * The directory the shell is in after the line, when every `cd` of its leading `cd ... &&` chain
   * succeeded; null when a `cd` leaves it unknown (a variable, a loop, after `||`). For shells that
   * outlive the line.
   */
  endCwd?: string | null;
  /** The package manager script runs of the line (`npm test`), in line order (package-scripts.ts). */
  packageRuns?: PackageScriptRun[];
}

/** What the line's exit status tells about one invocation. */
export type ExitAttributionStatus =
  /** The status is the runner's own. */
  | "trusted"
  /** The line exited 0 with only `&&` links after the runner, or an `&& echo MARKER` marker is in the output: the runner exited 0. */
  | "success-implied"
  /** An `|| echo MARKER` marker is in the output (and no `&&` marker): the runner exited non-zero. */
  | "failure-implied"
  /** Pipes without pipefail, `;`, `||`, `&`, a later command that may have failed instead. */
  | "masked";

/** Per-invocation attribution of the line's exit status. */
export interface ExitAttribution {
  status: ExitAttributionStatus;
  /** The runner's exit status when known (trusted: the line's status; success-implied: 0). */
  runnerExit: number | null;
  /** Short machine-readable reason (`pipe-without-pipefail`, `and-marker-seen`, `background`, ...). */
  reason: OpenCode<ExitAttributionReason>;
}
