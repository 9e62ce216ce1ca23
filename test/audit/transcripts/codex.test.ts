import { beforeAll, describe, expect, it } from "vitest";

import { detectTranscriptFormat, readTranscript } from "../../../src/audit/transcripts/read-transcript.js";
import { captureRealRuns, type RealRuns } from "./real-runs.js";
import { codex, timestampAt, toJsonl } from "./records.js";

let runs: RealRuns;
beforeAll(() => {
  runs = captureRealRuns();
});

const shell = (fields: Record<string, unknown>) => ({
  type: "shell",
  interrupted: false,
  timedOut: false,
  outputTruncated: false,
  persistedOutputPath: null,
  completed: true,
  sidechain: false,
  ...fields,
});

describe("Codex rollout transcripts", () => {
  it("reads shell_command calls with text outputs, an apply_patch edit and the final message once", () => {
    const text = toJsonl([
      codex.meta(runs.dir),
      codex.functionCall("c1", "shell_command", { command: runs.failingSuite.command, workdir: runs.dir }, 1),
      codex.textOutput("c1", runs.failingSuite, 2),
      codex.patch("c2", "*** Begin Patch\n*** Update File: calc.py\n@@\n-    return a + b\n+    return a - b\n*** End Patch\n", 3),
      codex.patchOutput("c2", 4),
      codex.functionCall("c3", "shell", { command: ["bash", "-lc", runs.passingFile.command] }, 5),
      codex.jsonOutput("c3", runs.passingFile, 6),
      codex.agentMessage("All tests pass.", 7),
      codex.assistantItem("All tests pass.", 7),
    ]);
    expect(detectTranscriptFormat(text)).toBe("codex");
    const result = readTranscript(text);
    expect(result.problems).toEqual([]);
    expect(result.finalMessage).toBe("All tests pass.");
    expect(result.events).toEqual([
      shell({
        id: "c1",
        command: runs.failingSuite.command,
        cwd: runs.dir,
        output: `${runs.failingSuite.stdout}${runs.failingSuite.stderr}`,
        exitCode: 1,
        timestamp: timestampAt(1),
        line: 2,
      }),
      {
        type: "edit",
        id: "c2",
        tool: "apply_patch",
        paths: ["calc.py"],
        failed: false,
        sidechain: false,
        timestamp: timestampAt(3),
        line: 4,
      },
      shell({
        id: "c3",
        command: runs.passingFile.command,
        cwd: runs.dir,
        output: runs.passingFile.stdout,
        exitCode: 0,
        timestamp: timestampAt(5),
        line: 6,
      }),
      { type: "assistant-message", text: "All tests pass.", sidechain: false, timestamp: timestampAt(7), line: 8 },
    ]);
  });

  it("prefers exec_command_end's exit code and aggregated output over the model-facing text", () => {
    const text = toJsonl([
      codex.meta("/repo"),
      codex.functionCall("c1", "exec_command", { cmd: runs.failingTail.command }, 1),
      codex.execEnd("c1", runs.failingTail, runs.dir, 2),
      codex.textOutput("c1", { ...runs.failingTail, stdout: "(clipped)" }, 3),
    ]);
    expect(readTranscript(text).events).toEqual([
      shell({
        id: "c1",
        command: runs.failingTail.command,
        cwd: runs.dir,
        output: runs.failingTail.stdout,
        exitCode: 0,
        timestamp: timestampAt(1),
        line: 2,
      }),
    ]);
  });

  it("reads an exec_command_end that has no function_call (older rollouts)", () => {
    const result = readTranscript(toJsonl([codex.meta("/repo"), codex.execEnd("c9", runs.passingFile, runs.dir, 4)]));
    expect(result.events).toEqual([
      shell({
        id: "c9",
        command: runs.passingFile.command,
        cwd: runs.dir,
        output: runs.passingFile.stdout,
        exitCode: 0,
        timestamp: timestampAt(4),
        line: 2,
      }),
    ]);
  });

  it.each([
    [
      "a truncated output",
      "Exit code: 1\nWall time: 3 seconds\nTotal output lines: 4000\nOutput:\n[... omitted 3800 of 4000 lines ...]\n1 failed",
      { exitCode: 1, outputTruncated: true, output: "[... omitted 3800 of 4000 lines ...]\n1 failed", completed: true },
    ],
    [
      "a unified exec exit",
      "Chunk ID: 7f\nWall time: 0.2 seconds\nProcess exited with code 2\nOriginal token count: 5\nOutput:\nboom",
      { exitCode: 2, output: "boom", completed: true },
    ],
    [
      "a still-running session",
      "Chunk ID: 7f\nWall time: 10.0 seconds\nProcess running with session ID 3\nOriginal token count: 0\nOutput:\n",
      { exitCode: null, output: "", completed: false },
    ],
  ])("reads %s", (_name, output, expected) => {
    const result = readTranscript(
      toJsonl([
        codex.meta("/repo"),
        codex.functionCall("c1", "exec_command", { cmd: "pytest" }, 1),
        { timestamp: timestampAt(2), type: "response_item", payload: { type: "function_call_output", call_id: "c1", output } },
      ]),
    );
    expect(result.events).toEqual([shell({ id: "c1", command: "pytest", cwd: "/repo", timestamp: timestampAt(1), line: 2, ...expected })]);
  });

  it("a Stop hook's <hook_prompt> message is the hook's feedback, not a new user turn", () => {
    const reason = 'Your final message says "All tests pass", but the last test run (`pytest -q`, transcript line 3) failed.';
    const result = readTranscript(
      toJsonl([
        codex.meta("/repo"),
        codex.userMessage("Fix sub().", 1),
        codex.userItem("Fix sub().", 1),
        codex.agentMessage("All tests pass.", 2),
        codex.hookPrompt(reason, 3),
        codex.userMessage(`<hook_prompt hook_run_id="stop:0">${reason}</hook_prompt>`, 3),
        codex.agentMessage("Done.", 4),
      ]),
    );
    expect(result.events.map((event) => event.type)).toEqual(["user-message", "assistant-message", "assistant-message"]);
    expect(result.stopHookFeedback).toEqual([reason]);
  });

  it("reports malformed lines and lines without a payload, never failing", () => {
    const text = [
      JSON.stringify(codex.meta("/repo")),
      "{not json",
      JSON.stringify({ timestamp: timestampAt(1), type: "response_item" }),
      JSON.stringify(codex.agentMessage("Done.", 2)),
    ].join("\n");
    const result = readTranscript(text);
    expect(result.problems).toEqual([
      { line: 2, reason: expect.stringMatching(/^invalid JSON/) as unknown },
      { line: 3, reason: "rollout line without a payload object" },
    ]);
    expect(result.finalMessage).toBe("Done.");
  });
});
