// runCandidate(): one agent, one fresh worktree, one fresh toolset; evidence and patch come back together.
import { dirname, join } from "node:path";

import { EvidenceError } from "../errors.js";
import { type TestView, testView } from "../evidence/test-view.js";
import { type EvidenceBundle, exportEvidenceBundle } from "../observation/bundle.js";
import { patchPaths } from "../patches/index.js";
import type { VerificationRecord } from "../types.js";
import { CandidateRunError } from "./errors.js";
import { CANDIDATE_BUNDLE_DIR, type CandidateWorkspace, createCandidateWorkspace } from "./workspace.js";

/** The evidence side of a toolset: read after the agent finished, then closed (when it can be). */
export interface CandidateEvidence {
  readonly verificationRecords: VerificationRecord[];
  readonly verifiedTargets: string[];
  /** Writes the evidence as a bundle (evidenceTools' evidence does); without it the bundle holds the records and no logs. */
  exportBundle?(dir: string, extra?: Readonly<Record<string, string>>): Promise<EvidenceBundle>;
  close?(): Promise<void>;
}

/** The one command the library runs in every candidate's worktree after its agent, through the toolset's bash tool. */
export interface CandidateVerifyStep {
  command: string;
  /** The tool's own timeout for the command (its default when not given). */
  timeoutMs?: number;
}

/** A toolset bound to one worktree: the tools the agent gets, and the ledger behind them. */
export interface CandidateToolset<Tools> {
  tools: Tools;
  evidence: CandidateEvidence;
}

/** Builds a fresh toolset for a worktree (e.g. `evidenceTools` bound to it). Called once per candidate. */
export type CreateCandidateToolset<Tools, ToolOptions> = (
  workspaceDir: string,
  toolOptions: ToolOptions | undefined,
) => CandidateToolset<Tools>;

/** Options for {@link runCandidate}. */
export interface RunCandidateOptions<Tools, ToolOptions> {
  /** The source repository (or a directory inside it). */
  repo: string;
  label: string;
  /** Does the candidate's work with the tools; its return value is ignored. `signal` aborts at the timeout or the caller's abort. */
  agent: (tools: Tools, workspace: CandidateWorkspace, context: { signal: AbortSignal }) => Promise<unknown>;
  /**
   * After the agent, run this command through the toolset's observed `bash` tool (sandboxed like the
   * agent's), so every candidate has evidence on the same keys, on its final code.
   */
  verify?: CandidateVerifyStep;
  /** The agent's time; past it the agent's signal aborts and the run fails with CandidateRunError (the worktree kept). */
  timeoutMs?: number;
  /** Aborts the agent (and the run) from outside. */
  signal?: AbortSignal;
  /**
   * Write the candidate's evidence bundle beside its worktree (default true): records, per-test view,
   * every recorded run's log, `patch.diff` and `candidate.json` (base, final tree, git directory), with
   * a manifest of hashes. `agent-evidence candidates rank` without `--verify` ranks on these bundles.
   */
  bundle?: boolean;
  /** Passed to `createToolset` unchanged. */
  toolOptions?: ToolOptions;
  createToolset: CreateCandidateToolset<Tools, ToolOptions>;
}

/** One candidate's result. The workspace is still there: adopt from it, then dispose it. */
export interface RunCandidateResult {
  label: string;
  /** The candidate's change as a binary Git patch ("" when it changed nothing). */
  patch: string;
  /** Every path the patch touches. */
  paths: string[];
  /** Copies of the candidate's verification records, in order. */
  testRecords: VerificationRecord[];
  verifiedTargets: string[];
  /** The records the verify step made (empty without one). */
  verification: VerificationRecord[];
  /** Each target and test id of the records: passing, failing, stale or unknown (src/evidence/test-view.ts). */
  tests: TestView;
  /** The evidence bundle beside the worktree (removed with it by dispose); null with `bundle: false`. */
  bundle: EvidenceBundle | null;
  workspace: CandidateWorkspace;
}

/** What a candidate bundle's `candidate.json` holds. */
export interface CandidateBundleInfo {
  label: string;
  /** The worktree root, the directory matching the source's (`workspace.path`), its git directory as created, and the source repository. */
  root: string;
  path: string;
  gitDir: string;
  source: string;
  base: { revision: string; tree: string };
  /** The tree of the working files when the bundle was written: the evidence is about this code. */
  tree: string;
  /** The verify step's command, or null. */
  verify: string | null;
}

/**
 * Creates a candidate workspace, gives `agent` a fresh toolset bound to it, then captures the patch
 * and collects the evidence. Each call builds its own toolset, so parallel candidates never share
 * records. If the agent throws, {@link CandidateRunError} names the retained worktree; if capture
 * fails, {@link CandidateCaptureError} does. Either way the caller disposes the workspace.
 * @example
 * const [a, b] = await Promise.all(["a", "b"].map((label) => runCandidate({ repo, label, agent, createToolset })));
 */
export async function runCandidate<Tools, ToolOptions = undefined>(
  options: RunCandidateOptions<Tools, ToolOptions>,
): Promise<RunCandidateResult> {
  const workspace = await createCandidateWorkspace(options.repo, { label: options.label });
  const toolset = options.createToolset(workspace.path, options.toolOptions);
  try {
    await runAgent(options, toolset.tools, workspace);
    let verification: VerificationRecord[] = [];
    if (options.verify !== undefined) {
      const before = toolset.evidence.verificationRecords.length;
      await runVerify(toolset.tools, options.verify, workspace, options.label);
      verification = structuredClone(toolset.evidence.verificationRecords.slice(before));
    }
    const { patch, tree } = await workspace.captureChange();
    const bundle =
      options.bundle === false
        ? null
        : await writeBundle(toolset.evidence, workspace, { patch, tree, verify: options.verify?.command ?? null });
    return {
      label: options.label,
      patch,
      paths: patch === "" ? [] : patchPaths(patch),
      testRecords: structuredClone(toolset.evidence.verificationRecords),
      verifiedTargets: [...toolset.evidence.verifiedTargets],
      verification,
      tests: testView(toolset.evidence.verificationRecords),
      bundle,
      workspace,
    };
  } finally {
    await toolset.evidence.close?.().catch(() => undefined);
  }
}

