// Adds the runner's JUnit report argument (pytest: `--junitxml=<file>`) to the one run of a command
// line whose runner can write one, so the run writes a report the verdict can check against the log.
// Returns null when that cannot be done safely.
import type { RunnerDefinition } from "../runners/definition.js";
import { builtinRunners, type RunnerRegistry } from "../runners/registry.js";
import type { CommandAnalysis, TestInvocation } from "../shell/types.js";

/** The line's one run of a runner that writes JUnit reports, when it has exactly one and it runs tests once. */
export function singleReportingRun(analysis: CommandAnalysis, runners: RunnerRegistry = builtinRunners): { run: TestInvocation; definition: RunnerDefinition } | null {
  const reporting = analysis.invocations.filter((inv) => runners.get(inv.kind)?.junitReport !== undefined);
  const run = reporting[0];
  const definition = run === undefined ? undefined : runners.get(run.kind);
  return reporting.length === 1 && run !== undefined && definition !== undefined && !run.repeated && run.runsTests ? { run, definition } : null;
}

/** The instrumented command, or null (no single, non-repeated reporting run, or an ambiguous text position). */
export function instrumentRun(command: string, analysis: CommandAnalysis, reportPath: string, runners: RunnerRegistry = builtinRunners): string | null {
  if (analysis.opaque || /[\s'"\\$`]/.test(reportPath)) return null;
  const single = singleReportingRun(analysis, runners);
  if (single === null || single.run.reportFiles.length > 0 || single.run.args.includes("--")) return null;
  const { run, definition } = single;
  // A run inside a package script (`npm test`): its text is in package.json, not in the line.
  if (run.script !== undefined) return null;
  const at = command.indexOf(run.text);
  if (at < 0 || command.indexOf(run.text, at + 1) >= 0) return null;
  const end = at + run.text.length;
  return `${command.slice(0, end)} ${definition.junitReport!.argument(reportPath)}${command.slice(end)}`;
}
