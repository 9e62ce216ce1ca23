// Session analysis: every shell call of a transcript judged, edits (tools and shell) marking earlier
// runs stale, `git stash` baselines told apart from runs on the current tree. Pure: events in, data out.
import { posix } from "node:path";

import { judgeAnalyzed } from "../evidence/judge.js";
import { covers, targetKey } from "../evidence/targets.js";
import { inertPathReason } from "../evidence/test-inputs.js";
import { analyzeCommand } from "../grammar/analyze-command.js";
import type { ReasonCode } from "../reasons.js";
import { builtinRunners } from "../runners/registry.js";
import { attributeExit } from "../shell/attribute-exit.js";
import type { AnalyzedCommand, CommandAnalysis } from "../shell/types.js";
import type { Outcome, RunEvidence } from "../types.js";
import type { ShellEvent, TranscriptEvent } from "./transcripts/types.js";

/** What changed the tree after a run: an edit tool call, or a shell command that may edit. */
export type EditCause =
  { kind: "edit-tool"; tool: string; paths: string[]; line: number } | { kind: "shell"; command: string; line: number };

/** One edit of the session, in transcript order. */
export interface SessionEdit {
  /** Index of the event in the session's event list. */
  position: number;
  cause: EditCause;
}

/** One shell call that invoked a test runner, judged. */
export interface SessionRun {
  /** Index of the event in the session's event list. */
  position: number;
  /** 1-based transcript line of the call. */
  line: number;
  command: string;
  cwd: string | null;
  exitCode: number | null;
  sidechain: boolean;
  /** The line's outcome about the tree it ran on (baseline runs only when every run is a baseline). */
  outcome: Outcome;
  /** Why the outcome is not `passed`. */
  reasons: string[];
  /** Every run of the line tested the tree without the change (`git stash && pytest; git stash pop`). */
  baseline: boolean;
  /** A selection option (-k, -run, ...) narrowed a current-tree run. */
  filtered: boolean;
  /** The current-tree runs named files or test ids, or were filtered: not a whole-suite run. */
  partial: boolean;
  /** The line's exit status does not belong to a runner (a pipe without pipefail, `;`, `||`, `&`). */
  masked: boolean;
  runs: RunEvidence[];
  /** The first edit after the run, or null while the run still applies to the tree. */
  staleBy: EditCause | null;
  /** Index in the event list of the edit that made the run stale, or null. */
  stalePosition: number | null;
}

/** What {@link analyzeSession} returns. */
export interface SessionAnalysis {
  /** Every shell call in the session. */
  shellCalls: number;
  /** Shell calls that invoked a test runner, judged, in order. */
  runs: SessionRun[];
  edits: SessionEdit[];
  /** The last run on the current tree (baselines excluded), or null when there is none. */
  lastRun: SessionRun | null;
  /**
   * The last failing run on the current tree that nothing has answered: no edit came after it, and no
   * later run that passed reran all it ran (same directory, its targets covered, no narrower selection).
   * A passing `-k other`, a single test id, or a good copy elsewhere after it leave it open.
   */
  openFailure: SessionRun | null;
}

const STASH_SAVE = new Set(["push", "save", "-u", "--include-untracked", "-k", "--keep-index", "-m", "--message"]);

// `git stash` -> "push"; `git stash pop` -> "pop"; null for any other command.
function stashVerb(command: AnalyzedCommand): string | null {
  if (command.name !== "git") return null;
  const at = command.words.indexOf("stash");
  return at === -1 ? null : (command.words[at + 1] ?? "push");
}

const isStashSave = (command: AnalyzedCommand): boolean => {
  const verb = stashVerb(command);
  return verb !== null && (STASH_SAVE.has(verb) || verb.startsWith("-"));
};
const isStashRestore = (command: AnalyzedCommand): boolean => ["pop", "apply"].includes(stashVerb(command) ?? "");

