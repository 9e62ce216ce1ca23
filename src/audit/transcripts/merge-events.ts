// Puts a subagent's events into its parent session's timeline.
import type { TranscriptEvent } from "./types.js";

const callId = (event: TranscriptEvent): string | null =>
  (event.type === "shell" || event.type === "edit") && event.id !== null ? event.id : null;
const timeOf = (event: TranscriptEvent): number => (event.timestamp === null ? Number.NaN : Date.parse(event.timestamp));

/**
 * Interleaves subagent events into a main session's events by timestamp (a subagent's commands ran
 * in the same workspace while the main agent waited or went on). The main events keep their order;
 * subagent events without a timestamp go last. A call the main list already holds (newer clients copy
 * a subagent's records into the session as `agent_progress`) is taken once, in the subagent's reading,
 * at the main copy's place. Every event keeps a line of the main transcript: a subagent event takes
 * the line of the main event it comes before (the last main event's line after them all), so that
 * "transcript line N" and the comparisons of lines stay within one file.
 * @example mergeTranscriptEvents(readTranscript(session).events, readTranscript(agentFile).events)
 */
export function mergeTranscriptEvents(main: readonly TranscriptEvent[], ...subagents: (readonly TranscriptEvent[])[]): TranscriptEvent[] {
  const mainIds = new Set(main.map(callId).filter((id) => id !== null));
  const copies = new Map<string, TranscriptEvent>();
  const own: TranscriptEvent[] = [];
  for (const event of subagents.flat()) {
    const id = callId(event);
    if (id !== null && mainIds.has(id)) copies.set(id, event);
    else own.push(event);
  }
  const timed = own
    .filter((event) => !Number.isNaN(timeOf(event)))
    .map((event) => ({ event, at: timeOf(event) }))
    .sort((a, b) => a.at - b.at);
  const untimed = own.filter((event) => Number.isNaN(timeOf(event)));
  const merged: TranscriptEvent[] = [];
  let next = 0;
  for (const event of main) {
    const at = timeOf(event);
    while (next < timed.length && !Number.isNaN(at) && timed[next]!.at < at) merged.push({ ...timed[next++]!.event, line: event.line });
    const id = callId(event);
    const copy = id === null ? undefined : copies.get(id);
    merged.push(copy === undefined ? event : { ...copy, line: event.line });
  }
  const rest = [...timed.slice(next).map(({ event }) => event), ...untimed];
  const last = main.at(-1);
  return [...merged, ...(last === undefined ? rest : rest.map((event) => ({ ...event, line: last.line })))];
}
