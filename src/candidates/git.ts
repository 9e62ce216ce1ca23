// Every git call of the candidate backend goes through here, on top of the library's host git runner
// (src/tools/host-git.ts: no system or global config, no home, no fsmonitor, hooks, pagers or
// external diffs, no transport but the local one asked for).
import { EvidenceError } from "../errors.js";
import { type HostGitIdentity, runHostGit } from "../tools/host-git.js";

/** Options for one {@link runGit} call. */
export interface GitRunOptions {
  /** Bytes or text written to git's stdin. */
  input?: string | Uint8Array;
  /** A private index file (absolute path) instead of the repository's real one. */
  indexFile?: string;
  /** Allow local `file://`/path transports (submodule clones from the source checkout). */
  allowFileProtocol?: boolean;
  /** Extra `-c key=value` settings, after the fixed ones. */
  config?: readonly string[];
  /** Return a failed run instead of throwing. */
  allowFailure?: boolean;
  /**
   * The git directory to use (GIT_DIR, with `cwd` as the work tree) instead of whatever the `.git`
   * file in `cwd` names: a candidate can rewrite that file to point at a git directory it made.
   */
  gitDir?: string;
}

/** The result of one git call; stdout is raw bytes so binary patches and odd names survive. */
export interface GitRunResult {
  exitCode: number;
  stdout: Uint8Array;
  stderr: string;
}

// The identity every candidate git call commits with, whatever the user's ~/.gitconfig holds.
const IDENTITY: HostGitIdentity = { name: "agent-evidence", email: "agent-evidence@localhost" };

// Settings that change what a diff, an add or a checkout means, pinned for reproducibility (the
// runner's own fixed settings come first).
const FIXED_CONFIG: readonly string[] = ["core.quotePath=false", "core.filemode=true", "advice.detachedHead=false"];

/** Runs `git <args>` in `cwd` through the library's one host git runner; throws `E_IO` on a non-zero exit unless allowed. */
export async function runGit(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<GitRunResult> {
  const result = await runHostGit(cwd, args, {
    config: [...FIXED_CONFIG, ...(options.config ?? [])],
    identity: IDENTITY,
    allowFileProtocol: options.allowFileProtocol === true,
    env: {
      ...(options.indexFile === undefined ? {} : { GIT_INDEX_FILE: options.indexFile }),
      ...(options.gitDir === undefined ? {} : { GIT_DIR: options.gitDir, GIT_WORK_TREE: cwd }),
    },
    maxBuffer: 1024 * 1024 * 1024,
    ...(options.input === undefined ? {} : { input: options.input }),
  });
  const { stderr, exitCode } = result;
  if (exitCode !== 0 && options.allowFailure !== true) {
    const detail =
      stderr.trim().split("\n").slice(-3).join(" / ") ||
      (result.errorCode === undefined ? "no output" : `git could not start (${result.errorCode})`);
    throw new EvidenceError("E_IO", `git ${args.join(" ")} failed in ${cwd} (exit ${exitCode}): ${detail}`);
  }
  return { exitCode, stdout: new Uint8Array(result.stdout), stderr };
}

/** Runs git and returns stdout decoded as UTF-8 with the final newline removed. */
export async function readGit(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<string> {
  const { stdout } = await runGit(cwd, args, options);
  return Buffer.from(stdout).toString("utf8").replace(/\n$/, "");
}
