// The Claude Code record shapes beyond a plain Bash call and its result, one small synthetic JSONL per
// shape. Field names and texts follow what the clients write; each case names where that was read (a
// public session file, a transcript export, a parser's fixture taken from real files, the client's own
// message constants), with the client version when the source gives one. The search index's hit ids
// are those of its find_string / read_file answers. Command outputs are real pytest runs (real-runs.ts).
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";

import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import type { SessionAudit } from "../../../src/audit/audit-transcript.js";
import { auditEvents } from "../../../src/audit/audit-transcript.js";
import { runStopHook } from "../../../src/audit/hooks/stop.js";
import { findSubagentFiles, mergeSubagentTranscripts } from "../../../src/audit/subagent-files.js";
import { analyzeSession } from "../../../src/audit/transcript-timeline.js";
import { readTranscript } from "../../../src/audit/transcripts/read-transcript.js";
import type { ShellEvent, TranscriptEvent } from "../../../src/audit/transcripts/types.js";
import { runCli } from "../../../src/cli/program.js";
import { tempDirPath } from "../../support/temp-dir.js";
import { captureRealRuns, type RealRuns } from "./real-runs.js";
import { type ShellRun, timestampAt as at, toJsonl } from "./records.js";

let runs: RealRuns;
let dir: string;
beforeAll(() => {
  runs = captureRealRuns();
  dir = tempDirPath("claude-shapes-");
});
afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

// The envelope every user / assistant record carries (2.x: uuid, sessionId, cwd, timestamp, isSidechain, version).
const envelope = (second: number, sidechain: boolean) => ({
  uuid: `r${second}`,
  parentUuid: null,
  sessionId: "s1",
  cwd: "/w",
  version: "2.1.17",
  timestamp: at(second),
  isSidechain: sidechain,
});
const assistant = (second: number, content: unknown[], sidechain = false) => ({
  type: "assistant",
  ...envelope(second, sidechain),
  message: { role: "assistant", content },
});
const call = (second: number, id: string, name: string, input: Record<string, unknown>, sidechain = false) =>
  assistant(second, [{ type: "tool_use", id, name, input }], sidechain);
const say = (second: number, text: string, sidechain = false) => assistant(second, [{ type: "text", text }], sidechain);
const user = (second: number, content: unknown) => ({ type: "user", ...envelope(second, false), message: { role: "user", content } });
function result(
  second: number,
  id: string,
  content: string,
  options: { isError?: boolean; toolUseResult?: unknown; sidechain?: boolean } = {},
) {
  return {
    type: "user",
    ...envelope(second, options.sidechain ?? false),
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, is_error: options.isError ?? false }] },
    ...(options.toolUseResult === undefined ? {} : { toolUseResult: options.toolUseResult }),
  };
}
const combined = (run: ShellRun): string => [run.stdout, run.stderr].filter((part) => part !== "").join("\n");
const shells = (events: readonly TranscriptEvent[]): ShellEvent[] => events.filter((event): event is ShellEvent => event.type === "shell");
const read = (records: readonly unknown[]) => readTranscript(toJsonl(records));

// Background start, as 2.x writes it: the text names the shell; the toolUseResult carries `backgroundTaskId`
// (committed sessions of 2.0.57, 2.0.71, 2.1.1 and 2.1.6: Smartagent-so/Personal_AI_Infrastructure@051a4d9083
// .claude/projects/-Users-pretor-Documents-PAI---TPOS/24a90d02-....jsonl line 58, HillviewCap/..., procrypto/...;
// "verified on CC 2.1.280", hit 71207357390).
const startBackground = (second: number, id: string, command: string, shellId: string, withResultObject = true) => [
  call(second, id, "Bash", { command, description: "Run the tests", run_in_background: true }),
  result(
    second + 1,
    id,
    `Command running in background with ID: ${shellId}. Output is being written to: /tmp/claude-1000/-w/s1/tasks/${shellId}.output`,
    {
      ...(withResultObject
        ? {
            toolUseResult: {
              stdout: "",
              stderr: "",
              interrupted: false,
              isImage: false,
              noOutputExpected: false,
              backgroundTaskId: shellId,
            },
          }
        : {}),
    },
  ),
];

