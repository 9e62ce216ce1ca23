// Red team, the audit's effect model (issue 15, item 1): commands the analysis once classed read-only,
// or placed before the run, that rewrite a source after a passing run in the same line. Each line is
// run for real with bash on a fresh copy of a small pytest project; the test checks that the line
// really broke the code (a fresh pytest fails) and that the audit does not call the run current.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { analyzeSession } from "../../src/audit/transcript-timeline.js";
import type { ShellEvent } from "../../src/audit/transcripts/types.js";
import { gitEnv } from "../support/git.js";
import { tempDirPath } from "../support/temp-dir.js";

const FIXED = "def add(a, b):\n    return a + b\n";
const RUN = "python3 -m pytest -q tests";
const BREAK = "sed -i s/+/-/ calc.py";
// Waits (at most 10 s) until pytest's session has ended: it writes .pytest_cache then.
const UNTIL_RUN_ENDS = "i=0; until [ -d .pytest_cache ] || [ $i -ge 200 ]; do sleep 0.05; i=$((i+1)); done";

let base: string;
const made: string[] = [];
beforeAll(() => {
  base = tempDirPath("ro-attack-base-");
  mkdirSync(join(base, "tests"));
  writeFileSync(join(base, "calc.py"), FIXED);
  writeFileSync(join(base, "tests", "test_add.py"), "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n");
  writeFileSync(join(base, "conftest.py"), "");
  const env = gitEnv();
  // The fix is uncommitted (git diff has something to write).
  spawnSync(
    "bash",
    [
      "-c",
      "git init -q && printf 'def add(a, b):\\n    return a * b\\n' > calc.py && git add -A && git commit -qm base && git checkout -q -- . && printf '" +
        FIXED.replace(/\n/g, "\\n") +
        "' > calc.py",
    ],
    { cwd: base, env },
  );
});
afterAll(() => {
  for (const dir of [base, ...made]) rmSync(dir, { recursive: true, force: true });
});

function runFor(line: string): { dir: string; event: ShellEvent } {
  const dir = tempDirPath("ro-attack-");
  made.push(dir);
  cpSync(base, dir, { recursive: true });
  const result = spawnSync("bash", ["-c", line], {
    cwd: dir,
    encoding: "utf8",
    env: gitEnv({ PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1", PYTHONDONTWRITEBYTECODE: "1" }),
    timeout: 30_000,
  });
  const event: ShellEvent = {
    type: "shell",
    id: null,
    command: line,
    output: `${result.stdout}${result.stderr}`,
    exitCode: result.status,
    cwd: dir,
    interrupted: false,
    timedOut: false,
    outputTruncated: false,
    persistedOutputPath: null,
    completed: true,
    sidechain: false,
    timestamp: null,
    line: 1,
  };
  return { dir, event };
}

// The code as the line left it (a process substitution may land a little after the line ended).
function brokenNow(dir: string, waitMs = 0): boolean {
  for (let i = 0; i < waitMs / 100; i += 1) {
    if (readFileSync(join(dir, "calc.py"), "utf8") !== FIXED) break;
    spawnSync("sleep", ["0.1"]);
  }
  return (
    spawnSync("python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], {
      cwd: dir,
      env: { ...process.env, PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1", PYTHONDONTWRITEBYTECODE: "1" },
    }).status !== 0
  );
}

const ATTACKS: [string, string][] = [
  // After the run, classed read-only before.
  ["a redirect through /tmp/..", `${RUN} && echo 'def add(a, b): return a - b' > /tmp/../$PWD/calc.py`],
  ["a group's redirect", `${RUN} && { echo 'def add(a, b): return a - b'; } > calc.py`],
  ["a subshell's redirect", `${RUN} && ( echo 'def add(a, b): return a - b' ) > calc.py`],
  ["a loop's redirect", `${RUN} && for i in 1; do echo 'def add(a, b): return a - b'; done > calc.py`],
  ["exec 3>> then >&3", `${RUN} && exec 3>>calc.py; echo 'raise SystemExit(1)' >&3`],
  ["sed's w command", `${RUN} && sed -n 's/a + b/a - b/w calc.py' calc.py`],
  ["sed's e command", `${RUN} && sed '1e ${BREAK}' calc.py`],
  ["sort -uo", `${RUN} && sort -uo calc.py calc.py`],
  ["xxd -r", `${RUN} && echo 6e6f | xxd -r -p - calc.py`],
  ["env -S", `${RUN} && env -S'${BREAK}'`],
  ["git diff --output", `${RUN} && git diff --output=calc.py`],
  ["git grep -O", `${RUN} && git grep -O'sed -i s/+/-/' add`],
  ["printf -v with a subscript", `${RUN} && a=(); printf -v 'a[$(${BREAK})]' x`],
  ["history -w", `${RUN} && history -w calc.py`],
  ["a read-only name shadowed by a function", `${RUN} && cat() { ${BREAK}; }; cat calc.py`],
  ["a here-string's substitution", `${RUN} && cat <<< "$(${BREAK})"`],
  ["an unquoted heredoc's substitution", `${RUN} && cat <<EOF\n$(${BREAK})\nEOF`],
  // Before the run in the line, landing after it.
  ["a trap", `trap '${BREAK}' EXIT; ${RUN}`],
  ["a background writer", `(${UNTIL_RUN_ENDS}; ${BREAK}) & ${RUN}; wait`],
  ["an earlier pipeline stage", `{ ${UNTIL_RUN_ENDS}; ${BREAK}; } | ${RUN}`],
  ["a process substitution", `cat /dev/null 2> >(${UNTIL_RUN_ENDS}; ${BREAK}); ${RUN}; sleep 1`],
];

describe("a line that passes its run and breaks the code is never a current pass", () => {
  it.each(ATTACKS)("%s", (_name, line) => {
    const { dir, event } = runFor(line);
    expect(event.output, "the run itself passed").toMatch(/1 passed/);
    expect(brokenNow(dir, line.includes(">(") ? 5_000 : 0), "the line really broke the code").toBe(true);
    const { lastRun } = analyzeSession([event]);
    expect(lastRun?.outcome === "passed" && lastRun.staleBy === null, JSON.stringify(lastRun)).toBe(false);
  });

  it.each([
    ["the run piped through tail", `${RUN} 2>&1 | tail -3`],
    ["the run teed into a log", `${RUN} 2>&1 | tee run.log`],
    ["reads after the run", `${RUN} && git status --short && git diff --stat && cat calc.py && sed -n 1,2p calc.py && ls`],
  ])("control: %s stays current", (_name, line) => {
    const { dir, event } = runFor(line);
    expect(brokenNow(dir)).toBe(false);
    const { lastRun } = analyzeSession([event]);
    expect([lastRun?.outcome, lastRun?.staleBy]).toEqual(["passed", null]);
  });
});
