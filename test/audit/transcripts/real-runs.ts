// Runs real pytest (and git) on a tiny project and captures the outputs the transcript tests place
// in client record shapes. One call builds everything; tests share the result.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CapturedRun } from "./records.js";
import { gitEnv } from "../../support/git.js";
import { tempDirPath } from "../../support/temp-dir.js";

/** Real runs of the tiny project (`calc.py` with a bug in `sub`, one test per function). */
export interface RealRuns {
  dir: string;
  /** The whole suite on the buggy code: 1 failed, 1 passed (exit 1). */
  failingSuite: CapturedRun;
  /** One passing file. */
  passingFile: CapturedRun;
  /** The failing suite piped through `tail -3` (exit 0, failing summary). */
  failingTail: CapturedRun;
  /** The whole suite after the fix: 2 passed. */
  passingSuite: CapturedRun;
  /** A `-k` filtered run after the fix: 1 passed, 1 deselected. */
  filteredPass: CapturedRun;
  /** A run that selected nothing: exit 5. */
  collectedNothing: CapturedRun;
  /** `git stash && pytest; git stash pop` with the fix in the working tree: the baseline fails. */
  stashBaseline: CapturedRun;
}

const PYTEST = "python3 -m pytest -q -p no:cacheprovider";
const BUGGY = "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    return a + b\n";
const FIXED = "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    return a - b\n";

function run(dir: string, command: string): CapturedRun {
  const result = spawnSync("bash", ["-c", command], { cwd: dir, encoding: "utf8", env: gitEnv() });
  return { command, stdout: result.stdout, stderr: result.stderr, exitCode: result.status ?? -1 };
}

/** Builds the project in a temp git repository and runs pytest in each scenario's way. */
export function captureRealRuns(): RealRuns {
  const dir = tempDirPath("transcript-runs-");
  mkdirSync(join(dir, "tests"));
  writeFileSync(join(dir, "calc.py"), BUGGY);
  writeFileSync(join(dir, "tests", "test_add.py"), "from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n");
  writeFileSync(join(dir, "tests", "test_sub.py"), "from calc import sub\n\ndef test_sub():\n    assert sub(5, 3) == 2\n");
  writeFileSync(join(dir, "conftest.py"), "");
  writeFileSync(join(dir, ".gitignore"), "__pycache__/\n");
  const setup = run(dir, "git init -q && git add -A && git commit -qm buggy");
  if (setup.exitCode !== 0) throw new Error(`git setup failed: ${setup.stderr}`);
  const failingSuite = run(dir, PYTEST);
  const passingFile = run(dir, `${PYTEST} tests/test_add.py`);
  const failingTail = run(dir, `${PYTEST} 2>&1 | tail -3`);
  writeFileSync(join(dir, "calc.py"), FIXED);
  return {
    dir,
    failingSuite,
    passingFile,
    failingTail,
    passingSuite: run(dir, PYTEST),
    filteredPass: run(dir, `${PYTEST} -k add`),
    collectedNothing: run(dir, `${PYTEST} -k no_such_test`),
    stashBaseline: run(dir, `git stash && ${PYTEST}; git stash pop`),
  };
}
