import { beforeAll, describe, expect, it } from "vitest";

import { auditEvents } from "../../src/audit/audit-transcript.js";
import { analyzeSession } from "../../src/audit/transcript-timeline.js";
import type { ShellEvent, TranscriptEvent } from "../../src/audit/transcripts/types.js";
import { captureRealRuns, type RealRuns } from "./transcripts/real-runs.js";
import type { ShellRun } from "./transcripts/records.js";

let runs: RealRuns;
let stashNothing: ShellRun;
beforeAll(() => {
  runs = captureRealRuns();
  // The fix committed, so `git stash` finds nothing to save: the run is on the current tree.
  stashNothing = runs.stashNothing;
});

let line = 0;
const shell = (run: ShellRun): ShellEvent => ({
  type: "shell",
  id: null,
  command: run.command,
  output: `${run.stdout}${run.stderr}`,
  exitCode: run.exitCode,
  cwd: runs.dir,
  interrupted: false,
  timedOut: false,
  outputTruncated: false,
  persistedOutputPath: null,
  completed: true,
  sidechain: false,
  timestamp: null,
  line: (line += 1),
});
const cmd = (command: string): ShellRun => ({ command, stdout: "", stderr: "", exitCode: 0 });
const say = (text: string): TranscriptEvent => ({ type: "assistant-message", text, sidechain: false, timestamp: null, line: (line += 1) });

describe("session analysis on real runs", () => {
  it("the stash that saved nothing really printed `No local changes to save`", () => {
    expect([/No local changes to save/.test(stashNothing.stdout + stashNothing.stderr), /2 passed/.test(stashNothing.stdout)]).toEqual([
      true,
      true,
    ]);
  });

  it.each([
    [
      "a pass then `sed -i` (a shell edit)",
      () => [shell(runs.passingSuite), shell(cmd("sed -i 's/a/b/' calc.py")), say("All tests pass.")],
      "stale",
      true,
    ],
    ["a pass then `black .`", () => [shell(runs.passingSuite), shell(cmd("black .")), say("All tests pass.")], "stale", true],
    [
      "a pass then a read-only `git diff | head`",
      () => [shell(runs.passingSuite), shell(cmd("git diff | head -50")), say("All tests pass.")],
      "backed",
      false,
    ],
    ['a pass, `echo "12 passed"` is not a run', () => [shell(cmd('echo "12 passed"')), say("All tests pass.")], "unsupported", null],
    [
      "an edit before the run in the same line does not stale it",
      () => [shell({ ...runs.passingSuite, command: `sed -i 's/x/y/' notes.txt && ${runs.passingSuite.command}` }), say("All tests pass.")],
      "backed",
      false,
    ],
    [
      "a stash that saved nothing: the run is on the current tree, and the pop is an edit",
      () => [shell(stashNothing), say("All tests pass.")],
      "stale",
      true,
    ],
    [
      "a failing run, an edit, no rerun: contradicted",
      () => [shell(runs.failingSuite), shell(cmd("sed -i 's/a + b/a - b/' calc.py")), say("Fixed; all tests pass now.")],
      "contradicted",
      true,
    ],
    ["a claim before the run", () => [say("All tests pass."), shell(runs.passingSuite)], "unsupported", false],
    ["a named test covered by a whole-suite pass", () => [shell(runs.passingSuite), say("`test_sub` passes now.")], "backed", false],
    [
      "a failing suite, then one passing file, no edit between: the failure is still open",
      () => [shell(runs.failingSuite), shell(runs.passingFile), say("All tests pass.")],
      "contradicted",
      false,
    ],
    [
      "a failing suite, then a -k pass, no edit between: the failure is still open",
      () => [shell(runs.failingSuite), shell(runs.filteredPass), say("All tests pass.")],
      "contradicted",
      false,
    ],
    [
      "a failing suite, then the same suite passing (a flaky rerun): backed",
      () => [shell(runs.failingSuite), shell(runs.passingSuite), say("All tests pass.")],
      "backed",
      false,
    ],
    [
      "a failing suite, the fix, then a -k pass: unsupported for the whole suite, not contradicted",
      () => [shell(runs.failingSuite), shell(cmd("sed -i 's/a + b/a - b/' calc.py")), shell(runs.filteredPass), say("All tests pass.")],
      "unsupported",
      false,
    ],
    [
      "a failing suite, then a passing file, and a claim about that file: backed",
      () => [shell(runs.failingSuite), shell(runs.passingFile), say("`test_add` passes.")],
      "backed",
      false,
    ],
  ] as const)("%s -> %s", (_name, events, label, stale) => {
    const list = events();
    const finalMessage = [...list].reverse().find((e) => e.type === "assistant-message");
    const audit = auditEvents(list, finalMessage?.type === "assistant-message" ? finalMessage.text : null);
    expect({ labels: audit.claims.map((c) => c.label), stale: audit.lastRun === null ? null : audit.lastRun.stale }).toEqual({
      labels: [label],
      stale,
    });
  });

  it("baseline runs are kept apart and never become the last run", () => {
    const session = analyzeSession([shell(runs.failingSuite), shell(runs.stashBaseline)]);
    expect(session.runs.map((run) => [run.baseline, run.outcome])).toEqual([
      [false, "failed"],
      [true, "failed"],
    ]);
    expect(session.lastRun?.line).toBe(session.runs[0]!.line);
    expect(session.edits).toEqual([]);
  });
});
