// The data every runner parser returns: ids, the final summary, markers and forgery signals.
import type { GateFinding, RunnerKind } from "../types.js";
import type { IdList } from "./id-list.js";
import type { OutputStart } from "./line-start.js";

/** Things the output says about how the run went, beyond test outcomes. */
export type MarkerKind =
  /** pytest `!!! Interrupted: N error during collection !!!` (or collection ERROR lines). */
  | "collection-error"
  /** The runner rejected its arguments or could not find a target (pytest exit 4, go `no Go files in`). */
  | "usage-error"
  /** Nothing ran: `no tests ran`, all deselected, `Ran 0 tests`, `NO TESTS RAN`, go `[no tests to run]`. */
  | "no-tests-ran"
  /** go `?   pkg [no test files]`: a package without tests. */
  | "no-test-files"
  /** go: a benchmark printed its result (`BenchmarkAdd-8  1000  123 ns/op`): a `-bench` run ran something. */
  | "benchmarks-ran"
  /** pytest `INTERNALERROR>`. */
  | "internal-error"
  /** KeyboardInterrupt, `!!! Interrupted: ...`, pytest `Exit`. */
  | "interrupted"
  /** go `panic: test timed out`, pytest-timeout's `+++ Timeout +++`. */
  | "timeout"
  /** go `[build failed]` / `[setup failed]`, `build-fail` events, `FailedBuild`. */
  | "build-failure"
  /** pytest `-x` / `--maxfail`: `stopping after N failures`; unittest `--failfast` cannot be seen. */
  | "stopped-early"
  /** pytest `--collect-only`: `N tests collected`. */
  | "collect-only"
  /** The stream stopped before the runner finished (go package without its final event, open test lines). */
  | "incomplete";

/** One marker, first occurrence only (1-based line number). */
export interface RunMarker {
  kind: MarkerKind;
  line: number;
  detail: string;
}

/** Signs that some of the text was not written by the runner for this run. */
export type ForgeryKind =
  /** A `PASSED` line (or `-v` result line) inside a `Captured stdout/stderr` section. */
  | "passed-in-captured-output"
  /** A summary-shaped line inside a captured-output section. */
  | "summary-in-captured-output"
  /**
   * pytest: a bare `N passed in 0.1s` after the session header. pytest prints the header only when it
   * pads its summary with `=` (no `-q`), so a bare one there was printed by a test (under `-s`).
   */
  | "summary-shape-mismatch"
  /** More than one final summary (a replayed or appended log). */
  | "multiple-summaries"
  /** More passed ids than the final summary counts. */
  | "ids-exceed-summary"
  /** A pass for a test that never started (go `--- PASS` printed by a test, test2json's pass without `run`). */
  | "result-without-run"
  /** A unittest status line with no test waiting for it: an id line printed by a test's own output. */
  | "orphan-status"
  /** A per-test result line after the final summary (a test's buffered stdout flushed at exit). */
  | "result-after-summary"
  /** A go `ok pkg` line while a test of the package was still running (printed by the test). */
  | "package-line-inside-test";

/** One forgery signal, first occurrence of each kind (1-based line number). */
export interface ForgerySignal {
  kind: ForgeryKind;
  line: number;
  detail: string;
}

/** The runner's own final summary (the last one seen). */
export interface FinalSummary {
  /**
   * Counts by normalised word: pytest `passed`, `failed`, `errors`, `skipped`, `xfailed`, `xpassed`,
   * `deselected`, `warnings`, `rerun`, `collected`, plugin words as printed; unittest `ran`,
   * `failures`, `errors`, `skipped`, `expected failures`, `unexpected successes`, `passed` (derived);
   * go `packages passed`, `packages failed`, `packages skipped`, `passed`, `failed`, `skipped`.
   */
  counts: Record<string, number>;
  /** 1-based line number of the summary line (go: the last package result line). */
  line: number;
  /** The summary text after ANSI stripping. */
  text: string;
}

/**
 * What one runner printed, as data. Ids are exactly as printed, in arrays of strings (`Ids`
 * is {@link IdList} only where a caller asked a parser for packed ids: see `ParserOptions`).
 */
export interface ParsedRunOutput<Ids extends IdList = string[]> {
  kind: RunnerKind;
  /** Ids that passed and never failed or errored in any phase. */
  passed: Ids;
  /** Ids that failed or errored (a teardown error after PASSED lands here). */
  failed: Ids;
  /** Skipped, xfailed, non-strict xpassed and expected-failure ids. */
  skipped: Ids;
  summary: FinalSummary | null;
  /** How many final summaries the text holds (go: the most results any one package got). */
  summaryCount: number;
  markers: RunMarker[];
  forgeries: ForgerySignal[];
  gates: GateFinding[];
  /** pytest's `rootdir:` header, when printed. */
  rootdir: string | null;
  /** Number of lines read. */
  lines: number;
  /**
   * True when `passed`, `failed` and `skipped` hold no id twice, in one list or across them (the
   * built-in parsers). The judge merges the lists of a parser that does not say so.
   */
  distinctIds?: boolean;
  /** go: each package's own result line or event, in order (a target is proven by its package's `ok`). */
  packages?: { path: string; result: "pass" | "fail" | "skip"; noTests?: boolean }[];
  /**
   * Results the output showed before its final summary, one per test at least, when the runner prints
   * them at every verbosity that prints a summary (pytest: progress marks and `-v` result lines). A
   * summary shown whole after fewer is a lone summary (a test printed it).
   */
  shownResults?: number;
  /** How the output begins (the built-in parsers): cut inside a line, or after lines the runner printed. */
  start?: OutputStart;
}

/** An incremental parser: feed chunks in order, then call `end()` once. Memory stays flat in the input size. */
export interface OutputParser<Ids extends IdList = string[]> {
  /** Feeds the next chunk of output (any split, even mid-line). */
  push(chunk: string): void;
  /** Flushes the last partial line and returns the result. */
  end(): ParsedRunOutput<Ids>;
  /** Final summaries seen so far (lets a caller split one output between several runs). */
  readonly summaryCount: number;
  /** Lines read so far. */
  readonly lineCount: number;
}
