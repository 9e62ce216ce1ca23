// The public shapes of judging: what `judge` takes and returns, and the streaming form's options.
import type { IdForm } from "../observers/id-list.js";
import type { JunitReport } from "../observers/junit.js";
import type { LineReasonCode, OpenCode } from "../reasons.js";
import type { IdList, Outcome, RunEvidence } from "../types.js";

/** A JUnit XML report the run wrote (or the caller holds), as text. */
export interface JudgeJunitXml {
  kind: "junit";
  xml: string;
  /** The path the report was read from: matched against the invocation's `--junitxml` file when several runs share a line. */
  path?: string;
  /** When the file was last written (Date, epoch ms or ISO text). */
  mtime?: Date | number | string;
  /** When the run started: a report older than this is stale. */
  startedAt?: Date | number | string;
}

/** A report given to the judge: JUnit XML text, or a report already read with `parseJunit`. */
export type JudgeReport = JudgeJunitXml | (JunitReport & { path?: string });

/** Everything `judge` reads. All of it is data: nothing is run or opened. */
export interface JudgeInput {
  /** The command line as the agent typed it. */
  command: string;
  /** The captured output (stdout and stderr as the tool returned them). */
  output: string;
  /** The line's exit status, when known. */
  exitCode?: number | null;
  /** The directory the line ran in, used as text (it need not exist here). */
  cwd?: string;
  /** The tool host clipped the output. */
  outputTruncated?: boolean;
  reports?: JudgeReport[];
}

/**
 * The judgement of one command line. `runs[i]` belongs to `analysis.invocations[i]`. Its id lists
 * are arrays (`Ids` is {@link IdList} only from a judge asked for packed ids: the CLI's JSON).
 */
export interface JudgeResult<Ids extends IdList = string[]> {
  schemaVersion: 1;
  /** `failed` if any run failed, `passed` if every run passed, else `unknown`. */
  verdict: Outcome;
  /** Why the verdict is not `passed` (the union of the runs' reasons, or a line-level code). */
  reasons: OpenCode<LineReasonCode>[];
  runs: RunEvidence<Ids>[];
}

/** Options of {@link createJudgeStream}: the input of `judge` without the command and the output. */
export interface JudgeStreamOptions {
  /** The line's exit status, when known (`end(exitCode)` may give it instead). */
  exitCode?: number | null;
  /** The directory the line ran in (informational here: the analysis already resolved workspaces). */
  cwd?: string;
  /** The tool host clipped the output. */
  outputTruncated?: boolean;
  reports?: JudgeReport[];
  /**
   * `bytes`: the built-in runners keep the ids as bytes and the result's lists are `PackedIdList`s
   * where a runner gave them (read them one by one, or write them with `jsonPieces()`): for logs of
   * millions of ids, whose strings would cost about 40 bytes an id beyond the text. Default `strings`.
   */
  ids?: IdForm;
}

/** An incremental judge: push the output as it arrives, then `end()` once. Memory stays flat in the output size. */
export interface JudgeStream<Ids extends IdList = string[]> {
  /** Feeds the next chunk of output (any split, even mid-line). */
  push(chunk: string): void;
  /** Finishes and judges; an exit status given here wins over the one given at creation. */
  end(exitCode?: number | null): JudgeResult<Ids>;
  /**
   * A tool host's clipping note was in the output read so far (`src/evidence/clipping.ts`, the one
   * clipping rule; every line is read for it, whether a run reads the line or not). Not the
   * `outputTruncated` option: only what the output itself shows.
   */
  readonly clippingNoteSeen: boolean;
}
