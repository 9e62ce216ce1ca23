// RunnerDefinition: everything one test runner means to agent-evidence, in one object. The shell
// analysis, the judge, the ledger and `agent-evidence run` ask a runner's definition; none of them
// compares runner names. The built-ins (pytest, go, django, unittest, node-test, vitest, jest, mocha, cargo) are definitions like any other.
import type { IdList, ParserOptions } from "../observers/id-list.js";
import type { OutputParser, ParsedRunOutput } from "../observers/types.js";

/** The version of this spec a definition implements. */
export const RUNNER_SPEC_VERSION = 1;

/**
 * A simple command as recognition sees it, behind its wrappers (`env`, `timeout`, `uv run`, ...).
 * `python` is what a Python interpreter (or `coverage run`) starts: `-m MODULE` or a script, with
 * the index of the first word after it; for a command that is itself a script (`./manage.py test`)
 * it is that script at index 1.
 */
export interface RunnerWords {
  /** The command's words from the program on. */
  words: readonly string[];
  /** The program's basename (`pytest`, `go`, `python3`, `manage.py`). */
  program: string;
  python: { module: string; next: number } | { script: string; next: number } | null;
  /** The basename of the directory the command runs in, when known. */
  workspaceName: string | null;
}

/** A recognised run: the runner's words are `words.slice(0, end)`, its arguments the rest. */
export interface RunnerRecognition {
  end: number;
  /** Which of the runner's argument syntaxes to read (Django: `runtests` or `manage`). */
  syntax?: string;
}

/** What a runner's arguments say about the run. */
export interface RunnerArguments {
  targets: string[];
  filtered: boolean;
  /**
   * The options that decide which tests run, each as `name=value` (or `name`), sorted: what a
   * filtered run selected (`-k=not slow`, `--deselect=t.py::x`, go `-run=TestAdd`, `-test.run=X` after
   * `-args`). Empty exactly when `filtered` is false. Options that change only the output (`-q`, `-v`,
   * `-rA`, `--tb`, `--color`, `-json`) are never here.
   */
  selection: string[];
  runsTests: boolean;
  reportFiles: string[];
  json: boolean;
  verbose: boolean;
  /** Directory changes made by options (go `-C DIR`). */
  directories: string[];
}

/** What a runner's exit status means when it is known and no summary says otherwise. */
export type ExitMeaning = "ok" | "failed" | "usage-error" | "interrupted" | "timeout" | "internal-error" | "no-tests-ran" | "other";

/**
 * Where one run's share of a line's output ends, when later runs of the line print after it:
 * after each final summary; after a verdict line that follows the summary (unittest's `OK`);
 * or by unit (go prints each package's test lines before the line naming the package).
 */
export type ShareSplit =
  | { by: "summary" }
  | { by: "verdict-line"; pattern: RegExp }
  | {
      by: "unit";
      /** The unit a line settles (a package result line or event), or null. */
      unitOf(line: string): string | null;
      /** True when the run's targets name the unit. */
      names(targets: readonly string[], unit: string): boolean;
    };

/**
 * A family of targets that can overlap one another (pytest's paths, go's packages, Django's labels):
 * how a target is written in the ledger's workspace, and which target covers which.
 */
export interface TargetFamily {
  /** Unique; the built-ins are `python`, `go` and `django`. */
  name: string;
  /** The target in ledger form, placed in `root` (`resolve` canonicalises absolute paths). */
  place(target: string, runWorkspace: string | null, root: string | null, resolve?: (absolutePath: string) => string): string;
  /** True when target `outer` covers target `inner` (both in ledger form). */
  covers(outer: string, inner: string): boolean;
}

/** A line that says a runner never started, found by its `needle` (a plain substring) first. */
export interface StartError {
  needle: string;
  pattern: RegExp;
}

/** Which runs a risk reaches: every command, or the runners of one interpreter (Python's variables and paths, Go's). */
export type IdentityScope = "any" | "python" | "go" | "node" | "cargo";

