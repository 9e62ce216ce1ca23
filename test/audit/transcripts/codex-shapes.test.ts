// Codex shapes no licensed public rollout shows (test/fixtures/transcripts/codex/SOURCES.md): code mode,
// 0.15x item_completed turn items, denials, MCP end events with no function call. The records follow
// Codex's own source: codex-rs/protocol/src/items.rs (TurnItem, CommandExecutionItem: snake_case in
// rollouts, camelCase in the app-server schema; status inProgress/completed/failed/declined),
// codex-rs/core/src/tools/code_mode/description.md (exec runs JavaScript that calls `tools.NAME(...)`),
// codex-rs/core (the texts "exec command rejected by user", "patch rejected by user", "aborted by user",
// "failed in sandbox {type:?} with execution error: {error}"). They are documented shapes, not captures.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

import { analyzeSession } from "../../../src/audit/transcript-timeline.js";
import { scanCodeModeScript } from "../../../src/audit/transcripts/codex-calls.js";
import { parseCodexOutput } from "../../../src/audit/transcripts/codex-output.js";
import { detectTranscriptFormat, readTranscript } from "../../../src/audit/transcripts/read-transcript.js";
import { captureRealRuns, type RealRuns } from "./real-runs.js";
import { toJsonl } from "./records.js";

let runs: RealRuns;
beforeAll(() => {
  runs = captureRealRuns();
});

const meta = {
  timestamp: "2026-10-01T00:00:00.000Z",
  type: "session_meta",
  payload: { id: "t1", cwd: "/srv/app", originator: "codex_cli_rs", cli_version: "0.153.4" },
};
const item = (payload: Record<string, unknown>) => ({ timestamp: "2026-10-01T00:00:01.000Z", type: "response_item", payload });
const event = (payload: Record<string, unknown>) => ({ timestamp: "2026-10-01T00:00:02.000Z", type: "event_msg", payload });
const call = (id: string, name: string, args: Record<string, unknown>) =>
  item({ type: "function_call", name, arguments: JSON.stringify(args), call_id: id });
const output = (id: string, text: string) => item({ type: "function_call_output", call_id: id, output: text });
const exec = (id: string, script: string) =>
  item({ type: "custom_tool_call", status: "completed", call_id: id, name: "exec", input: script });
const execOutput = (id: string, text: string) => item({ type: "custom_tool_call_output", call_id: id, output: text });
const commandItem = (id: string, command: string, fields: Record<string, unknown>) =>
  event({
    type: "item_completed",
    thread_id: "t1",
    turn_id: "u1",
    item: {
      type: "CommandExecution",
      id,
      command: ["/bin/bash", "-lc", command],
      cwd: "/srv/app",
      source: "unified_exec_startup",
      ...fields,
    },
  });
const read = (records: unknown[]) => readTranscript(toJsonl([meta, ...records]));
const kinds = (records: unknown[]) =>
  read(records).events.map((e) =>
    e.type === "shell" ? `shell ${e.command} ${e.exitCode}` : e.type === "edit" ? `edit ${e.tool} [${e.paths.join(",")}]` : e.type,
  );

