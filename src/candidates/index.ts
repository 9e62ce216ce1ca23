// Candidate workspaces (one Git worktree per candidate agent), capture, adoption and comparison.
export { createCandidateWorkspace, CANDIDATE_BASE_REF } from "./workspace.js";
export type { CandidateWorkspace, CandidateWorkspaceOptions, CandidateBase } from "./workspace.js";
export { runCandidate, runCandidates } from "./run-candidate.js";
export { pruneCandidates } from "./prune.js";
export type { PruneCandidatesResult } from "./prune.js";
export type {
  RunCandidateOptions,
  RunCandidateResult,
  CandidateToolset,
  CandidateEvidence,
  CreateCandidateToolset,
  CandidateVerifyStep,
  CandidateBundleInfo,
} from "./run-candidate.js";
export { compareCandidates, recordColour } from "./compare.js";
export type { CandidateKey, ComparableCandidate, CandidateComparisonResult } from "./compare.js";
export { rankCandidates } from "./rank.js";
export type { RankableCandidate, RankedCandidate, CandidateTestTable } from "./rank.js";
export {
  CandidateSourceError,
  CandidateCaptureError,
  CandidateWorkspaceTrackingError,
  CandidateAdoptError,
  CandidateRunError,
} from "./errors.js";
export type { SubmoduleChange } from "./submodule-guard.js";