describe("background shells and their polls", () => {
  it("BashOutput (until 2.0.64): the toolUseResult {shellId, status, exitCode, stdout, stderr} finishes the shell", () => {
    // BashOutput's input `bash_id` and its result object {shellId, command, status, exitCode, stdout, stderr,
    // stdoutLines, stderrLines, timestamp}: a 2.0.57 session, Smartagent-so/Personal_AI_Infrastructure@051a4d9083
    // (.claude/projects/-Users-pretor-Documents-PAI---TPOS/24a90d02-9724-4548-9f4f-97bcb9f93ef3.jsonl, lines 60-64).
    // The changelog of 2.0.64 unshipped BashOutputTool for TaskOutputTool (anthropics/claude-code#19173).
    const failing = runs.failingSuite;
    const records = [
      ...startBackground(1, "t1", failing.command, "bash_1"),
      call(3, "t2", "BashOutput", { bash_id: "bash_1" }),
      result(
        4,
        "t2",
        `<status>failed</status>\n\n<exit_code>1</exit_code>\n\n<stdout>\n${failing.stdout}\n</stdout>\n\n<timestamp>${at(4)}</timestamp>`,
        {
          toolUseResult: {
            shellId: "bash_1",
            command: failing.command,
            status: "failed",
            exitCode: 1,
            stdout: failing.stdout,
            stderr: failing.stderr,
            stdoutLines: 9,
            stderrLines: 0,
            timestamp: at(4),
          },
        },
      ),
    ];
    const { events } = read(records);
    expect(shells(events)).toMatchObject([{ id: "t1", command: failing.command, exitCode: 1, completed: true, output: combined(failing) }]);
    expect(analyzeSession(events).lastRun).toMatchObject({ outcome: "failed", line: 1 });
  });

  it("TaskOutput (2.0.64 to 2.1.83): the toolUseResult {retrieval_status, task: {status, exitCode, output}} finishes it", () => {
    // The object {retrieval_status, task: {task_id, task_type, status, description, output, exitCode}} and the input
    // `task_id`: a 2.1.6 session, procrypto/Personal_AI_Infrastructure@6a72ae4a0f (.claude/projects/-Users-neilhart-
    // Documents-BONKbot-github-local-api/3dc9f39f-dd05-464d-95f1-4db1e1a7be13.jsonl, line 22: a `timeout` retrieval of
    // a running task). TaskOutput was deprecated for Read in 2.1.83 (anthropics/claude-code#38574).
    const passing = runs.passingSuite;
    const records = [
      ...startBackground(1, "t1", passing.command, "b7x2k9q1a"),
      call(3, "t2", "TaskOutput", { task_id: "b7x2k9q1a", block: true, timeout: 120000 }),
      result(
        4,
        "t2",
        `<retrieval_status>success</retrieval_status>\n\n<task_id>b7x2k9q1a</task_id>\n\n<task_type>local_bash</task_type>\n\n<status>completed</status>\n\n<exit_code>0</exit_code>\n\n<output>\n${passing.stdout}</output>`,
        {
          toolUseResult: {
            retrieval_status: "success",
            task: {
              task_id: "b7x2k9q1a",
              task_type: "local_bash",
              status: "completed",
              description: "Run the tests",
              output: passing.stdout,
              exitCode: 0,
            },
          },
        },
      ),
    ];
    const { events } = read(records);
    expect(shells(events)).toMatchObject([{ id: "t1", exitCode: 0, completed: true, output: passing.stdout }]);
    expect(analyzeSession(events).lastRun).toMatchObject({ outcome: "passed" });
  });

  it.each([
    // BashOutput's text (2.0.x, timestamps of 2025-11): a format reference drawn from real sessions (hit 26789470123).
    [
      "a BashOutput text",
      "bash_1",
      (run: ShellRun) =>
        `<status>failed</status>\n\n<exit_code>1</exit_code>\n\n<stdout>\n${run.stdout}</stdout>\n\n<stderr>\n</stderr>\n\n<timestamp>${at(4)}</timestamp>`,
      "BashOutput",
      { bash_id: "bash_1" },
    ],
    // TaskOutput's text, verbatim from a Claude Code session exported on 2026-05-20 (hit 60598374389).
    [
      "a TaskOutput text",
      "bxh4fokic",
      (run: ShellRun) =>
        `<retrieval_status>success</retrieval_status>\n\n<task_id>bxh4fokic</task_id>\n\n<task_type>local_bash</task_type>\n\n<status>failed</status>\n\n<exit_code>1</exit_code>\n\n<output>\n${run.stdout}</output>`,
      "TaskOutput",
      { task_id: "bxh4fokic", block: true, timeout: 120000 },
    ],
  ] as const)(
    "reads the tags of %s when there is no toolUseResult (a start told by its text only)",
    (_name, shellId, text, tool, input) => {
      const failing = runs.failingSuite;
      // The start without toolUseResult: that export keeps only the text (hit 60598374389).
      const records = [
        ...startBackground(1, "t1", failing.command, shellId, false),
        call(3, "t2", tool, input),
        result(4, "t2", text(failing)),
      ];
      const { events } = read(records);
      // The tags keep the output without its last newline.
      expect(shells(events)).toMatchObject([{ id: "t1", exitCode: 1, completed: true, output: failing.stdout.replace(/\n$/, "") }]);
      expect(analyzeSession(events).lastRun?.outcome).toBe("failed");
    },
  );

  it("keeps a running shell unfinished, adds its output, and finishes it at the next poll", () => {
    const passing = runs.passingSuite;
    const [head = ""] = passing.stdout.split("\n");
    const records = [
      ...startBackground(1, "t1", passing.command, "bash_1"),
      call(3, "t2", "BashOutput", { bash_id: "bash_1" }),
      result(4, "t2", `<status>running</status>\n\n<stdout>\n${head}\n</stdout>`, {
        toolUseResult: { shellId: "bash_1", command: passing.command, status: "running", exitCode: null, stdout: head, stderr: "" },
      }),
    ];
    expect(shells(read(records).events)).toMatchObject([{ completed: false, exitCode: null, output: head }]);
    const later = [
      ...records,
      call(5, "t3", "BashOutput", { bash_id: "bash_1" }),
      result(6, "t3", "<status>completed</status>", {
        toolUseResult: {
          shellId: "bash_1",
          command: passing.command,
          status: "completed",
          exitCode: 0,
          stdout: passing.stdout,
          stderr: "",
        },
      }),
    ];
    expect(shells(read(later).events)).toMatchObject([{ completed: true, exitCode: 0, output: passing.stdout }]);
  });

  it("reads a command moved to the background by its timeout (2.1.283's wording) as started, not finished", () => {
    // "Verbatim tool_result wording from live minion transcripts (Claude Code 2.1.283)" (hit 70607266974).
    const records = [
      call(1, "t1", "Bash", { command: runs.passingSuite.command }),
      result(
        2,
        "t1",
        "Command did not complete within its 120s timeout and was moved to the background (ID: b9q2w). Output is being written to: /tmp/x/tasks/b9q2w.output.",
      ),
      call(3, "t2", "TaskOutput", { task_id: "b9q2w" }),
      result(
        4,
        "t2",
        `<retrieval_status>success</retrieval_status>\n\n<task_id>b9q2w</task_id>\n\n<task_type>local_bash</task_type>\n\n<status>completed</status>\n\n<exit_code>0</exit_code>\n\n<output>\n${runs.passingSuite.stdout}</output>`,
      ),
    ];
    expect(shells(read(records.slice(0, 2)).events)).toMatchObject([{ completed: false, exitCode: null }]);
    expect(shells(read(records).events)).toMatchObject([{ completed: true, exitCode: 0 }]);
  });

  it.each([
    // A killed shell: TaskOutput's `killed` status (TaskStop / KillShell): interrupted, no exit code; what it
    // printed before is judged as it is (here the start of a run, no summary).
    ["killed", { status: "killed" }, (run: ShellRun) => run.stdout.split("\n")[0]!, { completed: true, interrupted: true, exitCode: null }],
    // A failure that kept no exit code: a failed run of unknown status, even with a passing summary printed.
    [
      "failed without an exit code",
      { status: "failed" },
      (run: ShellRun) => run.stdout,
      { completed: true, exitCode: null, clientStatus: "failed" },
    ],
  ])("reads a %s shell: never a pass", (_name, task, output, expected) => {
    const passing = runs.passingSuite;
    const records = [
      ...startBackground(1, "t1", passing.command, "b1"),
      call(3, "t2", "TaskOutput", { task_id: "b1" }),
      result(4, "t2", "<retrieval_status>success</retrieval_status>", {
        toolUseResult: { retrieval_status: "success", task: { task_id: "b1", task_type: "local_bash", output: output(passing), ...task } },
      }),
    ];
    const { events } = read(records);
    expect(shells(events)).toMatchObject([expected]);
    expect(analyzeSession(events).lastRun?.outcome).toBe("unknown");
  });

  it.each([
    // Task notifications of 2.1.x: a 2.1.1 session, procrypto/Personal_AI_Infrastructure@6a72ae4a0f (a queue-operation
    // then a user message: "completed (exit code 0)."), and transcripts exported 2026-01 to 2026-06 (hits 53854623667,
    // 57409620114, 53150431483): status and the summary's exit code, the output left in the task's file.
    [
      "completed",
      `<status>completed</status>\n<summary>Background command "Run the tests" completed (exit code 0)</summary>`,
      { exitCode: 0, completed: true, outputTruncated: true },
      "unknown",
    ],
    [
      "failed",
      `<status>failed</status>\n<summary>Background command "Run the tests" failed with exit code 1</summary>`,
      { exitCode: 1, completed: true },
      "failed",
    ],
    [
      "stopped",
      `<status>killed</status>\n<summary>Background command "Run the tests" was stopped</summary>`,
      { exitCode: null, completed: true, interrupted: true },
      "unknown",
    ],
  ] as const)("reads a %s <task-notification>, which is no user message", (_name, body, expected, outcome) => {
    const notification = `<task-notification>\n<task-id>bthyxz22p</task-id>\n<tool-use-id>t1</tool-use-id>\n<output-file>/tmp/claude-501/-w/s1/tasks/bthyxz22p.output</output-file>\n${body}\n</task-notification>\nRead the output file to retrieve the result: /tmp/claude-501/-w/s1/tasks/bthyxz22p.output`;
    const records = [user(0, "run the tests"), ...startBackground(1, "t1", runs.passingSuite.command, "bthyxz22p"), user(3, notification)];
    const { events } = read(records);
    expect(shells(events)).toMatchObject([expected]);
    expect(events.filter((event) => event.type === "user-message")).toHaveLength(1);
    expect(analyzeSession(events).lastRun?.outcome).toBe(outcome);
  });
});