describe("Codex code mode (custom_tool_call exec) and item_completed CommandExecution", () => {
  it("reads the command a code mode exec ran from its CommandExecution item; the exec is no edit of its own", () => {
    expect(
      kinds([
        exec("x1", 'const r = await tools.exec_command({cmd: "pytest -q"}); text(r.output)'),
        commandItem("i1", "pytest -q", { status: "completed", exit_code: 0, aggregated_output: runs.passingSuite.stdout }),
        execOutput("x1", runs.passingSuite.stdout),
      ]),
    ).toEqual(["shell pytest -q 0"]);
  });

  it.each([
    ["snake_case", { status: "failed", exit_code: 1, aggregated_output: "1 failed\n" }, 1],
    ["camelCase", { status: "failed", exitCode: 2, aggregatedOutput: "error\n" }, 2],
    ["no exit code", { status: "failed" }, null],
  ])("reads a %s item", (_name, fields, exitCode) => {
    const events = read([commandItem("i1", "pytest -q", fields)]).events;
    expect(events).toMatchObject([{ type: "shell", command: "pytest -q", exitCode, completed: true, cwd: "/srv/app" }]);
  });

  it.each([
    ["a loop", "for (const c of ['pytest', 'ls']) await tools.exec_command({cmd: c});"],
    ["a computed tool name", "const n = 'exec_command'; await tools[n]({cmd: 'pytest'});"],
    ["an aliased tools object", "const t = tools; await t.exec_command({cmd: 'pytest'});"],
    ["a nested apply_patch", 'await tools.exec_command({cmd: "pytest"}); await tools.apply_patch("*** Begin Patch");'],
    ["an MCP write", 'await tools.exec_command({cmd: "pytest"}); await tools.mcp__fs__write_file({path: "a.py", content: "x"});'],
  ])("keeps a 'may have changed anything' edit for a script with %s", (_name, script) => {
    expect(
      kinds([
        exec("x1", script),
        commandItem("i1", "pytest", { status: "completed", exit_code: 0, aggregated_output: runs.passingSuite.stdout }),
        execOutput("x1", runs.passingSuite.stdout),
      ])[0],
    ).toBe("edit exec []");
  });

  it("keeps the edit when fewer commands were recorded than the script runs, or the output never came", () => {
    const two = 'await tools.exec_command({cmd: "sed -i s/a/b/ a.py"}); await tools.exec_command({cmd: "pytest"});';
    expect(kinds([exec("x1", two), commandItem("i1", "pytest", { status: "completed", exit_code: 0 }), execOutput("x1", "")])[0]).toBe(
      "edit exec []",
    );
    expect(kinds([exec("x1", 'await tools.exec_command({cmd: "pytest"})')])).toEqual(["edit exec []"]);
  });

  it("a later code mode exec that may have written stales an earlier pass (never a false pass)", () => {
    const { command, stdout } = runs.passingSuite;
    const records = [
      { ...meta, payload: { ...meta.payload, cwd: runs.dir } },
      exec("x1", `const r = await tools.exec_command({cmd: ${JSON.stringify(command)}}); text(r.output)`),
      event({
        type: "item_completed",
        item: {
          type: "CommandExecution",
          id: "i1",
          command: ["/bin/bash", "-lc", command],
          cwd: runs.dir,
          status: "completed",
          exit_code: 0,
          aggregated_output: stdout,
        },
      }),
      execOutput("x1", stdout),
    ];
    expect(analyzeSession(readTranscript(toJsonl(records)).events).runs[0]).toMatchObject({ outcome: "passed", staleBy: null });
    const later = [...records, exec("x2", "for (const f of files) await tools.exec_command({cmd: `sed -i s/a/b/ ${f}`});")];
    expect(analyzeSession(readTranscript(toJsonl(later)).events).runs[0]).toMatchObject({
      outcome: "passed",
      staleBy: { kind: "edit-tool", tool: "exec" },
    });
  });

  it("keeps both edits when two code mode execs run at once: their commands can't be told apart", () => {
    const one = 'await tools.exec_command({cmd: "pytest"})';
    const records = [
      exec("x1", one),
      exec("x2", one),
      commandItem("i1", "pytest", { status: "completed", exit_code: 0 }),
      commandItem("i2", "pytest", { status: "completed", exit_code: 0 }),
      execOutput("x1", ""),
      execOutput("x2", ""),
    ];
    expect(kinds(records)).toEqual(["edit exec []", "edit exec []", "shell pytest 0", "shell pytest 0"]);
  });

  it("a script that calls no tool, or only read-only ones, changes nothing", () => {
    expect(
      kinds([
        exec("x1", "text(1 + 1)"),
        execOutput("x1", "2"),
        exec("x2", 'await tools.view_image({path: "a.png"})'),
        execOutput("x2", ""),
      ]),
    ).toEqual([]);
    expect(scanCodeModeScript('const r = await tools.exec_command({cmd: "pytest"}); text(r.output)')).toEqual({
      shellCalls: 1,
      otherEdits: false,
      opaque: false,
    });
  });

  it("reads FileChange and McpToolCall items that no call announced through the same rules", () => {
    expect(
      kinds([
        event({
          type: "item_completed",
          item: { type: "FileChange", id: "p1", changes: { "src/a.py": { type: "update", unified_diff: "" } }, status: "completed" },
        }),
        event({
          type: "item_completed",
          item: {
            type: "McpToolCall",
            id: "m1",
            server: "fs",
            tool: "write_file",
            arguments: { path: "b.py", content: "x" },
            status: "completed",
          },
        }),
        event({
          type: "item_completed",
          item: { type: "McpToolCall", id: "m2", server: "fs", tool: "read_file", arguments: { path: "b.py" }, status: "completed" },
        }),
        event({ type: "item_completed", item: { type: "AgentMessage", id: "a1", content: [{ type: "Text", text: "hi" }] } }),
      ]),
    ).toEqual(["edit apply_patch [src/a.py]", "edit mcp__fs__write_file [b.py]"]);
  });

  it("skips 0.15x line types it has no use for without reporting them", () => {
    const result = read([
      { timestamp: "t", type: "world_state", payload: { full: true } },
      { timestamp: "t", type: "token_usage_record", payload: { usage: {} } },
    ]);
    expect(result.problems).toEqual([]);
  });
});

