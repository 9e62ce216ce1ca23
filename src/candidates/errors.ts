// The candidate backend's errors: EvidenceError subclasses so callers can catch by class or by code.
import { EvidenceError } from "../errors.js";
import type { CandidateWorkspace } from "./workspace.js";

/** A source repository that cannot seed a candidate (not a repository, no commit, submodule changes). */
export class CandidateSourceError extends EvidenceError {
  /** The source directory that was refused. */
  readonly source: string;

  constructor(source: string, message: string, options?: { cause?: unknown }) {
    super("E_CANDIDATE_SOURCE", message, options);
    this.name = "CandidateSourceError";
    this.source = source;
  }
}

/** The candidate's change cannot be delivered as a patch; the worktree is kept for recovery. */
export class CandidateCaptureError extends EvidenceError {
  /** The retained worktree (also named in the message). */
  readonly workspacePath: string;
  /** The workspace, when capture ran through one: inspect it, then dispose it. */
  workspace?: CandidateWorkspace;

  constructor(workspacePath: string, message: string, options?: { cause?: unknown }) {
    super("E_CANDIDATE_CAPTURE", message, options);
    this.name = "CandidateCaptureError";
    this.workspacePath = workspacePath;
  }
}

/** The source moved away from the revision the candidate was created from. */
export class CandidateWorkspaceTrackingError extends EvidenceError {
  /** The revision recorded when the workspace was created. */
  readonly expected: string;
  /** The source's HEAD now (null when it has none). */
  readonly actual: string | null;

  constructor(expected: string, actual: string | null, message: string) {
    super("E_CANDIDATE_TRACKING", message);
    this.name = "CandidateWorkspaceTrackingError";
    this.expected = expected;
    this.actual = actual;
  }
}

/** A captured patch that does not apply to the source; source and index are untouched. */
export class CandidateAdoptError extends EvidenceError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("E_CANDIDATE_ADOPT", message, options);
    this.name = "CandidateAdoptError";
  }
}

/** The candidate's agent threw; the worktree is kept and named so the caller can inspect or dispose it. */
export class CandidateRunError extends EvidenceError {
  /** The retained worktree's root. */
  readonly workspacePath: string;
  /** The retained workspace: inspect it, then dispose it. */
  readonly workspace: CandidateWorkspace;

  constructor(workspace: CandidateWorkspace, message: string, options?: { cause?: unknown }) {
    super("E_CANDIDATE_RUN", message, options);
    this.name = "CandidateRunError";
    this.workspacePath = workspace.root;
    this.workspace = workspace;
  }
}