// The bundle beside the worktree, in the candidate's temporary directory (the agent's sandbox never
// sees it), written after the agent and the verify step are done.
async function writeBundle(
  evidence: CandidateEvidence,
  workspace: CandidateWorkspace,
  state: { patch: string; tree: string; verify: string | null },
): Promise<EvidenceBundle> {
  const info: CandidateBundleInfo = {
    label: workspace.label,
    root: workspace.root,
    path: workspace.path,
    gitDir: workspace.gitDir,
    source: workspace.source,
    base: { ...workspace.base },
    tree: state.tree,
    verify: state.verify,
  };
  const extra = { "candidate.json": JSON.stringify(info, null, 2) + "\n", "patch.diff": state.patch };
  const dir = join(dirname(workspace.root), CANDIDATE_BUNDLE_DIR);
  const records = evidence.verificationRecords;
  const missing =
    records.length === 0
      ? []
      : [{ records: records.map((r) => r.seq), reason: "the toolset keeps no logs (its evidence has no exportBundle)" }];
  try {
    if (evidence.exportBundle !== undefined) return await evidence.exportBundle(dir, extra);
    return await exportEvidenceBundle(dir, { workspace: workspace.path, records, tests: testView(records), logs: [], missing, extra });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new CandidateRunError(
      workspace,
      `candidate ${workspace.label}: writing its evidence bundle failed (${why}); worktree preserved at ${workspace.root}`,
      { cause: error },
    );
  }
}

// The agent, bounded by the timeout and the caller's signal: either aborts its signal and fails the run.
async function runAgent<Tools, ToolOptions>(
  options: RunCandidateOptions<Tools, ToolOptions>,
  tools: Tools,
  workspace: CandidateWorkspace,
): Promise<void> {
  const controller = new AbortController();
  const stop = (why: string): void => controller.abort(new Error(why));
  const timer =
    options.timeoutMs === undefined ? undefined : setTimeout(() => stop(`timed out after ${options.timeoutMs} ms`), options.timeoutMs);
  const onAbort = (): void => stop("aborted by the caller");
  if (options.signal?.aborted === true) onAbort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  const aborted = new Promise<never>((_resolve, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason as Error), { once: true });
  });
  aborted.catch(() => undefined);
  try {
    if (controller.signal.aborted) throw controller.signal.reason as Error;
    await Promise.race([options.agent(tools, workspace, { signal: controller.signal }), aborted]);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new CandidateRunError(workspace, `candidate ${options.label} failed: ${why}; worktree preserved at ${workspace.root}`, {
      cause: error,
    });
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/** The toolset's bash tool: a tool list holding one named "bash", or an object with a `bash` tool; null when there is none. */
export function bashToolOf(tools: unknown): { execute(input: { command: string; timeoutMs?: number }): Promise<unknown> } | null {
  const isTool = (value: unknown): value is { name: string; execute(input: unknown): Promise<unknown> } =>
    typeof value === "object" && value !== null && typeof (value as { execute?: unknown }).execute === "function";
  if (Array.isArray(tools)) return (tools.find((tool) => isTool(tool) && tool.name === "bash") as never) ?? null;
  if (typeof tools === "object" && tools !== null && isTool((tools as { bash?: unknown }).bash)) return (tools as { bash: never }).bash;
  return null;
}

async function runVerify(tools: unknown, verify: CandidateVerifyStep, workspace: CandidateWorkspace, label: string): Promise<void> {
  if (typeof verify.command !== "string" || verify.command.trim() === "")
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `runCandidate option "verify.command" must be a command line; got ${JSON.stringify(verify.command)}.`,
    );
  const bash = bashToolOf(tools);
  if (bash === null)
    throw new CandidateRunError(
      workspace,
      `candidate ${label}: the verify step needs the toolset's bash tool (a tool named "bash" in the tool list, or tools.bash); worktree preserved at ${workspace.root}`,
    );
  await bash.execute({ command: verify.command, ...(verify.timeoutMs === undefined ? {} : { timeoutMs: verify.timeoutMs }) });
}

/**
 * Runs several candidates, at most `concurrency` at a time (default 2), each as {@link runCandidate}.
 * Settles every one: a failed candidate is a rejected entry (its CandidateRunError keeps the
 * worktree), the others go on. Results are in the order given.
 * @example const settled = await runCandidates(labels.map((label) => ({ repo, label, agent, createToolset })), { concurrency: 2 });
 */
export async function runCandidates<Tools, ToolOptions = undefined>(
  list: readonly RunCandidateOptions<Tools, ToolOptions>[],
  options: { concurrency?: number } = {},
): Promise<PromiseSettledResult<RunCandidateResult>[]> {
  const concurrency = options.concurrency ?? 2;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `runCandidates option "concurrency" must be a positive integer; got ${JSON.stringify(concurrency)}.`,
    );
  const settled = new Array<PromiseSettledResult<RunCandidateResult>>(list.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < list.length) {
      const index = next++;
      try {
        settled[index] = { status: "fulfilled", value: await runCandidate(list[index]!) };
      } catch (reason) {
        settled[index] = { status: "rejected", reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, list.length) }, worker));
  return settled;
}
