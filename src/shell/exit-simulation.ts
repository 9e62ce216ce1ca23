// Runs a parsed line symbolically: every command but the runner may exit 0 or non-zero, the runner exits
// `runnerStatus`. The result is every reachable end state (final status, whether it is the runner's own,
// whether the runner ran, which echo markers printed), honouring `&&`, `||`, `!`, pipes, pipefail,
// errexit (`set -e` is ignored left of `&&`/`||` and under `!`), subshells, groups, `exit` and `bash -c`.
import { detectNestedShell } from "./nested-shell.js";
import type { CommandNode, Pipeline, Redirect, SimpleCommand, Statement } from "./types.js";
import { basename, stripWrappers } from "./wrappers.js";

/** One reachable state of the shell. */
export interface SimState {
  status: 0 | 1;
  fromRunner: boolean;
  ran: boolean;
  exited: boolean;
  errexit: boolean;
  pipefail: boolean;
  /** Sorted ids of the marker commands that printed. */
  markers: string;
}

/** What the simulation needs to know. */
export interface SimContext {
  target: SimpleCommand;
  runnerStatus: 0 | 1;
  /** Marker commands (echo/printf of a literal) and their ids. */
  markerIds: Map<SimpleCommand, number>;
  budget: { states: number };
  /** Filled in while simulating: the pipefail settings the runner met. */
  pipefailAtTarget: Set<boolean>;
}

interface Flow {
  markersVisible: boolean;
  suppressErrexit: boolean;
  /** Reading a pipe: plain filters (tail, tee, ...) cannot fail there. */
  readsPipe: boolean;
}

/** Thrown when a line has too many paths to follow; the caller then says `masked`. */
export class TooComplexError extends Error {}

const MAX_STATES = 4096;
const PIPE_FILTERS = new Set(["tail", "head", "tee", "cat", "wc", "sort", "uniq", "cut", "tr", "nl", "column", "fold", "less", "more", "fmt"]);
const NEVER_FAIL = new Set(["true", ":", "echo", "printf", "export", "local", "declare", "typeset", "readonly", "alias", "unalias", "shopt", "unset"]);
const ROOT: Flow = { markersVisible: true, suppressErrexit: false, readsPipe: false };

/** Simulates `statements` from `start`. */
export function simulate(statements: readonly Statement[], start: SimState, ctx: SimContext): SimState[] {
  return runStatements(statements, [start], ctx, ROOT);
}

function runStatements(statements: readonly Statement[], states: SimState[], ctx: SimContext, flow: Flow): SimState[] {
  let current = states;
  for (const statement of statements) {
    const done = current.filter((s) => s.exited);
    const active = current.filter((s) => !s.exited);
    if (active.length === 0) break;
    // A background list's status is never seen: `$?` becomes 0 at once.
    const next = statement.background
      ? active.map((s) => ({ ...s, status: 0 as const, fromRunner: false }))
      : runList(statement.list.pipelines, statement.list.connectors, active, ctx, flow);
    current = dedupe([...done, ...next], ctx);
  }
  return current;
}

function runList(pipelines: readonly Pipeline[], connectors: readonly string[], states: SimState[], ctx: SimContext, flow: Flow): SimState[] {
  const last = pipelines.length - 1;
  let current = runPipeline(pipelines[0]!, states, ctx, { ...flow, suppressErrexit: flow.suppressErrexit || last > 0 });
  for (let i = 1; i <= last; i++) {
    const wantZero = connectors[i - 1] === "&&";
    const run = current.filter((s) => !s.exited && (s.status === 0) === wantZero);
    const skip = current.filter((s) => s.exited || (s.status === 0) !== wantZero);
    current = dedupe([...skip, ...runPipeline(pipelines[i]!, run, ctx, { ...flow, suppressErrexit: flow.suppressErrexit || i < last })], ctx);
  }
  return current;
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

// Each stage runs in its own subshell; the pipeline's status is the last stage's, or with pipefail the
// rightmost non-zero one.
function runStages(pipeline: Pipeline, state: SimState, ctx: SimContext, flow: Flow): SimState[] {
  let combos: SimState[][] = [[]];
  pipeline.commands.forEach((command, i) => {
    const stageFlow: Flow = { markersVisible: false, suppressErrexit: flow.suppressErrexit, readsPipe: i > 0 };
    const outcomes = runNode(command, [{ ...state, exited: false }], ctx, stageFlow);
    combos = combos.flatMap((combo) => outcomes.map((outcome) => [...combo, outcome]));
    if (combos.length > MAX_STATES) throw new TooComplexError("pipeline");
  });
  return combos.map((stages) => {
    const lastStage = stages[stages.length - 1]!;
    const failing = [...stages].reverse().find((s) => s.status === 1);
    const decided = state.pipefail ? (failing ?? { ...lastStage, fromRunner: stages.some((s) => s.fromRunner) }) : lastStage;
    return { ...state, status: decided.status, fromRunner: decided.fromRunner, ran: stages.some((s) => s.ran) };
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
        runStatements(node.body, [{ ...s, exited: false }], ctx, innerFlow).map((o) => ({ ...o, errexit: s.errexit, pipefail: s.pipefail, exited: false })),
      );
    }
    case "group":
      return runStatements(node.body, states, ctx, { ...flow, markersVisible: flow.markersVisible && !writesStdoutToFile(node.redirects) });
    case "compound":
      return runOpaqueCompound(node.kind === "function", node.body, states);
    default: {
      const never: never = node;
      throw new Error(`unknown node ${JSON.stringify(never)}`);
    }
  }
}

