import { readFileSync } from "node:fs";
import { join } from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { readClaudeCodeTranscript } from "../../../src/audit/transcripts/claude-code.js";
import { mergeTranscriptEvents } from "../../../src/audit/transcripts/merge-events.js";
import { readTranscript } from "../../../src/audit/transcripts/read-transcript.js";
import { captureRealRuns, type RealRuns } from "./real-runs.js";
import { claude, timestampAt, toJsonl } from "./records.js";

let runs: RealRuns;
beforeAll(() => {
  runs = captureRealRuns();
});

const shell = (fields: Record<string, unknown>) => ({
  type: "shell",
  cwd: "/w",
  interrupted: false,
  timedOut: false,
  outputTruncated: false,
  persistedOutputPath: null,
  completed: true,
  sidechain: false,
  ...fields,
});

describe("Claude Code transcripts", () => {
  it("the captured runs are what the scenarios need", () => {
    expect([runs.failingSuite.exitCode, runs.passingFile.exitCode, runs.failingTail.exitCode]).toEqual([1, 0, 0]);
    expect(runs.failingSuite.stdout).toMatch(/1 failed, 1 passed/);
    expect(runs.failingTail.stdout).toMatch(/1 failed, 1 passed/);
  });

  it("reads a failing run, an edit, a passing filtered run and the final claim, in order", () => {
    const text = toJsonl([
      claude.user("fix sub()", 1),
      claude.toolUse("t1", "Bash", { command: runs.failingSuite.command, description: "Run tests" }, 2),
      claude.bashResult("t1", runs.failingSuite, 3),
      claude.toolUse("t2", "Edit", { file_path: "/w/calc.py", old_string: "return a + b\n\ndef", new_string: "return a - b\n\ndef" }, 4),
      claude.toolResult("t2", "The file /w/calc.py has been updated.", 5, false, { filePath: "/w/calc.py" }),
      claude.toolUse("t3", "Bash", { command: runs.passingFile.command }, 6),
      claude.bashResult("t3", runs.passingFile, 7),
      claude.text("Fixed `sub`.", 8),
      claude.text("All tests pass.", 8),
    ]);
    const result = readTranscript(text);
    expect(result.format).toBe("claude-code");
    expect(result.problems).toEqual([]);
    expect(result.finalMessage).toBe("Fixed `sub`.\n\nAll tests pass.");
    expect(result.events).toEqual([
      { type: "user-message", text: "fix sub()", timestamp: timestampAt(1), line: 1 },
      shell({
        id: "t1",
        command: runs.failingSuite.command,
        output: [runs.failingSuite.stdout, runs.failingSuite.stderr].filter(Boolean).join("\n"),
        exitCode: 1,
        timestamp: timestampAt(2),
        line: 2,
      }),
      { type: "edit", id: "t2", tool: "Edit", paths: ["/w/calc.py"], failed: false, sidechain: false, timestamp: timestampAt(4), line: 4 },
      shell({
        id: "t3",
        command: runs.passingFile.command,
        output: runs.passingFile.stdout,
        exitCode: 0,
        timestamp: timestampAt(6),
        line: 6,
      }),
      { type: "assistant-message", text: "Fixed `sub`.\n\nAll tests pass.", sidechain: false, timestamp: timestampAt(8), line: 8 },
    ]);
  });

  it("keeps tail's exit 0 and the failing summary it printed", () => {
    const result = readTranscript(
      toJsonl([claude.toolUse("t1", "Bash", { command: runs.failingTail.command }, 1), claude.bashResult("t1", runs.failingTail, 2)]),
    );
    expect(result.events).toEqual([
      shell({
        id: "t1",
        command: runs.failingTail.command,
        output: runs.failingTail.stdout,
        exitCode: 0,
        timestamp: timestampAt(1),
        line: 1,
      }),
    ]);
  });

  it.each([
    [
      "an interrupted command",
      "Interrupted by user",
      true,
      { stdout: "", stderr: "", interrupted: true, isImage: false },
      { exitCode: null, interrupted: true, output: "" },
    ],
    [
      "a timeout",
      "Command timed out after 2m 0.0s",
      true,
      "Error: Command timed out after 2m 0.0s",
      { exitCode: null, timedOut: true, output: "Command timed out after 2m 0.0s" },
    ],
    [
      "grep's no-match status",
      "",
      false,
      { stdout: "", stderr: "", interrupted: false, isImage: false, returnCodeInterpretation: "No matches found" },
      { exitCode: null, output: "" },
    ],
    [
      "a persisted large output",
      "<persisted-output>\nOutput too large (2.1MB). Full output saved to: /home/u/.claude/projects/p/s1/tool-results/b1.txt\n\nPreview (first 2KB):\n....\n</persisted-output>",
      false,
      {
        stdout: "....",
        stderr: "",
        interrupted: false,
        isImage: false,
        persistedOutputPath: "/home/u/.claude/projects/p/s1/tool-results/b1.txt",
        persistedOutputSize: 2100000,
      },
      { exitCode: 0, output: "....", outputTruncated: true, persistedOutputPath: "/home/u/.claude/projects/p/s1/tool-results/b1.txt" },
    ],
    [
      "a background command",
      "Command running in background with ID: bash_1",
      false,
      { stdout: "", stderr: "", interrupted: false, isImage: false, backgroundTaskId: "bash_1" },
      // Still running: a later BashOutput / TaskOutput poll finishes it (claude-shapes.test.ts).
      { exitCode: null, output: "", completed: false },
    ],
    [
      "an older failure record without toolUseResult",
      "Exit code 2\nERROR: file or directory not found: tests/nope.py",
      true,
      undefined,
      { exitCode: 2, output: "ERROR: file or directory not found: tests/nope.py" },
    ],
  ])("reads %s", (_name, content, isError, toolUseResult, expected) => {
    const result = readClaudeCodeTranscript(
      toJsonl([
        claude.toolUse("t1", "Bash", { command: "python3 -m pytest" }, 1),
        claude.toolResult("t1", content, 2, isError, toolUseResult),
      ]),
    );
    expect(result.events).toEqual([shell({ id: "t1", command: "python3 -m pytest", timestamp: timestampAt(1), line: 1, ...expected })]);
  });

  it("reports malformed lines with their numbers and reads the rest", () => {
    const text = readFileSync(join(import.meta.dirname, "../../fixtures/transcripts/claude-code-malformed.jsonl"), "utf8");
    const result = readTranscript(text);
    expect(result.format).toBe("claude-code");
    expect(result.problems).toEqual([
      { line: 3, reason: expect.stringMatching(/^invalid JSON: /) as unknown },
      { line: 4, reason: "not a JSON object" },
      { line: 6, reason: "assistant record without message.content" },
      { line: 7, reason: "Bash tool_use without a command string" },
    ]);
    expect(result.events.map((event) => event.type)).toEqual(["user-message", "shell", "edit", "assistant-message"]);
    expect(result.events[2]).toMatchObject({ tool: "Write", paths: ["/w/notes.txt"], failed: true });
    expect(result.finalMessage).toBe("Listed the directory.");
  });

  it("marks subagent (sidechain) events and keeps their text out of the session's final message", () => {
    const sub = readTranscript(
      toJsonl([
        claude.toolUse("s1", "Bash", { command: runs.failingSuite.command }, 3, true),
        claude.bashResult("s1", runs.failingSuite, 4, true),
        claude.text("Subagent: 1 test fails.", 5, true),
      ]),
    );
    const main = readTranscript(
      toJsonl([
        claude.toolUse("m1", "Task", { prompt: "run the tests" }, 2),
        claude.toolResult("m1", "done", 6, false, {}),
        claude.text("All tests pass.", 7),
      ]),
    );
    const merged = mergeTranscriptEvents(main.events, sub.events);
    // A general-purpose Task may edit (its own file may not be joined): an edit with no paths.
    expect(merged.map((event) => [event.type, "sidechain" in event ? event.sidechain : null])).toEqual([
      ["edit", false],
      ["shell", true],
      ["assistant-message", true],
      ["assistant-message", false],
    ]);
    // A subagent's own file ends with the subagent's answer; the session's final message is the main agent's.
    expect(sub.finalMessage).toBe("Subagent: 1 test fails.");
    expect(main.finalMessage).toBe("All tests pass.");
  });

  it("leaves a call without a result incomplete", () => {
    const result = readClaudeCodeTranscript(
      toJsonl([claude.toolUse("t1", "Bash", { command: "python3 -m pytest", run_in_background: false }, 1)]),
    );
    expect(result.events).toEqual([
      shell({ id: "t1", command: "python3 -m pytest", output: "", exitCode: null, completed: false, timestamp: timestampAt(1), line: 1 }),
    ]);
  });
});
