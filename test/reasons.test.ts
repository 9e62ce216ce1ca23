// Every reason code of src/reasons.ts comes out of the library for some real input: the table
// below has one case per code, and a code no case produces fails here (remove it from the union).
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { analyzeSession } from "../src/audit/transcript-timeline.js";
import { judge, judgeAnalyzed } from "../src/evidence/judge.js";
import type { JudgeResult } from "../src/evidence/judge-types.js";
import { EvidenceLedger } from "../src/evidence/ledger.js";
import { analyzeCommand } from "../src/grammar/analyze-command.js";
import { bashParser } from "../src/grammar/bash-grammar.js";
import { parseJunit } from "../src/observers/junit.js";
import { EXIT_ATTRIBUTION_REASONS, type ExitAttributionReason, REASON_DEFINITIONS, type ReasonCode } from "../src/reasons.js";
import { analyzeParsed } from "../src/shell/analyze-parsed.js";
import { attributeExit, statusTemplates } from "../src/shell/attribute-exit.js";
import type { PackageScripts } from "../src/shell/package-scripts.js";
import { parseCommandLine } from "../src/shell/parse-command-line.js";
import { decideVerdict, type VerdictFacts } from "../src/verdict/decide.js";
import { runVerdict } from "../src/verdict/run-verdict.js";
import { makeTempDir } from "./support/temp-dir.js";

const PASS =
  "============================= test session starts ==============================\ncollected 2 items\n\ntests/test_a.py ..                                                        [100%]\n\n============================== 2 passed in 0.01s ===============================\n";

/** Every code a judgement holds: the line's and each run's. */
function codes(result: JudgeResult): string[] {
  return [...result.reasons, ...result.runs.flatMap((run) => run.reasons)];
}

const line =
  (command: string, output: string, exitCode: number | null = 0, more: Partial<Parameters<typeof judge>[0]> = {}): (() => string[]) =>
  () =>
    codes(judge({ command, output, exitCode, ...more }));

const junit = (body: string, attrs = 'tests="1" failures="0" errors="0"'): string =>
  `<?xml version="1.0"?><testsuites><testsuite name="pytest" ${attrs}>${body}</testsuite></testsuites>`;

function verdict(facts: Partial<VerdictFacts>): () => string[] {
  return () =>
    decideVerdict({
      judged: judge({ command: "python -m pytest tests", output: PASS, exitCode: 0 }),
      runnerExit: 0,
      timedOut: false,
      clippingMarker: false,
      missingFinalNewline: false,
      junit: "not_applicable",
      report: null,
      ...facts,
    }).reasons;
}

const scripts = (dir: string, test: string): PackageScripts => ({ [dir]: { dir, name: "p", version: "1.0.0", scripts: { test } } });

function ledgerReasons(command: string, output: string, judgeRuns: boolean): () => string[] {
  return () => {
    const ledger = new EvidenceLedger({
      workspace: "/w",
      judge: ({ analysis, ...input }) => (judgeRuns ? judgeAnalyzed(analysis, { ...input, cwd: input.cwd ?? undefined }) : { runs: [] }),
    });
    const ticket = ledger.beginCommand(command, analyzeCommand(command, { cwd: "/w" }));
    return ledger.finishCommand(ticket, { exitCode: 0, output, truncated: false, timedOut: false }).flatMap((record) => record.reasons);
  };
}

