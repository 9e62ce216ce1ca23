// evidenceTools(): fresh native tools composed with one evidence ledger. bash is wrapped in
// BashEvidence; the edit tools report their completed changes to the same ledger.
import { isAbsolute, join } from "node:path";

import { EvidenceError } from "../errors.js";
import type { EvidenceLedger } from "../evidence/ledger.js";
import { affectsTests } from "../evidence/test-inputs.js";
import type { TestView } from "../evidence/test-view.js";
import { readEditReport } from "../host/reports.js";
import { type Tool, type ToolContext, type ToolResult, withExecute } from "../host/tool.js";
import { isPlainFileOnDisk } from "../io/plain-file.js";
import type { RunnerRegistry } from "../runners/registry.js";
import { createApplyPatchTool } from "../tools/apply-patch.js";
import { createBashTool } from "../tools/bash.js";
import { type BashToolOptions, type ConfirmCallback, sandboxOption } from "../tools/bash-options.js";
import { createEvidenceStatusTool } from "../tools/evidence-status.js";
import { createFileReadTool } from "../tools/file-read.js";
import { createFileWriteTool } from "../tools/file-write.js";
import { createGitDiffTool } from "../tools/git-diff.js";
import { createGrepTool } from "../tools/grep.js";
import type { SandboxLevel } from "../tools/sandbox.js";
import { isInside, realpathOfPrefix } from "../tools/workspace-path.js";
import type { VerificationRecord } from "../types.js";
import { BashEvidence, type InvalidationMode } from "./bash-evidence.js";
import { type EvidenceBundle, exportEvidenceBundle } from "./bundle.js";
import { defaultSealPath } from "./journal.js";
import type { PackageScriptResolver } from "./package-scripts.js";
import type { CallKind } from "./watch.js";

/** The native tools evidenceTools can build. */
export const EVIDENCE_TOOL_NAMES = ["bash", "file_read", "file_write", "apply_patch", "grep", "git_diff", "evidence_status"] as const;

/** A native tool name. */
export type EvidenceToolName = (typeof EVIDENCE_TOOL_NAMES)[number];

/** Options of {@link evidenceTools}. */
export interface EvidenceToolsOptions {
  /** The workspace every tool works in (default: the process's directory). */
  cwd?: string;
  /** The bash sandbox: `strict` (default), `workspace-only` or `false`; see docs/tools.md. */
  sandbox?: SandboxLevel | false;
  /** @deprecated Use `sandbox`; `true` means `"strict"`, `false` means `false`. */
  headless?: boolean;
  /** Let file_write create new files; default false. */
  allowFileCreation?: boolean;
  /** Per-tool limits, e.g. `{ bash: { maxOutputChars: 4000, timeoutMs: 60000 } }`. */
  limits?: Partial<Record<EvidenceToolName, Record<string, unknown>>>;
  /** Records kept in memory (the journal keeps all). */
  maxRecords?: number;
  /** Journal every transition to this file (outside the workspace and every path bash can write); see docs/records.md. */
  journal?: string;
  /** The journal's seal (key and tip); default under the user's state directory. */
  journalSeal?: string;
  /** Keep every recorded run's output here (outside the workspace and every path bash can write); default a private temporary directory. */
  logsDir?: string;
  /** Asked before risky bash commands; `"framework"`: through the agent framework's approval flow (see docs/tools.md). */
  confirm?: ConfirmCallback | "framework";
  /** Allow network inside the bash sandbox; default false. */
  network?: boolean;
  /** `conservative` (default) or `snapshot`: only commands that changed files invalidate. */
  invalidation?: InvalidationMode;
  /** Mark records unknown when someone else changes files between calls; default false. */
  watch?: boolean;
  /** The runners bash's test runs are recognised and judged with (default: the built-ins); see docs/runners.md. */
  runners?: RunnerRegistry;
  /** Reads package.json for script runs (`npm test`; default: from the workspace on disk); `false`: they prove nothing. See docs/runners.md. */
  resolveScripts?: PackageScriptResolver | false;
}

