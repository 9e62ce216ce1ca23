// Per-session hook state: how many times the Stop hook blocked, and the shell results and edits the
// PostToolUse hook saw, in one small JSON file per session id under the state directory
// (src/state-home.ts), where a Codex agent's sandboxed commands cannot rewrite the block count.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { readRegularFile } from "../../io/named-files.js";
import { stateHome } from "../../state-home.js";
import type { EditEvent, ShellEvent } from "../transcripts/types.js";

/** An event the post-tool-use hook recorded (a transcript event with line 0). */
export type RecordedEvent = ShellEvent | EditEvent;

/** What is kept per session. */
export interface HookState {
  version: 1;
  sessionId: string;
  /** Stop-hook blocks issued in this session. */
  blocks: number;
  /** Recent results from the post-tool-use hook, oldest first. */
  events: RecordedEvent[];
  /** The reasons of the last blocks, oldest first (absent in older files). */
  reasons?: string[];
}

/** Options for where state lives (tests point it at a temp directory). */
export interface HookStateOptions {
  /** Directory holding the state files (default: `<state home>/hooks`, see src/state-home.ts). */
  stateDir?: string;
}

/** At most this many recorded events are kept per session. */
export const MAX_RECORDED_EVENTS = 200;
/** A recorded command output keeps at most this many characters (its end, where summaries are). */
export const MAX_RECORDED_OUTPUT = 200_000;

/** The largest state file read (an agent without a sandbox can write there): 64 MiB, above the 200 recorded outputs it can hold. */
export const MAX_STATE_BYTES = 64 << 20;

/** The state file of a session. */
export function hookStatePath(sessionId: string, options: HookStateOptions = {}): string {
  const dir = options.stateDir ?? join(stateHome(), "hooks");
  const safe = sessionId.replace(/[^\w.-]/g, "_").slice(0, 120) || "unknown";
  return join(dir, `${safe}.json`);
}

const fresh = (sessionId: string): HookState => ({ version: 1, sessionId, blocks: 0, events: [], reasons: [] });

/** Reads a session's state; a missing or unreadable file (a FIFO, a device, over the cap) is a fresh state. */
export function readHookState(sessionId: string, options: HookStateOptions = {}): HookState {
  try {
    const value = JSON.parse(
      readRegularFile(hookStatePath(sessionId, options), { cap: MAX_STATE_BYTES }).toString("utf8"),
    ) as Partial<HookState>;
    if (value.version !== 1 || value.sessionId !== sessionId || typeof value.blocks !== "number" || !Array.isArray(value.events))
      return fresh(sessionId);
    const reasons = Array.isArray(value.reasons) ? value.reasons.filter((reason): reason is string => typeof reason === "string") : [];
    return { version: 1, sessionId, blocks: value.blocks, events: value.events, reasons };
  } catch {
    return fresh(sessionId);
  }
}

/** Writes a session's state atomically (temp file + rename), keeping the newest events. */
export function writeHookState(state: HookState, options: HookStateOptions = {}): void {
  const path = hookStatePath(state.sessionId, options);
  mkdirSync(join(path, ".."), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify({ ...state, events: state.events.slice(-MAX_RECORDED_EVENTS) }));
  renameSync(temp, path);
}