const REASON_CASES: Record<ReasonCode, () => string[] | Promise<string[]>> = {
  "not-a-test-command": line('echo "12 passed"', "12 passed\n"),
  "opaque-command": line("pytest -q 'unterminated", ""),
  "report-not-attributed": line("pytest a.py; pytest b.py", "", 0, {
    reports: [{ kind: "junit", xml: junit('<testcase classname="c" name="t"/>'), path: "other.xml" }],
  }),
  "shadowed-runner": line("pytest(){ echo 5 passed; }; pytest", "5 passed in 0.10s\n"),
  "output-transformed": line("pytest 2>&1 | sed 's/failed/passed/'", "2 passed in 0.01s\n"),
  "output-not-shown": line('pytest > /dev/null; echo "3 passed in 0.1s"', "3 passed in 0.1s\n"),
  "collect-only": line("pytest --collect-only -q", "tests/test_a.py::test_a\n\n1 test collected in 0.05s\n"),
  "not-a-run": line("pytest --version", "pytest 8.3.4\n"),
  "usage-error": line(
    "pytest --foo",
    "ERROR: usage: pytest [options] [file_or_dir] [file_or_dir] [...]\npytest: error: unrecognized arguments: --foo\n",
    4,
  ),
  "tests-failed": line("pytest -q | tail -3", "1 failed, 4 passed in 0.50s\n"),
  "collection-error": line(
    "pytest -q",
    "!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!\n1 error in 0.05s\n",
    2,
  ),
  "build-failure": line("go test ./broken", "FAIL\texample.com/m/broken [build failed]\nFAIL\n", 1),
  "runner-exit-nonzero": line("set -euo pipefail; pytest -q | tail -1", "", 1),
  "report-failed": line("python -m pytest --junitxml=r.xml tests > /dev/null", "", 1, {
    reports: [
      {
        kind: "junit",
        xml: junit('<testcase classname="c" name="t"><failure message="x"/></testcase>', 'tests="1" failures="1" errors="0"'),
        path: "r.xml",
      },
    ],
  }),
  truncated: line("python -m pytest tests", PASS, 0, { outputTruncated: true }),
  timeout: line("timeout 1 pytest", "", 124),
  interrupted: line("pytest -q", "!!!!!!!!!!!!!!!!!!!!!!!!!!! KeyboardInterrupt !!!!!!!!!!!!!!!!!!!!!!!!!!!!\n", 2),
  "internal-error": line("pytest -q", "INTERNALERROR> Traceback (most recent call last):\n", 3),
  "no-tests-ran": line("pytest -q", "\nno tests ran in 0.01s\n", 5),
  "spoof-suspect": line("python -m pytest tests", PASS, 1),
  "masked-exit-no-summary": line("pytest -q 2>&1 | tail -3", ""),
  "no-summary": line("set -o pipefail; pytest | tail -1", "", 0),
  "multiple-summaries": line("python -m pytest tests", PASS + PASS),
  "target-not-proven": line("pytest -q tests/a.py tests/b.py | tail -1", "2 passed in 0.01s\n"),
  "report-stale": line("python -m pytest --junitxml=r.xml tests", PASS, 0, {
    reports: [
      {
        kind: "junit",
        xml: junit('<testcase classname="c" name="t"/>'),
        path: "r.xml",
        mtime: "2020-01-01T00:00:00Z",
        startedAt: "2021-01-01T00:00:00Z",
      },
    ],
  }),
  "report-invalid": line("python -m pytest --junitxml=r.xml tests", PASS, 0, {
    reports: [{ kind: "junit", xml: "<testsuite", path: "r.xml" }],
  }),
  "report-count-mismatch": line("python -m pytest --junitxml=r.xml tests", PASS, 0, {
    reports: [{ kind: "junit", xml: junit('<testcase classname="c" name="t"/>', 'tests="3" failures="0" errors="0"'), path: "r.xml" }],
  }),
  // The second run printed no summary: the first one's may be the second's.
  "output-not-attributable": line("python -m pytest tests; python -m pytest other", PASS),
  "harness-changed": () => decidedWith({ harnessChanged: ["conftest.py"] }),
  "link-outside-workspace": () => decidedWith({ linksOutside: ["mod.py"] }),
  "mtime-reset": () => decidedWith({ statResets: ["mod.py"] }),
  "script-not-resolved": line("npm test", "", 0),
  "script-no-package": line("npm test", "", 0, { cwd: "/p", packageScripts: { "/p": null } }),
  "script-missing": line("npm run missing", "", 1, { cwd: "/p", packageScripts: scripts("/p", "node --test") }),
  "script-may-change": line("echo '{}' > package.json && npm test", "", 0, { cwd: "/p", packageScripts: scripts("/p", "node --test") }),
  "script-changed": line("npm test", "\n> p@1.0.0 test\n> vitest run\n\n", 0, { cwd: "/p", packageScripts: scripts("/p", "node --test") }),
  "script-no-runner": line("npm test", "", 0, { cwd: "/p", packageScripts: scripts("/p", "echo 'Tests  9 passed (9)'") }),
  "script-unknown-program": line("npm test", "", 0, { cwd: "/p", packageScripts: scripts("/p", "./tools/prep.sh && node --test") }),
  "script-workspaces": line("npm test --workspaces", "", 0, { cwd: "/p", packageScripts: scripts("/p", "node --test") }),
  "script-config": line("npm test --script-shell ./sh", "", 0, { cwd: "/p", packageScripts: scripts("/p", "node --test") }),
  "script-arguments-unclear": line("npm test -t add", "", 0, { cwd: "/p", packageScripts: scripts("/p", "node --test") }),
  // The pure analysis leaves a script run unexpanded unless the caller expands it (analyzeCommand does).
  "script-not-expanded": () =>
    codes(
      judgeAnalyzed(
        analyzeParsed(parseCommandLine("npm test", bashParser()), { cwd: "/p", packageScripts: scripts("/p", "node --test") }),
        { output: "", exitCode: 0 },
      ),
    ),
  "workspace-unknown": ledgerReasons('cd "$D" && python -m pytest -rA t.py', PASS, true),
  "not-judged": ledgerReasons("python -m pytest -rA t.py", PASS, false),
  "clipping-marker": verdict({ clippingMarker: true }),
  "no-final-newline": verdict({ missingFinalNewline: true }),
  "junit-reports-failures": verdict({
    judged: judge({ command: "python -m pytest tests", output: "", exitCode: 0 }),
    runnerExit: 1,
    junit: "ok",
    report: parseJunit(junit('<testcase classname="c" name="t"><failure message="x"/></testcase>', 'tests="1" failures="1" errors="0"')),
  }),
  "sources-disagree": verdict({
    junit: "ok",
    report: parseJunit(junit('<testcase classname="c" name="t"><failure message="x"/></testcase>', 'tests="1" failures="1" errors="0"')),
  }),
  "junit-count-mismatch": verdict({
    junit: "ok",
    report: parseJunit(junit('<testcase classname="c" name="t"/>', 'tests="3" failures="0" errors="0"')),
  }),
  "junit-no-passed-tests": verdict({
    junit: "ok",
    report: parseJunit(junit('<testcase classname="c" name="t"><skipped/></testcase>', 'tests="1" failures="0" errors="0" skipped="1"')),
  }),
  "missing-junit": verdict({ junit: "missing_junit" }),
  "malformed-junit": verdict({ junit: "malformed_junit" }),
  "no-testsuite": verdict({ junit: "no_testsuite" }),
  "empty-suite": verdict({ junit: "empty_suite" }),
  "stale-junit": verdict({ junit: "stale_junit" }),
  "no-exit-status": verdict({ runnerExit: null }),
  "nonzero-exit": verdict({ runnerExit: 1 }),
  // Written before the suite starts and replaced after it: the suite itself prints it.
  "run-not-finished": async () => {
    const { dir, cleanup } = makeTempDir("agent-evidence-reasons-");
    try {
      await runVerdict({ command: "cat verdict.json", cwd: dir, outDir: dir });
      return (JSON.parse(readFileSync(join(dir, "suite.log"), "utf8")) as { reasons: string[] }).reasons;
    } finally {
      cleanup();
    }
  },
  "failed-without-exit-code": () =>
    analyzeSession([
      {
        type: "shell",
        id: "1",
        command: "python -m pytest tests",
        output: PASS,
        exitCode: null,
        cwd: null,
        interrupted: false,
        timedOut: false,
        outputTruncated: false,
        persistedOutputPath: null,
        completed: true,
        sidechain: false,
        timestamp: null,
        line: 1,
        clientStatus: "failed",
      },
    ]).lastRun?.reasons ?? [],
};

