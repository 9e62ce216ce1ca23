// Puts a subagent's events into its parent session's timeline.
import type { TranscriptEvent } from "./types.js";

/**
 * Interleaves subagent events into a main session's events by timestamp (a subagent's commands ran
 * in the same workspace while the main agent waited). The main events keep their order; subagent
 * events without a timestamp go last.
 */
export function mergeTranscriptEvents(main: readonly TranscriptEvent[], ...subagents: (readonly TranscriptEvent[])[]): TranscriptEvent[] {
  const timed = subagents
    .flat()
    .filter((event) => event.timestamp !== null)
    .map((event) => ({ event, at: Date.parse(event.timestamp!) }))
    .sort((a, b) => a.at - b.at);
  const untimed = subagents.flat().filter((event) => event.timestamp === null);
  const merged: TranscriptEvent[] = [];
  let next = 0;
  for (const event of main) {
    const at = event.timestamp === null ? Number.NaN : Date.parse(event.timestamp);
    while (next < timed.length && !Number.isNaN(at) && timed[next]!.at < at) merged.push(timed[next++]!.event);
    merged.push(event);
  }
  return [...merged, ...timed.slice(next).map(({ event }) => event), ...untimed];
}