// Claude Code's refusal texts, utils/messages.ts (REJECT_MESSAGE, REJECT_MESSAGE_WITH_REASON_PREFIX,
// SUBAGENT_REJECT_MESSAGE, CANCEL_MESSAGE), quoted with their source lines by a port (hit 61788537232).
const REJECT =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
const REJECT_WITH_FEEDBACK =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nrun only the unit tests";
const SUBAGENT_REJECT =
  "Permission for this tool use was denied. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). Try a different approach or report the limitation to complete your task.";
const CANCEL =
  "The user doesn't want to take this action right now. STOP what you are doing and wait for the user to tell you how to proceed.";

describe("refused calls", () => {
  const passThenRefused = (command: string, text: string, toolUseResult?: unknown) => {
    const passing = runs.passingSuite;
    return [
      call(1, "t1", "Bash", { command: passing.command }),
      result(2, "t1", passing.stdout, { toolUseResult: { stdout: passing.stdout, stderr: "", interrupted: false, isImage: false } }),
      call(3, "t2", "Bash", { command }),
      result(4, "t2", text, { isError: true, ...(toolUseResult === undefined ? {} : { toolUseResult }) }),
    ];
  };

  it.each([
    // A deny rule: sessions of 2.1.1 and 2.1.2, procrypto/Personal_AI_Infrastructure@6a72ae4a0f (toolUseResult then
    // "Error: Permission to use Bash with command ... has been denied."); a hook's tests of real refusals (hit 57920751008).
    ["a permission rule", "Permission to use Bash with command sed -i s/a/b/ calc.py has been denied."],
    // "No" with feedback in the prompt: a 2.1.3 session, procrypto/Personal_AI_Infrastructure@6a72ae4a0f
    // (.claude/projects/-Users-neilhart-PAI/d70ce4cc-....jsonl line 17, toolUseResult "Error: The user doesn't want to
    // proceed ..."), and exports with the user's words (hits 54844117928, 11321917).
    ["a refusal with the user's feedback", REJECT_WITH_FEEDBACK, "Error: The user doesn't want to proceed with this tool use."],
    ["a subagent's denied prompt", SUBAGENT_REJECT],
    // -p mode, nobody to approve (hit 57920751008).
    ["an approval -p mode could not ask for", "This command requires approval"],
  ])("drops a call refused before it ran: %s", (_name, text, toolUseResult?: string) => {
    const { events } = read(passThenRefused("sed -i s/a/b/ calc.py", text, toolUseResult));
    expect(shells(events).map((event) => event.id)).toEqual(["t1"]);
    expect(analyzeSession(events).lastRun).toMatchObject({ outcome: "passed", staleBy: null });
  });

  it.each([
    // Esc on a call in flight writes this same pair (REJECT, toolUseResult "User rejected tool use"), measured on
    // 2.1.270 (hit 68451372661); parsers' fixtures carry it too, newer ones with toolDenialKind (hit 70934460434).
    ["the plain refusal with 'User rejected tool use'", REJECT, "User rejected tool use"],
    ["the plain refusal alone", REJECT, undefined],
    ["the cancel text", CANCEL, undefined],
  ])("keeps the writes of an ambiguous refusal (%s), but no run", (_name, text, toolUseResult) => {
    const written = read(passThenRefused("sed -i s/a/b/ calc.py", text, toolUseResult)).events;
    expect(shells(written)[1]).toMatchObject({ id: "t2", clientStatus: "refused", exitCode: null, output: "" });
    expect(analyzeSession(written).lastRun?.staleBy).toEqual({ kind: "shell", command: "sed -i s/a/b/ calc.py", line: 3 });
    // A refused test run is no run: the earlier pass is still the last one.
    const rerun = analyzeSession(read(passThenRefused(runs.failingSuite.command, text, toolUseResult)).events);
    expect(rerun.runs.map((run) => run.line)).toEqual([1]);
    expect(rerun.lastRun).toMatchObject({ outcome: "passed", staleBy: null });
  });

  it("drops a refused edit of the client's edit tools (it says nothing was written) and keeps another tool's", () => {
    const records = [
      call(1, "e1", "Edit", { file_path: "/w/calc.py", old_string: "a + b", new_string: "a - b" }),
      result(2, "e1", REJECT, { isError: true, toolUseResult: "User rejected tool use" }),
      call(3, "e2", "mcp__fs__write_file", { path: "/w/calc.py", content: "x" }),
      result(4, "e2", REJECT, { isError: true, toolUseResult: "User rejected tool use" }),
    ];
    expect(read(records).events).toMatchObject([{ type: "edit", id: "e2", failed: false }]);
  });
});

