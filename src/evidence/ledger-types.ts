// The ledger's shapes: its options, what a caller hands it (a command's result, an edit, a measured
// effect) and the ticket of a command in flight. EvidenceLedger (ledger.ts) re-exports them.
import type { RunnerRegistry } from "../runners/registry.js";
import type { CommandAnalysis } from "../shell/types.js";
import type { RunEvidence } from "../types.js";
import type { LedgerJournal } from "./ledger-events.js";
import type { PathResolver } from "./targets.js";

/** The complete result of one observed command, as the ledger needs it. */
export interface CommandResult {
  exitCode: number | null;
  /** The complete raw output (stdout and stderr), never the model-visible text. */
  output: string;
  /** The raw output was clipped (raw cap) or otherwise incomplete. */
  truncated: boolean;
  timedOut: boolean;
}

/** What judging one command line yields: one run per recognised invocation, in line order. */
export interface LineJudgement {
  runs: RunEvidence[];
}

/** Judges a complete command result (normally `judgeAnalyzed`); `analysis` is the line's analysis, made once. */
export type LineJudge = (input: {
  command: string;
  analysis: CommandAnalysis;
  output: string;
  exitCode: number | null;
  cwd: string | null;
  outputTruncated: boolean;
}) => LineJudgement;

/** Options of {@link EvidenceLedger}. */
export interface EvidenceLedgerOptions {
  /** The workspace the ledger was created with (targets are made relative to it), or null. */
  workspace: string | null;
  judge: LineJudge;
  /** Canonicalises absolute paths (realpath for local workspaces). Defaults to identity. */
  resolvePath?: PathResolver;
  /** History bound kept in memory (the journal keeps all). Default unbounded. */
  maxRecords?: number;
  journal?: LedgerJournal;
  /** The runners whose target families place and compare targets (default: the built-ins). */
  runners?: RunnerRegistry;
}

/** An edit reported by a native edit tool. */
export interface EditObservation {
  completed: boolean;
  /** true: content changed; false: unchanged; null: effect unknown (treated as a change). */
  changed: boolean | null;
  paths: string[];
}

/**
 * What a non-test command did to the workspace, when the caller measured it (snapshot mode):
 * `unchanged` keeps records current, `changed` lists the paths, `unknown` is treated as a change.
 */
export type WorkspaceEffect = { kind: "unchanged" } | { kind: "changed"; paths: string[] } | { kind: "unknown" };

/** How `beginCommand` treats a line that runs no provable test: invalidate now, or wait for its measured effect. */
export type InvalidationTiming = "before" | "measured";

/** A command in flight: returned by `beginCommand`, closed by `finishCommand` or `abandonCommand`. */
export interface CommandTicket {
  readonly id: number;
  readonly command: string;
  readonly analysis: CommandAnalysis;
  /** Edits and commands that completed while this command ran. */
  readonly concurrent: { edits: (string | null)[]; commands: string[] };
}
