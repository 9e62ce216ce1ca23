// Runs a parsed line symbolically: every command but the runner may exit 0 or non-zero, the runner exits
// `runnerStatus`. The result is every reachable end state (final status, whether it is the runner's own,
// whether the runner ran, which echo markers printed), honouring `&&`, `||`, `!`, pipes, pipefail,
// errexit (`set -e` is ignored left of `&&`/`||` and under `!`), subshells, groups, `exit` and `bash -c`.
// The stretches of the line that hold no runner are shared between the runs of one line (sim-memo.ts).
import { factsOf } from "./command-facts.js";
import { SKIP, walkCommands } from "./flatten.js";
import { detectNestedShell, type NestedShell } from "./nested-shell.js";
import { addMarker, type Budget, charge, chargeWork, remember, runSequence, type SimMemo, stateKey, TooComplexError } from "./sim-memo.js";
import type { CommandNode, Pipeline, Redirect, SimpleCommand, Statement } from "./types.js";
import { basename, stripWrappers } from "./wrappers.js";

export { TooComplexError } from "./sim-memo.js";

/** One reachable state of the shell. */
export interface SimState {
  status: 0 | 1;
  fromRunner: boolean;
  ran: boolean;
  exited: boolean;
  errexit: boolean;
  pipefail: boolean;
  /** The set of marker commands that printed: a node of the memo's marker sets (0: none). */
  markers: number;
}

/** What the simulation needs to know. */
export interface SimContext {
  target: SimpleCommand;
  runnerStatus: 0 | 1;
  /** Marker commands (echo/printf of a literal) and their ids. */
  markerIds: Map<SimpleCommand, number>;
  budget: Budget;
  /** Filled in while simulating: the pipefail settings the runner met. */
  pipefailAtTarget: Set<boolean>;
  /** The lists on the runner's path (statement lists, and-or lists' pipelines) and the runner's step in each. */
  targetAt: Map<object, number>;
  /** Shared by every simulation of the line. */
  memo: SimMemo;
}

interface Flow {
  markersVisible: boolean;
  suppressErrexit: boolean;
  /** Reading a pipe: the programs whose row in command-facts.ts says so cannot fail there. */
  readsPipe: boolean;
}

/** What a simple command that is not the runner does, read once per line. */
type SimpleEffect =
  | { kind: "nested"; shell: NestedShell | null }
  | { kind: "empty"; hasSubstitution: boolean }
  | { kind: "set"; args: string[] }
  | { kind: "exit"; args: string[] }
  | { kind: "false" }
  | { kind: "other"; neverFails: boolean; neverFailsInPipe: boolean };

const MAX_STATES = 4096;
const ROOT: Flow = { markersVisible: true, suppressErrexit: false, readsPipe: false };

/** Simulates `statements` from `start`. */
export function simulate(statements: readonly Statement[], start: SimState, ctx: SimContext): SimState[] {
  return runStatements(statements, [start], ctx, ROOT);
}

function flowId(flow: Flow): number {
  return +flow.markersVisible + 2 * +flow.suppressErrexit + 4 * +flow.readsPipe;
}

function runStatements(statements: readonly Statement[], states: SimState[], ctx: SimContext, flow: Flow): SimState[] {
  const sequence = {
    list: statements,
    length: statements.length,
    step: (i: number, current: SimState[]) => runStatement(statements[i]!, current, ctx, flow),
    settled: (current: SimState[]) => current.every((s) => s.exited),
  };
  return runSequence(ctx.memo, ctx.budget, sequence, flowId(flow), states, ctx.targetAt.get(statements));
}

function runStatement(statement: Statement, current: SimState[], ctx: SimContext, flow: Flow): SimState[] {
  const anyExited = current.some((s) => s.exited);
  const done = anyExited ? current.filter((s) => s.exited) : [];
  const active = anyExited ? current.filter((s) => !s.exited) : current;
  // A background list's status is never seen: `$?` becomes 0 at once.
  const next = statement.background
    ? active.map((s) => ({ ...s, status: 0 as const, fromRunner: false }))
    : runList(statement.list.pipelines, statement.list.connectors, active, ctx, flow);
  return dedupe([...done, ...next], ctx);
}

