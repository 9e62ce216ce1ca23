// What the commands of one observed line mean to the ledger: which invocations can prove something,
// and which commands are edits before or after a run. Pure.
import { posix } from "node:path";

import { builtinRunners } from "../runners/registry.js";
import type { AnalyzedCommand, CommandAnalysis, TestInvocation } from "../shell/types.js";
import { splitSelector } from "./targets.js";

/** A recognised invocation that can prove something (runs tests, the runner is the real one). */
export function isProvable(inv: TestInvocation): boolean {
  return inv.runsTests && !inv.shadowed;
}

/** The line's invocations that can prove something, in line order (none in an unreadable line). */
export function provableInvocations(analysis: CommandAnalysis): TestInvocation[] {
  return analysis.opaque ? [] : analysis.invocations.filter(isProvable);
}

/** True when the line holds a recognised invocation that can prove something (a test command). */
export function runsProvableTest(analysis: CommandAnalysis): boolean {
  return provableInvocations(analysis).length > 0;
}

/** A pytest or Django target given as an absolute path names its file wherever the run started. */
export function isAbsoluteTarget(inv: TestInvocation, target: string): boolean {
  return builtinRunners.familyOf(inv.kind).name === "python" && posix.isAbsolute(splitSelector(target).path);
}

/** A command before the run at `runIndex` that may change files. */
export function editsBefore(command: AnalyzedCommand, runIndex: number): boolean {
  return !command.readOnly && command.invocation === undefined && command.index < runIndex;
}

/**
 * A command that may change files after the run at `runIndex`: after it in the line, or able to run
 * beside it (a trap, a job, a pipeline stage). In a measured line, a later command that writes no
 * named file (git, checkers, builds) is judged by what the snapshot saw it change; a named write stays
 * an edit: it may be the run's own output file, read after the line (`pytest > out.log; cp good.txt out.log`).
 */
export function editsAfter(command: AnalyzedCommand, runIndex: number, measured: boolean): boolean {
  if (command.readOnly || command.invocation !== undefined) return false;
  if (command.index <= runIndex && command.runsLate !== true) return false;
  return !(measured && command.runsLate !== true && command.effect.kind !== "unknown" && command.effect.kind !== "paths");
}