describe("Codex calls that never ran", () => {
  it.each([
    ["the user denied it", "exec command rejected by user"],
    ["unified exec's denial", "exec_command rejected by user"],
    ["the policy rejected it", "exec command rejected: dangerous command"],
    ["the user aborted the approval", "aborted by user"],
    ["its arguments did not parse", "failed to parse function arguments: missing field `command`"],
  ])("a shell call %s is no run", (_name, text) => {
    expect(kinds([call("c1", "shell_command", { command: "pytest" }), output("c1", text)])).toEqual([]);
  });

  it("a declined CommandExecution or exec_command_end removes its call", () => {
    expect(kinds([call("c1", "exec_command", { cmd: "pytest" }), commandItem("c1", "pytest", { status: "declined" })])).toEqual([]);
    expect(
      kinds([call("c1", "exec_command", { cmd: "pytest" }), event({ type: "exec_command_end", call_id: "c1", status: "declined" })]),
    ).toEqual([]);
  });

  it("a rejected patch changed nothing; a patch that failed verification is a failed edit", () => {
    const patch = (id: string) =>
      item({
        type: "custom_tool_call",
        call_id: id,
        name: "apply_patch",
        input: "*** Begin Patch\n*** Update File: a.py\n@@\n-a\n+b\n*** End Patch\n",
      });
    const events = read([
      patch("p1"),
      execOutput("p1", "patch rejected by user"),
      patch("p2"),
      execOutput("p2", "apply_patch verification failed: Failed to find expected lines in a.py"),
    ]).events;
    expect(events).toMatchObject([{ type: "edit", id: "p2", failed: true }]);
  });

  it("an interrupted run and a spawn error stay runs with no exit code", () => {
    expect(
      kinds([
        call("c1", "shell", { command: ["pytest"] }),
        output("c1", "Wall time: 3.1 seconds\naborted by user"),
        call("c2", "shell", { command: ["rg", "x"] }),
        output("c2", "execution error: No such file or directory (os error 2)"),
      ]),
    ).toEqual(["shell pytest null", "shell rg x null"]);
  });
});

