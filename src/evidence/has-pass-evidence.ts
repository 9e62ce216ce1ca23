// One target, one captured result: does the runner's own output prove that the target passed?
import { judge } from "./judge.js";

/** Options of {@link hasPassEvidence}. */
export interface HasPassEvidenceOptions {
  /** The runner as command text: `python -m pytest`, `go test`, `python tests/runtests.py`, `python -m unittest`. */
  runner: string;
  /** The target the output is for (a file, node id, package or label); none means the whole workspace. */
  target?: string;
  /** The output was clipped by whoever captured it. */
  outputTruncated?: boolean;
}

// Single quotes keep every character of a target (spaces, brackets, `$`) as one shell word.
function quoteWord(word: string): string {
  return /^[\w./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * True only when `output` (with `exitCode`, the runner's own status when known) proves that
 * `target` ran and passed under the judge's rules; false for failures and for anything unproven.
 * @example hasPassEvidence(0, "5 passed in 0.10s\n", { runner: "python -m pytest", target: "tests/test_a.py" }) // true
 */
export function hasPassEvidence(exitCode: number | null | undefined, output: string, options: HasPassEvidenceOptions): boolean {
  const command = options.target === undefined || options.target === "" ? options.runner : `${options.runner} ${quoteWord(options.target)}`;
  const result = judge({ command, output, exitCode: exitCode ?? null, outputTruncated: options.outputTruncated === true });
  // The runner text must be read as exactly one test run, or nothing is proven.
  return result.runs.length === 1 && result.verdict === "passed";
}