// A run whose invocation carries a live tool's doubt (set by BashEvidence after its scans).
function decidedWith(doubt: { harnessChanged?: string[]; linksOutside?: string[]; statResets?: string[] }): string[] {
  const analysis = analyzeCommand("python -m pytest tests", { cwd: "/w" });
  const invocation = analysis.invocations[0]!;
  Object.assign(invocation, doubt);
  return codes(judgeAnalyzed(analysis, { output: PASS, exitCode: 0 }));
}

describe("every reason code is produced", () => {
  it("the table has one case per code of the union", () => {
    expect(Object.keys(REASON_CASES).sort()).toEqual(Object.keys(REASON_DEFINITIONS).sort());
  });

  it.each(Object.keys(REASON_CASES) as ReasonCode[])("%s", async (code) => {
    expect(await REASON_CASES[code]()).toContain(code);
  });
});

/** The reasons of every invocation's attribution of `command` with this status and output. */
function attribution(command: string, exitCode: number | null, output?: string): () => string[] {
  return () => attributeExit(analyzeCommand(command), exitCode, output === undefined ? {} : { output }).map((a) => a.reason);
}

// Each `cmdN && echo MN` doubles the marker states: 14 of them pass the 4,096 limit.
const MANY_PATHS = `${Array.from({ length: 14 }, (_, i) => `cmd${i} && echo M${i}`).join("; ")}; pytest`;