/** The read side of the evidence: always present, empty when bash was not selected. */
export interface EvidenceView {
  readonly verificationRecords: VerificationRecord[];
  readonly verifiedTargets: string[];
  /** Each target and test id the records name: passing now, failing, stale or unknown, and the record that says so. */
  testView(): TestView;
  /** Resolves once the watcher (with `watch: true`) is watching. */
  ready(): Promise<void>;
  /** Writes the records, the per-test view and every recorded run's log, with a manifest of hashes, into `dir` (new or empty). Before close. */
  exportBundle(dir: string, extra?: Readonly<Record<string, string>>): Promise<EvidenceBundle>;
  /** Closes the journal, the watcher and the snapshot index. */
  close(): Promise<void>;
}

/** What {@link evidenceTools} returns. */
export interface EvidenceToolset {
  tools: Tool<never, unknown>[];
  evidence: EvidenceView;
}

const OPTION_KEYS = new Set([
  "cwd",
  "sandbox",
  "headless",
  "allowFileCreation",
  "limits",
  "maxRecords",
  "journal",
  "journalSeal",
  "logsDir",
  "confirm",
  "network",
  "invalidation",
  "watch",
  "runners",
  "resolveScripts",
]);

/**
 * Builds fresh native tools observed by one evidence ledger.
 * @example
 * const { tools, evidence } = evidenceTools(["bash", "file_read", "file_write"], { cwd: repo });
 * // give `tools` to an agent ...
 * evidence.verifiedTargets;
 */
export function evidenceTools(names: readonly string[], options: EvidenceToolsOptions = {}): EvidenceToolset {
  const selected = validateNames(names);
  validateOptions(options, selected);
  const cwd = options.cwd ?? process.cwd();
  const limits = options.limits ?? {};
  const tools: Tool<never, unknown>[] = [];
  let bash: BashEvidence | undefined;
  if (selected.includes("bash")) {
    const bashOptions: BashToolOptions = {
      ...(limits.bash ?? {}),
      cwd,
      sandbox: sandboxOption("evidenceTools", options.sandbox, options.headless),
      network: options.network ?? false,
      confirm: options.confirm,
    };
    bash = new BashEvidence(createBashTool(bashOptions), {
      workspace: cwd,
      maxRecords: options.maxRecords,
      journal: options.journal,
      journalSeal: options.journalSeal,
      logsDir: options.logsDir,
      invalidation: options.invalidation,
      watch: options.watch,
      runners: options.runners,
      ...(options.resolveScripts === undefined ? {} : { resolveScripts: options.resolveScripts }),
    });
  }
  const evidence = bash === undefined ? emptyEvidence() : evidenceOf(bash);
  for (const name of selected) {
    const tool = name === "evidence_status" ? createEvidenceStatusTool(evidence) : buildTool(name, cwd, options, limits, bash);
    const observed = bash !== undefined && (name === "file_write" || name === "apply_patch") ? observeEdits(tool, bash.ledger) : tool;
    tools.push(
      (bash !== undefined && name !== "bash"
        ? trackOwnCalls(observed, bash, name === "file_write" || name === "apply_patch" ? "writes" : "reads")
        : observed) as Tool<never, unknown>,
    );
  }
  return { tools, evidence };
}

// The sandbox binds the bash tool's temp dir (as /tmp) and its writable paths writable: a journal, a
// seal or a kept log there could be forged or cut by the agent. (The workspace itself BashEvidence refuses.)
function refuseJournalWhereBashWrites(options: EvidenceToolsOptions): void {
  const bash = options.limits?.bash;
  if ((options.journal === undefined && options.logsDir === undefined) || typeof bash !== "object" || bash === null) return;
  const listed: unknown = bash.writablePaths;
  const writable = [bash.tempDir, ...(Array.isArray(listed) ? (listed as unknown[]) : [])]
    .filter((p): p is string => typeof p === "string")
    .map(realpathOfPrefix);
  const named = {
    ...(options.journal === undefined
      ? {}
      : { journal: options.journal, journalSeal: options.journalSeal ?? defaultSealPath(options.journal) }),
    ...(options.logsDir === undefined ? {} : { logsDir: options.logsDir }),
  };
  for (const [key, path] of Object.entries(named)) {
    const real = realpathOfPrefix(path);
    const root = writable.find((dir) => isInside(dir, real));
    if (root !== undefined)
      throw new EvidenceError(
        "E_INVALID_OPTION",
        `evidenceTools option "${key}" (${path}) lies inside ${root}, which the bash sandbox can write; put it elsewhere.`,
      );
  }
}

