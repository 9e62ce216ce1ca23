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
    let values: unknown[];
    try {
      values = [JSON.parse(body)];
    } catch (error) {
      const glued = splitGluedObjects(body);
      if (glued === null) {
        problems.push({ line, reason: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` });
        return;
      }
      values = glued;
    }
    for (const value of values) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) problems.push({ line, reason: "not a JSON object" });
      else records.push({ line, value: value as Record<string, unknown> });
    }
  });
  return { records, problems };
}

/**
 * Two or more JSON objects written on one line with no newline between them (`{...}{...}`, seen in
 * real Claude Code sessions when two writers appended at once): the objects, or null unless every
 * piece parses.
 */
export function splitGluedObjects(body: string): unknown[] | null {
  const pieces: string[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "{") {
      if (depth === 0) start = index;
      depth += 1;
    } else if (char === "}") {
      depth -= 1;
      if (depth < 0) return null;
      if (depth === 0) pieces.push(body.slice(start, index + 1));
    } else if (depth === 0 && char.trim() !== "") return null;
  }
  if (depth !== 0 || inString || pieces.length < 2) return null;
  try {
    return pieces.map((piece) => JSON.parse(piece) as unknown);
  } catch {
    return null;
  }
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
