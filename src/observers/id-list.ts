// The two forms of a result's id lists. By default a list is a plain array of strings (the public
// results, the JSON contract). A caller that only writes the ids out (the CLI's JSON) can ask the
// parsers for packed lists instead: the ids' bytes in an arena, a string made only when one is read.
// On a log of millions of ids a string costs each id about 40 bytes beyond its text, and the
// collector copies every one of them (docs/benchmarks.md, bench/judge). The list shapes themselves
// are in types.ts (a run's evidence holds them).
import type { IdList } from "../types.js";

export type { IdList, PackedIdList } from "../types.js";

/** How a parser keeps its ids: strings (the default) or bytes (see {@link PackedIdList}). */
export type IdForm = "strings" | "bytes";

/** Options of a runner's parser. */
export interface ParserOptions {
  /** `bytes`: the lists of the parse are {@link PackedIdList}s (a parser may ignore this and give arrays). */
  ids?: IdForm;
}

/** The three outcome lists of a parse. */
export interface OutcomeLists<Ids extends IdList> {
  passed: Ids;
  failed: Ids;
  skipped: Ids;
}

/** Ids with their outcome flags, merged per id: what a parser keeps while it reads (see IdTable). */
export interface OutcomeTable<Ids extends IdList> {
  /** Adds `bits` (the PASS, FAIL and SKIP flags of lines.ts) to `id`. */
  add(id: string, bits: number): void;
  /** Adds `bits` to the id `text.slice(start, end)`. */
  addRange(text: string, start: number, end: number, bits: number): void;
  /** Call after each input chunk of `chunkLength` characters. */
  endChunk(chunkLength: number): void;
  /** Number of entries (repeats not yet merged count twice). */
  readonly size: number;
  /** Any failure wins, then a pass, then a skip; each id once, in first-seen order. The table is left empty. */
  drain(): OutcomeLists<Ids>;
}

/** True when `list` is a plain array. */
export function isIdArray(list: IdList): list is readonly string[] {
  return Array.isArray(list);
}

/** True when some id of `list` satisfies `test`. */
export function someId(list: IdList, test: (id: string) => boolean): boolean {
  for (const id of list) if (test(id)) return true;
  return false;
}
