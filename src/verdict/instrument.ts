// Adds `--junitxml=<file>` to the one pytest invocation of a command line, so the run writes a
// report the verdict can check against the log. Returns null when that cannot be done safely.
import type { CommandAnalysis } from "../shell/types.js";

/** The instrumented command, or null (no single, non-repeated pytest run, or an ambiguous text position). */
export function instrumentPytest(command: string, analysis: CommandAnalysis, reportPath: string): string | null {
  if (analysis.opaque || /[\s'"\\$`]/.test(reportPath)) return null;
  const pytestRuns = analysis.invocations.filter((inv) => inv.kind === "pytest");
  const run = pytestRuns[0];
  if (pytestRuns.length !== 1 || run === undefined || run.repeated || !run.runsTests || run.reportFiles.length > 0 || run.args.includes("--")) return null;
  const at = command.indexOf(run.text);
  if (at < 0 || command.indexOf(run.text, at + 1) >= 0) return null;
  const end = at + run.text.length;
  return `${command.slice(0, end)} --junitxml=${reportPath}${command.slice(end)}`;
}
