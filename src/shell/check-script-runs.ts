// The checks of a line's package-manager script runs (`npm test`) once the whole line is walked: what
// each run may prove, and the reason its test runs carry when it proves nothing.
import type { AnalyzedCommand, TestInvocation } from "./types.js";
import type { Walk } from "./walk-state.js";

/**
 * What a script run may prove: nothing when a command before it (or beside it) may rewrite the
 * package.json it was resolved from, when its script runs a program of unknown effect or no runner;
 * its runs are marked with that reason.
 */
export function checkScriptRuns(walk: Walk, commands: readonly AnalyzedCommand[], invocations: readonly TestInvocation[]): void {
  walk.packageRuns.forEach((run, at) => {
    if (run.problem !== null) return;
    const inside = walk.inside.get(at) ?? new Set<number>();
    const outside = commands.filter((c) => c.index !== run.commandIndex && !inside.has(c.index));
    // A manager started in the background reads package.json while the rest of the line goes on.
    const late = commands.find((c) => c.index === run.commandIndex)?.runsLate === true;
    const rewrites = outside.find(
      (c) =>
        (c.index < run.commandIndex || c.runsLate === true || late) &&
        c.effect.kind !== "none" &&
        c.effect.kind !== "vcs-metadata" &&
        c.invocation === undefined,
    );
    if (rewrites !== undefined) {
      run.problem = "script-may-change";
      run.detail = rewrites.name;
      return;
    }
    if (!run.expanded) {
      run.problem = "script-not-expanded";
      run.detail = "the script's own commands are not in the line";
      return;
    }
    const own = commands.filter((c) => inside.has(c.index));
    const innerRuns = new Set(walk.packageRuns.map((r) => r.commandIndex));
    const unknownProgram = own.find(
      (c) => c.invocation === undefined && !innerRuns.has(c.index) && c.effect.kind !== "none" && c.effect.kind !== "build-outputs",
    );
    if (unknownProgram !== undefined) {
      run.problem = "script-unknown-program";
      run.detail = unknownProgram.name;
    } else if (!own.some((c) => c.invocation !== undefined || innerRuns.has(c.index))) {
      run.problem = "script-no-runner";
      run.detail = own.find((c) => c.name !== "")?.name ?? "";
    }
  });
  for (const invocation of invocations) {
    if (invocation.script === undefined) continue;
    // A run inside nested script runs carries the first problem of any of them.
    const problem = walk.packageRuns.find(
      (run, at) => run.problem !== null && (walk.inside.get(at)?.has(invocation.commandIndex) ?? false),
    )?.problem;
    if (problem !== undefined && problem !== null) invocation.scriptProblem = problem;
  }
}
