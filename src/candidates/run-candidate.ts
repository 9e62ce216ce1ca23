// runCandidate(): one agent, one fresh worktree, one fresh toolset; evidence and patch come back together.
import { patchPaths } from "../patches/index.js";
import type { VerificationRecord } from "../types.js";
import { CandidateRunError } from "./errors.js";
import { createCandidateWorkspace, type CandidateWorkspace } from "./workspace.js";

/** The evidence side of a toolset: read after the agent finished. */
export interface CandidateEvidence {
  readonly verificationRecords: VerificationRecord[];
  readonly verifiedTargets: string[];
}

/** A toolset bound to one worktree: the tools the agent gets, and the ledger behind them. */
export interface CandidateToolset<Tools> {
  tools: Tools;
  evidence: CandidateEvidence;
}

/** Builds a fresh toolset for a worktree (e.g. `evidenceTools` bound to it). Called once per candidate. */
export type CreateCandidateToolset<Tools, ToolOptions> = (workspaceDir: string, toolOptions: ToolOptions | undefined) => CandidateToolset<Tools>;

/** Options for {@link runCandidate}. */
export interface RunCandidateOptions<Tools, ToolOptions> {
  /** The source repository (or a directory inside it). */
  repo: string;
  label: string;
  /** Does the candidate's work with the tools; its return value is ignored. */
  agent: (tools: Tools, workspace: CandidateWorkspace) => Promise<unknown>;
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
  workspace: CandidateWorkspace;
}

/**
 * Creates a candidate workspace, gives `agent` a fresh toolset bound to it, then captures the patch
 * and collects the evidence. Each call builds its own toolset, so parallel candidates never share
 * records. If the agent throws, {@link CandidateRunError} names the retained worktree; if capture
 * fails, {@link CandidateCaptureError} does. Either way the caller disposes the workspace.
 * @example
 * const [a, b] = await Promise.all(["a", "b"].map((label) => runCandidate({ repo, label, agent, createToolset })));
 */
export async function runCandidate<Tools, ToolOptions = undefined>(options: RunCandidateOptions<Tools, ToolOptions>): Promise<RunCandidateResult> {
  const workspace = await createCandidateWorkspace(options.repo, { label: options.label });
  const toolset = options.createToolset(workspace.path, options.toolOptions);
  try {
    await options.agent(toolset.tools, workspace);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new CandidateRunError(workspace, `candidate ${options.label} failed: ${why}; worktree preserved at ${workspace.root}`, { cause: error });
  }
  const patch = await workspace.capture();
  return {
    label: options.label,
    patch,
    paths: patch === "" ? [] : patchPaths(patch),
    testRecords: structuredClone(toolset.evidence.verificationRecords),
    verifiedTargets: [...toolset.evidence.verifiedTargets],
    workspace,
  };
}
