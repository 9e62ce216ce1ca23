// Collects events in order, joining an assistant turn's text blocks and pairing calls with results.
import type { EditEvent, ShellEvent, TranscriptEvent } from "./types.js";

/** An ordered event list with call ids for pairing results. */
export class EventList {
  readonly events: TranscriptEvent[] = [];
  private readonly calls = new Map<string, ShellEvent | EditEvent>();
  private textBroken = false;

  /** Adds assistant text; text right after the same agent's text joins it, an exact repeat is dropped. */
  addAssistantText(text: string, sidechain: boolean, timestamp: string | null, line: number): void {
    if (text.trim() === "") return;
    const last = this.events.at(-1);
    const broken = this.textBroken;
    this.textBroken = false;
    if (!broken && last?.type === "assistant-message" && last.sidechain === sidechain) {
      // Codex writes the same final text twice (an event and a response item).
      if (last.text !== text && !last.text.endsWith(`\n\n${text}`)) last.text = `${last.text}\n\n${text}`;
      return;
    }
    this.events.push({ type: "assistant-message", text, sidechain, timestamp, line });
  }

  /** Marks a tool call that left no event (a read-only tool, a poll): the next assistant text is a new message. */
  breakText(): void {
    this.textBroken = true;
  }

  /** Adds user text, dropping an exact repeat of the previous user message. */
  addUserText(text: string, timestamp: string | null, line: number): void {
    if (text.trim() === "") return;
    const last = this.events.at(-1);
    if (last?.type === "user-message" && last.text === text) return;
    this.events.push({ type: "user-message", text, timestamp, line });
  }

  /** Adds a call (shell or edit), remembered under its id for its result. */
  addCall(event: ShellEvent | EditEvent): void {
    this.events.push(event);
    if (event.id !== null) this.calls.set(event.id, event);
  }

  /** Removes a call the transcript shows never ran (a denied command); its id still finds it, so late results stay attached. */
  remove(event: ShellEvent | EditEvent): void {
    const index = this.events.indexOf(event);
    if (index >= 0) this.events.splice(index, 1);
  }

  /** The call with `id`, if one was added. */
  call(id: string | undefined): ShellEvent | EditEvent | undefined {
    return id === undefined ? undefined : this.calls.get(id);
  }
}

/** A shell call before its result arrives. */
export function pendingShell(fields: Pick<ShellEvent, "id" | "command" | "cwd" | "sidechain" | "timestamp" | "line">): ShellEvent {
  return {
    type: "shell",
    output: "",
    exitCode: null,
    interrupted: false,
    timedOut: false,
    outputTruncated: false,
    persistedOutputPath: null,
    completed: false,
    ...fields,
  };
}
