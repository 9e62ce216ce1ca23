// What the exit simulations of one line share (exit-simulation.ts). A stretch of the line that holds
// no runner does the same to a set of states whichever runner is being attributed, so its result is
// kept: the statements before a runner are simulated once for the whole line, and after a runner the
// simulation stops as soon as its states are ones an earlier simulation already followed to the end.
// That keeps a line of n runs linear in n. Each kept result also keeps what it cost, so every
// simulation is charged what a run from scratch would be charged, and gives up at the same point.
import type { SimState } from "./exit-simulation.js";

/** One simulation may count this many states (dedupe sizes, summed) before the line is too complex. */
export const MAX_SIMULATION_STATES = 4096 * 64;
// The whole line's work (results reused from the memo are free) is bounded too, linearly in its size.
const LINE_STATES_BASE = MAX_SIMULATION_STATES * 4;
const LINE_STATES_PER_COMMAND = 256;

/**
 * Thrown when a line has too many paths to follow; the caller then says `masked`. `paths`: a set of
 * states grew too big, which the same entry states always do again; `budget`, `line`: a simulation or
 * the whole line counted too many states.
 */
export class TooComplexError extends Error {
  constructor(readonly kind: "paths" | "budget" | "line") {
    super(`too complex (${kind})`);
  }
}

/** A suffix that grows too many paths from its entry states. */
const FAILS: { states: SimState[]; cost: number } = { states: [], cost: 0 };

/** The states before each step of a sequence that a run entered with one set of states. */
interface PrefixChain {
  sets: SimState[][];
  /** `costs[j]`: what reaching `sets[j]` cost. */
  costs: number[];
  /** The step before which every state had exited (no later step runs), if reached. */
  settledAt: number | null;
  /** The step that grew too many paths, if one did: no run gets past it. */
  failsAt: number | null;
}

/** The memo of one line: create one per `attributeExit` call. */
export interface SimMemo {
  /** Small numbers for the lists and flows the keys name. */
  ids: Map<object, number>;
  prefixes: Map<string, PrefixChain>;
  suffixes: Map<string, { states: SimState[]; cost: number }>;
  /** Marker sets, interned: node 0 is the empty set; a node is its parent plus one marker id, larger than the parent's. */
  markerParent: number[];
  markerLast: number[];
  markerChildren: Map<number, number>[];
  /** States counted for the whole line, and the limit. */
  work: number;
  workLimit: number;
  /** Per-command facts the simulation reads again and again. */
  facts: Map<object, unknown>;
}

/** A memo for a line of `commandCount` simple commands. */
export function createSimMemo(commandCount: number): SimMemo {
  return {
    ids: new Map(),
    prefixes: new Map(),
    suffixes: new Map(),
    markerParent: [0],
    markerLast: [-1],
    markerChildren: [new Map<number, number>()],
    work: 0,
    workLimit: LINE_STATES_BASE + LINE_STATES_PER_COMMAND * commandCount,
    facts: new Map(),
  };
}

/** The one budget of a simulation: the states it counted so far. */
export interface Budget {
  states: number;
}

/** A sequence of steps the simulation runs in order: the statements of a list, or the pipelines of an and-or list. */
export interface Sequence {
  /** The list object (its identity names the sequence). */
  list: object;
  length: number;
  step(index: number, states: SimState[]): SimState[];
  /** True when no later step can run (every state has exited). */
  settled(states: SimState[]): boolean;
}

/** A state as a number: its flags and its marker node. */
export function stateKey(s: SimState): number {
  return s.markers * 64 + (s.status + 2 * +s.fromRunner + 4 * +s.ran + 8 * +s.exited + 16 * +s.errexit + 32 * +s.pipefail);
}

function idOf(memo: SimMemo, object: object): number {
  let id = memo.ids.get(object);
  if (id === undefined) memo.ids.set(object, (id = memo.ids.size));
  return id;
}

function setKey(states: readonly SimState[]): string {
  let key = "";
  for (const s of states) key += `${stateKey(s)},`;
  return key;
}

/** Counts `states` more states for a simulation and for the line; throws past either limit. */
export function charge(memo: SimMemo, budget: Budget, states: number): void {
  budget.states += states;
  if (budget.states > MAX_SIMULATION_STATES) throw new TooComplexError("budget");
}

/** Counts states the line really computed (not reused). */
export function chargeWork(memo: SimMemo, states: number): void {
  memo.work += states;
  if (memo.work > memo.workLimit) throw new TooComplexError("line");
}

/**
 * Runs `sequence` on `states`. `at` is the step that holds the runner (undefined when none does):
 * the steps before it come from the line's prefix chain, the steps after it from the suffix memo.
 */
