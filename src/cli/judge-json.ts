// The judge's JSON, written in pieces: the id lists of a log with millions of ids are never joined
// into one string (`JSON.stringify` of the whole result was the CLI's peak on such logs). The bytes
// are exactly `JSON.stringify` of the contract's fields in the contract's order; `--ids` leaves id
// lists out for callers who only need the verdict. Each piece of ids is `JSON.stringify` of a slice
// of the list without its brackets: the same bytes by the definition of an array's JSON, in one
// native call per slice (half the CPU of quoting each id).
import type { JudgeResult } from "../evidence/judge-types.js";
import { isIdArray } from "../observers/id-list.js";
import type { IdList } from "../types.js";

/** Which id lists the JSON carries: all three, only `failed`, or none (the lists are then left out). */
export type IdsMode = "all" | "failed" | "none";

/** The accepted `--ids` values. */
export const IDS_MODES: readonly IdsMode[] = ["all", "failed", "none"];

/** Receives the JSON in order, as text or UTF-8 bytes; a returned promise is awaited before the next piece (backpressure). */
export type JsonSink = (piece: string | Uint8Array) => void | Promise<void>;

/** Ids quoted by one `JSON.stringify` and handed to the sink as one piece (512 to 1,024 measured fastest). */
const BATCH_IDS = 1024;

/**
 * Writes the judge's JSON to `sink`. With `ids: "all"` the bytes equal
 * `JSON.stringify({ schemaVersion, verdict, reasons, runs })` of the contract's fields.
 * @example await writeJudgeJson(result, (text) => void chunks.push(text));
 */
export async function writeJudgeJson(result: JudgeResult<IdList>, sink: JsonSink, ids: IdsMode = "all"): Promise<void> {
  await sink(
    `{"schemaVersion":${JSON.stringify(result.schemaVersion)},"verdict":${JSON.stringify(result.verdict)},"reasons":${JSON.stringify(result.reasons)},"runs":[`,
  );
  for (const [index, run] of result.runs.entries()) {
    let text = `${index === 0 ? "" : ","}{`;
    let first = true;
    const field = (key: string, value: unknown): void => {
      // JSON.stringify leaves out a key whose value is undefined.
      if (value === undefined) return;
      text += `${first ? "" : ","}${JSON.stringify(key)}:${JSON.stringify(value)}`;
      first = false;
    };
    field("kind", run.kind);
    field("runner", run.runner);
    field("targets", run.targets);
    field("workspace", run.workspace);
    field("filtered", run.filtered);
    field("baseline", run.baseline);
    field("outcome", run.outcome);
    for (const key of ["passed", "failed", "skipped"] as const) {
      if (ids === "none" || (ids === "failed" && key !== "failed")) continue;
      text += `${first ? "" : ","}${JSON.stringify(key)}:[`;
      first = false;
      const list = run[key];
      // Each piece goes to the sink as it is: a concatenation of pieces would be copied again when written.
      // What comes before a piece: the key and `[` before the first, a comma between two.
      if (isIdArray(list)) {
        for (let at = 0; at < list.length; at += BATCH_IDS) {
          await sink(text);
          await sink(jsonStrings(list, at, Math.min(list.length, at + BATCH_IDS)));
          text = ",";
        }
      } else if (list.length > 0) {
        // Packed ids write their own JSON bytes (commas between ids included).
        await sink(text);
        for (const piece of list.jsonPieces()) await sink(piece);
      }
      text = list.length === 0 ? `${text}]` : "]";
    }
    field("reasons", run.reasons);
    field("unprovenTargets", run.unprovenTargets);
    field("gates", run.gates);
    await sink(`${text}}`);
  }
  await sink("]}");
}

// `list[from..to)` as JSON strings joined by commas: JSON.stringify of the slice is `[` + exactly
// that + `]` (an array's JSON is its elements' JSON joined by commas), so the brackets are cut off.
function jsonStrings(list: readonly string[], from: number, to: number): string {
  return JSON.stringify(list.slice(from, to)).slice(1, -1);
}
