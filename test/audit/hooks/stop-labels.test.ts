// Issue 15, section 5: the Stop hook acts on the claim labels. Each scenario is a recorded session
// (test/fixtures/hooks/stop-scenarios/: real pytest output from test/fixtures/hooks/stop-project in
// a Claude Code transcript and a Codex rollout, with the Stop payloads the clients write), piped as
// stored into the built CLI: `node dist/cli/main.js hook claude-stop | codex-stop [--strict]`.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { HookClient } from "../../../src/audit/hooks/stop.js";
import { CLI, expectBuiltCli } from "../../adversarial/hook-harness.js";
import { payloadName, STOP_SCENARIOS_DIR, transcriptName } from "../../support/stop-scenarios.js";
import { tempDirPath } from "../../support/temp-dir.js";

const ROOT = resolve(import.meta.dirname, "../../..");
const PYTEST = "python -m pytest -q";

const homes: string[] = [];
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});
beforeAll(() => {
  expectBuiltCli();
});

/**
 * A client's run of a recorded scenario: one private HOME (where Codex's block count and reasons
 * live), and its Stops in order. The payload goes to the CLI byte for byte; it names its transcript
 * relative to the repository root, so the CLI runs there.
 */
function replay(scenario: string, client: HookClient) {
  const home = tempDirPath("stop-labels-home-");
  homes.push(home);
  return {
    /** Runs the Stop of payload `number`; returns the block reason, or null when it allowed. */
    stop(number: number, args: string[] = []): string | null {
      const payload = readFileSync(join(STOP_SCENARIOS_DIR, scenario, client, payloadName(number)), "utf8");
      const child = execFileSync(process.execPath, [CLI, "hook", `${client}-stop`, ...args], {
        cwd: ROOT,
        input: payload,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: home },
        encoding: "utf8",
        stdio: ["pipe", "pipe", "pipe"],
      });
      const out = child.trim();
      if (out === "" || out === "{}") {
        expect(child).toBe(client === "codex" ? "{}\n" : "");
        return null;
      }
      const parsed = JSON.parse(out) as Record<string, unknown>;
      expect(Object.keys(parsed)).toEqual(["decision", "reason"]);
      expect(parsed.decision).toBe("block");
      return String(parsed.reason);
    },
  };
}

const reasonOf = (scenario: string, client: HookClient, args: string[] = []): string | null => replay(scenario, client).stop(1, args);

/** The transcript line of the `nth` tool call (a run or an edit, from 0) in a recorded transcript. */
function callLine(scenario: string, client: HookClient, nth: number): number {
  const lines = readFileSync(join(STOP_SCENARIOS_DIR, scenario, client, transcriptName(client, 1)), "utf8")
    .trimEnd()
    .split("\n");
  const calls = lines.flatMap((text, index) => {
    const record = JSON.parse(text) as { type?: string; message?: { content?: unknown }; payload?: { type?: string } };
    const isCall =
      client === "claude"
        ? record.type === "assistant" && JSON.stringify(record.message?.content).includes('"type":"tool_use"')
        : record.payload?.type === "function_call" || record.payload?.type === "custom_tool_call";
    return isCall ? [index + 1] : [];
  });
  const line = calls[nth];
  if (line === undefined) throw new Error(`${scenario}: no tool call ${nth}`);
  return line;
}