describe("subagent results without toolUseResult", () => {
  it("reads an is_error result without an exit code as a failure of unknown status, never a pass", () => {
    const passing = runs.passingSuite;
    // A subagent's failed Bash result as older files keep it: text and is_error, no toolUseResult, no "Exit code N".
    const records = [
      call(1, "s1", "Bash", { command: passing.command }, true),
      result(2, "s1", `Error: command failed\n${passing.stdout}`, { isError: true, sidechain: true }),
    ];
    const { events } = read(records);
    expect(shells(events)).toMatchObject([
      { exitCode: null, completed: true, sidechain: true, clientStatus: "failed", interrupted: false, timedOut: false },
    ]);
    expect(analyzeSession(events).lastRun).toMatchObject({ outcome: "unknown", reasons: ["failed-without-exit-code"] });
    // The same output without is_error is judged on the output: the flag is what keeps it from passing.
    const ok = read([
      call(1, "s1", "Bash", { command: passing.command }, true),
      result(2, "s1", passing.stdout, { sidechain: true }),
    ]).events;
    expect(analyzeSession(ok).lastRun?.outcome).toBe("passed");
  });

  it("keeps the exit code the text gives (a subagent's command killed with its session: 'Exit code 137', hit 68451372661)", () => {
    const records = [
      call(1, "s1", "Bash", { command: runs.passingSuite.command }, true),
      result(2, "s1", "Exit code 137", { isError: true, sidechain: true }),
    ];
    const [killed] = shells(read(records).events);
    expect(killed).toMatchObject({ exitCode: 137, completed: true });
    expect(killed?.clientStatus).toBeUndefined();
  });
});

