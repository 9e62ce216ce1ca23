// The state the analysis of a parsed line carries while it walks the line (analyze-parsed.ts), read
// by the recognition of a runner's invocation and the checks of the line's script runs.
import type { RunnerRegistry } from "../runners/registry.js";
import type { PackageScriptRun, PackageScripts } from "./package-scripts.js";
import type { Shadowing } from "./shadowing.js";
import type { AnalyzedCommand, SimpleCommand } from "./types.js";

/** What the walk of one line has seen so far, and where it stands. */
export interface Walk {
  runners: RunnerRegistry;
  order: Map<SimpleCommand, number>;
  shadowing: Shadowing;
  commands: AnalyzedCommand[];
  stashed: boolean;
  opaque: boolean;
  /** How many enclosing subshells, groups or compounds redirect their output into a file (`{ ...; } > mod.py`). */
  writingRedirects: number;
  /** The line spells a code substitution somewhere: an unquoted heredoc body may hold it. */
  substitutes: boolean;
  /** How many enclosing background statements or multi-stage pipelines run beside what follows. */
  late: number;
  /** How many enclosing background statements bash does not wait for before the line ends. */
  outlives: number;
  scripts: PackageScripts | undefined;
  packageRuns: PackageScriptRun[];
  /** The script runs whose script is being walked, innermost last. */
  runStack: number[];
  /** The commands inside each script run (any depth), by run. */
  inside: Map<number, Set<number>>;
}

/** The statements being walked: whether they may run other than once. */
export interface Scope {
  /** Inside a loop or a function body: may run zero or several times. */
  repeated: boolean;
}
