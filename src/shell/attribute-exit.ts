// Says, for each invocation in an analysed line, what the line's exit status tells about that runner.
import type { ExitAttributionReason } from "../reasons.js";
import { type SimContext, type SimState, simulate, TooComplexError, writesStdoutToFile } from "./exit-simulation.js";
import { numberSimpleCommands, SKIP, walkCommands } from "./flatten.js";
import { createSimMemo, markerIds, type SimMemo } from "./sim-memo.js";
import type { CommandAnalysis, CommandNode, ExitAttribution, SimpleCommand, Statement, TestInvocation } from "./types.js";

/** Options for exit-status attribution. */
export interface AttributeOptions {
  /** The output the line printed: `&& echo OK` / `|| echo BROKEN` markers are looked up in it. */
  output?: string;
  /** The line's status echoes ({@link statusTemplates}) and the output lines that match them (`EXIT=1`). */
  status?: { templates: readonly StatusTemplate[]; lines: readonly string[] };
}

/** An `echo`/`printf` that prints `$?`, as a pattern over the line it prints. */
export interface StatusTemplate {
  /** Index of the echo in line order (the numbering of numberSimpleCommands). */
  commandIndex: number;
  /** The literal text before `$?`, non-empty (a cheap needle), and the whole line as a pattern. */
  needle: string;
  pattern: RegExp;
}

/**
 * The echoes of a line that print `$?` once, with literal text around it: `echo EXIT=$?`,
 * `echo "exit: $?"`, `printf 'rc=%s\n' $?` is not read (its text is in two words).
 */
