// Judging a command line: shell analysis + exit attribution + the runners' parsers -> one
// RunEvidence per recognised invocation and a line verdict. Pure and synchronous; the streaming
// form keeps no output text, so a log of any size can be judged.
import { analyzeCommand } from "../grammar/analyze-command.js";
import { isIdArray } from "../observers/id-list.js";
import { mergeOutcomeIds } from "../observers/id-table.js";
import type { OutputParser } from "../observers/types.js";
import type { ExitAttributionReason, LineReasonCode, ScriptReasonCode } from "../reasons.js";
import type { RunnerDefinition } from "../runners/definition.js";
import { builtinRunners, type RunnerRegistry } from "../runners/registry.js";
import { attributeExit, statusTemplates } from "../shell/attribute-exit.js";
import type { PackageScripts } from "../shell/package-scripts.js";
import type { CommandAnalysis, ExitAttribution } from "../shell/types.js";
import type { IdList, Outcome, RunEvidence } from "../types.js";
import { collectMarkerTexts, createSignalScanner, type SignalScanner } from "./judge-host-notes.js";
import { createNoiseFilter } from "./judge-noise.js";
import { attachReports, reportFacts } from "./judge-reports.js";
import { decideRun, emptyParse, type RunFacts, showsWhole } from "./judge-rules.js";
import { createOutputRouter, type RoutedRun, type RoutedSegment } from "./judge-run-split.js";
import type { JudgeInput, JudgeResult, JudgeStream, JudgeStreamOptions } from "./judge-types.js";

/** Options of {@link judge} and {@link createJudgeStream} beyond the judge's input: the runners to know. */
export interface JudgeRunnersOption {
  /** The runners to recognise and read runs with (default: the built-ins; `createRunnerRegistry([yours])` adds yours). */
  runners?: RunnerRegistry;
  /** What package.json says where the line's script runs start (`npm test`): data, see `resolvePackageScripts` and docs/runners.md. */
  packageScripts?: PackageScripts;
}

/**
 * Judges one command line from its output: `runs[i]` belongs to the line's i-th test invocation.
 * @example judge({ command: "pytest -q 2>&1 | tail -3", output: "1 failed, 4 passed in 0.50s\n", exitCode: 0 }).verdict // "failed"
 */
export function judge(input: JudgeInput & JudgeRunnersOption): JudgeResult {
  const analysis = analyzeCommand(input.command, {
    ...(input.cwd === undefined ? {} : { cwd: input.cwd }),
    ...(input.runners === undefined ? {} : { runners: input.runners }),
    ...(input.packageScripts === undefined ? {} : { packageScripts: input.packageScripts }),
  });
  return judgeAnalyzed(analysis, input);
}

/** Same as {@link judge} for a line already analysed with `analyzeCommand`. */
export function judgeAnalyzed(analysis: CommandAnalysis, input: Omit<JudgeInput, "command"> & JudgeRunnersOption): JudgeResult {
  const stream = createJudgeStream(analysis, input);
  stream.push(input.output);
  return stream.end();
}

/**
 * An incremental judge: `push` the output as it arrives, `end()` returns the judgement. Output is
 * handed to the runs in line order and never kept, so memory stays flat in the output size. With
 * `ids: "bytes"` the result's id lists may be `PackedIdList`s (see {@link JudgeStreamOptions.ids}).
 * @example const s = createJudgeStream(analyzeCommand("go test -json ./...")); for (const c of chunks) s.push(c); s.end(0);
 */
export function createJudgeStream(
  analysis: CommandAnalysis,
  options: JudgeStreamOptions & JudgeRunnersOption & { ids: "bytes" },
): JudgeStream<IdList>;
export function createJudgeStream(
  analysis: CommandAnalysis,
  options?: JudgeStreamOptions & JudgeRunnersOption & { ids?: "strings" },
): JudgeStream;
export function createJudgeStream(analysis: CommandAnalysis, options: JudgeStreamOptions & JudgeRunnersOption): JudgeStream<IdList>;
export function createJudgeStream(analysis: CommandAnalysis, options: JudgeStreamOptions & JudgeRunnersOption = {}): JudgeStream<IdList> {
  const packed = options.ids === "bytes";
  const stream = judgeStream(analysis, options, packed);
  if (packed) return stream;
  // Asked for strings: a runner of your own that gave packed lists anyway has them read out.
  return {
    push: (chunk) => stream.push(chunk),
    end: (exitCode) => withIdArrays(stream.end(exitCode)),
    get clippingNoteSeen() {
      return stream.clippingNoteSeen;
    },
  };
}

