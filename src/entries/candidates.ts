/**
 * agent-evidence/candidates: candidate agents in Git worktrees, their patches captured, verified the
 * same way, compared and ranked per test, and the winner adopted.
 */
export {
  createCandidateWorkspace,
  runCandidate,
  runCandidates,
  pruneCandidates,
  compareCandidates,
  rankCandidates,
} from "../candidates/index.js";
export {
  CandidateSourceError,
  CandidateCaptureError,
  CandidateWorkspaceTrackingError,
  CandidateAdoptError,
  CandidateRunError,
} from "../candidates/index.js";
export type {
  CandidateWorkspace,
  CandidateWorkspaceOptions,
  CandidateBase,
  RunCandidateOptions,
  RunCandidateResult,
  CandidateToolset,
  CandidateEvidence,
  CreateCandidateToolset,
  CandidateKey,
  ComparableCandidate,
  CandidateComparisonResult,
  CandidateVerifyStep,
  RankableCandidate,
  RankedCandidate,
  CandidateTestTable,
  PruneCandidatesResult,
  CandidateBundleInfo,
} from "../candidates/index.js";
