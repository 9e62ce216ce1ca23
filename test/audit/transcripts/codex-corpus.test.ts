// The Codex reader on real rollouts from public repositories, one per client version and shape
// (test/fixtures/transcripts/codex/SOURCES.md). Each file has a reading written by reading the file
// (NAME.reading.json); the reader must find the same commands, exit codes, edits and final message.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

import { detectClaims } from "../../../src/audit/claims.js";
import { analyzeSession } from "../../../src/audit/transcript-timeline.js";
import { detectTranscriptFormat, readTranscript } from "../../../src/audit/transcripts/read-transcript.js";
import type { EditEvent, ShellEvent, TranscriptEvent } from "../../../src/audit/transcripts/types.js";

const DIR = fileURLToPath(new URL("../../fixtures/transcripts/codex/", import.meta.url));

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
const named = (prefix: string) => {
  const source = sources.find((entry) => entry.file.startsWith(prefix));
  if (source === undefined) throw new Error(`no fixture ${prefix}`);
  return { ...load(source.file), source };
};

describe("real Codex rollouts", () => {
  it("holds at least 20 licensed files across the legacy layout and the session_meta clients", () => {
    expect(sources.length).toBeGreaterThanOrEqual(20);
    for (const source of sources) {
      expect(source.license).toMatch(/MIT|Apache-2\.0/);
      expect(source.commit).toMatch(/^[0-9a-f]{40}$/);
    }
    const versions = new Set(sources.map((source) => source.clientVersion.split("-")[0]!.split(" ")[0]));
    expect(versions.size).toBeGreaterThanOrEqual(20);
    expect(versions).toContain("legacy");
  });

  it.each(sources.map((source) => [source.file, source.clientVersion]))(
    "%s (%s): format, commands, exit codes, edits and final message as read",
    (file) => {
      const { text, reading } = load(file);
      expect(detectTranscriptFormat(text)).toBe("codex");
      const result = readTranscript(text);
      expect(result.format).toBe("codex");
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

  it("reads pre-session_meta rollouts (before September 2025), which came back with no format", () => {
    const { text } = named("legacy-2025-08-24-curl");
    const result = readTranscript(text);
    expect(runsOf(result.events)).toEqual([
      { line: 9, command: "curl -I wttr.in", exitCode: 0, completed: true },
      { line: 14, command: "curl 'wttr.in?format=1'", exitCode: 0, completed: true },
    ]);
    expect(result.events.find((event) => event.type === "shell")).toMatchObject({ cwd: "/Users/kobra/Dev/Chatgpt-Apps/ocodex/codex-rs" });
  });

  it("0.34: takes the exit code from 'failed in sandbox ..., exit code: N, stdout: ...' text", () => {
    const { text } = named("0.34.0-openprintkit");
    const pytest = readTranscript(text).events.find((event): event is ShellEvent => event.type === "shell" && event.line === 24)!;
    expect(pytest).toMatchObject({ command: "pytest -q", exitCode: 2, completed: true });
    expect(pytest.output).toContain("ERROR collecting tests/test_bundle_roundtrip.py");
    const { runs } = analyzeSession(readTranscript(text).events);
    expect(runs.find((run) => run.line === 24)?.outcome).toBe("failed");
  });

  it("0.46: a sandbox failure without an exit code is an unknown run, not a pass", () => {
    const { text } = named("0.46.0-ai-trading-bot");
    const { runs } = analyzeSession(readTranscript(text).events);
    const killed = runs.filter((run) => [49, 56, 70, 84, 105, 140].includes(run.line));
    expect(killed).toHaveLength(6);
    for (const run of killed) expect([run.exitCode, run.outcome === "passed"]).toEqual([null, false]);
  });

  it("0.111: a write_stdin poll's exit code belongs to the command still running in its session", () => {
    const { text } = named("0.111.0-tinycalc-write-stdin");
    const docfx = readTranscript(text).events.find((event): event is ShellEvent => event.type === "shell" && event.line === 18)!;
    expect(docfx).toMatchObject({ command: "docfx docfx.json", exitCode: 255, completed: true });
    // The first chunk (the call's own output) and the poll's chunk, in order.
    expect(docfx.output).toMatch(/^Loading project [\s\S]*TimeoutException: The operation has timed out\./);
  });

  it("0.122: MCP calls go through the tool effect rule; exec_command_end finishes a command before its poll", () => {
    const { text } = named("0.122.0-dotfiles-mcp");
    const result = readTranscript(text);
    expect(editsOf(result.events).filter((edit) => edit.tool.startsWith("mcp__"))).toEqual([
      { line: 12, tool: "mcp__serena__initial_instructions", paths: [], failed: false },
    ]);
    const checks = runsOf(result.events).filter((run) => run.command === "make check");
    expect(checks).toEqual([
      { line: 81, command: "make check", exitCode: 0, completed: true },
      { line: 140, command: "make check", exitCode: 0, completed: true },
    ]);
  });

  it("apply_patch through the shell is an edit of the patch's files, not a command run", () => {
    const { text } = named("0.34.0-openprintkit");
    const events = readTranscript(text).events;
    expect(events.some((event) => event.type === "shell" && event.command.startsWith("apply_patch"))).toBe(false);
    expect(editsOf(events)[0]).toEqual({ line: 65, tool: "apply_patch", paths: ["opk/core/__init__.py"], failed: false });
  });
});