function judgeStream(analysis: CommandAnalysis, options: JudgeStreamOptions & JudgeRunnersOption, packed: boolean): JudgeStream<IdList> {
  const runners = options.runners ?? builtinRunners;
  const invocations = analysis.opaque ? [] : analysis.invocations;
  // A run of a kind these runners do not know (analysed with others) is read by none: it proves nothing.
  const definitions = invocations.map((inv) => runners.get(inv.kind));
  const markerTexts = collectMarkerTexts(analysis);
  const templates = invocations.length === 0 ? [] : statusTemplates(analysis);
  // The start errors of the runners this line runs (each line is searched for every needle).
  const startErrors = [...new Set(definitions)].flatMap((definition) => definition?.startErrors ?? []);
  const scanner = createSignalScanner({
    markerTexts,
    watchStash: invocations.some((inv) => inv.afterStash),
    statusPatterns: templates,
    startErrors,
  });
  const router = createOutputRouter(
    invocations.map((invocation, i) => ({
      invocation,
      split: definitions[i]?.split ?? { by: "summary" },
      createParser: () =>
        (packed ? definitions[i]?.createParser({ ids: "bytes" }) : definitions[i]?.createParser()) ?? createSilentParser(invocation.kind),
    })),
    scanner,
  );
  // A package manager's own lines are read here, never by a runner's parser.
  const noise = analysis.opaque ? null : createNoiseFilter(analysis.packageRuns ?? [], (dropped) => scanner.scanWindow(dropped));
  let ended: JudgeResult<IdList> | null = null;
  return {
    push(chunk: string): void {
      if (ended !== null) return;
      router.push(noise === null ? chunk : noise.push(chunk));
    },
    end(exitCode?: number | null): JudgeResult<IdList> {
      if (ended !== null) return ended;
      if (noise !== null) router.push(noise.end());
      const routed = router.end();
      const exit = exitCode === undefined ? options.exitCode : exitCode;
      const attributions = attributeExit(analysis, exit ?? null, {
        ...(markerTexts.length > 0 ? { output: [...scanner.line.markersSeen].join("\n") } : {}),
        ...(templates.length > 0 ? { status: { templates, lines: scanner.line.statusLines } } : {}),
      });
      ended = withScriptProblems(
        finish(analysis, { routed, attributions, definitions, scanner, options }),
        analysis,
        noise?.mismatch === true,
      );
      return ended;
    },
    get clippingNoteSeen(): boolean {
      return scanner.line.clipped;
    },
  };
}

interface FinishParts {
  routed: RoutedRun[];
  attributions: ExitAttribution[];
  definitions: (RunnerDefinition | undefined)[];
  scanner: SignalScanner;
  options: JudgeStreamOptions;
}

function finish(analysis: CommandAnalysis, parts: FinishParts): JudgeResult<IdList> {
  if (analysis.opaque || analysis.invocations.length === 0) {
    return {
      schemaVersion: 1,
      verdict: "unknown",
      reasons: [analysis.opaque ? ("opaque-command" satisfies LineReasonCode) : ("not-a-test-command" satisfies LineReasonCode)],
      runs: [],
    };
  }
  const { routed, attributions, definitions, scanner, options } = parts;
  const invocations = analysis.invocations;
  const line = scanner.line;
  const clipped = options.outputTruncated === true || line.clipped;
  const { byRun, unattributed } = attachReports(options.reports ?? [], invocations);
  const loopIndex = invocations.findIndex((inv) => inv.repeated);
  const suspectSplit = invocations[invocations.length - 1]!.runsTests && ownershipInDoubt(routed, invocations.length, loopIndex);
  // A loop's run never hands its output on, so no run of such a line knows its own share.
  const loopShared = loopIndex !== -1 && invocations.length > 1;
  const runs = invocations.map((invocation, i): RunEvidence<IdList> => {
    const facts = ({ parsed, lastLine }: RoutedSegment): RunFacts => ({
      invocation,
      attribution: attributions[i] ?? { status: "masked", runnerExit: null, reason: "runner-not-found" satisfies ExitAttributionReason },
      definition: definitions[i],
      parsed,
      lastLine,
      signals: scanner.run(i),
      clipped,
      baseline: invocation.afterStash && !line.stashSavedNothing && !line.stashFailed,
      reports: reportFacts(byRun.get(i) ?? []),
      notAttributable: suspectSplit || loopShared,
      whole: showsWhole(invocation, parsed),
    });
    const segments = routed[i]!.segments;
    if (!invocation.repeated) return decideRun(facts(segments[0]!));
    // A loop: each iteration is judged on its own share; a trailing share with text but no summary is an iteration that did not finish.
    const iterations = segments.filter((s, k) => k < segments.length - 1 || s.nonBlank || segments.length === 1);
    return mergeIterations(iterations.map((s) => decideRun(facts(s))));
  });
  const verdict = lineVerdict(runs);
  const reasons = verdict === "passed" ? [] : [...new Set(runs.flatMap((run) => run.reasons))];
  if (unattributed > 0 && verdict !== "passed") reasons.push("report-not-attributed" satisfies LineReasonCode);
  return { schemaVersion: 1, verdict, reasons, runs };
}