/** Options of {@link analyzeSession}. */
export interface AnalyzeSessionOptions {
  /**
   * Checks a written path on disk (I/O, injected; `isPlainFileOnDisk` in io/plain-file.ts): true when
   * it is a plain file with one name whose real path is where its name says below `root` (no symlink
   * or hard link into the sources). Given, the path rule holds only for files it confirms; absent,
   * names are trusted (a pure reading of the text).
   */
  isPlainFile?: (absolutePath: string, root: string | null) => boolean;
}

// What the session's path rule needs: where it runs, how to check a file, and whether the repository's
// configuration or hooks were written (after which git commands may run anything).
interface EditContext {
  workspace: string | null;
  isPlainFile: AnalyzeSessionOptions["isPlainFile"];
  repositoryConfigWritten: boolean;
}

// Commands that remove or rename what they name: the name may have been a link, and is no longer there to check.
const UNLINKS = new Set(["rm", "rmdir", "unlink", "mv"]);

// A write the path rule leaves out (test-inputs.ts): a doc, a cache, `.git/`, outside the workspace.
function isInertWrite(path: string, context: EditContext, cwd: string | null): boolean {
  const reason = inertPathReason(path, context.workspace, cwd);
  if (reason === null) return false;
  if (context.isPlainFile === undefined) return true;
  const base = cwd ?? context.workspace;
  const absolute = posix.isAbsolute(path) ? path : base === null ? null : posix.join(base, path);
  return absolute !== null && context.isPlainFile(absolute, context.workspace);
}

const writesRepositoryConfig = (path: string, context: EditContext, cwd: string | null): boolean =>
  inertPathReason(path, context.workspace, cwd) === "vcs-internals";

// Can the command change what the tests read? By its effect (command-effect.ts) and the path rule.
function mayChangeSources(command: AnalyzedCommand, context: EditContext, cwd: string | null): boolean {
  if (command.invocation !== undefined) return false;
  const effect = command.effect;
  if (effect.kind !== "unknown" && effect.dependsOn === "repository-config" && context.repositoryConfigWritten) return true;
  if (command.readOnly) return false;
  if (effect.kind === "unknown") return true;
  if (effect.kind !== "paths") return false;
  const gitRemoves = command.name === "git" && command.words.some((w) => w === "rm" || w === "mv");
  if (UNLINKS.has(command.name) || gitRemoves) return true;
  return !effect.paths.every((path) => isInertWrite(path, context, cwd));
}

// The commands of a line that may change files. A stash that saved the tree and the pop that put it
// back cancel out; a stash that saved nothing or failed changed nothing, and then the pop is an edit.
function shellEdits(analysis: CommandAnalysis, runs: readonly RunEvidence[], context: EditContext, cwd: string | null): AnalyzedCommand[] {
  const realBaseline = runs.some((run) => run.baseline);
  const stashed = analysis.invocations.some((invocation) => invocation.afterStash);
  const edits = analysis.commands.filter((command) => {
    if (!mayChangeSources(command, context, cwd)) return false;
    if (stashed && isStashSave(command)) return false;
    if (realBaseline && isStashRestore(command)) return false;
    return true;
  });
  for (const command of analysis.commands) {
    if (context.repositoryConfigWritten) break;
    if (command.effect.kind === "paths" && command.effect.paths.some((path) => writesRepositoryConfig(path, context, cwd)))
      context.repositoryConfigWritten = true;
  }
  return edits;
}

function combine(runs: readonly RunEvidence[]): { outcome: Outcome; reasons: string[] } {
  if (runs.some((run) => run.outcome === "failed")) return { outcome: "failed", reasons: [...new Set(runs.flatMap((run) => run.reasons))] };
  if (runs.length > 0 && runs.every((run) => run.outcome === "passed")) return { outcome: "passed", reasons: [] };
  return { outcome: "unknown", reasons: [...new Set(runs.flatMap((run) => run.reasons))] };
}