describe("Codex unified exec sessions", () => {
  const running = (id: string, session: number) =>
    output(
      id,
      `Chunk ID: a1\nWall time: 10.0 seconds\nProcess running with session ID ${session}\nOriginal token count: 3\nOutput:\nstarted\n`,
    );
  const exited = (id: string, code: number, text: string) =>
    output(id, `Chunk ID: a2\nWall time: 1.0 seconds\nProcess exited with code ${code}\nOriginal token count: 3\nOutput:\n${text}`);

  it("a poll that finds the process still running leaves the command unfinished; the next one finishes it", () => {
    const events = read([
      call("c1", "exec_command", { cmd: "pytest" }),
      running("c1", 7),
      call("w1", "write_stdin", { session_id: 7, chars: "" }),
      running("w1", 7),
      call("w2", "write_stdin", { session_id: 7, chars: "" }),
    ]).events;
    expect(events).toMatchObject([{ type: "shell", exitCode: null, completed: false }]);
    const done = read([
      call("c1", "exec_command", { cmd: "pytest" }),
      running("c1", 7),
      call("w1", "write_stdin", { session_id: 7, chars: "" }),
      exited("w1", 1, "1 failed\n"),
    ]).events;
    expect(done).toMatchObject([{ type: "shell", command: "pytest", exitCode: 1, completed: true, output: "started\n1 failed\n" }]);
  });

  it("exec_command_end wins: a later poll does not add to or change the command it finished", () => {
    const events = read([
      call("c1", "exec_command", { cmd: "pytest" }),
      running("c1", 7),
      event({
        type: "exec_command_end",
        call_id: "c1",
        command: ["/bin/bash", "-lc", "pytest"],
        exit_code: 0,
        aggregated_output: "started\n1 passed\n",
      }),
      call("w1", "write_stdin", { session_id: 7, chars: "" }),
      exited("w1", 3, "noise\n"),
    ]).events;
    expect(events).toMatchObject([{ type: "shell", exitCode: 0, output: "started\n1 passed\n" }]);
  });

  it("a poll of a session this file never started is ignored; one that sends input may have changed anything", () => {
    expect(kinds([call("w1", "write_stdin", { session_id: 9, chars: "" }), exited("w1", 0, "")])).toEqual([]);
    expect(kinds([call("w1", "write_stdin", { session_id: 9, chars: "rm -rf build\n" }), exited("w1", 0, "")])).toEqual([
      "edit write_stdin []",
    ]);
  });
});

describe("Codex MCP calls", () => {
  it("an mcp_tool_call_end with no function call goes through the tool effect rule", () => {
    const end = (tool: string, args: Record<string, unknown>) =>
      event({
        type: "mcp_tool_call_end",
        call_id: `m-${tool}`,
        invocation: { server: "fs", tool, arguments: args },
        result: { Ok: { content: [] } },
      });
    expect(kinds([end("write_file", { path: "a.py", content: "x" }), end("read_file", { path: "a.py" })])).toEqual([
      "edit mcp__fs__write_file [a.py]",
    ]);
  });

  it("a function call in an MCP namespace is named with it; its end event adds nothing", () => {
    expect(
      kinds([
        item({
          type: "function_call",
          name: "replace_symbol_body",
          namespace: "mcp__serena__",
          arguments: JSON.stringify({ relative_path: "a.py", body: "x" }),
          call_id: "m1",
        }),
        event({ type: "mcp_tool_call_end", call_id: "m1", invocation: { server: "serena", tool: "replace_symbol_body", arguments: {} } }),
      ]),
    ).toEqual(["edit mcp__serena__replace_symbol_body []"]);
  });
});