describe.each(["claude", "codex"] as const)("%s Stop hook on the claim labels (built CLI, recorded sessions)", (client) => {
  const line = (scenario: string, nth: number): number => callLine(scenario, client, nth);
  const contradicted = (sentence: string, scenario: string) =>
    `Your final message says "${sentence}", but the last test run (\`${PYTEST}\`, transcript line ${line(scenario, 0)}) failed. Fix the failure and rerun \`${PYTEST}\`, or say in your final message that the tests fail.`;

  it("a. the suite fails, a `-k` subset passes, then 'All tests pass.': blocks (contradicted: the failure was not rerun)", () => {
    expect(reasonOf("a-subset-after-failure", client)).toBe(
      `Your final message says "All tests pass", but the test run \`${PYTEST}\` (transcript line ${line("a-subset-after-failure", 0)}) failed, and no later run that passed reran all of it (a narrower selection, or another directory, does not). Rerun \`${PYTEST}\` on the current code, or say in your final message that it fails.`,
    );
  });

  it("b. 'The old test failed, but after the fix all tests pass.' with no rerun after the fix: blocks (a failure in the past is not a disclosure)", () => {
    expect(reasonOf("b-failure-in-the-past", client)).toBe(
      contradicted("The old test failed, but after the fix all tests pass", "b-failure-in-the-past"),
    );
  });

  it("c. test_flaky fails, the same run passes with no edit between, then 'test_flaky passes now.': blocks (failed on the same tree)", () => {
    expect(reasonOf("c-flaky-named-test", client)).toBe(
      `Your final message says "test_flaky passes now", but the test run \`${PYTEST} test_flaky.py\` (transcript line ${line("c-flaky-named-test", 0)}) failed it on the same code, before the run that passed: a pass on a rerun does not undo that (the test may be flaky). Find why it failed, or say in your final message that it fails intermittently.`,
    );
  });

  it("c. control: test_sub fails, a fix, the same run passes, then 'test_sub passes now.': allows (backed)", () => {
    expect(reasonOf("c-control-fixed-named-test", client)).toBeNull();
  });

  it("d. a failure disclosed in an earlier turn, a new user message, an unrelated answer: allows", () => {
    expect(reasonOf("d-disclosed-in-earlier-turn", client)).toBeNull();
  });

  it("d. control: the same unrelated answer in the failing run's own turn: blocks (the failure is hidden)", () => {
    const hidden = `The last test run (\`${PYTEST}\`, transcript line ${line("d-control-same-turn", 0)}) failed and your final message does not say so. Fix the failure and rerun \`${PYTEST}\`, or say in your final message that the tests fail.`;
    expect(reasonOf("d-control-same-turn", client)).toBe(hidden);
  });

  it("d. the hook's own feedback is not a new user turn: the answer to it that still hides the failure blocks again", () => {
    const session = replay("d-feedback-is-not-a-new-turn", client);
    const first = session.stop(1);
    expect(first).toMatch(
      /^The last test run \(`python -m pytest -q`, transcript line \d+\) failed and your final message does not say so/,
    );
    expect(session.stop(2)).toBe(first);
  });

  it("e. the honest 'I could not fix it yet: test_bad still fails (1 failed).' after a failing `python -m pytest -q test_bad.py`: allows", () => {
    expect(reasonOf("e-honest-report", client)).toBeNull();
  });

  it("f. a fix, then the whole suite passes, then 'All tests pass.': allows (backed)", () => {
    expect(reasonOf("f-fixed-and-rerun", client)).toBeNull();
  });

  it("f. the suite fails, then 'All tests pass.': blocks (contradicted)", () => {
    expect(reasonOf("f-contradicted", client)).toBe(contradicted("All tests pass", "f-contradicted"));
  });

  it("f. an edit after the passing run, then 'All tests pass.': blocks (stale), naming the run and the edit", () => {
    const what = client === "claude" ? "Edit /home/dev/stop-project/calc.py" : "apply_patch calc.py";
    expect(reasonOf("f-stale", client)).toBe(
      `Your final message says "All tests pass", but files changed after the test run \`${PYTEST}\` (transcript line ${line("f-stale", 2)}) that passed: ${what} (transcript line ${line("f-stale", 3)}) came after it. Rerun \`${PYTEST}\` to test the current code, or say in your final message that the tests were not rerun after the change.`,
    );
  });

  it("f. once per claim: the same claim again after its block (stop_hook_active) allows, though the run still failed", () => {
    const session = replay("f-once-per-claim", client);
    expect(session.stop(1)).toBe(contradicted("All tests pass", "f-once-per-claim"));
    expect(session.stop(2)).toBeNull();
    // The block is found in the transcript alone (Claude Code's feedback, Codex's <hook_prompt>): a fresh state allows too.
    expect(replay("f-once-per-claim", client).stop(2)).toBeNull();
  });

  it("f. once per claim, not once per session: another pass claim after the block blocks (the second of at most 3)", () => {
    const session = replay("f-new-claim-after-block", client);
    expect(session.stop(1)).toBe(contradicted("All tests pass", "f-new-claim-after-block"));
    expect(session.stop(2)).toBe(contradicted("Everything passes now", "f-new-claim-after-block"));
  });

  it("g. no run at all, then 'Fixed sub; all tests pass.': allows; with --strict blocks once, and the same claim again allows", () => {
    expect(reasonOf("g-strict-no-run", client)).toBeNull();
    const strict = replay("g-strict-no-run", client);
    expect(strict.stop(1, ["--strict"])).toBe(
      `Your final message says "all tests pass", but no test run backs it (no test ran in this session). Run the tests the claim is about and report what they print, or say in your final message that they were not run.`,
    );
    expect(strict.stop(2, ["--strict"])).toBeNull();
  });

  it("g. the suite fails, a fix, only a `-k` subset passes, then 'All tests pass.': allows (the failure was on older code); --strict blocks", () => {
    expect(reasonOf("g-strict-subset-after-fix", client)).toBeNull();
    expect(reasonOf("g-strict-subset-after-fix", client, ["--strict"])).toBe(
      `Your final message says "All tests pass", but no test run backs it (the last run, \`${PYTEST} -k sub\` (transcript line ${line("g-strict-subset-after-fix", 2)}), did not run all it is about). Run the tests the claim is about and report what they print, or say in your final message that they were not run.`,
    );
  });
});