function runList(
  pipelines: readonly Pipeline[],
  connectors: readonly string[],
  states: SimState[],
  ctx: SimContext,
  flow: Flow,
): SimState[] {
  const last = pipelines.length - 1;
  const step = (i: number, current: SimState[]): SimState[] => {
    if (i === 0) return runPipeline(pipelines[0]!, current, ctx, { ...flow, suppressErrexit: flow.suppressErrexit || last > 0 });
    const wantZero = connectors[i - 1] === "&&";
    const run = current.filter((s) => !s.exited && (s.status === 0) === wantZero);
    const skip = current.filter((s) => s.exited || (s.status === 0) !== wantZero);
    return dedupe([...skip, ...runPipeline(pipelines[i]!, run, ctx, { ...flow, suppressErrexit: flow.suppressErrexit || i < last })], ctx);
  };
  if (last === 0) return step(0, states);
  const sequence = { list: pipelines, length: pipelines.length, step, settled: () => false };
  return runSequence(ctx.memo, ctx.budget, sequence, flowId(flow), states, ctx.targetAt.get(pipelines));
}

function runPipeline(pipeline: Pipeline, states: SimState[], ctx: SimContext, flow: Flow): SimState[] {
  if (states.length === 0) return [];
  const inner: Flow = { ...flow, suppressErrexit: flow.suppressErrexit || pipeline.negated };
  let results: SimState[];
  if (pipeline.commands.length === 1) results = runNode(pipeline.commands[0]!, states, ctx, inner);
  else results = states.flatMap((state) => runStages(pipeline, state, ctx, inner));
  return dedupe(
    results.map((s): SimState => {
      const flipped: 0 | 1 = s.status === 0 ? 1 : 0;
      const negated = pipeline.negated ? { ...s, status: flipped, fromRunner: false } : s;
      const exits = !negated.exited && !inner.suppressErrexit && negated.errexit && negated.status === 1;
      return exits ? { ...negated, exited: true } : negated;
    }),
    ctx,
  );
}

/** One way the stages of a pipeline can have ended, folded left to right. */
interface StageCombo {
  last: SimState;
  /** The rightmost stage that failed. */
  failing: SimState | undefined;
  fromRunner: boolean;
  ran: boolean;
}

// Each stage runs in its own subshell; the pipeline's status is the last stage's, or with pipefail the
// rightmost non-zero one.
function runStages(pipeline: Pipeline, state: SimState, ctx: SimContext, flow: Flow): SimState[] {
  // Every stage's outcomes first, counting their combinations, so a pipeline with too many gives up
  // before it builds them (a pipeline of 10,000 runners gives up at its 13th).
  const outcomesByStage: SimState[][] = [];
  let count = 1;
  pipeline.commands.forEach((command, i) => {
    const stageFlow: Flow = { markersVisible: false, suppressErrexit: flow.suppressErrexit, readsPipe: i > 0 };
    const outcomes = runNode(command, [{ ...state, exited: false }], ctx, stageFlow);
    count *= outcomes.length;
    if (count > MAX_STATES) throw new TooComplexError("paths");
    outcomesByStage.push(outcomes);
  });
  let combos: (StageCombo | null)[] = [null];
  for (const outcomes of outcomesByStage) {
    combos = combos.flatMap((combo) =>
      outcomes.map((outcome) => ({
        last: outcome,
        failing: outcome.status === 1 ? outcome : combo?.failing,
        fromRunner: (combo?.fromRunner ?? false) || outcome.fromRunner,
        ran: (combo?.ran ?? false) || outcome.ran,
      })),
    );
  }
  return combos.map((combo) => {
    const { last, failing, fromRunner, ran } = combo!;
    const decided = state.pipefail ? (failing ?? { ...last, fromRunner }) : last;
    return { ...state, status: decided.status, fromRunner: decided.fromRunner, ran };
  });
}

