// The judge's JSON, written in pieces: the id lists of a log with millions of ids are never joined
// into one string (`JSON.stringify` of the whole result was the CLI's peak on such logs). The bytes
// are exactly `JSON.stringify` of the contract's fields in the contract's order; `--ids` leaves id
// lists out for callers who only need the verdict.
import type { JudgeResult } from "../evidence/judge-types.js";

/** Which id lists the JSON carries: all three, only `failed`, or none (the lists are then left out). */
export type IdsMode = "all" | "failed" | "none";

/** The accepted `--ids` values. */
export const IDS_MODES: readonly IdsMode[] = ["all", "failed", "none"];

/** Receives the JSON in order; a returned promise is awaited before the next piece (backpressure). */
export type JsonSink = (text: string) => void | Promise<void>;

/** Characters of ids gathered before they are handed to the sink. */
const BATCH_CHARS = 64 * 1024;
/** Ids joined and checked for characters JSON escapes at once. */
const BATCH_IDS = 1024;
// What JSON.stringify escapes in a string: `"`, `\`, control characters, and (lone) surrogates.
// eslint-disable-next-line no-control-regex -- control characters are what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * Writes the judge's JSON to `sink`. With `ids: "all"` the bytes equal
 * `JSON.stringify({ schemaVersion, verdict, reasons, runs })` of the contract's fields.
 * @example await writeJudgeJson(result, (text) => void chunks.push(text));
 */
export async function writeJudgeJson(result: JudgeResult, sink: JsonSink, ids: IdsMode = "all"): Promise<void> {
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
      let batch = text;
      for (let at = 0; at < list.length; at += BATCH_IDS) {
        batch += `${at === 0 ? "" : ","}${jsonStrings(list, at, Math.min(list.length, at + BATCH_IDS))}`;
        if (batch.length >= BATCH_CHARS) {
          await sink(batch);
          batch = "";
        }
      }
      text = `${batch}]`;
    }
    field("reasons", run.reasons);
    field("unprovenTargets", run.unprovenTargets);
    field("gates", run.gates);
    await sink(`${text}}`);
  }
  await sink("]}");
}

// `list[from..to)` as JSON strings joined by commas, byte for byte what JSON.stringify gives each:
// ids without a character JSON escapes (nearly all) are quoted as they are, in one join.
function jsonStrings(list: readonly string[], from: number, to: number): string {
  const joined = list.slice(from, to).join('","');
  if (!NEEDS_ESCAPE.test(joined)) return `"${joined}"`;
  let text = "";
  for (let at = from; at < to; at++) text += `${at === from ? "" : ","}${JSON.stringify(list[at])}`;
  return text;
}