// Without bash nothing is observed, but callers still read the same shape.
function emptyEvidence(): EvidenceView {
  return {
    get verificationRecords(): VerificationRecord[] {
      return [];
    },
    get verifiedTargets(): string[] {
      return [];
    },
    testView: () => ({ targets: [], tests: [] }),
    exportBundle: (dir, extra) =>
      exportEvidenceBundle(dir, {
        workspace: null,
        records: [],
        tests: { targets: [], tests: [] },
        logs: [],
        missing: [],
        ...(extra === undefined ? {} : { extra }),
      }),
    ready: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

function evidenceOf(bash: BashEvidence): EvidenceView {
  return {
    get verificationRecords() {
      return bash.verificationRecords;
    },
    get verifiedTargets() {
      return bash.verifiedTargets;
    },
    testView: () => bash.testView(),
    exportBundle: (dir, extra) => bash.exportBundle(dir, extra),
    ready: () => bash.ready(),
    close: () => bash.close(),
  };
}

// With `watch`, changes made during any of our own calls are not someone else's.
// The edit tools write; file_read, grep and git_diff (which uses a private index) only read.
function trackOwnCalls(tool: Tool<unknown, unknown>, bash: BashEvidence, kind: CallKind): Tool<unknown, unknown> {
  return withExecute(tool, (input: unknown, ctx?: ToolContext) => bash.trackCall(() => tool.execute(input, ctx), kind));
}

function buildTool(
  name: Exclude<EvidenceToolName, "evidence_status">,
  cwd: string,
  options: EvidenceToolsOptions,
  limits: NonNullable<EvidenceToolsOptions["limits"]>,
  bash: BashEvidence | undefined,
): Tool<unknown, unknown> {
  const own = limits[name] ?? {};
  switch (name) {
    case "bash":
      return bash as unknown as Tool<unknown, unknown>;
    case "file_read":
      return createFileReadTool({ ...own, cwd });
    case "file_write":
      return createFileWriteTool({ ...own, cwd, allowFileCreation: options.allowFileCreation ?? false });
    case "apply_patch":
      return createApplyPatchTool({ ...own, cwd });
    case "grep":
      return createGrepTool({ ...own, cwd });
    case "git_diff":
      return createGitDiffTool({ ...own, cwd });
    default: {
      const never: never = name;
      return never;
    }
  }
}

// A written path the path rule leaves out, and on disk only what its name says (io/plain-file.ts).
function isInertFile(path: string, workspace: string): boolean {
  const absolute = isAbsolute(path) ? path : join(workspace, path);
  return !affectsTests(absolute, workspace) && isPlainFileOnDisk(absolute, workspace);
}

// Reports completed edits (an EditReport in `data`, src/host/reports.ts) to the ledger; the tool's result is returned unchanged.
function observeEdits(tool: Tool<unknown, unknown>, ledger: EvidenceLedger): Tool<unknown, unknown> {
  return withExecute(tool, async (input: unknown, ctx?: ToolContext): Promise<ToolResult<unknown>> => {
    const result = await tool.execute(input, ctx);
    const edit = readEditReport(result.data);
    if (edit !== null) {
      const { changed, paths } = edit;
      // The path rule (test-inputs.ts), for files that are what their names say: an edit of README.md
      // changes no test's result, unless README.md is a link into the sources.
      const workspace = ledger.workspace;
      const inert = workspace !== null && paths.length > 0 && paths.every((p) => isInertFile(p, workspace));
      if (!inert) ledger.observeEdit({ completed: true, changed, paths });
    }
    return result;
  });
}

function validateNames(names: readonly string[]): EvidenceToolName[] {
  const list: unknown = names;
  if (!Array.isArray(list)) throw new EvidenceError("E_INVALID_OPTION", `evidenceTools needs an array of tool names; got ${typeof list}.`);
  const seen = new Set<string>();
  for (const name of list as unknown[]) {
    if (typeof name !== "string" || !(EVIDENCE_TOOL_NAMES as readonly string[]).includes(name)) {
      throw new EvidenceError(
        "E_UNKNOWN_TOOL",
        `evidenceTools: unknown tool ${JSON.stringify(name)}; accepted: ${EVIDENCE_TOOL_NAMES.join(", ")}.`,
      );
    }
    if (seen.has(name)) throw new EvidenceError("E_DUPLICATE_TOOL", `evidenceTools: tool ${JSON.stringify(name)} is listed twice.`);
    seen.add(name);
  }
  return names as EvidenceToolName[];
}

function validateOptions(options: EvidenceToolsOptions, selected: EvidenceToolName[]): void {
  if (typeof options !== "object" || options === null)
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `evidenceTools options must be an object; got ${options === null ? "null" : typeof options}.`,
    );
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key))
      throw new EvidenceError(
        "E_INVALID_OPTION",
        `evidenceTools: unknown option ${JSON.stringify(key)}; accepted: ${[...OPTION_KEYS].join(", ")}.`,
      );
  }
  for (const key of ["headless", "allowFileCreation", "network"] as const) {
    const value = options[key];
    if (value !== undefined && typeof value !== "boolean")
      throw new EvidenceError("E_INVALID_OPTION", `evidenceTools option "${key}" must be a boolean; got ${JSON.stringify(value)}.`);
  }
  if (options.watch !== undefined && typeof options.watch !== "boolean")
    throw new EvidenceError("E_INVALID_OPTION", `evidenceTools option "watch" must be a boolean; got ${JSON.stringify(options.watch)}.`);
  if (options.invalidation !== undefined && options.invalidation !== "conservative" && options.invalidation !== "snapshot") {
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `evidenceTools option "invalidation" is ${JSON.stringify(options.invalidation)}; accepted: "conservative" or "snapshot".`,
    );
  }
  if (options.cwd !== undefined && typeof options.cwd !== "string")
    throw new EvidenceError("E_INVALID_OPTION", `evidenceTools option "cwd" must be a path string; got ${JSON.stringify(options.cwd)}.`);
  for (const key of ["journal", "journalSeal", "logsDir"] as const) {
    const value = options[key];
    if (value !== undefined && typeof value !== "string")
      throw new EvidenceError("E_INVALID_OPTION", `evidenceTools option "${key}" must be a file path; got ${JSON.stringify(value)}.`);
  }
  refuseJournalWhereBashWrites(options);
  if (options.maxRecords !== undefined && (!Number.isInteger(options.maxRecords) || options.maxRecords <= 0))
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `evidenceTools option "maxRecords" must be a positive integer; got ${JSON.stringify(options.maxRecords)}.`,
    );
  if (options.confirm !== undefined && options.confirm !== "framework" && typeof options.confirm !== "function")
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `evidenceTools option "confirm" must be a function or "framework"; got ${JSON.stringify(options.confirm) ?? typeof options.confirm}.`,
    );
  if (options.limits !== undefined) {
    if (typeof options.limits !== "object" || options.limits === null || Array.isArray(options.limits))
      throw new EvidenceError(
        "E_INVALID_OPTION",
        `evidenceTools option "limits" must be an object keyed by tool name; got ${JSON.stringify(options.limits)}.`,
      );
    for (const [name, value] of Object.entries(options.limits)) {
      if (!selected.includes(name as EvidenceToolName))
        throw new EvidenceError(
          "E_INVALID_OPTION",
          `evidenceTools: limits for ${JSON.stringify(name)}, which is not selected; selected: ${selected.join(", ") || "none"}.`,
        );
      if (typeof value !== "object" || value === null || Array.isArray(value))
        throw new EvidenceError("E_INVALID_OPTION", `evidenceTools: limits.${name} must be an object; got ${JSON.stringify(value)}.`);
    }
  }
}
