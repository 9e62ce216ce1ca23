// adopt(): apply a captured patch to the source, all or nothing, only while the source HEAD is unmoved.
import { CandidateAdoptError, CandidateWorkspaceTrackingError } from "./errors.js";
import { runGit } from "./git.js";

/** The source and the revision a candidate was created from. */
export interface AdoptTarget {
  label: string;
  /** The source repository's root. */
  source: string;
  /** The source HEAD recorded when the candidate was created. */
  revision: string;
}

/**
 * Applies `patch` to the source's working tree with `git apply --binary` (atomic: a conflict writes
 * nothing, and the index is never touched). Refuses with {@link CandidateWorkspaceTrackingError}
 * when the source HEAD moved, even if the files would still apply.
 */
export async function adoptCandidatePatch(target: AdoptTarget, patch: string): Promise<void> {
  const head = await runGit(target.source, ["rev-parse", "--verify", "-q", "HEAD"], { allowFailure: true });
  const current = head.exitCode === 0 ? Buffer.from(head.stdout).toString("utf8").trim() : null;
  if (current !== target.revision) {
    throw new CandidateWorkspaceTrackingError(
      target.revision,
      current,
      `cannot adopt candidate ${target.label}: the source ${target.source} moved from ${target.revision} to ${current ?? "no HEAD"} since the candidate was created`,
    );
  }
  if (patch === "") return;
  const applied = await runGit(target.source, ["apply", "--binary", "--whitespace=nowarn", "-p1", "-"], {
    input: patch,
    allowFailure: true,
  });
  if (applied.exitCode !== 0) {
    throw new CandidateAdoptError(
      `cannot adopt candidate ${target.label}: its patch does not apply to ${target.source}, nothing was changed: ${applied.stderr.trim()}`,
    );
  }
}
