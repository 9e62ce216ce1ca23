import type { OpenCode, RecordReasonCode, RunReasonCode } from "./reasons.js";

/** Outcome vocabulary used everywhere: only `passed` maps to success. */
export type Outcome = "passed" | "failed" | "unknown";

/** The runners agent-evidence ships. */
export type BuiltinRunnerKind = "pytest" | "go" | "django" | "unittest" | "node-test" | "vitest" | "jest" | "mocha" | "cargo";

/** A runner's kind: a built-in, or the kind of a runner definition of your own. */
export type RunnerKind = BuiltinRunnerKind | (string & {});

/** A separate finding that does not change the test outcome (e.g. pytest-cov's threshold). */
export interface GateFinding {
  kind: "coverage";
  passed: boolean;
  detail: string;
}

/** Ids kept as bytes: read as strings one by one, or written as JSON without a string per id. */
export interface PackedIdList extends Iterable<string> {
  readonly length: number;
  /** The id at `index` (undefined out of range). */
  at(index: number): string | undefined;
  /** The ids as strings, in order. */
  toArray(): string[];
  /** The ids as JSON strings joined by commas (no brackets): exactly the UTF-8 of `JSON.stringify(toArray()).slice(1, -1)`, in pieces. */
  jsonPieces(): IterableIterator<Uint8Array>;
}

/** A list of ids: a plain array, or ids kept as bytes. */
export type IdList = readonly string[] | PackedIdList;

/**
 * One runner invocation judged from its output. The id lists are arrays of strings (`Ids` is
 * {@link IdList} only inside a judge asked for packed ids: the CLI's JSON).
 */
export interface RunEvidence<Ids extends IdList = string[]> {
  kind: RunnerKind;
  /** The runner's command text, e.g. `python -m pytest`, `go test`, `python tests/runtests.py`. */
  runner: string;
  /** Targets as requested (the selection for filtered runs); `["."]` for the whole workspace. */
  targets: string[];
  /** The directory the runner ran in, or null when it cannot be resolved. */
  workspace: string | null;
  /** True when selection options (-k, -m, go -run, ...) narrowed what ran. */
  filtered: boolean;
  /** True for a run inside `git stash && ...; git stash pop`: it tested the tree without the change. */
  baseline: boolean;
  outcome: Outcome;
  /** Test ids proven passed, exactly as the runner printed them. */
  passed: Ids;
  /** Test ids that failed or errored. */
  failed: Ids;
  /** Test ids that were skipped, xfailed or xpassed (non-strict). */
  skipped: Ids;
  /** Machine-readable codes saying why the outcome is not `passed` (empty when passed; src/reasons.ts defines each). */
  reasons: OpenCode<RunReasonCode>[];
  /**
   * Targets of a `passed` run that no printed id shows (`pytest -q a.py b.py`): every selected test
   * passed, but such a target may have held none. Their records are not verified. Absent when none.
   */
  unprovenTargets?: string[];
  gates: GateFinding[];
  /** pytest's `rootdir:` header when printed: ids are relative to the directory pytest started in. */
  rootdir?: string | null;
}

/** Whether a record still applies to the code as it is now. */
export type Applicability = "current" | "unknown";

/** One stored observation of a test run for one target. Returned as copies. */
export interface VerificationRecord {
  seq: number;
  target: string;
  runner: string;
  command: string;
  workspace: string | null;
  exitCode: number | null;
  timedOut: boolean;
  verified: boolean;
  applicability: Applicability;
  postTestEdits: (string | null)[];
  postTestCommands: string[];
  outcome: Outcome;
  passed: string[];
  failed: string[];
  /** The run's reason codes, plus the record's own (`workspace-unknown`, `target-not-proven`, ...). */
  reasons: OpenCode<RecordReasonCode>[];
  truncated: boolean;
  /**
   * Selection options (`-k`, `-m`, `--deselect`, `go test -run`, ...) narrowed the run: it proves only
   * the test ids it printed as passed, never this whole file or directory target (`verified` is false).
   */
  filtered: boolean;
  baseline: boolean;
}