// A run of some of the suite: filtered, or a target that names one test (`::`), one file (a name with
// an extension, in any runner's language: `test_a.py`, `calc_test.go`, `math.test.ts`, `lib.rs`) or
// one Django test module (`app.tests`).
const FILE_TARGET = /(?:^|\/)[^/]*[^/.]\.[A-Za-z][A-Za-z0-9]*$/;
const defaultPartial = (target: string): boolean => target.includes("::") || FILE_TARGET.test(target) || /^[\w.]+\.tests?\b/.test(target);
const isPartial = (run: RunEvidence): boolean => {
  const definition = builtinRunners.get(run.kind);
  return run.filtered || run.targets.some((target) => definition?.partialTarget?.(target) ?? defaultPartial(target));
};

// Agents rerun the same few commands: analysing a line once per process saves most of the parse time.
const ANALYSIS_CACHE_SIZE = 2000;
const analysisCache = new Map<string, CommandAnalysis>();

function analyzeCached(command: string, cwd: string | null): CommandAnalysis {
  const key = `${cwd ?? ""}\0${command}`;
  const cached = analysisCache.get(key);
  if (cached !== undefined) return cached;
  const analysis = analyzeCommand(command, cwd === null ? {} : { cwd });
  if (analysisCache.size >= ANALYSIS_CACHE_SIZE) analysisCache.delete(analysisCache.keys().next().value!);
  analysisCache.set(key, analysis);
  return analysis;
}

function judgeShell(event: ShellEvent, position: number): { run: SessionRun | null; analysis: CommandAnalysis; runs: RunEvidence[] } {
  const analysis = analyzeCached(event.command, event.cwd);
  const result = judgeAnalyzed(analysis, {
    output: event.output,
    exitCode: event.exitCode,
    ...(event.cwd === null ? {} : { cwd: event.cwd }),
    outputTruncated: event.outputTruncated,
  });
  if (analysis.opaque || analysis.invocations.length === 0) return { run: null, analysis, runs: result.runs };
  const current = result.runs.filter((run) => !run.baseline);
  const relevant = current.length > 0 ? current : result.runs;
  const judged = current.length === result.runs.length ? { outcome: result.verdict, reasons: result.reasons } : combine(relevant);
  // The client reported a failure it kept no exit code for: the output may show a pass; the line did not pass.
  const { outcome, reasons } =
    event.clientStatus === "failed" && judged.outcome === "passed"
      ? { outcome: "unknown" as const, reasons: ["failed-without-exit-code"] satisfies ReasonCode[] }
      : judged;
  const masked = attributeExit(analysis, event.exitCode).some((attribution) => attribution.status === "masked");
  const run: SessionRun = {
    position,
    line: event.line,
    command: event.command,
    cwd: event.cwd,
    exitCode: event.exitCode,
    sidechain: event.sidechain,
    outcome,
    reasons,
    baseline: current.length === 0,
    filtered: current.some((r) => r.filtered),
    partial: current.length === 0 || current.some(isPartial),
    masked,
    runs: result.runs,
    staleBy: null,
    stalePosition: null,
  };
  return { run, analysis, runs: result.runs };
}

/**
 * Judges every shell call of a session and tracks which runs still apply: an edit (edit tool or a
 * shell command that may write) makes every earlier run stale; `git stash` baselines are kept apart.
 * @example analyzeSession(readTranscript(text).events).lastRun?.outcome // "failed"
 */
