// BashEvidence's options: their shape, and the checks the constructor makes before anything is opened.
import { EvidenceError } from "../errors.js";
import type { CommandResult, LineJudge } from "../evidence/ledger.js";
import type { ToolResult } from "../host/tool.js";
import type { RunnerRegistry } from "../runners/registry.js";
import type { PackageScriptResolver } from "./package-scripts.js";

/** How commands that run no test invalidate: every one (`conservative`), or only those that changed files (`snapshot`). */
export type InvalidationMode = "conservative" | "snapshot";

/** The input every bash tool takes. */
export interface BashLikeInput {
  command: string;
  timeoutMs?: number | null | undefined;
}

/** Turns a wrapped tool's result into the complete command result (or null: the command did not run). */
export type ResultExtractor = (result: ToolResult<unknown>) => Promise<CommandResult | null> | CommandResult | null;

/** Options of {@link BashEvidence}. */
export interface BashEvidenceOptions {
  /** The workspace the ledger resolves targets against (the bash tool's cwd). */
  workspace: string | null;
  /** Canonicalise paths through symlinks (default true for an absolute local workspace). */
  realpath?: boolean;
  /** Records kept in memory (the journal keeps all). */
  maxRecords?: number;
  /**
   * Append every transition to this journal file (authenticated JSON lines, synced to disk before the
   * call returns). It must lie outside the workspace, where the agent's commands cannot write it.
   */
  journal?: string;
  /** The journal's seal (its key and tip); default `defaultSealPath` (journal.ts). Also outside the workspace. */
  journalSeal?: string;
  /**
   * Keep the output of every recorded test run here (one file per run, outside the workspace; kept
   * after close). Default: a private temporary directory, removed on close. Either way the logs go
   * into `BashEvidence.exportBundle`.
   */
  logsDir?: string;
  /** How to read the complete output from the wrapped tool's result (default: for the native bash tool its raw logs, for any other tool its text with a last line `Exit code: N`). */
  extract?: ResultExtractor;
  /** Replace the judge (tests, custom runners). */
  judge?: LineJudge;
  /** `conservative` (default): every non-test command invalidates; `snapshot`: only those that changed files (needs a workspace). */
  invalidation?: InvalidationMode;
  /** Watch the workspace and mark records unknown when someone else changes files between calls (needs a workspace). */
  watch?: boolean;
  /**
   * Does the wrapped tool keep one shell alive across calls? `persistent`: a function, an alias or a
   * PATH entry inside the workspace that an earlier call defined makes a later run of that name
   * `shadowed-runner`, and a later line starts where an earlier `cd` left the shell. `per-call`: every
   * call starts a new shell in the workspace (the native bash tool, which carries `PER_CALL_SHELL`).
   * Not given, for a tool that does not say: earlier definitions count as in `persistent`, and after a
   * call that moved the shell the directory of later lines is unknown (either could be true).
   */
  shell?: "persistent" | "per-call";
  /** The runners to recognise and judge (default: the built-ins); `createRunnerRegistry([yours])` adds your own. */
  runners?: RunnerRegistry;
  /**
   * Reads the package.json of a script run (`npm test`) so the run is followed into its script
   * (default: `readPackageManifest`, from disk, before the line and again after it: a package.json
   * that changed meanwhile makes the run `script-changed`). `false`: script runs prove nothing.
   */
  resolveScripts?: PackageScriptResolver | false;
}

/** Throws `E_INVALID_OPTION` for options of the wrong shape or a combination that needs a workspace. */
export function validateBashEvidenceOptions(options: BashEvidenceOptions): void {
  if (typeof options !== "object" || options === null || (options.workspace !== null && typeof options.workspace !== "string")) {
    throw new EvidenceError("E_INVALID_OPTION", `BashEvidence option "workspace" must be a path string or null.`);
  }
  if (options.invalidation !== undefined && options.invalidation !== "conservative" && options.invalidation !== "snapshot") {
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `BashEvidence option "invalidation" is ${JSON.stringify(options.invalidation)}; accepted: "conservative" or "snapshot".`,
    );
  }
  if (options.watch !== undefined && typeof options.watch !== "boolean") {
    throw new EvidenceError("E_INVALID_OPTION", `BashEvidence option "watch" must be a boolean; got ${JSON.stringify(options.watch)}.`);
  }
  if (options.shell !== undefined && options.shell !== "persistent" && options.shell !== "per-call") {
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `BashEvidence option "shell" is ${JSON.stringify(options.shell)}; accepted: "persistent" or "per-call".`,
    );
  }
  if (
    options.runners !== undefined &&
    (typeof options.runners !== "object" ||
      options.runners === null ||
      typeof options.runners.get !== "function" ||
      !Array.isArray(options.runners.runners))
  ) {
    throw new EvidenceError("E_INVALID_OPTION", `BashEvidence option "runners" must be a registry from createRunnerRegistry().`);
  }
  if ((options.invalidation === "snapshot" || options.watch === true) && options.workspace === null) {
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `BashEvidence options "invalidation: snapshot" and "watch" need a workspace path; got null.`,
    );
  }
}
