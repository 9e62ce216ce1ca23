// `agent-evidence hook claude-stop` / `codex-stop`: reads the transcript and the hook state, asks
// stop-decision.ts whether the stop hides a failing or stale run or an unbacked claim, and keeps the block budget.
import { closeSync, readSync } from "node:fs";

import { openRegularFile } from "../../io/named-files.js";
import { isPlainFileOnDisk } from "../../io/plain-file.js";
import { auditEvents } from "../audit-transcript.js";
import { mergeSubagentTranscripts } from "../subagent-files.js";
import { readTranscript } from "../transcripts/read-transcript.js";
import type { TranscriptEvent } from "../transcripts/types.js";
import { type HookInput, parseHookInput } from "./hook-input.js";
import type { HookRunResult } from "./post-tool-use.js";
import { type HookStateOptions, readHookState, type RecordedEvent, writeHookState } from "./state.js";
import { decideStop, STOP_REASON_OPENINGS } from "./stop-decision.js";

/** The clients whose Stop hook agent-evidence speaks. */
export type HookClient = "claude" | "codex";

/** At most this many blocks per session; after that the stop is allowed with a note on stderr. */
export const MAX_STOP_BLOCKS = 3;

/** Options of {@link runStopHook}. */
export interface StopHookOptions extends HookStateOptions {
  /** Reads the transcript (default: `fs.readFileSync` as UTF-8); tests inject failures here. */
  readTranscriptFile?: (path: string) => string;
  /** Also block (once) on a pass claim no test run backs (`hook claude-stop --strict`). Default false. */
  strict?: boolean;
}

const isOurBlock = (feedback: string): boolean => STOP_REASON_OPENINGS.some((opening) => feedback.includes(opening));

// Recorded events the transcript does not hold yet go just before the final message.
function withRecorded(events: TranscriptEvent[], recorded: readonly RecordedEvent[], finalMessage: string | null): TranscriptEvent[] {
  const known = new Set(
    events.flatMap((event) => ((event.type === "shell" || event.type === "edit") && event.id !== null ? [event.id] : [])),
  );
  const missing = recorded.filter((event) => event.id === null || !known.has(event.id));
  if (missing.length === 0) return events;
  let at = events.length;
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const event = events[i]!;
    if (event.type === "assistant-message" && !event.sidechain && event.text === finalMessage) {
      at = i;
      break;
    }
  }
  return [...events.slice(0, at), ...missing, ...events.slice(at)];
}

// The line of the user's last message (0 when there is none): where the turn being stopped began.
function lastUserLine(events: readonly TranscriptEvent[]): number {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const event = events[i]!;
    if (event.type === "user-message") return event.line;
  }
  return 0;
}

const allow = (client: HookClient, stderr = ""): HookRunResult => ({ stdout: client === "codex" ? "{}\n" : "", stderr, exitCode: 0 });

/** The most of a transcript the Stop hook reads: its last 32 MiB (the end holds the last run and the final message). */
export const MAX_TRANSCRIPT_BYTES = 32 << 20;

/**
 * Reads a transcript without trusting the path: only a regular file is opened (a FIFO would block, a
 * device such as `/dev/zero` never ends), and of a large one only its last {@link MAX_TRANSCRIPT_BYTES}
 * from the first whole line. Throws with a `code` for anything else.
 */
export function readTranscriptTail(path: string): { text: string; clipped: boolean } {
  const { fd, size } = openRegularFile(path);
  try {
    const length = Math.min(size, MAX_TRANSCRIPT_BYTES);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, size - length + read);
      if (n === 0) break;
      read += n;
    }
    if (size <= MAX_TRANSCRIPT_BYTES) return { text: buffer.subarray(0, read).toString("utf8"), clipped: false };
    const start = buffer.indexOf(10) + 1;
    return { text: buffer.subarray(start, read).toString("utf8"), clipped: true };
  } finally {
    closeSync(fd);
  }
}

