// The generic transcript for everyone else: one JSON object per line,
// `{command, output, exitCode, cwd}` for a shell call, `{edit: path | paths}` for an edit,
// `{assistant: text}` for assistant text.
import { EventList, pendingShell } from "./event-list.js";
import { asString, lastAssistantText, parseJsonl } from "./jsonl.js";
import type { TranscriptReadResult } from "./types.js";

/** True when a record looks like a generic transcript line. */
export function isGenericRecord(value: Record<string, unknown>): boolean {
  return typeof value.command === "string" || typeof value.assistant === "string" || "edit" in value;
}

/** Reads a generic JSONL transcript into the common event list. */
export function readGenericTranscript(text: string): TranscriptReadResult {
  const { records, problems } = parseJsonl(text);
  const list = new EventList();
  for (const { value, line } of records) {
    const timestamp = asString(value.timestamp) ?? null;
    if (typeof value.command === "string") {
      if (typeof value.output !== "string") {
        problems.push({ line, reason: "shell line without an output string" });
        continue;
      }
      if (value.exitCode !== null && value.exitCode !== undefined && !Number.isInteger(value.exitCode)) {
        problems.push({ line, reason: "exitCode must be an integer or null" });
        continue;
      }
      const event = pendingShell({
        id: asString(value.id) ?? null,
        command: value.command,
        cwd: asString(value.cwd) ?? null,
        sidechain: false,
        timestamp,
        line,
      });
      Object.assign(event, {
        output: value.output,
        exitCode: typeof value.exitCode === "number" ? value.exitCode : null,
        interrupted: value.interrupted === true,
        timedOut: value.timedOut === true,
        outputTruncated: value.outputTruncated === true,
        completed: true,
      });
      list.addCall(event);
    } else if ("edit" in value) {
      const paths =
        typeof value.edit === "string"
          ? [value.edit]
          : Array.isArray(value.edit)
            ? value.edit.filter((path): path is string => typeof path === "string")
            : null;
      if (paths === null) problems.push({ line, reason: "edit must be a path or a list of paths" });
      else
        list.addCall({
          type: "edit",
          id: asString(value.id) ?? null,
          tool: asString(value.tool) ?? "edit",
          paths,
          failed: value.failed === true,
          sidechain: false,
          timestamp,
          line,
        });
    } else if (typeof value.assistant === "string") {
      list.addAssistantText(value.assistant, false, timestamp, line);
    } else {
      problems.push({ line, reason: "not a shell, edit or assistant line" });
    }
  }
  return { format: "generic", events: list.events, finalMessage: lastAssistantText(list.events), problems };
}
