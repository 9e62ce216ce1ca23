import { beforeAll, describe, expect, it } from "vitest";

import { detectTranscriptFormat, readTranscript } from "../../../src/audit/transcripts/read-transcript.js";
import { captureRealRuns, type RealRuns } from "./real-runs.js";
import { toJsonl } from "./records.js";

let runs: RealRuns;
beforeAll(() => {
  runs = captureRealRuns();
});

describe("generic JSONL transcripts", () => {
  it("reads {command, output, exitCode, cwd} lines, edits and assistant text; reports bad lines", () => {
    const text = toJsonl([
      { command: runs.failingSuite.command, output: runs.failingSuite.stdout, exitCode: runs.failingSuite.exitCode, cwd: runs.dir },
      { edit: "calc.py" },
      { command: "pytest", output: 3, exitCode: 0 },
      { command: "pytest", output: "", exitCode: "0" },
      { nothing: true },
      { command: runs.passingFile.command, output: runs.passingFile.stdout, exitCode: null, cwd: runs.dir, outputTruncated: true },
      { assistant: "All tests pass." },
    ]);
    expect(detectTranscriptFormat(text)).toBe("generic");
    const result = readTranscript(text);
    expect(result.problems).toEqual([
      { line: 3, reason: "shell line without an output string" },
      { line: 4, reason: "exitCode must be an integer or null" },
      { line: 5, reason: "not a shell, edit or assistant line" },
    ]);
    expect(
      result.events.map((event) =>
        event.type === "shell"
          ? [event.type, event.exitCode, event.outputTruncated, event.output === runs.failingSuite.stdout]
          : [event.type],
      ),
    ).toEqual([["shell", 1, false, true], ["edit"], ["shell", null, true, false], ["assistant-message"]]);
    expect(result.finalMessage).toBe("All tests pass.");
  });

  it("says so when no line looks like a known format", () => {
    expect(readTranscript('{"hello": 1}\n')).toEqual({
      format: null,
      events: [],
      finalMessage: null,
      problems: [{ line: 0, reason: "no line looks like a Claude Code, Codex or generic transcript record" }],
    });
  });
});
