// The real pytest runs the transcript tests place in client record shapes: the audit capture cases
// (test/support/capture-cases.ts, AUDIT_CASES), run once per suite by the global setup.
import { loadCapture } from "../../support/capture.js";
import type { ShellRun } from "./records.js";

/** Real runs of test/fixtures/calc-project (`calc.py` with a bug in `sub`, one test per function). */
export interface RealRuns {
  /** The project's work copy, where the runs on the buggy code ran. */
  dir: string;
  /** The whole suite on the buggy code: 1 failed, 1 passed (exit 1). */
  failingSuite: ShellRun;
  /** One passing file. */
  passingFile: ShellRun;
  /** The failing suite piped through `tail -3` (exit 0, failing summary). */
  failingTail: ShellRun;
  /** The whole suite after the fix: 2 passed. */
  passingSuite: ShellRun;
  /** A `-k` filtered run after the fix: 1 passed, 1 deselected. */
  filteredPass: ShellRun;
  /** A run that selected nothing: exit 5. */
  collectedNothing: ShellRun;
  /** `git stash && pytest; git stash pop` with the fix in the working tree: the baseline fails. */
  stashBaseline: ShellRun;
  /** The same line with the fix committed: `git stash` saves nothing, the run is on the fixed tree. */
  stashNothing: ShellRun;
}

// A capture as a shell tool returns it: the runner's stderr is merged into its output.
function shellRun(name: string): ShellRun {
  const capture = loadCapture(name);
  return { command: capture.line, stdout: capture.output, stderr: "", exitCode: capture.exitCode };
}

/** The audit capture cases as the transcript tests use them (after the suite's global setup). */
export function captureRealRuns(): RealRuns {
  return {
    dir: loadCapture("audit-failing-suite").cwd,
    failingSuite: shellRun("audit-failing-suite"),
    passingFile: shellRun("audit-passing-file"),
    failingTail: shellRun("audit-failing-tail"),
    passingSuite: shellRun("audit-passing-suite"),
    filteredPass: shellRun("audit-filtered-pass"),
    collectedNothing: shellRun("audit-collected-nothing"),
    stashBaseline: shellRun("audit-stash-baseline"),
    stashNothing: shellRun("audit-stash-nothing"),
  };
}