describe("records of subagents and the session", () => {
  // agent_progress (2.1.x until about 2.1.177: 739 files of 2.1.177-2.1.224 hold no `progress` record,
  // shaharia-lab/agento#185): a parser's fixture of the whole record, the message with its own uuid and
  // timestamp (hit 53518052130); the record's `parentToolUseID` (hit 53780497594).
  const progress = (second: number, inner: Record<string, unknown>) => ({
    type: "progress",
    uuid: `p${second}`,
    sessionId: "s1",
    cwd: "/w",
    timestamp: at(second),
    parentToolUseID: "task1",
    toolUseID: `agent_msg_${second}`,
    data: {
      type: "agent_progress",
      agentId: "a22b0b3973014b318",
      prompt: "Run the tests",
      message: { ...inner, uuid: `m${second}`, timestamp: at(second) },
    },
  });

  it("reads a subagent's calls embedded in agent_progress records, once each, as sidechain", () => {
    const failing = runs.failingSuite;
    const bash = {
      type: "assistant",
      message: { role: "assistant", content: [{ type: "tool_use", id: "s1", name: "Bash", input: { command: failing.command } }] },
    };
    const records = [
      call(1, "task1", "Task", { subagent_type: "Explore", description: "run tests", prompt: "Run the tests" }),
      progress(2, bash),
      progress(3, bash),
      progress(4, {
        type: "user",
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "s1", content: `Exit code 1\n${combined(failing)}`, is_error: true }],
        },
      }),
      progress(5, { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "1 test fails." }] } }),
      result(6, "task1", "1 test fails."),
      say(7, "All tests pass."),
    ];
    const { events, finalMessage } = read(records);
    expect(shells(events)).toMatchObject([{ id: "s1", exitCode: 1, sidechain: true, line: 2, timestamp: at(2) }]);
    expect(finalMessage).toBe("All tests pass.");
    expect(auditEvents(events, finalMessage).claims.map((claim) => claim.label)).toEqual(["contradicted"]);
  });

  it("reads records glued on one line ({...}{...}) and reports a line that is not whole", () => {
    const passing = runs.passingSuite;
    const glued = `${JSON.stringify(call(1, "t1", "Bash", { command: passing.command }))}${JSON.stringify(result(2, "t1", passing.stdout, { toolUseResult: { stdout: passing.stdout, stderr: "" } }))}`;
    const { events, problems } = readTranscript(`${glued}\n${JSON.stringify(say(3, "All tests pass."))}{"type":\n`);
    expect(shells(events)).toMatchObject([{ id: "t1", exitCode: 0, line: 1 }]);
    expect(problems).toEqual([{ line: 2, reason: expect.stringMatching(/^invalid JSON: /) as unknown }]);
  });

  it("ends an assistant message at Stop hook feedback: the text after a blocked stop is the final message alone", () => {
    const records = [
      say(1, "All tests pass."),
      user(2, "Stop hook feedback:\nThe last test run (`pytest`) failed and your final message does not say so."),
      say(3, "1 test still fails: test_sub."),
    ];
    const { events, finalMessage, stopHookFeedback } = read(records);
    expect(
      events.filter((event) => event.type === "assistant-message").map((event) => (event.type === "assistant-message" ? event.text : "")),
    ).toEqual(["All tests pass.", "1 test still fails: test_sub."]);
    expect(finalMessage).toBe("1 test still fails: test_sub.");
    expect(stopHookFeedback).toHaveLength(1);
  });

  it("starts a new message after a call that leaves no event (Read, a poll) and after a task notification", () => {
    const records = [
      say(1, "Let me look at calc.py."),
      call(2, "r1", "Read", { file_path: "/w/calc.py" }),
      result(3, "r1", "1\tdef add(a, b):"),
      say(4, "sub is fixed."),
      ...startBackground(5, "t1", runs.passingSuite.command, "b1"),
      say(7, "The tests run in the background."),
      user(
        8,
        `<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n<summary>Background command "Run the tests" completed (exit code 0).</summary>\n</task-notification>`,
      ),
      say(9, "The background run finished."),
    ];
    const { events, finalMessage } = read(records);
    expect(events.flatMap((event) => (event.type === "assistant-message" ? [event.text] : []))).toEqual([
      "Let me look at calc.py.",
      "sub is fixed.",
      "The tests run in the background.",
      "The background run finished.",
    ]);
    expect(finalMessage).toBe("The background run finished.");
  });

  it("takes a subagent-only file's last text as its final message and labels it against the subagent's runs", () => {
    // A subagent's own file holds only sidechain records (letta-ai/trajectory#26 recognises them so).
    const failing = runs.failingSuite;
    const records = [
      { type: "user", ...envelope(1, true), agentId: "a1", message: { role: "user", content: "Run the tests and report." } },
      call(2, "s1", "Bash", { command: failing.command }, true),
      result(3, "s1", `Exit code 1\n${combined(failing)}`, {
        isError: true,
        sidechain: true,
        toolUseResult: `Error: Exit code 1\n${combined(failing)}`,
      }),
      say(4, "All tests pass.", true),
    ];
    const { events, finalMessage } = read(records);
    expect(finalMessage).toBe("All tests pass.");
    expect(auditEvents(events, finalMessage).claims.map((claim) => claim.label)).toEqual(["contradicted"]);
  });
});

