// The Claude Code reader on real sessions from public repositories, across client versions and shapes
// (test/fixtures/transcripts/claude-code/SOURCES.md). Each file has a reading written by reading the file
// (NAME.reading.json); the reader must find the same commands, exit codes, edits, final message and claims.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

import { detectClaims } from "../../../src/audit/claims.js";
import { analyzeSession } from "../../../src/audit/transcript-timeline.js";
import { detectTranscriptFormat, readTranscript } from "../../../src/audit/transcripts/read-transcript.js";
import type { EditEvent, ShellEvent, TranscriptEvent } from "../../../src/audit/transcripts/types.js";

const DIR = fileURLToPath(new URL("../../fixtures/transcripts/claude-code/", import.meta.url));

interface Source {
  file: string;
  repo: string;
  path: string;
  commit: string;
  license: string;
  clientVersion: string;
  lines: string;
}

interface Reading {
  clientVersion: string;
  problems: { line: number; reason: string }[];
  runs: { line: number; command: string; exitCode: number | null; completed: boolean }[];
  edits: { line: number; tool: string; paths: string[]; failed: boolean }[];
  finalMessage: string | null;
  claims: string[];
}

const sources = JSON.parse(readFileSync(`${DIR}sources.json`, "utf8")) as Source[];
const load = (file: string) => ({
  text: readFileSync(`${DIR}${file}`, "utf8"),
  reading: JSON.parse(readFileSync(`${DIR}${file.replace(/\.jsonl$/, ".reading.json")}`, "utf8")) as Reading,
});
const runsOf = (events: readonly TranscriptEvent[]) =>
  events
    .filter((event): event is ShellEvent => event.type === "shell")
    .map(({ line, command, exitCode, completed }) => ({ line, command, exitCode, completed }));
const editsOf = (events: readonly TranscriptEvent[]) =>
  events
    .filter((event): event is EditEvent => event.type === "edit")
    .map(({ line, tool, paths, failed }) => ({ line, tool, paths, failed }));
const shellAt = (events: readonly TranscriptEvent[], line: number) =>
  events.find((event): event is ShellEvent => event.type === "shell" && event.line === line);
const named = (prefix: string) => {
  const source = sources.find((entry) => entry.file.startsWith(prefix));
  if (source === undefined) throw new Error(`no fixture ${prefix}`);
  return { ...load(source.file), source };
};
// Every record of a subagent's own file (agent-*.jsonl) is a sidechain record.
const isSubagentFile = (text: string) =>
  text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { type?: string; isSidechain?: boolean })
    .filter((record) => record.type === "user" || record.type === "assistant")
    .every((record) => record.isSidechain === true);