function runNode(node: CommandNode, states: SimState[], ctx: SimContext, flow: Flow): SimState[] {
  if (states.length === 0) return [];
  switch (node.type) {
    case "simple":
      return runSimple(node, states, ctx, flow);
    case "subshell": {
      const innerFlow = { ...flow, markersVisible: flow.markersVisible && !writesStdoutToFile(node.redirects) };
      return states.flatMap((s) =>
        runStatements(node.body, [{ ...s, exited: false }], ctx, innerFlow).map((o) => ({
          ...o,
          errexit: s.errexit,
          pipefail: s.pipefail,
          exited: false,
        })),
      );
    }
    case "group":
      return runStatements(node.body, states, ctx, { ...flow, markersVisible: flow.markersVisible && !writesStdoutToFile(node.redirects) });
    case "compound":
      return runOpaqueCompound(node.kind === "function", node.body, states, ctx);
    default: {
      const never: never = node;
      throw new Error(`unknown node ${JSON.stringify(never)}`);
    }
  }
}

// Loops, conditionals and case are not followed: any status, and any option they may set.
function runOpaqueCompound(isFunction: boolean, body: readonly Statement[], states: SimState[], ctx: SimContext): SimState[] {
  if (isFunction) return states.map((s) => ({ ...s, status: 0, fromRunner: false }));
  const names = remember(ctx.memo, body, () => {
    const found = new Set<string>();
    // A simple command's own name; what a `bash -c` runs is another shell's.
    walkCommands(body, null, {
      enter(node) {
        if (node.type !== "simple") return null;
        found.add(node.words[0] ?? "");
        return SKIP;
      },
    });
    return found;
  });
  const setsOptions = names.has("set");
  const mayExit = names.has("exit");
  const out: SimState[] = [];
  for (const s of states) {
    for (const status of [0, 1] as const) {
      for (const errexit of setsOptions ? [true, false] : [s.errexit]) {
        for (const pipefail of setsOptions ? [true, false] : [s.pipefail]) {
          for (const exited of mayExit || s.errexit ? [false, true] : [false])
            out.push({ ...s, status, fromRunner: false, errexit, pipefail, exited });
        }
      }
    }
  }
  return out;
}

function effectOf(command: SimpleCommand): SimpleEffect {
  if (command.nested !== undefined && !command.nested.opaque) return { kind: "nested", shell: detectNestedShell(command.words) };
  const stripped = stripWrappers(command.words);
  const words = command.words.slice(stripped.ok ? stripped.start : 0);
  if (words.length === 0) return { kind: "empty", hasSubstitution: command.hasSubstitution };
  const name = basename(words[0]!);
  if (name === "set" && stripped.start === 0) return { kind: "set", args: words.slice(1) };
  if (name === "exit" && stripped.start === 0) return { kind: "exit", args: words.slice(1) };
  if (name === "false") return { kind: "false" };
  const quiet = command.redirects.every(isStreamRedirect) && !command.hasSubstitution;
  const facts = factsOf(name);
  const neverFails = facts?.neverFails === true;
  return { kind: "other", neverFails: quiet && neverFails, neverFailsInPipe: quiet && (neverFails || facts?.neverFailsInPipe === true) };
}

function runSimple(command: SimpleCommand, states: SimState[], ctx: SimContext, flow: Flow): SimState[] {
  if (command === ctx.target) {
    for (const s of states) ctx.pipefailAtTarget.add(s.pipefail);
    return states.map((s) => ({ ...s, status: ctx.runnerStatus, fromRunner: true, ran: true }));
  }
  const effect = remember(ctx.memo, command, () => effectOf(command));
  switch (effect.kind) {
    case "nested":
      return runNested(command, effect.shell, states, ctx, flow);
    case "empty":
      return effect.hasSubstitution ? both(states) : states.map((s) => ({ ...s, status: 0, fromRunner: false }));
    case "set":
      return states.map((s) => applySet(effect.args, { ...s, status: 0, fromRunner: false }));
    case "exit":
      return runExit(effect.args, states);
    case "false":
      return states.map((s) => ({ ...s, status: 1, fromRunner: false }));
    case "other": {
      if (!(flow.readsPipe ? effect.neverFailsInPipe : effect.neverFails)) return both(states);
      const markerId = flow.markersVisible ? ctx.markerIds.get(command) : undefined;
      return states.map((s) => ({
        ...s,
        status: 0,
        fromRunner: false,
        markers: markerId === undefined ? s.markers : addMarker(ctx.memo, s.markers, markerId),
      }));
    }
    default: {
      const never: never = effect;
      throw new Error(`unknown effect ${JSON.stringify(never)}`);
    }
  }
}

