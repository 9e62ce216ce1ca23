// The one home of the suite's git fixtures: one environment for every git a test starts, and the
// calls that build fixture repositories. test/support/one-home.test.ts keeps it so.
import { spawnSync } from "node:child_process";

// What the fixture calls below set for themselves (not processes a test runs as an agent would:
// those must meet a repository's own config, attacks included).
const FIXTURE_CONFIG: readonly [key: string, value: string][] = [
  // Nothing a fixture repository (or a test planting an attack in one) configures runs on the host.
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["commit.gpgsign", "false"],
  ["tag.gpgsign", "false"],
  ["init.defaultBranch", "main"],
  // Submodule fixtures clone from local paths.
  ["protocol.file.allow", "always"],
];

/**
 * Git's environment for every git a test starts: no system or global configuration (nothing of the
 * host's or the user's), and a fixed author. {@link gitEnv} merges it over `process.env`.
 */
export const GIT_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "fixture",
  GIT_AUTHOR_EMAIL: "fixture@example.com",
  GIT_COMMITTER_NAME: "fixture",
  GIT_COMMITTER_EMAIL: "fixture@example.com",
};

// FIXTURE_CONFIG as command-scope configuration: a repository's own config cannot override
// them (a test planting an attack in a fixture), an explicit `git -c` can.
const FIXTURE_CONFIG_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_COUNT: String(FIXTURE_CONFIG.length),
  ...Object.fromEntries(
    FIXTURE_CONFIG.flatMap(([key, value], i) => [
      [`GIT_CONFIG_KEY_${i}`, key],
      [`GIT_CONFIG_VALUE_${i}`, value],
    ]),
  ),
};

/** Options for one {@link gitBytes} call. */
export interface GitOptions {
  /** Bytes or text for git's stdin. */
  input?: string | Uint8Array;
  /** Variables over {@link gitEnv}'s. */
  env?: Record<string, string>;
  /** Return stdout of a failed run instead of throwing. */
  allowFailure?: boolean;
}

/**
 * `process.env` without the variables that point git elsewhere (GIT_DIR, GIT_INDEX_FILE, ... as a
 * git hook running the suite would set them), with {@link GIT_ENV} over it.
 */
export function gitEnv(extra: Record<string, string> = {}): Record<string, string> {
  const inherited = Object.entries(process.env).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && !entry[0].startsWith("GIT_"),
  );
  return { ...Object.fromEntries(inherited), ...GIT_ENV, ...extra };
}

/** Runs the fixture's `git <args>` in `cwd` and returns stdout's bytes; throws with stderr when git fails (unless `allowFailure`). */
export function gitBytes(cwd: string, args: readonly string[], options: GitOptions = {}): Buffer {
  const result = spawnSync("git", args, {
    cwd,
    env: gitEnv({ ...FIXTURE_CONFIG_ENV, ...options.env }),
    input: options.input,
    maxBuffer: 1 << 28,
  });
  if (result.error !== undefined) throw result.error;
  if (result.status !== 0 && options.allowFailure !== true)
    throw new Error(`git ${args.join(" ")} failed in ${cwd} (exit ${String(result.status)}): ${result.stderr.toString()}`);
  return result.stdout;
}

/** Runs `git <args>` in `cwd` and returns stdout as text without its final newline. */
export function git(cwd: string, ...args: string[]): string {
  return gitBytes(cwd, args).toString("utf8").replace(/\n$/, "");
}

/** Makes `dir` a repository on `main` with everything in it committed once. */
export function gitInit(dir: string, message = "init"): void {
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", message);
}