const EXIT_CASES: Record<ExitAttributionReason, () => string[]> = {
  "runner-status": attribution("pytest", 0),
  "status-printed": () => {
    const analysis = analyzeCommand("pytest > log 2>&1; echo EXIT=$?");
    return attributeExit(analysis, 0, { status: { templates: statusTemplates(analysis), lines: ["EXIT=1"] } }).map((a) => a.reason);
  },
  "exit-0-implies-runner-0": attribution("pytest && git push", 0),
  "and-marker-seen": attribution("pytest && echo OK || echo BROKEN", null, "OK"),
  "exit-implies-runner-failed": attribution("! pytest", 0),
  "or-marker-seen": attribution("pytest && echo OK || echo BROKEN", null, "BROKEN"),
  "pipe-without-pipefail": attribution("pytest -q 2>&1 | tail -3", 0),
  "pipefail-later-stage-may-fail": attribution("set -o pipefail; pytest | grep passed", 1),
  "or-connector": attribution("pytest || true", 0),
  "later-command-may-have-failed": attribution("pytest && git push", 1),
  "later-statement": attribution("pytest; echo done", null, "done"),
  "may-not-have-run": attribution("cd missing && pytest", 1),
  negated: attribution("! pytest; echo a; ! pytest", null, "a"),
  background: attribution("pytest -q &", 0),
  "inside-loop": attribution("for f in a b; do pytest $f; done", 0),
  "inside-function": attribution("t() { pytest; }; t", 0),
  "inside-compound": attribution("if pytest; then echo ok; fi", 0),
  "shadowed-runner": attribution("alias pytest=true; pytest", 0),
  // attributeExit takes any analysis: an opaque one, or one whose invocation names no command of it.
  "opaque-line": () => attributeExit({ ...analyzeCommand("pytest"), opaque: true }, 0).map((a) => a.reason),
  "runner-not-found": () => {
    const analysis = analyzeCommand("pytest");
    return attributeExit({ ...analysis, invocations: analysis.invocations.map((inv) => ({ ...inv, commandIndex: 99 })) }, 0).map(
      (a) => a.reason,
    );
  },
  "no-exit-status": attribution("pytest", null),
  "inconsistent-evidence": attribution("pytest; echo done", 1, ""),
  "too-complex": attribution(MANY_PATHS, 0, "M1"),
  ambiguous: attribution("echo a; pytest", null, "a"),
};

describe("every exit attribution reason is produced", () => {
  it("the table has one case per reason", () => {
    expect(Object.keys(EXIT_CASES).sort()).toEqual(Object.keys(EXIT_ATTRIBUTION_REASONS).sort());
  });

  it.each(Object.keys(EXIT_CASES) as ExitAttributionReason[])("%s", (reason) => {
    expect(EXIT_CASES[reason]()).toContain(reason);
  });
});