/** The structured reports `agent-evidence run` reads: JUnit XML, or jest's `--json` results. */
export type ReportFormat = "junit-xml" | "jest-json";

/** One test runner. */
export interface RunnerDefinition {
  readonly specVersion: typeof RUNNER_SPEC_VERSION;
  /** Unique name (`pytest`, `go`, `django`, `unittest`, `node-test`, `vitest`, `jest`, `mocha`, `cargo`, or your own): the `kind` of its runs and records. */
  readonly kind: string;
  /** Does this simple command run me, and where do my arguments begin? */
  recognize(command: RunnerWords): RunnerRecognition | null;
  /** What the arguments select, whether they run tests at all, and the report files they name. */
  readArguments(args: readonly string[], syntax: string | undefined): RunnerArguments;
  /** The stream the runner prints its results on. */
  readonly resultStream: "stdout" | "stderr";
  readonly identityScope: IdentityScope;
  /** Exit statuses of its own, beyond the shared ones (0 ok, 1 failed, 124 under `timeout`, 126/127, 130, 137/143). */
  readonly exitCodes?: Readonly<Partial<Record<number, ExitMeaning>>>;
  /** Why its own arguments make it something else than the runner (go `-exec`, node `--require`), or null. */
  identityRisk?(args: readonly string[]): string | null;
  /** Lines that say the runner never started (`No module named pytest`), beyond the shell's own (`command not found`). */
  readonly startErrors?: readonly StartError[];
  /** A fresh incremental parser for one run's output. */
  createParser(): OutputParser;
  /** The same, asked for packed id lists (`options.ids: "bytes"`, see `PackedIdList`); a parser may ignore it and give arrays. */
  createParser(options: ParserOptions): OutputParser<IdList>;
  readonly split: ShareSplit;
  readonly family: TargetFamily;
  /** True when the test `id` (as printed) lies inside the requested `target` (as typed). */
  covers(target: string, id: string): boolean;
  /** The spellings of a target as the runner prints ids (pytest: also relative to its rootdir). Default: the target. */
  targetSpellings?(target: string, context: { workspace: string | null; rootdir: string | null }): string[];
  /** The targets a run reports (go carries a plain `-run Name` on each package: `./calc::TestAdd`). Default: its targets. */
  selectionTargets?(run: { args: readonly string[]; targets: readonly string[]; filtered: boolean }): string[];
  /** Tests the final summary shows passed. Default: its `passed` count. */
  summaryPasses?(parsed: ParsedRunOutput<IdList>): number;
  /** A last line that says the run failed whatever came before (go's bare `FAIL`). */
  readonly finalFailLine?: RegExp;
  /** A target only the exit status or the whole output can prove (go `./...`: the packages it expands to are not all named). */
  needsWholeOutput?(target: string): boolean;
  /**
   * True when a target names part of the suite (for the audit: a pass of it does not back "all tests
   * pass"). Default: a target naming one test (`::`), one file (a name with an extension) or a dotted
   * test module (`app.tests`); runners whose targets are patterns over paths (vitest, jest) say more.
   */
  partialTarget?(target: string): boolean;
  /** Its runs report the runner's `rootdir` (pytest). */
  readonly reportsRootdir?: boolean;
  /**
   * How `agent-evidence run` asks it for a structured report it then checks against the log:
   * `argument(path, args)` gives the text to add to a run with these arguments (or null when it
   * cannot be added without changing what the run prints, e.g. the user chose the reporters);
   * `at` says where it goes: after the run's last word (default) or right after the runner's own
   * words (node reads its options only before the first file); `configuredIn` says where a
   * configured report path is read (`pytest-addopts`: `--junitxml` in PYTEST_ADDOPTS or the ini
   * file's `addopts`, which `run` reads instead of adding its own).
   */
  readonly report?: {
    /** What the report is: JUnit XML (default) or jest's `--json` results. */
    format?: ReportFormat;
    argument(path: string, args: readonly string[]): string | null;
    at?: "end" | "after-runner";
    configuredIn?: "pytest-addopts";
  };
}
