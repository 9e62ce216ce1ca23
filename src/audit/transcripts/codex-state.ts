// The Codex reader's running state and the joins it makes: a call with its output, a unified exec
// session with the polls that finish it, a code mode `exec` with the commands it ran.
import type { CodeModeScript } from "./codex-calls.js";
import type { CodexCallResult } from "./codex-output.js";
import { EventList, pendingShell } from "./event-list.js";
import type { EditEvent, ShellEvent, TranscriptProblem } from "./types.js";

/** A code mode `exec` call waiting for its output: its provisional edit and the commands seen since. */
export interface OpenCodeModeCall {
  script: CodeModeScript;
  /** The "may have changed anything" edit placed at the call; dropped when its commands account for it. */
  edit: EditEvent | null;
  nestedShells: number;
}

/** Everything the Codex reader carries from line to line. */
export interface CodexState {
  list: EventList;
  cwd: string | null;
  problems: TranscriptProblem[];
  /** Unified exec session id -> the command still running in it. */
  sessions: Map<string, ShellEvent>;
  /** write_stdin call id -> the session it polls. */
  polls: Map<string, string>;
  /** Call ids a structured end event completed: later model-facing text does not override them. */
  ended: Set<string>;
  /** Code mode exec call id -> its open state. */
  codeMode: Map<string, OpenCodeModeCall>;
  /** Every call id a response item announced, whatever its effect (end events of these add nothing new). */
  announced: Set<string>;
  /** The reasons of Stop hooks that blocked, from `<hook_prompt>` user messages (codex-hook-prompt.ts). */
  hookPrompts: string[];
}

/** A fresh state. */
export function createCodexState(problems: TranscriptProblem[]): CodexState {
  return {
    list: new EventList(),
    cwd: null,
    problems,
    sessions: new Map(),
    polls: new Map(),
    ended: new Set(),
    codeMode: new Map(),
    announced: new Set(),
    hookPrompts: [],
  };
}

/** Applies a parsed output to a shell call: its result, a running session, or its removal (never ran). */
export function applyShellResult(state: CodexState, call: ShellEvent, result: CodexCallResult): void {
  switch (result.kind) {
    case "ran":
      Object.assign(call, {
        exitCode: result.exitCode,
        output: result.output,
        outputTruncated: result.outputTruncated,
        timedOut: result.timedOut,
        interrupted: result.interrupted,
        completed: true,
      });
      if (result.timedOut || result.interrupted) call.exitCode = null;
      return;
    case "running":
      Object.assign(call, { output: result.output, outputTruncated: result.outputTruncated, completed: false });
      state.sessions.set(result.sessionId, call);
      return;
    case "not-run":
      state.list.remove(call);
      return;
    default: {
      const unreachable: never = result;
      return unreachable;
    }
  }
}

/** A poll's output (write_stdin, or a later chunk) belongs to the command running in its session. */
export function applyPollResult(state: CodexState, sessionId: string, result: CodexCallResult): void {
  const call = state.sessions.get(sessionId);
  if (call === undefined || result.kind === "not-run") return;
  if (call.id !== null && state.ended.has(call.id)) return;
  call.output = `${call.output}${result.output}`;
  call.outputTruncated ||= result.outputTruncated;
  if (result.kind === "ran") {
    Object.assign(call, {
      exitCode: result.timedOut || result.interrupted ? null : result.exitCode,
      timedOut: result.timedOut,
      interrupted: result.interrupted,
      completed: true,
    });
    state.sessions.delete(sessionId);
  }
}

/** The structured end of a command (exec_command_end, a CommandExecution item): the best record of it. */
export interface CommandEnd {
  id: string | null;
  command: string | undefined;
  cwd: string | undefined;
  exitCode: number | undefined;
  output: string | undefined;
  declined: boolean;
}

/** Completes the call `end` names, or adds the command when no call named it (older rollouts, code mode). */
export function applyCommandEnd(state: CodexState, end: CommandEnd, timestamp: string | null, line: number): void {
  let call = state.list.call(end.id ?? undefined);
  if (end.declined) {
    if (call?.type === "shell") state.list.remove(call);
    return;
  }
  if (call === undefined) {
    if (end.command === undefined) return;
    call = pendingShell({ id: end.id, command: end.command, cwd: end.cwd ?? state.cwd, sidechain: false, timestamp, line });
    state.list.addCall(call);
    // A command no call announced belongs to the code mode exec running, when just one is (parallel ones can't be told apart).
    if (state.codeMode.size === 1) state.codeMode.values().next().value!.nestedShells += 1;
  }
  if (call.type !== "shell") return;
  if (end.exitCode !== undefined) call.exitCode = end.exitCode;
  if (end.output !== undefined) call.output = end.output;
  call.cwd = end.cwd ?? call.cwd;
  Object.assign(call, { completed: true, outputTruncated: false, timedOut: false, interrupted: false });
  if (end.id !== null) state.ended.add(end.id);
  for (const [sessionId, running] of state.sessions) if (running === call) state.sessions.delete(sessionId);
}
