// Adds the runner's JUnit report argument (pytest: `--junitxml=<file>`, node --test: a junit reporter
// beside the one it prints with) to the one run of a command line whose runner can write one, so the
// run writes a report the verdict can check against the log. Returns null when that cannot be done safely.
import type { RunnerDefinition } from "../runners/definition.js";
import { builtinRunners, type RunnerRegistry } from "../runners/registry.js";
import type { CommandAnalysis, TestInvocation } from "../shell/types.js";

/** The line's one run of a runner that writes JUnit reports, when it has exactly one and it runs tests once. */
export function singleReportingRun(
  analysis: CommandAnalysis,
  runners: RunnerRegistry = builtinRunners,
): { run: TestInvocation; definition: RunnerDefinition } | null {
  const reporting = analysis.invocations.filter((inv) => runners.get(inv.kind)?.report !== undefined);
  const run = reporting[0];
  const definition = run === undefined ? undefined : runners.get(run.kind);
  return reporting.length === 1 && run !== undefined && definition !== undefined && !run.repeated && run.runsTests
    ? { run, definition }
    : null;
}

/** The instrumented command, or null (no single, non-repeated reporting run, or an ambiguous text position). */
export function instrumentRun(
  command: string,
  analysis: CommandAnalysis,
  reportPath: string,
  runners: RunnerRegistry = builtinRunners,
): string | null {
  if (analysis.opaque || /[\s'"\\$`]/.test(reportPath)) return null;
  const single = singleReportingRun(analysis, runners);
  if (single === null || single.run.reportFiles.length > 0 || single.run.args.includes("--")) return null;
  const { run, definition } = single;
  // A run inside a package script (`npm test`): its text is in package.json, not in the line.
  if (run.script !== undefined) return null;
  const report = definition.report!;
  const argument = report.argument(reportPath, run.args);
  if (argument === null) return null;
  const at = command.indexOf(run.text);
  if (at < 0 || command.indexOf(run.text, at + 1) >= 0) return null;
  const insert = report.at === "after-runner" ? afterRunnerWords(run) : run.text.length;
  if (insert === null) return null;
  const end = at + insert;
  return `${command.slice(0, end)} ${argument}${command.slice(end)}`;
}

// Where the runner's own words end in the run's text: after its one appearance as whole words
// (`timeout 60 node --test a.js` -> after `node`); null when it appears more than once or not at all.
function afterRunnerWords(run: TestInvocation): number | null {
  const escaped = run.runner.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+");
  const matches = [...run.text.matchAll(new RegExp(`(?<![^\\s])${escaped}(?=\\s|$)`, "g"))];
  if (matches.length !== 1) return null;
  const match = matches[0]!;
  return match.index + match[0].length;
}
