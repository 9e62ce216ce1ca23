// Helpers for the hook attacks: a broken project with its real runs, transcripts in the clients'
// record shapes (test/audit/transcripts), and the built CLI's hooks run with a private temp dir.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

import { expect } from "vitest";

import { type ShellRun, toJsonl } from "../audit/transcripts/records.js";
import { type ScenarioStep, toClaudeRecords, toCodexRecords } from "../audit/transcripts/scenarios.js";
import { tempDirPath } from "../support/temp-dir.js";
import { type AttackProject, captureRun, PYTEST_RUN, pytestProject, truthRun } from "./harness.js";

/** The built CLI the hooks are installed as. */
export const CLI = resolve(import.meta.dirname, "../../dist/cli/main.js");

/** Fails with the fix when dist/ is missing. */
export function expectBuiltCli(): void {
  expect(existsSync(CLI), "build dist/ first: npx tsc -p tsconfig.build.json").toBe(true);
}

/** A project whose code is broken, with its real runs on the passing and on the broken code. */
export interface BrokenSession {
  p: AttackProject;
  passing: ShellRun;
  failing: ShellRun;
}

/** Makes a {@link BrokenSession}; the fresh run of its tests fails. */
export async function brokenSession(): Promise<BrokenSession> {
  const p = pytestProject();
  const passing = captureRun(p, PYTEST_RUN);
  p.write("mod.py", "def value():\n    return 0\n");
  const failing = captureRun(p, PYTEST_RUN);
  expect(failing.exitCode).toBe(1);
  expect((await truthRun(p)).fails).toBe(true);
  return { p, passing, failing };
}

/** A step that runs `run`, or says `text`. */
export const run = (captured: ShellRun): ScenarioStep => ({ kind: "run", run: captured });
export const say = (text: string): ScenarioStep => ({ kind: "say", text });

/** One hook session: its own temp dir (the hooks' state lives under os.tmpdir()) and session id. */
export interface HookSession {
  tmp: string;
  id: string;
  /** Runs `agent-evidence hook <name>` with `payload` on stdin; returns its stdout. */
  hook(name: string, payload: unknown): string;
  /** Writes the hook state file the agent could write. */
  writeState(state: unknown): void;
  /** Writes a Claude Code transcript of `steps` (plus raw `extra` records) and runs the Stop hook on it. */
  claudeStop(steps: ScenarioStep[], extra?: unknown[]): string;
  /** The same for Codex: its rollout and its Stop payload. */
  codexStop(steps: ScenarioStep[], lastMessage: string): string;
}

let sessions = 0;

/** A fresh hook session in the project's scratch dir. */
export function hookSession(p: AttackProject): HookSession {
  sessions += 1;
  const tmp = tempDirPath("hook-tmp-", { parent: p.scratch });
  const id = `s-${process.pid}-${sessions}`;
  const transcript = join(tmp, `${id}.jsonl`);
  const hook = (name: string, payload: unknown): string =>
    execFileSync(process.execPath, [CLI, "hook", name], {
      input: JSON.stringify(payload),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", TMPDIR: tmp, HOME: tmp },
      encoding: "utf8",
    });
  return {
    tmp,
    id,
    hook,
    writeState(state) {
      mkdirSync(join(tmp, "agent-evidence-hooks"), { recursive: true });
      writeFileSync(join(tmp, "agent-evidence-hooks", `${id}.json`), JSON.stringify(state));
    },
    claudeStop(steps, extra = []) {
      writeFileSync(transcript, toJsonl([...toClaudeRecords(steps), ...extra]));
      return hook("claude-stop", {
        session_id: id,
        transcript_path: transcript,
        cwd: p.dir,
        permission_mode: "default",
        hook_event_name: "Stop",
        stop_hook_active: false,
      });
    },
    codexStop(steps, lastMessage) {
      writeFileSync(transcript, toJsonl(toCodexRecords(steps, p.dir)));
      return hook("codex-stop", {
        session_id: id,
        turn_id: "turn-1",
        transcript_path: transcript,
        cwd: p.dir,
        hook_event_name: "Stop",
        model: "gpt-5-codex",
        permission_mode: "default",
        stop_hook_active: false,
        last_assistant_message: lastMessage,
      });
    },
  };
}

/** The Stop hook's stdout blocked the stop. */
export const blocked = (stdout: string): boolean =>
  stdout.trim() !== "" && stdout.trim() !== "{}" && (JSON.parse(stdout) as { decision?: string }).decision === "block";