describe("real Claude Code sessions", () => {
  it("holds at least 20 licensed files from several repositories, at least 8 client versions across 2.0 and 2.1", () => {
    expect(sources.length).toBeGreaterThanOrEqual(20);
    for (const source of sources) {
      expect(source.license).toMatch(/^(MIT|Apache-2\.0|BSD-[23]-Clause|ISC|CC0-1\.0|Unlicense)$/);
      expect(source.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(source.path).toMatch(/\.claude\/projects\/[^/]+\/(.+\/subagents\/)?[^/]+\.jsonl$/);
    }
    const versions = new Set(sources.map((source) => source.clientVersion));
    expect(versions.size).toBeGreaterThanOrEqual(8);
    expect([...versions].some((version) => version.startsWith("2.0."))).toBe(true);
    expect([...versions].some((version) => version.startsWith("2.1."))).toBe(true);
    expect(new Set(sources.map((source) => source.repo)).size).toBeGreaterThanOrEqual(4);
  });

  it.each(sources.map((source) => [source.file, source.clientVersion]))(
    "%s (%s): format, commands, exit codes, edits, final message and claims as read",
    (file) => {
      const { text, reading } = load(file);
      expect(detectTranscriptFormat(text)).toBe("claude-code");
      const result = readTranscript(text);
      expect(result.format).toBe("claude-code");
      expect(result.problems).toEqual(reading.problems);
      expect(runsOf(result.events)).toEqual(reading.runs);
      expect(editsOf(result.events)).toEqual(reading.edits);
      expect(result.finalMessage).toBe(reading.finalMessage);
      expect(detectClaims(result.finalMessage ?? "").map((claim) => claim.kind)).toEqual(reading.claims);
    },
  );

  it.each(sources.map((source) => [source.file]))("%s: a run whose exit code the file does not prove never passes", (file) => {
    const { runs } = analyzeSession(readTranscript(load(file).text).events);
    for (const run of runs) if (run.exitCode === null) expect(run.outcome).not.toBe("passed");
  });

  it("subagent files: every event is a subagent's, and the final message is the subagent's last text", () => {
    const subagents = sources.filter((source) => isSubagentFile(load(source.file).text));
    expect(subagents.length).toBeGreaterThanOrEqual(6);
    for (const { file } of subagents) {
      const result = readTranscript(load(file).text);
      for (const event of result.events)
        if (event.type !== "user-message") expect([file, "sidechain" in event && event.sidechain]).toEqual([file, true]);
      expect(result.finalMessage).not.toBeNull();
    }
  });

  it("2.0.x: a failed command's result (toolUseResult the string 'Error: Exit code N') keeps its exit code", () => {
    const events = readTranscript(named("2.0.56-smartagent-exit-codes").text).events;
    expect([11, 45, 52].map((line) => shellAt(events, line)?.exitCode)).toEqual([1, 1, 1]);
    const build = readTranscript(named("2.0.76-procrypto-build-failures").text).events;
    expect([25, 45, 51, 57].map((line) => shellAt(build, line)?.exitCode)).toEqual([128, 2, 2, 0]);
  });

  it("2.0.57: a background shell that BashOutput only ever saw running (then KillShell) has no result", () => {
    const events = readTranscript(named("2.0.57-smartagent-bashoutput-mcp").text).events;
    expect(shellAt(events, 57)).toMatchObject({ exitCode: null, completed: false });
    expect(shellAt(events, 57)?.output).toContain("=== Sende Test-Request ===");
  });

  it("2.0.71 and 2.1.x: a command moved to the background (its timeout, no run_in_background) is a background shell", () => {
    expect(shellAt(readTranscript(named("2.0.71-hillviewcap-background").text).events, 22)).toMatchObject({
      exitCode: null,
      completed: false,
    });
    expect(shellAt(readTranscript(named("2.1.1-procrypto-background-denied").text).events, 47)).toMatchObject({
      exitCode: null,
      completed: false,
    });
  });

  it("2.1.1: TaskOutput {task: {status: completed, exitCode: 0}} finishes a background shell; a denied rm -rf is no run", () => {
    const events = readTranscript(named("2.1.1-procrypto-background-denied").text).events;
    expect(shellAt(events, 12)).toMatchObject({ command: "npm run dev:web-terminal 2>&1 | head -50", exitCode: 0, completed: true });
    expect(shellAt(events, 35)).toMatchObject({ exitCode: null, completed: false });
    expect(shellAt(events, 54)).toBeUndefined();
    expect(shellAt(readTranscript(named("2.1.2-procrypto-denied-rm").text).events, 29)).toBeUndefined();
  });

  it("2.1.1: background shells that end in a task notification take its status and exit code", () => {
    const events = readTranscript(named("2.1.1-procrypto-vercel-background").text).events;
    expect(
      [shellAt(events, 11), shellAt(events, 27)].map((shell) => shell && { exitCode: shell.exitCode, completed: shell.completed }),
    ).toEqual([
      { exitCode: 1, completed: true },
      { exitCode: 137, completed: true },
    ]);
  });

  it("2.1.6: a TaskOutput that timed out leaves the shell running; the task notification queued after KillShell ends it (exit 137)", () => {
    const events = readTranscript(named("2.1.6-procrypto-taskoutput-timeout").text).events;
    expect(shellAt(events, 18)).toMatchObject({ exitCode: 137, completed: true });
  });

  it("a return-code interpretation (grep without a match, find with unreadable directories) is no exit code", () => {
    expect(shellAt(readTranscript(named("2.0.76-procrypto-explore-subagent").text).events, 18)).toMatchObject({
      exitCode: null,
      completed: true,
    });
    expect(shellAt(readTranscript(named("2.1.5-procrypto-grep-no-match").text).events, 43)).toMatchObject({
      exitCode: null,
      completed: true,
    });
    // "Exit code 137\n[Request interrupted by user for tool use]": the file states the status.
    expect(shellAt(readTranscript(named("2.1.5-procrypto-grep-no-match").text).events, 33)).toMatchObject({
      exitCode: 137,
      completed: true,
    });
  });

  it("edits the client refused ('File has not been read yet', 'modified since read') are failed edits", () => {
    const failed = editsOf(readTranscript(named("2.1.7-open-cowork-ppt").text).events).filter((edit) => edit.failed);
    expect(failed.map((edit) => edit.line)).toEqual([34, 37, 39, 49, 50]);
    expect(editsOf(readTranscript(named("2.1.2-procrypto-tests-subagent").text).events).find((edit) => edit.line === 9)).toMatchObject({
      tool: "Edit",
      failed: true,
    });
  });

  it("the agent's answer to a task notification is a new message, not the rest of the turn before it", () => {
    expect(readTranscript(named("2.1.1-procrypto-vercel-background").text).finalMessage).toBe(
      "That's the first attempt that failed due to the invalid config. The second server (bf166b3) is running successfully at http://localhost:3000.",
    );
  });

  it("a text after a read-only tool call (TodoWrite, Read, Glob) is a new message: the final message is the last one alone", () => {
    expect(readTranscript(named("2.1.7-open-cowork-ppt").text).finalMessage).toMatch(/^完成了!/);
    expect(readTranscript(named("2.1.2-procrypto-warmup-subagent").text).finalMessage).toMatch(/^I've completed the warmup\./);
  });
});