// Loops, conditionals and case are not followed: any status, and any option they may set.
function runOpaqueCompound(isFunction: boolean, body: readonly Statement[], states: SimState[]): SimState[] {
  if (isFunction) return states.map((s) => ({ ...s, status: 0, fromRunner: false }));
  const names = new Set<string>();
  const collect = (statements: readonly Statement[]): void => {
    for (const statement of statements) for (const p of statement.list.pipelines) for (const c of p.commands) {
      if (c.type === "simple") names.add(c.words[0] ?? "");
      else collect(c.body);
    }
  };
  collect(body);
  const setsOptions = names.has("set");
  const mayExit = names.has("exit");
  const out: SimState[] = [];
  for (const s of states) {
    for (const status of [0, 1] as const) {
      for (const errexit of setsOptions ? [true, false] : [s.errexit]) {
        for (const pipefail of setsOptions ? [true, false] : [s.pipefail]) {
          for (const exited of mayExit || s.errexit ? [false, true] : [false]) out.push({ ...s, status, fromRunner: false, errexit, pipefail, exited });
        }
      }
    }
  }
  return out;
}

function runSimple(command: SimpleCommand, states: SimState[], ctx: SimContext, flow: Flow): SimState[] {
  if (command === ctx.target) {
    for (const s of states) ctx.pipefailAtTarget.add(s.pipefail);
    return states.map((s) => ({ ...s, status: ctx.runnerStatus, fromRunner: true, ran: true }));
  }
  if (command.nested !== undefined && !command.nested.opaque) return runNested(command, states, ctx, flow);
  const stripped = stripWrappers(command.words);
  const words = command.words.slice(stripped.ok ? stripped.start : 0);
  const name = words.length === 0 ? "" : basename(words[0]!);
  if (words.length === 0) {
    return command.hasSubstitution ? both(states) : states.map((s) => ({ ...s, status: 0, fromRunner: false }));
  }
  if (name === "set" && stripped.start === 0) return states.map((s) => applySet(words.slice(1), { ...s, status: 0, fromRunner: false }));
  if (name === "exit" && stripped.start === 0) return runExit(words.slice(1), states);
  if (name === "false") return states.map((s) => ({ ...s, status: 1, fromRunner: false }));
  const markerId = flow.markersVisible ? ctx.markerIds.get(command) : undefined;
  const quietRedirects = command.redirects.every(isStreamRedirect);
  const neverFails = quietRedirects && !command.hasSubstitution && (NEVER_FAIL.has(name) || (flow.readsPipe && PIPE_FILTERS.has(name)));
  if (!neverFails) return both(states);
  return states.map((s) => ({ ...s, status: 0, fromRunner: false, markers: markerId === undefined ? s.markers : addMarker(s.markers, markerId) }));
}

function runNested(command: SimpleCommand, states: SimState[], ctx: SimContext, flow: Flow): SimState[] {
  const shell = detectNestedShell(command.words);
  const nested = command.nested!;
  const innerFlow: Flow = { markersVisible: flow.markersVisible && !writesStdoutToFile(command.redirects), suppressErrexit: false, readsPipe: false };
  return states.flatMap((s) => {
    const start: SimState = { ...s, status: 0, fromRunner: false, exited: false, errexit: shell?.errexit ?? false, pipefail: shell?.pipefail ?? false };
    return runStatements(nested.statements, [start], ctx, innerFlow).map((o) => ({ ...o, errexit: s.errexit, pipefail: s.pipefail, exited: false }));
  });
}

function both(states: SimState[]): SimState[] {
  return states.flatMap((s) => [{ ...s, status: 0 as const, fromRunner: false }, { ...s, status: 1 as const, fromRunner: false }]);
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

function addMarker(markers: string, id: number): string {
  const ids = new Set(markers === "" ? [] : markers.split(","));
  ids.add(String(id));
  return [...ids].sort().join(",");
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
  const seen = new Map<string, SimState>();
  for (const s of states) {
    const key = `${s.status}${+s.fromRunner}${+s.ran}${+s.exited}${+s.errexit}${+s.pipefail}|${s.markers}`;
    if (!seen.has(key)) seen.set(key, s);
  }
  ctx.budget.states += seen.size;
  if (seen.size > MAX_STATES || ctx.budget.states > MAX_STATES * 64) throw new TooComplexError("states");
  return [...seen.values()];
}