// When the last of several runs got no summary, an earlier run that printed none may hold the next one's.
function ownershipInDoubt(routed: RoutedRun[], count: number, loopIndex: number): boolean {
  if (count < 2 || loopIndex !== -1) return false;
  const last = routed[count - 1]!.segments[0]!.parsed;
  return last.summaryCount === 0 && !last.markers.some((m) => m.kind === "usage-error" || m.kind === "collect-only");
}

function mergeIterations(iterations: RunEvidence<IdList>[]): RunEvidence<IdList> {
  const first = iterations[0]!;
  const { passed, failed, skipped } = mergeOutcomeIds(iterations);
  const outcome: Outcome = iterations.some((r) => r.outcome === "failed")
    ? "failed"
    : iterations.every((r) => r.outcome === "passed")
      ? "passed"
      : "unknown";
  const reasons = [...new Set(iterations.filter((r) => r.outcome === outcome || outcome === "unknown").flatMap((r) => r.reasons))];
  return {
    ...first,
    outcome,
    passed,
    failed,
    skipped,
    reasons: outcome === "passed" ? [] : reasons,
    gates: iterations.flatMap((r) => r.gates),
  };
}

/** `failed` if any run failed, `passed` if every run passed, else `unknown`. */
function lineVerdict(runs: readonly RunEvidence<IdList>[]): Outcome {
  if (runs.some((run) => run.outcome === "failed")) return "failed";
  if (runs.length > 0 && runs.every((run) => run.outcome === "passed")) return "passed";
  return "unknown";
}

// A script run that proves nothing (not resolved, a missing script, an unknown program in it, a banner
// showing another command than the one followed) keeps the line from passing; a failure still counts.
function withScriptProblems(result: JudgeResult<IdList>, analysis: CommandAnalysis, bannerMismatch: boolean): JudgeResult<IdList> {
  if (analysis.opaque) return result;
  const problems = [
    ...new Set([
      ...(analysis.packageRuns ?? []).flatMap((run) => (run.problem === null ? [] : [run.problem])),
      ...(bannerMismatch ? (["script-changed"] as const) : []),
    ]),
  ];
  if (problems.length === 0) return result;
  const runs = bannerMismatch
    ? result.runs.map((run) =>
        run.outcome === "passed"
          ? { ...run, outcome: "unknown" as const, passed: [], reasons: ["script-changed" satisfies ScriptReasonCode] }
          : run,
      )
    : result.runs;
  if (result.runs.length === 0) return { ...result, verdict: "unknown", reasons: problems };
  const verdict = result.verdict === "failed" ? "failed" : "unknown";
  return { ...result, verdict, runs, reasons: verdict === "failed" ? result.reasons : [...new Set([...result.reasons, ...problems])] };
}

// The result with every list an array: itself when they all are (every run read by a parser that was
// not asked for packed ids), so `end()` gives the same object each time, as it always did.
function withIdArrays(result: JudgeResult<IdList>): JudgeResult {
  const arrays = result.runs.every((run) => isIdArray(run.passed) && isIdArray(run.failed) && isIdArray(run.skipped));
  // Checked just above: every list is an array (the parsers' own, typed readonly only by the union).
  if (arrays) return result as JudgeResult;
  return {
    ...result,
    runs: result.runs.map((run) => ({
      ...run,
      passed: idStrings(run.passed),
      failed: idStrings(run.failed),
      skipped: idStrings(run.skipped),
    })),
  };
}

// The list as the mutable array the public result holds (the array itself when it is one).
function idStrings(list: IdList): string[] {
  return isIdArray(list) ? (list as string[]) : list.toArray();
}

// A run whose kind no runner definition reads: it consumes its share and proves nothing.
function createSilentParser(kind: RunEvidence["kind"]): OutputParser {
  let lines = 0;
  return {
    push(chunk: string): void {
      for (let at = chunk.indexOf("\n"); at !== -1; at = chunk.indexOf("\n", at + 1)) lines += 1;
    },
    end: () => emptyParse(kind, lines),
    get summaryCount() {
      return 0;
    },
    get lineCount() {
      return lines;
    },
  };
}

export type { JudgeInput, JudgeJunitXml, JudgeReport, JudgeResult, JudgeStream, JudgeStreamOptions } from "./judge-types.js";
