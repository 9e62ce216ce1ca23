// A run's targets as the judge reports them (the selection of a filtered run), and whether the
// passed ids cover each one.
import { posix } from "node:path";
import type { RunnerObserver } from "../observers/registry.js";
import type { TestInvocation } from "../shell/types.js";

// A go -run pattern that names one test (or one subtest path) without regex syntax.
const PLAIN_GO_SELECTOR_RE = /^\^?([A-Za-z_][\w]*(?:\/[\w.-]+)*)\$?$/;

/** The value of go's `-run` option (or of `-fuzz`, with `option: "fuzz"`), or null. */
function goRunPattern(args: readonly string[], option = "run"): string | null {
  let found: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-args" || arg === "--args") break;
    const match = new RegExp(`^--?${option}(?:=(.*))?$`).exec(arg);
    if (match === null) continue;
    found = match[1] ?? args[i + 1] ?? null;
    if (match[1] === undefined) i += 1;
  }
  return found;
}

/**
 * The targets a run reports. A go `-run Name` selection is carried on each package target
 * (`./calc::TestAdd`); any other filtered run keeps its targets and is marked `filtered: true`.
 * @example selectionTargets({ kind: "go", args: ["-run", "TestAdd", "./calc"], targets: ["./calc"], ... }) // ["./calc::TestAdd"]
 */
export function selectionTargets(invocation: TestInvocation): string[] {
  if (invocation.kind !== "go" || !invocation.filtered) return [...invocation.targets];
  // `-run '^$' -fuzz FuzzX` runs only the fuzz target.
  const run = goRunPattern(invocation.args);
  const fuzz = goRunPattern(invocation.args, "fuzz");
  const pattern = fuzz !== null && (run === null || run === "^$") ? fuzz : fuzz !== null ? null : run;
  const plain = pattern === null ? null : PLAIN_GO_SELECTOR_RE.exec(pattern);
  if (plain === null || plain === undefined || invocation.args.some((a) => /^--?skip(?:=|$)/.test(a))) return [...invocation.targets];
  const selector = plain[1]!;
  return invocation.targets.map((target) => `${target === "." ? "." : target}::${selector}`);
}

/**
 * The spellings of a pytest target as pytest prints ids: relative to the directory pytest ran in,
 * and relative to its `rootdir` when the run started below it.
 */
function pytestSpellings(target: string, workspace: string | null, rootdir: string | null): string[] {
  const spellings = [target];
  if (workspace === null || rootdir === null || !posix.isAbsolute(workspace) || !posix.isAbsolute(rootdir)) return spellings;
  const fromRoot = posix.relative(rootdir, workspace);
  if (fromRoot === "" || fromRoot.startsWith("..")) return spellings;
  const at = target.indexOf("::");
  const path = at === -1 ? target : target.slice(0, at);
  const selector = at === -1 ? "" : target.slice(at);
  spellings.push(posix.join(fromRoot, path === "" ? "." : path) + selector);
  return spellings;
}

/** Targets not covered by any passed id (the summary covers a run's only target). */
export function uncoveredTargets(options: {
  targets: readonly string[];
  passed: readonly string[];
  observer: RunnerObserver | undefined;
  kind: string;
  workspace: string | null;
  rootdir: string | null;
  summaryProves: boolean;
}): string[] {
  const { targets, passed, observer } = options;
  // `$f` in a loop or `$(...)` names tests the line never spells out: nothing proves it.
  const unresolved = targets.filter((target) => /[$`]/.test(target));
  if (unresolved.length > 0) return unresolved;
  if (targets.length === 1 && options.summaryProves) return [];
  if (observer === undefined) return [...targets];
  return targets.filter((target) => {
    const spellings = options.kind === "pytest" ? pytestSpellings(target, options.workspace, options.rootdir) : [target];
    return !passed.some((id) => spellings.some((spelling) => observer.covers(spelling, id)));
  });
}