export function analyzeSession(events: readonly TranscriptEvent[], options: AnalyzeSessionOptions = {}): SessionAnalysis {
  const context: EditContext = { workspace: null, isPlainFile: options.isPlainFile, repositoryConfigWritten: false };
  const runs: SessionRun[] = [];
  const edits: SessionEdit[] = [];
  let shellCalls = 0;
  const markStale = (cause: EditCause, position: number): void => {
    for (let i = runs.length - 1; i >= 0; i -= 1) {
      const run = runs[i]!;
      if (run.staleBy !== null) break;
      run.staleBy = cause;
      run.stalePosition = position;
    }
  };
  events.forEach((event, position) => {
    switch (event.type) {
      case "shell": {
        shellCalls += 1;
        // The workspace is where the session's shell first ran (edit tools name no directory).
        context.workspace ??= event.cwd;
        const judged = judgeShell(event, position);
        // A refused call is no run; what it may have written before an interrupt still counts.
        const run = event.clientStatus === "refused" ? null : judged.run;
        const lineEdits = shellEdits(judged.analysis, judged.runs, context, event.cwd);
        const firstRunIndex = judged.analysis.invocations[0]?.commandIndex ?? Number.POSITIVE_INFINITY;
        const lastRunIndex = judged.analysis.invocations.at(-1)?.commandIndex ?? Number.NEGATIVE_INFINITY;
        // Edits before the line's first run stale earlier runs only; edits after its last run stale it too.
        const before = lineEdits.find((command) => command.index < firstRunIndex);
        if (before) markStale({ kind: "shell", command: before.text, line: event.line }, position);
        if (run) runs.push(run);
        // A trap, a job or a pipeline stage may write after the run wherever it stands in the line.
        const after = lineEdits.find(
          (command) =>
            (command.index > firstRunIndex && (command.index > lastRunIndex || run === null)) ||
            (command.runsLate === true && run !== null),
        );
        const anyEdit = before ?? after;
        if (after) markStale({ kind: "shell", command: after.text, line: event.line }, position);
        if (anyEdit) edits.push({ position, cause: { kind: "shell", command: anyEdit.text, line: event.line } });
        break;
      }
      case "edit": {
        if (event.failed) break;
        if (!context.repositoryConfigWritten && event.paths.some((path) => writesRepositoryConfig(path, context, null)))
          context.repositoryConfigWritten = true;
        if (event.paths.length > 0 && event.paths.every((path) => isInertWrite(path, context, null))) break;
        const cause: EditCause = { kind: "edit-tool", tool: event.tool, paths: event.paths, line: event.line };
        markStale(cause, position);
        edits.push({ position, cause });
        break;
      }
      case "assistant-message":
      case "user-message":
        break;
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  });
  const current = runs.filter((run) => !run.baseline);
  return { shellCalls, runs, edits, lastRun: current.at(-1) ?? null, openFailure: openFailureOf(current) };
}

// The last failing run no edit and no covering passing run came after (see SessionAnalysis.openFailure).
function openFailureOf(current: readonly SessionRun[]): SessionRun | null {
  for (let i = current.length - 1; i >= 0; i -= 1) {
    const run = current[i]!;
    if (run.staleBy !== null) return null;
    if (run.outcome !== "failed") continue;
    return current.slice(i + 1).some((later) => reruns(later, run)) ? null : run;
  }
  return null;
}

/** Did `later` pass while rerunning all that `earlier` ran? The same line again, or a wider one. */
export function reruns(later: SessionRun, earlier: SessionRun): boolean {
  if (later.outcome !== "passed") return false;
  if (later.command === earlier.command && later.cwd === earlier.cwd) return true;
  const laterRuns = later.runs.filter((run) => !run.baseline);
  if (laterRuns.some((run) => run.filtered)) return false;
  return earlier.runs
    .filter((run) => !run.baseline)
    .every((old) =>
      laterRuns.some(
        (run) =>
          run.kind === old.kind &&
          run.workspace === old.workspace &&
          old.targets.every((target) => run.targets.some((wider) => targetCovers(run.kind, wider, target, run.workspace))),
      ),
    );
}

function targetCovers(kind: RunEvidence["kind"], wider: string, narrower: string, workspace: string | null): boolean {
  const family = builtinRunners.familyOf(kind);
  return covers(family, targetKey(family, wider, workspace, workspace), targetKey(family, narrower, workspace, workspace));
}
