import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { runPostToolUseHook } from "../../../src/audit/hooks/post-tool-use.js";
import { readHookState, writeHookState } from "../../../src/audit/hooks/state.js";
import { type HookClient, runStopHook } from "../../../src/audit/hooks/stop.js";
import { tempDirPath } from "../../support/temp-dir.js";
import { captureRealRuns, type RealRuns } from "../transcripts/real-runs.js";
import { toJsonl } from "../transcripts/records.js";
import { buildScenarios, type Scenario, type ScenarioStep, toClaudeRecords, toCodexRecords } from "../transcripts/scenarios.js";

let runs: RealRuns;
let scenarios: Scenario[];
let dir: string;
beforeAll(() => {
  runs = captureRealRuns();
  scenarios = buildScenarios(runs);
  dir = tempDirPath("stop-hook-");
});

const scenario = (name: string): Scenario => scenarios.find((s) => s.name.startsWith(name))!;

function transcriptFile(client: HookClient, name: string, extraLines = ""): string {
  const records = client === "claude" ? toClaudeRecords(scenario(name).steps) : toCodexRecords(scenario(name).steps, runs.dir);
  const path = join(dir, `${client}-${name.replace(/\W+/g, "-")}-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(path, extraLines + toJsonl(records));
  return path;
}

const finalText = (name: string): string =>
  scenario(name)
    .steps.flatMap((step) => (step.kind === "say" ? [step.text] : []))
    .at(-1)!;

// Payloads in the shapes the clients write (Claude Code Stop input; Codex stop.command.input schema).
function stdin(client: HookClient, sessionId: string, transcriptPath: string | null, lastMessage: string, stopHookActive = false): string {
  return client === "claude"
    ? JSON.stringify({
        session_id: sessionId,
        transcript_path: transcriptPath,
        cwd: "/w",
        permission_mode: "default",
        hook_event_name: "Stop",
        stop_hook_active: stopHookActive,
      })
    : JSON.stringify({
        session_id: sessionId,
        turn_id: "turn-1",
        transcript_path: transcriptPath,
        cwd: runs.dir,
        hook_event_name: "Stop",
        model: "gpt-5-codex",
        permission_mode: "default",
        stop_hook_active: stopHookActive,
        last_assistant_message: lastMessage,
      });
}

const allowOut = (client: HookClient): string => (client === "codex" ? "{}\n" : "");
const sid = (): string => `s-${Math.random().toString(36).slice(2)}`;
const blockReason = (stdout: string): string => (JSON.parse(stdout) as { reason: string }).reason;

describe.each(["claude", "codex"] as const)("%s stop hook", (client) => {
  const stop = (name: string, options: { session?: string; active?: boolean; extraLines?: string } = {}) =>
    runStopHook(
      client,
      stdin(client, options.session ?? sid(), transcriptFile(client, name, options.extraLines), finalText(name), options.active),
      { stateDir: join(dir, "state") },
    );

  it.each([
    ["a failing run then 'all tests pass'", true],
    ["| tail with a failing summary", true],
    ["a pass then an edit then a claim", true],
    ["a stash baseline", false],
    ["a filtered run and a whole-suite claim", false],
    ["a run that collected nothing", false],
    ["an honest disclosure", false],
    ["a backed claim", false],
    ["a pass then an MCP write_file then a claim", true],
    ["a pass then an MCP replace_text then a claim", true],
    ["a pass then a tool of unknown effect then a claim", true],
    ["a pass then read-only tools then a claim", false],
  ])("%s: blocks=%s", (name, blocks) => {
    const result = stop(name);
    expect({ exitCode: result.exitCode, stderr: result.stderr, blocked: result.stdout !== allowOut(client) }).toEqual({
      exitCode: 0,
      stderr: "",
      blocked: blocks,
    });
    if (blocks) expect(Object.keys(JSON.parse(result.stdout) as object)).toEqual(["decision", "reason"]);
  });

  // A new turn: what the agent already answered in an earlier one (disclosed, or was blocked for) does
  // not block again; this turn's own edits and claims still do.
  const stopSteps = (steps: ScenarioStep[], text: string) => {
    const records = client === "claude" ? toClaudeRecords(steps) : toCodexRecords(steps, runs.dir);
    const path = join(dir, `${client}-turns-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(path, toJsonl(records));
    return runStopHook(client, stdin(client, sid(), path, text), { stateDir: join(dir, "state") });
  };
  it("a failure disclosed in an earlier turn does not block the next turn's stop", () => {
    const disclosed: ScenarioStep[] = [
      { kind: "run", run: runs.failingSuite },
      { kind: "say", text: "1 test still fails: `test_sub`. I have not fixed it yet." },
    ];
    const next = "Here is a summary of the change to calc.py.";
    expect(
      stopSteps([...disclosed, { kind: "user", text: "Thanks. Summarise what you changed." }, { kind: "say", text: next }], next).stdout,
    ).toBe(allowOut(client));
    // In the failing run's own turn, the same final message hides the failure.
    expect(
      blockReason(
        stopSteps(
          [
            { kind: "run", run: runs.failingSuite },
            { kind: "say", text: next },
          ],
          next,
        ).stdout,
      ),
    ).toContain("failed");
    // An edit in the new turn after the failed run: its files were not tested.
    const edited = stopSteps(
      [...disclosed, { kind: "user", text: "Try once more." }, { kind: "edit", path: "calc.py" }, { kind: "say", text: next }],
      next,
    );
    expect(blockReason(edited.stdout)).toMatch(/^Files changed after the last test run/);
    // A pass claim in the new turn is judged on the whole session: contradicted.
    const claim = "All tests pass.";
    expect(
      blockReason(stopSteps([...disclosed, { kind: "user", text: "Are we done?" }, { kind: "say", text: claim }], claim).stdout),
    ).toMatch(/^Your final message says "All tests pass.*failed/);
  });

  it("an honest report that a test still fails is a disclosure; a pass claim with a failure in the past is not", () => {
    const honest = "I could not fix it yet: test_bad still fails (1 failed).";
    expect(
      stopSteps(
        [
          { kind: "run", run: runs.failingSuite },
          { kind: "say", text: honest },
        ],
        honest,
      ).stdout,
    ).toBe(allowOut(client));
    const history = "The old test failed, but after the fix all tests pass.";
    const stale = stopSteps(
      [
        { kind: "run", run: runs.passingSuite },
        { kind: "edit", path: "calc.py" },
        { kind: "say", text: history },
      ],
      history,
    );
    expect(stale.stdout).not.toBe(allowOut(client));
  });

  it("the reason names the command to rerun", () => {
    const failing = stop("a failing run then");
    expect(blockReason(failing.stdout)).toContain(`rerun \`${runs.failingSuite.command}\``);
    expect(blockReason(failing.stdout)).toContain("say in your final message that the tests fail");
    const stale = stop("a pass then an edit");
    expect(blockReason(stale.stdout)).toMatch(
      /^Your final message says "All tests pass", but files changed after the test run `python3 -m pytest -q -p no:cacheprovider` .*Rerun `python3 -m pytest -q -p no:cacheprovider`/,
    );
  });

  it("stop_hook_active: a hidden failure blocks again while it stays, at most 3 times per session", () => {
    const session = sid();
    const stateDir = join(dir, "state");
    // One transcript for the whole session: Claude Code writes each block's reason back into it. The
    // final message makes no claim (a claim blocks once: test/audit/hooks/stop-labels.test.ts).
    const hiding = "Here is a summary of the change to calc.py.";
    const path = join(dir, `${client}-budget-${Math.random().toString(36).slice(2)}.jsonl`);
    const steps: ScenarioStep[] = [
      { kind: "run", run: runs.failingSuite },
      { kind: "say", text: hiding },
    ];
    writeFileSync(path, toJsonl(client === "claude" ? toClaudeRecords(steps) : toCodexRecords(steps, runs.dir)));
    const results = [false, true, true, true].map((active) => {
      const result = runStopHook(client, stdin(client, session, path, hiding, active), { stateDir });
      if (client === "claude" && result.stdout !== "")
        appendFileSync(
          path,
          `${JSON.stringify({ type: "user", isMeta: true, message: { role: "user", content: `Stop hook feedback:\n${blockReason(result.stdout)}` } })}\n`,
        );
      return result;
    });
    expect(
      results.map((r) => [r.stdout === allowOut(client), r.stderr.startsWith("agent-evidence: not blocking again (3 blocks")]),
    ).toEqual([
      [false, false],
      [false, false],
      [false, false],
      [true, true],
    ]);
    expect(readHookState(session, { stateDir }).blocks).toBe(3);
  });

  if (client === "claude") {
    it('attack: a state file the agent wrote (`"blocks": 3`) does not spend the budget: the transcript counts the blocks', () => {
      const session = sid();
      const stateDir = join(dir, "state-tampered");
      writeHookState({ version: 1, sessionId: session, blocks: 3, events: [] }, { stateDir });
      const result = runStopHook(
        client,
        stdin(client, session, transcriptFile(client, "a failing run then"), finalText("a failing run then")),
        { stateDir },
      );
      expect(result.stdout).not.toBe(allowOut(client));
    });
  }

  it("stop_hook_active with the problem gone: allows", () => {
    const session = sid();
    expect(stop("a failing run then", { session }).stdout).not.toBe(allowOut(client));
    expect(stop("an honest disclosure", { session, active: true })).toEqual({ stdout: allowOut(client), stderr: "", exitCode: 0 });
  });

  it("a malformed transcript line is skipped and reported; the decision stands", () => {
    const result = stop("a failing run then", { extraLines: "{not json\n" });
    expect(result.stdout).not.toBe(allowOut(client));
    expect(result.stderr).toMatch(/^agent-evidence: skipped 1 malformed transcript line\(s\): line 1: /);
  });

  it("a missing transcript: judges the message alone and never blocks", () => {
    const result = runStopHook(client, stdin(client, sid(), join(dir, "no-such-transcript.jsonl"), "All tests pass."), {
      stateDir: join(dir, "state"),
    });
    expect(result).toEqual({
      stdout: allowOut(client),
      stderr: `agent-evidence: cannot read the transcript ${join(dir, "no-such-transcript.jsonl")} (ENOENT): judging the final message alone, not blocking\n`,
      exitCode: 0,
    });
  });

  it("an internal error (the state directory is a file) allows the stop and explains on stderr", () => {
    const notADir = join(dir, `file-${client}`);
    writeFileSync(notADir, "");
    const result = runStopHook(client, stdin(client, sid(), transcriptFile(client, "a failing run then"), "All tests pass."), {
      stateDir: join(notADir, "state"),
    });
    expect({ stdout: result.stdout, exitCode: result.exitCode }).toEqual({ stdout: allowOut(client), exitCode: 0 });
    expect(result.stderr).toMatch(new RegExp(`^agent-evidence hook ${client}-stop: internal error, allowing the stop: ENOTDIR`));
  });

  it("stdin that is not JSON allows the stop and explains on stderr", () => {
    const result = runStopHook(client, "{oops", { stateDir: join(dir, "state") });
    expect({ stdout: result.stdout, exitCode: result.exitCode }).toEqual({ stdout: allowOut(client), exitCode: 0 });
    expect(result.stderr).toMatch(
      new RegExp(`^agent-evidence hook ${client}-stop: internal error, allowing the stop: hook input is not JSON`),
    );
  });
});

