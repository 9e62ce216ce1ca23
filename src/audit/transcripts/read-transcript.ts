// Detects a transcript's format from its first records and reads it with the matching reader.
import { isClaudeCodeRecord, readClaudeCodeTranscript } from "./claude-code.js";
import { isCodexRecord, readCodexTranscript } from "./codex.js";
import { isGenericRecord, readGenericTranscript } from "./generic.js";
import { parseJsonl } from "./jsonl.js";
import type { TranscriptFormat, TranscriptReadResult } from "./types.js";

/** Options for {@link readTranscript}. */
export interface ReadTranscriptOptions {
  /** Skip detection and read as this format. */
  format?: TranscriptFormat;
}

const SAMPLE = 50;

/** The format of a JSONL transcript, judged from its first 50 valid records; null when none matches. */
export function detectTranscriptFormat(text: string): TranscriptFormat | null {
  const { records } = parseJsonl(text);
  for (const { value } of records.slice(0, SAMPLE)) {
    if (isCodexRecord(value)) return "codex";
    if (isClaudeCodeRecord(value)) return "claude-code";
    if (isGenericRecord(value)) return "generic";
  }
  return null;
}

/**
 * Reads a transcript (Claude Code session, Codex rollout or generic JSONL) into one ordered event
 * list with the final assistant message. Malformed lines are reported in `problems` and skipped.
 */
export function readTranscript(text: string, options: ReadTranscriptOptions = {}): TranscriptReadResult {
  const format = options.format ?? detectTranscriptFormat(text);
  switch (format) {
    case "claude-code":
      return readClaudeCodeTranscript(text);
    case "codex":
      return readCodexTranscript(text);
    case "generic":
      return readGenericTranscript(text);
    case null:
      return {
        format: null,
        events: [],
        finalMessage: null,
        problems: [
          ...parseJsonl(text).problems,
          { line: 0, reason: "no line looks like a Claude Code, Codex or generic transcript record" },
        ],
      };
    default: {
      const unreachable: never = format;
      return unreachable;
    }
  }
}
