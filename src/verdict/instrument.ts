// Adds `--junitxml=<file>` to the one pytest invocation of a command line, so the run writes a
// report the verdict can check against the log. Returns null when that cannot be done safely.
import type { CommandAnalysis, TestInvocation } from "../shell/types.js";

/** The line's one pytest run, when it has exactly one and it runs tests once. */
export function singlePytestRun(analysis: CommandAnalysis): TestInvocation | null {
  const pytestRuns = analysis.invocations.filter((inv) => inv.kind === "pytest");
  const run = pytestRuns[0];
  return pytestRuns.length === 1 && run !== undefined && !run.repeated && run.runsTests ? run : null;
}

/** The instrumented command, or null (no single, non-repeated pytest run, or an ambiguous text position). */
export function instrumentPytest(command: string, analysis: CommandAnalysis, reportPath: string): string | null {
  if (analysis.opaque || /[\s'"\\$`]/.test(reportPath)) return null;
  const run = singlePytestRun(analysis);
  if (run === null || run.reportFiles.length > 0 || run.args.includes("--")) return null;
  const at = command.indexOf(run.text);
  if (at < 0 || command.indexOf(run.text, at + 1) >= 0) return null;
  const end = at + run.text.length;
  return `${command.slice(0, end)} --junitxml=${reportPath}${command.slice(end)}`;
}
