// A Claude Code session's subagent transcripts. Claude Code writes each subagent's records to
// `<dir>/<session-id>/subagents/agent-<id>.jsonl` (a workflow's agents one level deeper, in
// `subagents/workflows/<workflow-id>/`) beside the session's `<dir>/<session-id>.jsonl`, and newer
// clients copy none of them into the session: without these files a subagent's edits are invisible.
// Found without following links (a link in the session directory could name any file on the machine),
// read with caps on count and size, merged into the session's events in time order.
import { closeSync, constants, type Dirent, fstatSync, lstatSync, opendirSync, openSync, readSync } from "node:fs";
import { basename, dirname, join } from "node:path";

import { mergeTranscriptEvents } from "./transcripts/merge-events.js";
import { readTranscript } from "./transcripts/read-transcript.js";
import type { TranscriptProblem, TranscriptReadResult } from "./transcripts/types.js";

/** Bounds of {@link mergeSubagentTranscripts}. */
export interface SubagentFilesOptions {
  /** At most this many subagent files, the most recently written first (default {@link MAX_SUBAGENT_FILES}). */
  maxFiles?: number;
  /** A larger subagent file is not read (default {@link MAX_SUBAGENT_FILE_BYTES}). */
  maxFileBytes?: number;
  /** All subagent files together (default {@link MAX_SUBAGENT_TOTAL_BYTES}). */
  maxTotalBytes?: number;
}

/** The most subagent transcripts read for one session. */
export const MAX_SUBAGENT_FILES = 64;
/** The largest subagent transcript read: 16 MiB. */
export const MAX_SUBAGENT_FILE_BYTES = 16 << 20;
/** The most bytes of subagent transcripts read for one session: 64 MiB. */
export const MAX_SUBAGENT_TOTAL_BYTES = 64 << 20;

// Directory entries looked at per directory: a directory of millions of names is not listed whole.
const MAX_ENTRIES_SCANNED = 10_000;
const AGENT_FILE = /^agent-[^/]+\.jsonl$/;

// The entries of a real directory (not a link to one), or none; at most MAX_ENTRIES_SCANNED.
function entriesOf(path: string): Dirent[] {
  if (!isPlainEntry(path, "directory")) return [];
  try {
    const dir = opendirSync(path);
    try {
      const entries: Dirent[] = [];
      for (let entry = dir.readSync(); entry !== null && entries.length < MAX_ENTRIES_SCANNED; entry = dir.readSync()) entries.push(entry);
      return entries;
    } finally {
      dir.closeSync();
    }
  } catch {
    return [];
  }
}

// lstat, not stat: a link is not what it points to. Most sessions have no subagent directory: a
// missing entry is an answer, not an exception (building the error cost more than the call).
function isPlainEntry(path: string, kind: "file" | "directory"): boolean {
  try {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat === undefined) return false;
    return kind === "file" ? stat.isFile() : stat.isDirectory();
  } catch {
    return false;
  }
}

// Plain files named agent-*.jsonl in a directory.
const agentFilesIn = (dir: string): string[] =>
  entriesOf(dir).flatMap((entry) => {
    const path = join(dir, entry.name);
    return AGENT_FILE.test(entry.name) && isPlainEntry(path, "file") ? [path] : [];
  });

/**
 * The subagent transcripts of the session transcript at `transcriptPath`: plain files, no link
 * followed, sorted by path; beyond `maxFiles` the most recently written are kept and the rest counted.
 * @example findSubagentFiles("/home/u/.claude/projects/-repo/3f2c.jsonl").files // [".../3f2c/subagents/agent-a1.jsonl"]
 */
export function findSubagentFiles(transcriptPath: string, options: SubagentFilesOptions = {}): { files: string[]; omitted: number } {
  const name = basename(transcriptPath);
  if (!name.endsWith(".jsonl")) return { files: [], omitted: 0 };
  const sessionDir = join(dirname(transcriptPath), name.slice(0, -".jsonl".length));
  // Every directory on the way is checked for a link, not only the last.
  if (!isPlainEntry(sessionDir, "directory")) return { files: [], omitted: 0 };
  const subagents = join(sessionDir, "subagents");
  const workflows = entriesOf(join(subagents, "workflows")).flatMap((entry) => {
    const dir = join(subagents, "workflows", entry.name);
    return isPlainEntry(dir, "directory") ? agentFilesIn(dir) : [];
  });
  const found = [...agentFilesIn(subagents), ...workflows];
  const limit = options.maxFiles ?? MAX_SUBAGENT_FILES;
  if (found.length <= limit) return { files: found.sort(), omitted: 0 };
  const written = (path: string): number => {
    try {
      return lstatSync(path).mtimeMs;
    } catch {
      return 0;
    }
  };
  const newest = found.map((path) => ({ path, at: written(path) })).sort((a, b) => b.at - a.at || (a.path < b.path ? -1 : 1));
  return {
    files: newest
      .slice(0, limit)
      .map(({ path }) => path)
      .sort(),
    omitted: found.length - limit,
  };
}

// Reads a plain file of at most `cap` bytes; O_NOFOLLOW refuses a link swapped in since the listing.
function readAgentFile(path: string, cap: number): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: "ENOTREGULAR" });
    if (stat.size > cap) throw Object.assign(new Error(`${path} is larger than the cap`), { code: "EFBIG" });
    const buffer = Buffer.alloc(stat.size);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    return buffer.subarray(0, length).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

const errorCode = (error: unknown): string => (error instanceof Error && "code" in error ? String(error.code) : "unreadable");

/**
 * A Claude Code session's reading with its subagents' transcripts merged in (`mergeTranscriptEvents`):
 * their runs and edits take their place in the session's timeline, so a subagent's edit after the
 * last passing run makes that run stale. Lines of a subagent file that could not be used, and files
 * not read (too large, over the caps, a link), are added to `problems` (line 0 for a whole file).
 * Another format, or no path, is returned as it is.
 * @example const read = mergeSubagentTranscripts(readTranscript(text), path);
 */
export function mergeSubagentTranscripts(
  read: TranscriptReadResult,
  transcriptPath: string | null,
  options: SubagentFilesOptions = {},
): TranscriptReadResult {
  if (transcriptPath === null || read.format !== "claude-code") return read;
  const { files, omitted } = findSubagentFiles(transcriptPath, options);
  if (files.length === 0 && omitted === 0) return read;
  const problems: TranscriptProblem[] = [];
  const subagents: TranscriptReadResult["events"][] = [];
  let budget = options.maxTotalBytes ?? MAX_SUBAGENT_TOTAL_BYTES;
  for (const file of files) {
    const name = `subagents/${basename(file)}`;
    let text: string;
    try {
      text = readAgentFile(file, Math.min(budget, options.maxFileBytes ?? MAX_SUBAGENT_FILE_BYTES));
    } catch (error) {
      problems.push({ line: 0, reason: `subagent transcript ${name} not read (${errorCode(error)})` });
      continue;
    }
    budget -= Buffer.byteLength(text);
    const sub = readTranscript(text, { format: "claude-code" });
    subagents.push(sub.events);
    problems.push(...sub.problems.map((problem) => ({ line: problem.line, reason: `${name}: ${problem.reason}` })));
  }
  if (omitted > 0)
    problems.push({
      line: 0,
      reason: `${omitted} older subagent transcript(s) not read (at most ${options.maxFiles ?? MAX_SUBAGENT_FILES})`,
    });
  return { ...read, events: mergeTranscriptEvents(read.events, ...subagents), problems: [...read.problems, ...problems] };
}
