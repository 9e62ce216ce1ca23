// A run's targets as the judge reports them (the selection of a filtered run), and whether the
// passed ids cover each one.
import { someId } from "../observers/id-list.js";
import type { RunnerDefinition } from "../runners/definition.js";
import type { TestInvocation } from "../shell/types.js";
import type { IdList } from "../types.js";

/**
 * The targets a run reports: its definition's reading of its selection (go carries a plain `-run Name`
 * on each package target, `./calc::TestAdd`); any other filtered run keeps its targets.
 */
export function selectionTargets(invocation: TestInvocation, definition: RunnerDefinition | undefined): string[] {
  return (
    definition?.selectionTargets?.({ args: invocation.args, targets: invocation.targets, filtered: invocation.filtered }) ?? [
      ...invocation.targets,
    ]
  );
}

/** Targets not covered by any passed id (the summary covers a run's only target). */
export function uncoveredTargets(options: {
  targets: readonly string[];
  passed: IdList;
  definition: RunnerDefinition | undefined;
  workspace: string | null;
  rootdir: string | null;
  summaryProves: boolean;
}): string[] {
  const { targets, passed, definition } = options;
  // `$f` in a loop or `$(...)` names tests the line never spells out: nothing proves it.
  const unresolved = targets.filter((target) => /[$`]/.test(target));
  if (unresolved.length > 0) return unresolved;
  if (targets.length === 1 && options.summaryProves) return [];
  if (definition === undefined) return [...targets];
  return targets.filter((target) => {
    const spellings = definition.targetSpellings?.(target, { workspace: options.workspace, rootdir: options.rootdir }) ?? [target];
    return !someId(passed, (id) => spellings.some((spelling) => definition.covers(spelling, id)));
  });
}
