// JSONL lines -> records, reporting malformed lines instead of failing.
import type { TranscriptProblem } from "./types.js";

/** One parsed JSON object with its 1-based line number. */
export interface JsonlRecord {
  line: number;
  value: Record<string, unknown>;
}

/** Parses JSONL text; blank lines are skipped, invalid lines and non-objects become problems. */
export function parseJsonl(text: string): { records: JsonlRecord[]; problems: TranscriptProblem[] } {
  const records: JsonlRecord[] = [];
  const problems: TranscriptProblem[] = [];
  const lines = text.split("\n");
  lines.forEach((raw, index) => {
    const line = index + 1;
    const body = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (body.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (error) {
      problems.push({ line, reason: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` });
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      problems.push({ line, reason: "not a JSON object" });
      return;
    }
    records.push({ line, value: value as Record<string, unknown> });
  });
  return { records, problems };
}

/** The value when it is a plain object, else undefined. */
export function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The value when it is a string, else undefined. */
export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The main agent's last assistant message among `events`. */
export function lastAssistantText(events: readonly { type: string; text?: string; sidechain?: boolean }[]): string | null {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index]!;
    if (event.type === "assistant-message" && event.sidechain !== true && event.text !== undefined) return event.text;
  }
  return null;
}