export function statusTemplates(analysis: CommandAnalysis): StatusTemplate[] {
  const templates: StatusTemplate[] = [];
  for (const [command, index] of numberSimpleCommands(analysis.parsed)) {
    if (command.words[0] !== "echo" || command.hasSubstitution || writesStdoutToFile(command.redirects)) continue;
    const text = echoedText(command.words);
    const at = text.indexOf("$?");
    if (at <= 0 || text.indexOf("$?", at + 2) !== -1 || /[$`\\]/.test(text.replace("$?", ""))) continue;
    const escape = (part: string): string => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    templates.push({
      commandIndex: index,
      needle: text.slice(0, at),
      pattern: new RegExp(`^${escape(text.slice(0, at))}(\\d{1,3})${escape(text.slice(at + 2))}$`),
    });
  }
  return templates;
}

// What this file returns: an attribution whose reason is one of the library's own.
type KnownAttribution = Omit<ExitAttribution, "reason"> & { reason: ExitAttributionReason };

interface Marker {
  id: number;
  text: string;
}

/** Where the runner sits, innermost frame first. */
interface Frame {
  statements: readonly Statement[];
  statementIndex: number;
  pipelineIndex: number;
  stageIndex: number;
  /** The node whose body holds `statements` (undefined at the top or in a nested script). */
  owner: CommandNode | undefined;
}

/** What every invocation's attribution reads, computed once per line. */
interface LineFacts {
  analysis: CommandAnalysis;
  byIndex: Map<number, SimpleCommand>;
  paths: Map<SimpleCommand, Frame[]>;
  markerIds: Map<SimpleCommand, number>;
  /** Shared by the simulations of every invocation. */
  memo: SimMemo;
  /** Whether a state's printed markers match the output (null: no output to compare with). */
  markersAgree: ((state: SimState) => boolean) | null;
  /** Where the last `||` of an and-or list is (-1: none). */
  lastOr: (connectors: readonly string[]) => number;
}

/**
 * One attribution per invocation, in order: `trusted`, `success-implied`, `failure-implied` or `masked`.
 * @example attributeExit(analyzeCommand("pytest -q 2>&1 | tail -3"), 0)[0].status // "masked"
 */
export function attributeExit(
  analysis: CommandAnalysis,
  exitCode: number | null | undefined,
  options: AttributeOptions = {},
): ExitAttribution[] {
  const byIndex = new Map<number, SimpleCommand>();
  for (const [command, index] of numberSimpleCommands(analysis.parsed)) byIndex.set(index, command);
  const markers = findMarkers(analysis.parsed.statements);
  const markerIdOf = new Map<SimpleCommand, number>();
  for (const [command, marker] of markers) markerIdOf.set(command, marker.id);
  const seen = options.output === undefined ? null : visibleLines(options.output);
  const memo = createSimMemo(byIndex.size);
  const targets = new Set(analysis.invocations.flatMap((invocation) => byIndex.get(invocation.commandIndex) ?? []));
  const lastOrs = new Map<readonly string[], number>();
  const facts: LineFacts = {
    analysis,
    byIndex,
    paths: analysis.opaque ? new Map<SimpleCommand, Frame[]>() : findPaths(analysis.parsed.statements, targets),
    markerIds: markerIdOf,
    memo,
    markersAgree: seen !== null && markers.size > 0 ? createMarkerCheck(markers, seen, memo) : null,
    lastOr: (connectors) => {
      let at = lastOrs.get(connectors);
      if (at === undefined) lastOrs.set(connectors, (at = connectors.lastIndexOf("||")));
      return at;
    },
  };
  const status = options.status ?? { templates: [], lines: [] };
  const printed = createStatusReader(analysis, byIndex, status.templates, status.lines);
  return analysis.invocations.map((invocation) => printed(invocation) ?? attributeOne(facts, invocation, exitCode ?? null));
}

// `pytest > log 2>&1; echo EXIT=$?`: the echo right after the runner prints the runner's own status.
// Only when the runner's statement is the runner alone (no `cd x &&` whose failure $? would show),
// in the foreground and outside any compound, and the output holds exactly one status for that echo.
function createStatusReader(
  analysis: CommandAnalysis,
  byIndex: Map<number, SimpleCommand>,
  templates: readonly StatusTemplate[],
  lines: readonly string[],
): (invocation: TestInvocation) => KnownAttribution | null {
  if (analysis.opaque || templates.length === 0) return () => null;
  const statements = analysis.parsed.statements;
  // The first top-level statement that is exactly one command, by that command.
  const alone = new Map<CommandNode, number>();
  statements.forEach((statement, at) => {
    const command =
      statement.list.pipelines.length === 1 && statement.list.pipelines[0]!.commands.length === 1
        ? statement.list.pipelines[0]!.commands[0]!
        : undefined;
    if (command !== undefined && !alone.has(command)) alone.set(command, at);
  });
  const byCommand = new Map<CommandNode, StatusTemplate>();
  for (const template of templates) {
    const command = byIndex.get(template.commandIndex);
    if (command !== undefined && !byCommand.has(command)) byCommand.set(command, template);
  }
  return (invocation) => {
    if (invocation.shadowed) return null;
    const target = byIndex.get(invocation.commandIndex);
    const at = target === undefined ? undefined : alone.get(target);
    if (at === undefined) return null;
    const next = statements[at + 1];
    if (statements[at]!.background || statements[at]!.list.pipelines[0]!.negated || next === undefined) return null;
    const echo = next.list.pipelines[0]?.commands[0];
    const template = echo === undefined ? undefined : byCommand.get(echo);
    if (template === undefined) return null;
    const values = new Set(
      lines.map((line) => template.pattern.exec(line.trim())?.[1]).filter((value): value is string => value !== undefined),
    );
    if (values.size !== 1) return null;
    return { status: "trusted", runnerExit: Number([...values][0]), reason: "status-printed" };
  };
}

function attributeOne(facts: LineFacts, invocation: TestInvocation, exitCode: number | null): KnownAttribution {
  const { analysis, memo } = facts;
  if (analysis.opaque) return masked("opaque-line");
  if (invocation.shadowed) return masked("shadowed-runner");
  const target = facts.byIndex.get(invocation.commandIndex);
  const path = target === undefined ? undefined : facts.paths.get(target);
  if (target === undefined || path === undefined) return masked("runner-not-found");
  for (const frame of path) {
    if (frame.statements[frame.statementIndex]!.background) return masked("background");
    const owner = frame.owner;
    if (owner?.type === "compound") {
      if (owner.kind === "function") return masked("inside-function");
      if (owner.kind === "for" || owner.kind === "while" || owner.kind === "until") return masked("inside-loop");
      return masked("inside-compound");
    }
  }
  const targetAt = new Map<object, number>();
  for (const frame of path) {
    targetAt.set(frame.statements, frame.statementIndex);
    targetAt.set(frame.statements[frame.statementIndex]!.list.pipelines, frame.pipelineIndex);
  }
  const outcomes: { runner: 0 | 1; state: SimState }[] = [];
  const pipefailAtTarget = new Set<boolean>();
  try {
    for (const runner of [0, 1] as const) {
      const ctx: SimContext = {
        target,
        runnerStatus: runner,
        markerIds: facts.markerIds,
        budget: { states: 0 },
        pipefailAtTarget,
        targetAt,
        memo,
      };
      const start: SimState = { status: 0, fromRunner: false, ran: false, exited: false, errexit: false, pipefail: false, markers: 0 };
      for (const state of simulate(analysis.parsed.statements, start, ctx)) outcomes.push({ runner, state });
    }
  } catch (error) {
    if (error instanceof TooComplexError) return masked("too-complex");
    throw error;
  }
  const byExit = outcomes.filter(({ state }) => exitCode === null || state.status === (exitCode === 0 ? 0 : 1));
  const agree = facts.markersAgree;
  const useMarkers = agree !== null;
  const consistent = agree !== null ? byExit.filter(({ state }) => agree(state)) : byExit;
  if (consistent.length === 0) return masked(exitCode === null && !useMarkers ? "no-exit-status" : "inconsistent-evidence");
  const allRan = consistent.every(({ state }) => state.ran);
  if (exitCode !== null && allRan && consistent.every(({ state }) => state.fromRunner))
    return { status: "trusted", runnerExit: exitCode, reason: "runner-status" };
  const decidedWithoutMarkers = (runner: 0 | 1): boolean => byExit.length > 0 && byExit.every((o) => o.state.ran && o.runner === runner);
  if (allRan && consistent.every((o) => o.runner === 0)) {
    return { status: "success-implied", runnerExit: 0, reason: decidedWithoutMarkers(0) ? "exit-0-implies-runner-0" : "and-marker-seen" };
  }
  if (allRan && consistent.every((o) => o.runner === 1)) {
    return {
      status: "failure-implied",
      runnerExit: null,
      reason: decidedWithoutMarkers(1) ? "exit-implies-runner-failed" : "or-marker-seen",
    };
  }
  return masked(exitCode === null && !useMarkers ? "no-exit-status" : maskReason(path, pipefailAtTarget, facts.lastOr));
}

function masked(reason: ExitAttributionReason): KnownAttribution {
  return { status: "masked", runnerExit: null, reason };
}

// The strongest thing on the runner's path that can hide its status.
function maskReason(
  path: Frame[],
  pipefailAtTarget: Set<boolean>,
  lastOr: (connectors: readonly string[]) => number,
): ExitAttributionReason {
  const checks: ((frame: Frame, statement: Statement) => ExitAttributionReason | null)[] = [
    (frame, statement) => {
      const pipeline = statement.list.pipelines[frame.pipelineIndex]!;
      if (frame.stageIndex < pipeline.commands.length - 1)
        return pipefailAtTarget.has(false) ? "pipe-without-pipefail" : "pipefail-later-stage-may-fail";
      return pipeline.commands.length > 1 ? "pipefail-later-stage-may-fail" : null;
    },
    (frame, statement) => (lastOr(statement.list.connectors) >= frame.pipelineIndex ? "or-connector" : null),
    (frame, statement) => (statement.list.connectors.length > frame.pipelineIndex ? "later-command-may-have-failed" : null),
    (frame) => (frame.statementIndex < frame.statements.length - 1 ? "later-statement" : null),
    (frame) => (frame.pipelineIndex > 0 ? "may-not-have-run" : null),
    (frame, statement) => (statement.list.pipelines[frame.pipelineIndex]!.negated ? "negated" : null),
  ];
  for (const check of checks) {
    for (const frame of path) {
      const reason = check(frame, frame.statements[frame.statementIndex]!);
      if (reason !== null) return reason;
    }
  }
  return "ambiguous";
}

// The frames from each target up to the line, innermost first, found in one walk of the line.
function findPaths(statements: readonly Statement[], targets: ReadonlySet<SimpleCommand>): Map<SimpleCommand, Frame[]> {
  const paths = new Map<SimpleCommand, Frame[]>();
  const stack: Frame[] = [];
  // The context handed down is the compound node that owns the list (none for a nested script).
  walkCommands<CommandNode | undefined>(statements, undefined, {
    enter(node, owner, place) {
      stack.push({
        statements: place.statements,
        statementIndex: place.statementIndex,
        pipelineIndex: place.pipelineIndex,
        stageIndex: place.stageIndex,
        owner,
      });
      if (node.type !== "simple") return node;
      if (targets.has(node) && !paths.has(node)) paths.set(node, [...stack].reverse());
      return undefined;
    },
    leave() {
      stack.pop();
    },
  });
  return paths;
}

// Markers are `echo`/`printf` of literal text whose output reaches the line's output.
function findMarkers(statements: readonly Statement[]): Map<SimpleCommand, Marker> {
  const markers = new Map<SimpleCommand, Marker>();
  // The context handed down: whether what the commands print reaches the line's output.
  walkCommands(statements, true, {
    enter(node, visible, { statement, pipeline }) {
      if (node.type === "compound") return SKIP;
      const shown = visible && !statement.background && pipeline.commands.length === 1;
      if (node.type === "simple") {
        const text = markerText(node);
        if (text !== null && shown) markers.set(node, { id: markers.size, text });
      }
      return shown && !writesStdoutToFile(node.redirects);
    },
  });
  return markers;
}

// What `echo [-neE] words...` prints: its words after the options, joined.
function echoedText(words: readonly string[]): string {
  const args = words.slice(1);
  const start = args.findIndex((a) => !/^-[neE]+$/.test(a));
  return start < 0 ? "" : args.slice(start).join(" ").trim();
}

function markerText(command: SimpleCommand): string | null {
  if (command.hasExpansion || command.hasSubstitution || writesStdoutToFile(command.redirects) || command.assignments.length > 0)
    return null;
  const [name, ...args] = command.words;
  let text: string | null = null;
  if (name === "echo") {
    text = echoedText(command.words);
  } else if (name === "printf" && args.length === 1 && !args[0]!.includes("%")) {
    text = args[0]!.replace(/(\\n)+$/, "");
    if (text.includes("\\")) return null;
  }
  text = text?.trim() ?? null;
  return text !== null && /[A-Za-z0-9]/.test(text) ? text : null;
}

// A state agrees with the output when the marker texts it printed are exactly the marker texts seen.
function createMarkerCheck(markers: Map<SimpleCommand, Marker>, seen: Set<string>, memo: SimMemo): (state: SimState) => boolean {
  const textIds = new Map<string, number>();
  const textOf: number[] = [];
  for (const marker of markers.values()) {
    let id = textIds.get(marker.text);
    if (id === undefined) textIds.set(marker.text, (id = textIds.size));
    textOf[marker.id] = id;
  }
  const seenText = [...textIds.keys()].map((text) => seen.has(text));
  const seenCount = seenText.filter(Boolean).length;
  const bySet = new Map<number, boolean>();
  return (state) => {
    let agree = bySet.get(state.markers);
    if (agree === undefined) {
      const printed = new Set<number>();
      agree =
        markerIds(memo, state.markers).every((id) => {
          const text = textOf[id]!;
          printed.add(text);
          return seenText[text]!;
        }) && printed.size === seenCount;
      bySet.set(state.markers, agree);
    }
    return agree;
  };
}

function visibleLines(output: string): Set<string> {
  return new Set(
    output
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "")
      .split(/\r?\n|\r/)
      .map((line) => line.trim()),
  );
}
