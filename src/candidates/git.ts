// Every git call of the candidate backend goes through here, isolated from user and system config.
import { execa } from "execa";
import { EvidenceError } from "../errors.js";

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
}

/** The result of one git call; stdout is raw bytes so binary patches and odd names survive. */
export interface GitRunResult {
  exitCode: number;
  stdout: Uint8Array;
  stderr: string;
}

// The identity and settings every candidate git call sees, whatever the user's ~/.gitconfig holds.
const FIXED_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "agent-evidence",
  GIT_AUTHOR_EMAIL: "agent-evidence@localhost",
  GIT_COMMITTER_NAME: "agent-evidence",
  GIT_COMMITTER_EMAIL: "agent-evidence@localhost",
  GIT_TERMINAL_PROMPT: "0",
  // Status in a module would otherwise refresh (write) that module's index during inspection.
  GIT_OPTIONAL_LOCKS: "0",
  LC_ALL: "C",
};

// Settings that change what a diff, an add or a checkout means, pinned for reproducibility.
const FIXED_CONFIG: readonly string[] = [
  "core.quotePath=false",
  "core.filemode=true",
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "gc.auto=0",
  "maintenance.auto=false",
  "advice.detachedHead=false",
  "protocol.allow=never",
];

/** The environment for a candidate git call: inherited variables minus every `GIT_*`, plus fixed ones. */
export function createGitEnvironment(indexFile?: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith("GIT_")) env[name] = value;
  }
  Object.assign(env, FIXED_ENV);
  if (indexFile !== undefined) env.GIT_INDEX_FILE = indexFile;
  return env;
}

/** Runs `git <args>` in `cwd` with the isolated environment; throws `E_IO` on a non-zero exit unless allowed. */
export async function runGit(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<GitRunResult> {
  const config = [...FIXED_CONFIG, ...(options.allowFileProtocol === true ? ["protocol.file.allow=always"] : []), ...(options.config ?? [])];
  const argv = [...config.flatMap((entry) => ["-c", entry]), ...args];
  const result = await execa("git", argv, {
    cwd,
    env: createGitEnvironment(options.indexFile),
    extendEnv: false,
    reject: false,
    encoding: "buffer",
    stripFinalNewline: false,
    maxBuffer: 1024 * 1024 * 1024,
    ...(options.input === undefined ? { stdin: "ignore" as const } : { input: options.input }),
  });
  const stderr = Buffer.from(result.stderr).toString("utf8");
  const exitCode = result.exitCode ?? -1;
  if (exitCode !== 0 && options.allowFailure !== true) {
    const detail = stderr.trim().split("\n").slice(-3).join(" / ") || (result.failed ? result.shortMessage : "no output");
    throw new EvidenceError("E_IO", `git ${args.join(" ")} failed in ${cwd} (exit ${exitCode}): ${detail}`);
  }
  return { exitCode, stdout: result.stdout, stderr };
}

/** Runs git and returns stdout decoded as UTF-8 with the final newline removed. */
export async function readGit(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<string> {
  const { stdout } = await runGit(cwd, args, options);
  return Buffer.from(stdout).toString("utf8").replace(/\n$/, "");
}
