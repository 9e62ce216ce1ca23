// The command line as BashEvidence reads it before a call: analysed from where the shell stands, its
// package scripts followed, a lasting shell's definitions applied (opaque when the analysis fails);
// and what kind of call it is for the watcher.
import { analyzeCommand } from "../grammar/analyze-command.js";
import type { RunnerRegistry } from "../runners/registry.js";
import type { PackageScripts } from "../shell/package-scripts.js";
import type { ShellSession } from "../shell/persistent-shell.js";
import type { CommandAnalysis } from "../shell/types.js";
import { type PackageScriptResolver, resolvePackageScripts } from "./package-scripts.js";
import type { CallKind } from "./watch.js";

/** What BashEvidence knows of the shell a line runs in. */
export interface LineContext {
  /** The ledger's workspace, or null. */
  workspace: string | null;
  /** The persistent shell's remembered definitions; undefined when every call gets a new shell. */
  session: ShellSession | undefined;
  /** The tool was said to keep its shell (not merely not said to start a new one per call). */
  sessionKnown: boolean;
  runners: RunnerRegistry;
  /** Reads package.json for script runs (`npm test`), or false. */
  resolveScripts: PackageScriptResolver | false;
}

/** The line's analysis as the call will run it (opaque when the analysis fails), and the package scripts it read. */
export function readObservedLine(command: string, context: LineContext): { observed: CommandAnalysis; scripts: PackageScripts } {
  let analysis: CommandAnalysis | undefined;
  let scripts: PackageScripts = {};
  try {
    // A persistent shell starts the line where the previous one left it (null: unknown).
    // Not told whether the shell persists: once an earlier line moved it, the start is either place.
    const workspace = context.workspace ?? undefined;
    const tracked = context.session?.cwd;
    const cwd = context.session === undefined ? workspace : context.sessionKnown || tracked === (workspace ?? null) ? tracked : null;
    const resolved = resolvePackageScripts(command, {
      cwd,
      runners: context.runners,
      resolveScripts: cwd === null || cwd === undefined ? false : context.resolveScripts,
    });
    analysis = resolved.analysis;
    scripts = resolved.scripts;
  } catch {
    analysis = undefined;
  }
  const parsedLine = analysis ?? opaqueAnalysis(command);
  // In a persistent shell, what earlier calls defined reaches this line's runners.
  const observed = context.session === undefined ? parsedLine : context.session.shadow(parsedLine);
  return { observed, scripts };
}

/** A line of read-only commands and test runs writes nothing of its own (by-products aside). */
export function lineCallKind(command: string, workspace: string | null, runners: RunnerRegistry): CallKind {
  try {
    const analysis = analyzeCommand(command, { cwd: workspace ?? undefined, runners });
    if (analysis.opaque) return "writes";
    return analysis.commands.every((c) => c.readOnly || (c.invocation !== undefined && c.invocation.runsTests && !c.invocation.shadowed))
      ? "reads"
      : "writes";
  } catch {
    return "writes";
  }
}

function opaqueAnalysis(command: string): CommandAnalysis {
  return {
    line: command,
    parsed: { text: command, statements: [], opaque: true, opaqueReasons: ["analysis-failed"] },
    opaque: true,
    commands: [],
    invocations: [],
    endCwd: null,
  };
}