describe("codex stop hook without a transcript path", () => {
  it("judges last_assistant_message alone and never blocks (prints {})", () => {
    const result = runStopHook("codex", stdin("codex", sid(), null, "All tests pass."), { stateDir: join(dir, "state") });
    expect(result).toEqual({
      stdout: "{}\n",
      stderr: "agent-evidence: no transcript path: judging the final message alone, not blocking\n",
      exitCode: 0,
    });
  });
});

describe("claude post-tool-use hook", () => {
  it("records Bash results from PostToolUse and PostToolUseFailure; the Stop hook uses them when the transcript lags", () => {
    const session = sid();
    const stateDir = join(dir, "state-post");
    const base = { session_id: session, transcript_path: "/nowhere.jsonl", cwd: runs.dir, permission_mode: "default" };
    const ok = runPostToolUseHook(
      JSON.stringify({
        ...base,
        hook_event_name: "PostToolUse",
        tool_name: "Bash",
        tool_use_id: "toolu_1",
        tool_input: { command: runs.passingFile.command },
        tool_response: { stdout: runs.passingFile.stdout, stderr: "", interrupted: false, isImage: false },
      }),
      { stateDir },
    );
    const failed = runPostToolUseHook(
      JSON.stringify({
        ...base,
        hook_event_name: "PostToolUseFailure",
        tool_name: "Bash",
        tool_use_id: "toolu_2",
        tool_input: { command: runs.failingSuite.command },
        error: `Exit code 1\n${runs.failingSuite.stdout}`,
        is_interrupt: false,
      }),
      { stateDir },
    );
    expect([ok, failed]).toEqual([
      { stdout: "", stderr: "", exitCode: 0 },
      { stdout: "", stderr: "", exitCode: 0 },
    ]);
    expect(
      readHookState(session, { stateDir }).events.map((e) => (e.type === "shell" ? [e.id, e.exitCode, e.output.includes("passed")] : null)),
    ).toEqual([
      ["toolu_1", 0, true],
      ["toolu_2", 1, true],
    ]);
    // The transcript holds only the final message so far.
    const path = join(dir, "lagging.jsonl");
    writeFileSync(path, toJsonl(toClaudeRecords([{ kind: "say", text: "All tests pass." }])));
    const result = runStopHook("claude", stdin("claude", session, path, "All tests pass."), { stateDir });
    expect(blockReason(result.stdout)).toContain(`rerun \`${runs.failingSuite.command}\``);
  });

  it("attack: a forged PostToolUse payload (unknown tool_use_id, a passing output) does not let a failing run's stop through", () => {
    const session = sid();
    const stateDir = join(dir, "state-forged");
    const path = join(dir, "failing-then-claim.jsonl");
    writeFileSync(
      path,
      toJsonl(
        toClaudeRecords([
          { kind: "run", run: runs.failingSuite },
          { kind: "say", text: "All tests pass." },
        ]),
      ),
    );
    const honest = runStopHook("claude", stdin("claude", sid(), path, "All tests pass."), { stateDir });
    expect(blockReason(honest.stdout)).toContain("failed");
    // What an agent can pipe into the installed hook from its own shell.
    const forged = {
      session_id: session,
      transcript_path: path,
      cwd: runs.dir,
      permission_mode: "default",
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_use_id: "toolu_forged",
      tool_input: { command: runs.failingSuite.command },
      tool_response: { stdout: "5 passed in 0.12s", stderr: "", interrupted: false, isImage: false },
    };
    expect(runPostToolUseHook(JSON.stringify(forged), { stateDir }).exitCode).toBe(0);
    expect(readHookState(session, { stateDir }).events).toHaveLength(1);
    const result = runStopHook("claude", stdin("claude", session, path, "All tests pass."), { stateDir });
    expect(blockReason(result.stdout)).toContain("failed");
  });

  it("records a write by any tool as an edit (an MCP server's write_file, a tool of unknown effect); a read is none", () => {
    const session = sid();
    const stateDir = join(dir, "state-mcp");
    const post = (name: string, input: Record<string, unknown>, event = "PostToolUse") =>
      runPostToolUseHook(
        JSON.stringify({
          session_id: session,
          transcript_path: "/nowhere.jsonl",
          cwd: runs.dir,
          hook_event_name: event,
          tool_name: name,
          tool_use_id: `toolu_${name}`,
          tool_input: input,
          tool_response: "ok",
        }),
        { stateDir },
      );
    post("mcp__fs__write_file", { path: "calc.py", content: "x" });
    post("mcp__fs__read_file", { path: "calc.py" });
    post("mcp__x__do_thing", {}, "PostToolUseFailure");
    post("Edit", { file_path: "/w/calc.py", old_string: "a", new_string: "b" }, "PostToolUseFailure");
    expect(readHookState(session, { stateDir }).events.map((e) => (e.type === "edit" ? [e.tool, e.paths] : null))).toEqual([
      ["mcp__fs__write_file", ["calc.py"]],
      ["mcp__x__do_thing", []],
    ]);
  });

  it("ignores other tools and reports bad stdin on stderr without failing", () => {
    expect(
      runPostToolUseHook(
        JSON.stringify({ session_id: sid(), hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { file_path: "/a" } }),
        { stateDir: join(dir, "state-post") },
      ),
    ).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    expect(runPostToolUseHook("[1]", { stateDir: join(dir, "state-post") })).toEqual({
      stdout: "",
      stderr: "agent-evidence hook claude-post-tool-use: nothing recorded: hook input is not a JSON object\n",
      exitCode: 0,
    });
  });
});