function runNested(command: SimpleCommand, shell: NestedShell | null, states: SimState[], ctx: SimContext, flow: Flow): SimState[] {
  const nested = command.nested!;
  const innerFlow: Flow = {
    markersVisible: flow.markersVisible && !writesStdoutToFile(command.redirects),
    suppressErrexit: false,
    readsPipe: false,
  };
  return states.flatMap((s) => {
    const start: SimState = {
      ...s,
      status: 0,
      fromRunner: false,
      exited: false,
      errexit: shell?.errexit ?? false,
      pipefail: shell?.pipefail ?? false,
    };
    return runStatements(nested.statements, [start], ctx, innerFlow).map((o) => ({
      ...o,
      errexit: s.errexit,
      pipefail: s.pipefail,
      exited: false,
    }));
  });
}

function both(states: SimState[]): SimState[] {
  return states.flatMap((s) => [
    { ...s, status: 0 as const, fromRunner: false },
    { ...s, status: 1 as const, fromRunner: false },
  ]);
}

function runExit(args: string[], states: SimState[]): SimState[] {
  const arg = args[0];
  if (arg === undefined || arg === "$?") return states.map((s) => ({ ...s, exited: true }));
  if (/^\d+$/.test(arg)) return states.map((s) => ({ ...s, status: Number(arg) % 256 === 0 ? 0 : 1, fromRunner: false, exited: true }));
  return both(states).map((s) => ({ ...s, exited: true }));
}

/** Applies `set` arguments (`-e`, `+e`, `-o pipefail`, `-euo pipefail`, `-o errexit`) to a state. */
export function applySet(args: readonly string[], state: SimState): SimState {
  const next = { ...state };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--" || !/^[-+]/.test(arg)) break;
    const on = arg[0] === "-";
    for (const flag of arg.slice(1)) {
      if (flag === "e") next.errexit = on;
      else if (flag === "o") {
        const option = args[++i];
        if (option === "pipefail") next.pipefail = on;
        else if (option === "errexit") next.errexit = on;
      }
    }
  }
  return next;
}

function isStreamRedirect(redirect: Redirect): boolean {
  if ((redirect.op === ">&" || redirect.op === "<&") && /^(\d+-?|-)$/.test(redirect.target)) return true;
  return redirect.target === "/dev/null";
}

/** True when stdout goes to a file (`> f`, `>> f`, `&> f`, `1> f`), so a marker's text is not in the output. */
export function writesStdoutToFile(redirects: readonly Redirect[]): boolean {
  return redirects.some((r) => {
    if (r.op === ">&" && /^(\d+-?|-)$/.test(r.target)) return false;
    const toStdout = r.fd === null || r.fd === 1;
    return toStdout && (r.op === ">" || r.op === ">>" || r.op === ">|" || r.op === "&>" || r.op === "&>>" || r.op === ">&");
  });
}

function dedupe(states: SimState[], ctx: SimContext): SimState[] {
  if (states.length <= 1) {
    chargeWork(ctx.memo, states.length);
    charge(ctx.memo, ctx.budget, states.length);
    return states;
  }
  const seen = new Map<number, SimState>();
  for (const s of states) {
    const key = stateKey(s);
    if (!seen.has(key)) seen.set(key, s);
  }
  chargeWork(ctx.memo, seen.size);
  if (seen.size > MAX_STATES) throw new TooComplexError("paths");
  charge(ctx.memo, ctx.budget, seen.size);
  return [...seen.values()];
}