describe("parseCodexOutput", () => {
  it.each([
    ["legacy JSON", '{"output":"ok\\n","metadata":{"exit_code":0,"duration_seconds":0.1}}', { kind: "ran", exitCode: 0, output: "ok\n" }],
    [
      "a sandbox denial with its exit code",
      "failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, exit code: 1, stdout: .F, stderr: boom\n",
      { kind: "ran", exitCode: 1, output: ".Fboom\n" },
    ],
    [
      "a sandbox denial in Rust debug form",
      'failed in sandbox LinuxSeccomp with execution error: Denied { output: ExecToolCallOutput { exit_code: 2, stdout: StreamOutput { text: "", truncated_after_lines: None }, stderr: StreamOutput { text: "", truncated_after_lines: None }, aggregated_output: StreamOutput { text: "E   ImportError\\n\\u{1b}[0m", truncated_after_lines: None }, duration: 62.8ms, timed_out: false } }',
      { kind: "ran", exitCode: 2, output: "E   ImportError\n\u001b[0m" },
    ],
    [
      "a sandbox timeout",
      "failed in sandbox MacosSeatbelt with execution error: command timed out",
      { kind: "ran", exitCode: null, timedOut: true },
    ],
    [
      "0.45's sandbox failure without an exit code",
      "failed in sandbox: 1 failed, 2 passed\n",
      { kind: "ran", exitCode: null, output: "1 failed, 2 passed\n" },
    ],
    [
      "a timed-out text output",
      "Exit code: 124\nWall time: 10 seconds\nOutput:\ncommand timed out after 10000 milliseconds\n",
      { kind: "ran", exitCode: 124, timedOut: true },
    ],
    [
      "a running session",
      "Chunk ID: 1\nWall time: 1 seconds\nProcess running with session ID 42\nOriginal token count: 0\nOutput:\n",
      { kind: "running", sessionId: "42" },
    ],
    ["a denial", "exec command rejected by user", { kind: "not-run" }],
    [
      "a denial quoted in a command's output is output",
      "Exit code: 0\nWall time: 0 seconds\nOutput:\nexec command rejected by user\n",
      { kind: "ran", exitCode: 0 },
    ],
  ])("%s", (_name, text, expected) => {
    expect(parseCodexOutput(text)).toMatchObject(expected);
  });

  it("a timed-out run is never read as passing", () => {
    const events = read([
      call("c1", "shell", { command: ["python3", "-m", "pytest"] }),
      output("c1", "Exit code: 0\nWall time: 10 seconds\nOutput:\n1 passed\ncommand timed out after 10000 milliseconds\n"),
    ]).events;
    expect(events).toMatchObject([{ type: "shell", exitCode: null, timedOut: true }]);
  });
});

describe("Codex input that is not a rollout", () => {
  it("detects the legacy layout but not other clients' lines", () => {
    expect(
      detectTranscriptFormat(toJsonl([{ id: "s1", timestamp: "2025-08-24T15:07:09.961Z", instructions: null }, { record_type: "state" }])),
    ).toBe("codex");
    expect(detectTranscriptFormat(toJsonl([{ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }]))).toBe(
      "codex",
    );
    expect(detectTranscriptFormat(toJsonl([{ command: "pytest", output: "1 passed", exitCode: 0 }]))).toBe("generic");
    expect(detectTranscriptFormat(toJsonl([{ type: "user", uuid: "u1", sessionId: "s", message: { role: "user", content: "hi" } }]))).toBe(
      "claude-code",
    );
  });

  it("reports a line of neither layout and goes on", () => {
    const result = readTranscript(
      toJsonl([
        { id: "s1", timestamp: "t", instructions: null },
        { hello: "world" },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Done." }] },
      ]),
      { format: "codex" },
    );
    expect(result.problems).toEqual([{ line: 2, reason: "not a Codex rollout line" }]);
    expect(result.finalMessage).toBe("Done.");
  });

  it("never throws on arbitrary rollout-shaped records", () => {
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.dictionary(
        fc.constantFrom("type", "call_id", "name", "output", "command", "cmd", "status", "item", "changes", "invocation"),
        fc.string(),
      ),
    );
    const payload = fc.record({
      type: fc.constantFrom(
        "function_call",
        "custom_tool_call",
        "function_call_output",
        "custom_tool_call_output",
        "exec_command_end",
        "item_completed",
        "mcp_tool_call_end",
        "patch_apply_end",
        "message",
        "local_shell_call",
      ),
      name: fc.constantFrom("shell", "exec_command", "write_stdin", "exec", "apply_patch", "mcp__x__write"),
      call_id: fc.constantFrom("c1", "c2"),
      arguments: fc.oneof(fc.string(), fc.constant('{"session_id":1,"chars":""}'), fc.constant('{"command":["bash","-lc","pytest"]}')),
      output: value,
      item: value,
      command: value,
      changes: value,
      invocation: value,
    });
    const line = fc.oneof(
      fc.record({ type: fc.constantFrom("response_item", "event_msg", "turn_context", "session_meta"), payload }),
      payload,
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (records) => {
        const result = readTranscript(toJsonl(records), { format: "codex" });
        expect(result.format).toBe("codex");
      }),
      { numRuns: 300, seed: 15 },
    );
  });
});