// The layout: `<dir>/<session-id>.jsonl` and `<dir>/<session-id>/subagents/agent-<id>.jsonl` (a maintainer,
// anthropics/claude-agent-sdk-typescript#242; committed 2.1.2 and 2.1.6 subagent files of procrypto/
// Personal_AI_Infrastructure@6a72ae4a0f; real paths of 2026-05/06 in an archive, hits 60099182661, 59827251801;
// the `.meta.json` sidecar and workflows/ one level deeper, daymade/claude-code-skills#472).
describe("subagent files", () => {
  const SESSION = "5e210e4e-d61d-49d8-b4bb-a7d7bba9c39a";
  // The main agent passes, a background subagent edits after that, the main agent claims.
  const sessionRecords = () => {
    const passing = runs.passingSuite;
    return [
      user(1, "fix sub and run the tests"),
      call(2, "task1", "Task", {
        subagent_type: "general-purpose",
        description: "tidy calc",
        prompt: "Tidy calc.py",
        run_in_background: true,
      }),
      result(3, "task1", "Async agent launched successfully.\nagentId: a975e1355b9b18cb3", {
        toolUseResult: { isAsync: true, status: "async_launched", agentId: "a975e1355b9b18cb3" },
      }),
      call(4, "t1", "Bash", { command: passing.command }),
      result(5, "t1", passing.stdout, { toolUseResult: { stdout: passing.stdout, stderr: "", interrupted: false, isImage: false } }),
      say(9, "All tests pass."),
    ];
  };
  const agentRecords = [
    { type: "user", ...envelope(3, true), agentId: "a975e1355b9b18cb3", message: { role: "user", content: "Tidy calc.py" } },
    call(6, "s1", "Edit", { file_path: "/w/calc.py", old_string: "return a - b", new_string: "return b - a" }, true),
    result(7, "s1", "The file /w/calc.py has been updated.", { sidechain: true, toolUseResult: { filePath: "/w/calc.py" } }),
    say(8, "Tidied calc.py.", true),
  ];

  function session(name: string, withAgent: boolean): string {
    const root = join(dir, name);
    mkdirSync(join(root, SESSION, "subagents"), { recursive: true });
    writeFileSync(join(root, `${SESSION}.jsonl`), toJsonl(sessionRecords()));
    if (withAgent) writeFileSync(join(root, SESSION, "subagents", "agent-a975e1355b9b18cb3.jsonl"), toJsonl(agentRecords));
    // The sidecar beside it is no transcript.
    writeFileSync(
      join(root, SESSION, "subagents", "agent-a975e1355b9b18cb3.meta.json"),
      JSON.stringify({ agentType: "general-purpose", spawnDepth: 1 }),
    );
    return join(root, `${SESSION}.jsonl`);
  }

  async function audit(path: string): Promise<SessionAudit[]> {
    let stdout = "";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    vi.spyOn(process, "stdin", "get").mockReturnValue(Readable.from([]) as unknown as typeof process.stdin);
    const status = await runCli(["audit", path, "--jobs", "1", "--no-progress"]);
    vi.restoreAllMocks();
    expect(status).toBe(0);
    return stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as SessionAudit);
  }

  it("agent-evidence audit merges a subagent's edit after the last passing run: the pass is stale", async () => {
    const [alone] = await audit(session("without-agent", false));
    expect(alone?.claims.map((claim) => claim.label)).toEqual(["backed"]);
    session("with-agent", true);
    const audits = await audit(join(dir, "with-agent"));
    // The walk lists `<session-id>/` (its agent file) before `<session-id>.jsonl`. The edit takes the line of
    // the session record it came before (the final message, line 6).
    const [own, merged] = audits;
    expect(audits).toHaveLength(2);
    expect(merged).toMatchObject({
      path: join(dir, "with-agent", `${SESSION}.jsonl`),
      lastRun: { outcome: "passed", stale: true, staleBy: { kind: "edit-tool", tool: "Edit", paths: ["/w/calc.py"], line: 6 } },
    });
    expect(merged?.claims.map((claim) => claim.label)).toEqual(["stale"]);
    // The subagent's own file is audited too, as a session of its own.
    expect(own?.path).toBe(join(dir, "with-agent", SESSION, "subagents", "agent-a975e1355b9b18cb3.jsonl"));
  });

  it("the Stop hook reads the subagent files too and blocks the stale pass", () => {
    const stop = (path: string) =>
      runStopHook(
        "claude",
        JSON.stringify({
          session_id: `s-${Math.random()}`,
          transcript_path: path,
          cwd: "/w",
          hook_event_name: "Stop",
          stop_hook_active: false,
        }),
        { stateDir: join(dir, "state") },
      );
    expect(stop(session("hook-without-agent", false)).stdout).toBe("");
    const blocked = stop(session("hook-with-agent", true));
    expect((JSON.parse(blocked.stdout) as { reason: string }).reason).toMatch(
      /^Your final message says "All tests pass", but files changed after the test run `python3 -m pytest[^`]*` \(transcript line \d+\) that passed: Edit \/w\/calc\.py \(transcript line \d+\) came after it\./,
    );
  });

  it("reads plain files only, within the caps, and says which it left out", () => {
    const path = session("bounded", true);
    const subagents = join(dir, "bounded", SESSION, "subagents");
    // A link (to the session's own file, or anywhere) is not followed.
    symlinkSync(path, join(subagents, "agent-link.jsonl"));
    mkdirSync(join(subagents, "workflows", "wf1"), { recursive: true });
    writeFileSync(join(subagents, "workflows", "wf1", "agent-w1.jsonl"), toJsonl([say(8, "done", true)]));
    expect(findSubagentFiles(path).files).toEqual([
      join(subagents, "agent-a975e1355b9b18cb3.jsonl"),
      join(subagents, "workflows", "wf1", "agent-w1.jsonl"),
    ]);
    expect(findSubagentFiles(path, { maxFiles: 1 }).omitted).toBe(1);
    const small = mergeSubagentTranscripts(readTranscript(toJsonl(sessionRecords())), path, { maxFileBytes: 100 });
    expect(small.problems).toEqual([
      { line: 0, reason: "subagent transcript subagents/agent-a975e1355b9b18cb3.jsonl not read (EFBIG)" },
      { line: 0, reason: "subagent transcript subagents/agent-w1.jsonl not read (EFBIG)" },
    ]);
    expect(small.events.some((event) => "sidechain" in event && event.sidechain)).toBe(false);
  });

  it("takes a call the session already holds (from agent_progress) once, the subagent file's reading at the session's line", () => {
    const passing = runs.passingSuite;
    const embedded = {
      type: "progress",
      uuid: "p5",
      sessionId: "s1",
      timestamp: at(5),
      data: {
        type: "agent_progress",
        agentId: "a1",
        message: {
          type: "assistant",
          timestamp: at(5),
          message: { role: "assistant", content: [{ type: "tool_use", id: "s1", name: "Bash", input: { command: passing.command } }] },
        },
      },
    };
    const main = readTranscript(toJsonl([call(4, "task1", "Task", { subagent_type: "Explore", prompt: "x" }), embedded, say(9, "done")]));
    const sub = readTranscript(
      toJsonl([
        call(5, "s1", "Bash", { command: passing.command }, true),
        result(6, "s1", passing.stdout, { sidechain: true, toolUseResult: { stdout: passing.stdout, stderr: "" } }),
      ]),
    );
    const root = join(dir, "progress-and-file");
    mkdirSync(join(root, "s1", "subagents"), { recursive: true });
    writeFileSync(
      join(root, "s1", "subagents", "agent-a1.jsonl"),
      toJsonl([
        call(5, "s1", "Bash", { command: passing.command }, true),
        result(6, "s1", passing.stdout, { sidechain: true, toolUseResult: { stdout: passing.stdout, stderr: "" } }),
      ]),
    );
    const merged = mergeSubagentTranscripts(main, join(root, "s1.jsonl"));
    expect(shells(main.events)).toMatchObject([{ completed: false }]);
    expect(shells(sub.events)).toMatchObject([{ completed: true, exitCode: 0, line: 1 }]);
    expect(shells(merged.events)).toMatchObject([{ id: "s1", completed: true, exitCode: 0, line: 2 }]);
  });
});