export function runSequence(
  memo: SimMemo,
  budget: Budget,
  sequence: Sequence,
  flowId: number,
  states: SimState[],
  at: number | undefined,
): SimState[] {
  if (at === undefined) return runSuffix(memo, budget, sequence, flowId, 0, states);
  let current = at === 0 ? states : runPrefix(memo, budget, sequence, flowId, states, at);
  if (sequence.settled(current)) return current;
  current = sequence.step(at, current);
  return runSuffix(memo, budget, sequence, flowId, at + 1, current);
}

// The states before step `at`, from the chain of this sequence and entry states (extended as needed).
function runPrefix(memo: SimMemo, budget: Budget, sequence: Sequence, flowId: number, states: SimState[], at: number): SimState[] {
  const key = `${idOf(memo, sequence.list)}|${flowId}|${setKey(states)}`;
  let chain = memo.prefixes.get(key);
  if (chain === undefined)
    memo.prefixes.set(key, (chain = { sets: [states], costs: [0], settledAt: sequence.settled(states) ? 0 : null, failsAt: null }));
  const known = Math.min(at, chain.sets.length - 1, chain.settledAt ?? at);
  if (chain.failsAt !== null && known === chain.failsAt && at > known) throw new TooComplexError("paths");
  charge(memo, budget, chain.costs[known]!);
  let j = known;
  while (j < at && chain.settledAt === null) {
    const before = budget.states;
    let next: SimState[];
    try {
      next = sequence.step(j, chain.sets[j]!);
    } catch (error) {
      if (error instanceof TooComplexError && error.kind === "paths") chain.failsAt = j;
      throw error;
    }
    j += 1;
    chain.sets.push(next);
    chain.costs.push(chain.costs[j - 1]! + budget.states - before);
    if (sequence.settled(next)) chain.settledAt = j;
  }
  return chain.sets[Math.min(j, at)]!;
}

// Steps `from`.. to the end on `states`, none of which holds the runner; every set met on the way is
// kept with the end result, so a later simulation that meets one of them stops there.
function runSuffix(memo: SimMemo, budget: Budget, sequence: Sequence, flowId: number, from: number, states: SimState[]): SimState[] {
  const listId = idOf(memo, sequence.list);
  const pending: { key: string; budget: number }[] = [];
  let current = states;
  let reused: SimState[] | null = null;
  try {
    for (let i = from; i < sequence.length && !sequence.settled(current); i++) {
      // Short tails are cheaper to run than to key.
      const key = sequence.length - i > 2 ? `${listId}|${flowId}|${i}|${setKey(current)}` : null;
      const hit = key === null ? undefined : memo.suffixes.get(key);
      if (hit === FAILS) throw new TooComplexError("paths");
      if (hit !== undefined) {
        charge(memo, budget, hit.cost);
        reused = hit.states;
        break;
      }
      if (key !== null) pending.push({ key, budget: budget.states });
      current = sequence.step(i, current);
    }
  } catch (error) {
    // The same entry states grow the same paths: whoever meets them again fails at once.
    if (error instanceof TooComplexError && error.kind === "paths") for (const entry of pending) memo.suffixes.set(entry.key, FAILS);
    throw error;
  }
  const result = reused ?? current;
  for (const entry of pending) memo.suffixes.set(entry.key, { states: result, cost: budget.states - entry.budget });
  return result;
}

/** The marker set `node` plus marker `id`. */
export function addMarker(memo: SimMemo, node: number, id: number): number {
  if (id > memo.markerLast[node]!) return child(memo, node, id);
  // Markers print in line order, so this is not expected; kept exact all the same.
  const ids = markerIds(memo, node);
  if (ids.includes(id)) return node;
  return [...ids, id].sort((a, b) => a - b).reduce((at, next) => child(memo, at, next), 0);
}

function child(memo: SimMemo, node: number, id: number): number {
  const children = memo.markerChildren[node]!;
  let found = children.get(id);
  if (found === undefined) {
    found = memo.markerParent.length;
    memo.markerParent.push(node);
    memo.markerLast.push(id);
    memo.markerChildren.push(new Map());
    children.set(id, found);
  }
  return found;
}

/** The marker ids in set `node`, in increasing order. */
export function markerIds(memo: SimMemo, node: number): number[] {
  const ids: number[] = [];
  for (let at = node; at !== 0; at = memo.markerParent[at]!) ids.push(memo.markerLast[at]!);
  return ids.reverse();
}

/** A fact about `key` computed once per line. */
export function remember<T>(memo: SimMemo, key: object, compute: () => T): T {
  if (memo.facts.has(key)) return memo.facts.get(key) as T;
  const value = compute();
  memo.facts.set(key, value);
  return value;
}