function readTranscriptText(input: HookInput, options: StopHookOptions): { text: string | null; note: string } {
  if (input.transcriptPath === null) return { text: null, note: "no transcript path: judging the final message alone, not blocking" };
  try {
    if (options.readTranscriptFile !== undefined) return { text: options.readTranscriptFile(input.transcriptPath), note: "" };
    const { text, clipped } = readTranscriptTail(input.transcriptPath);
    return {
      text,
      note: clipped
        ? `the transcript is larger than ${MAX_TRANSCRIPT_BYTES >> 20} MiB: read its last ${MAX_TRANSCRIPT_BYTES >> 20} MiB`
        : "",
    };
  } catch (error) {
    const code = error instanceof Error && "code" in error ? String(error.code) : "unreadable";
    return {
      text: null,
      note: `cannot read the transcript ${input.transcriptPath} (${code}): judging the final message alone, not blocking`,
    };
  }
}

function stopResult(client: HookClient, input: HookInput, options: StopHookOptions): HookRunResult {
  const notes: string[] = [];
  const state = readHookState(input.sessionId, options);
  const transcript = readTranscriptText(input, options);
  if (transcript.note !== "") notes.push(transcript.note);
  const read = transcript.text === null ? null : mergeSubagentTranscripts(readTranscript(transcript.text), input.transcriptPath);
  if (read && read.problems.length > 0)
    notes.push(
      `skipped ${read.problems.length} malformed transcript line(s): ${read.problems.map((p) => `line ${p.line}: ${p.reason}`).join("; ")}`,
    );
  const finalMessage = input.lastAssistantMessage ?? read?.finalMessage ?? null;
  // Only the transcript can let a stop through. What the post-tool-use hook recorded and the
  // transcript does not hold yet (it may lag) can add a reason to block, never take one away: anyone
  // can pipe a forged payload (`"stdout": "5 passed"`, an unknown tool_use_id) into that hook.
  const meta = { path: input.transcriptPath, format: read?.format ?? null, isPlainFile: isPlainFileOnDisk };
  // Our earlier blocks, so that a claim blocks once. Claude Code writes each block's reason back into
  // the transcript, and only those count: the agent can write the state file. Codex's sandbox cannot
  // write it, and older Codex rollouts show no blocks: there the state file's reasons count too.
  const fedBack = (read?.stopHookFeedback ?? []).filter(isOurBlock);
  const earlierReasons = client === "codex" ? [...fedBack, ...(state.reasons ?? [])] : fedBack;
  const decide = { turnStartLine: read === null ? 0 : lastUserLine(read.events), strict: options.strict === true, earlierReasons };
  const reason =
    read === null
      ? null
      : (decideStop(auditEvents(read.events, finalMessage, meta), decide) ??
        decideStop(auditEvents(withRecorded(read.events, state.events, finalMessage), finalMessage, meta), decide));
  const stderr = (extra: string[]): string => [...notes, ...extra].map((note) => `agent-evidence: ${note}\n`).join("");
  if (reason === null) return allow(client, stderr([]));
  // The block budget, counted the same way: a state file the agent can write (`"blocks": 3`) cannot
  // spend a Claude Code session's (see docs/hooks.md).
  const blocks =
    read?.stopHookFeedback === undefined ? state.blocks : client === "codex" ? Math.max(state.blocks, fedBack.length) : fedBack.length;
  if (blocks >= MAX_STOP_BLOCKS) return allow(client, stderr([`not blocking again (${blocks} blocks in this session already): ${reason}`]));
  writeHookState({ ...state, blocks: state.blocks + 1, reasons: [...(state.reasons ?? []), reason].slice(-MAX_STOP_BLOCKS) }, options);
  return { stdout: `${JSON.stringify({ decision: "block", reason })}\n`, stderr: stderr([]), exitCode: 0 };
}

/**
 * Runs the Stop hook for a client on its stdin JSON. Blocks (`{"decision":"block","reason":...}`) on
 * what {@link decideStop} finds (a pass claim contradicted, stale, or unbacked after a failure, once
 * per claim; this turn's hidden failed or stale run); at most {@link MAX_STOP_BLOCKS} times per session. Allowing prints nothing for
 * Claude Code and `{}` for Codex. Without a transcript it never blocks; on an internal error it
 * allows the stop and explains on stderr. Always exits 0.
 */
export function runStopHook(client: HookClient, stdin: string, options: StopHookOptions = {}): HookRunResult {
  try {
    return stopResult(client, parseHookInput(stdin), options);
  } catch (error) {
    return allow(
      client,
      `agent-evidence hook ${client}-stop: internal error, allowing the stop: ${error instanceof Error ? error.message : String(error)}\n`,
    );
  }
}
