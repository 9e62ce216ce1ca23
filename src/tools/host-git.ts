// The one way the library runs git on the host: every git the library starts is built by
// createHostGitInvocation (run here, streamed here for git grep, or run by the helper process of
// host-git-runner.ts). The agent can write everything in the workspace, `.git/config`,
// `.gitattributes` and hooks included, and, without a sandbox, the user's home; git runs what its
// configuration names (core.fsmonitor, filter.<x>.clean/smudge, diff.external, textconv, hooks,
// pagers) and skips what the global excludes file names. So host git never reads configuration the
// agent could have written: no system or global config, no home, and, for the workspace tools, a
// private "shadow" git directory in place of the repository's own. The shadow has
// a fixed config, the commit HEAD names (resolved here by reading files, without git), the real
// objects as an alternate, a private index and a copy of `info/exclude`, and nothing else.
import { constants } from "node:fs";
import { lstat, mkdir, mkdtemp, open, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";

import { loadExeca } from "./load-execa.js";
import { trackTempDir } from "./process-registry.js";

/** Environment every host git call gets, on top of the inherited one minus every `GIT_*` variable. */
export const SAFE_GIT_ENV: Readonly<Record<string, string>> = {
  // No home: git would read the excludes and attributes files under it (`~/.config/git/ignore`).
  HOME: "/dev/null",
  XDG_CONFIG_HOME: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_ATTR_NOSYSTEM: "1",
  GIT_TERMINAL_PROMPT: "0",
  GIT_OPTIONAL_LOCKS: "0",
  GIT_PAGER: "cat",
  PAGER: "cat",
  GIT_NO_REPLACE_OBJECTS: "1",
  GIT_PROTOCOL_FROM_USER: "0",
  LC_ALL: "C",
};

/**
 * `-c` settings every host git call gets. Command-line settings outrank every config file, including
 * those of submodules and nested repositories that git reads on its own.
 */
export const SAFE_GIT_CONFIG: readonly string[] = [
  "core.fsmonitor=false",
  "core.hooksPath=/dev/null",
  "core.untrackedCache=false",
  "core.pager=cat",
  "core.attributesFile=/dev/null",
  "core.sshCommand=false",
  "core.askPass=false",
  "core.editor=false",
  "sequence.editor=false",
  "credential.helper=",
  "diff.external=",
  "gc.auto=0",
  "maintenance.auto=false",
  "protocol.allow=never",
  "submodule.recurse=false",
  "status.submoduleSummary=false",
];

/** Where a host git call finds its repository: the only variables a caller sets. */
export interface HostGitLocation {
  GIT_DIR?: string;
  GIT_WORK_TREE?: string;
  GIT_INDEX_FILE?: string;
  GIT_CEILING_DIRECTORIES?: string;
}

/** Author and committer of the commits a host git call makes. */
export interface HostGitIdentity {
  name: string;
  email: string;
}

/** What a host git call may set beyond the fixed environment and settings (see {@link createHostGitInvocation}). */
export interface HostGitSettings {
  /** The repository, work tree, index and ceiling (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_CEILING_DIRECTORIES). */
  env?: Readonly<HostGitLocation>;
  /** Extra `-c key=value` settings, after the fixed ones. */
  config?: readonly string[];
  /** Author and committer of any commit the call makes (GIT_AUTHOR_* and GIT_COMMITTER_*). */
  identity?: HostGitIdentity;
  /** Allow local `file://` and path transports (`protocol.allow=never` otherwise): submodule clones from a checkout. */
  allowFileProtocol?: boolean;
  /** The host's locale instead of `LC_ALL=C` (git grep's `-P` and `-i` read non-ASCII text by it). */
  hostLocale?: boolean;
  /** Let a read-only command write the stat data it refreshed into the index (`GIT_OPTIONAL_LOCKS=1`). */
  optionalLocks?: boolean;
  /** Every pathspec is a literal path, never a pattern (`GIT_LITERAL_PATHSPECS=1`). */
  literalPathspecs?: boolean;
}

const LOCATION_VARIABLES = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_CEILING_DIRECTORIES"] as const;

/** Options of one {@link runHostGit} call. */
export interface HostGitOptions extends HostGitSettings {
  /** Bytes or text written to git's stdin. */
  input?: string | Uint8Array;
  timeoutMs?: number;
  maxBuffer?: number;
}

/** The program, arguments and whole environment of one host git call. */
export interface HostGitInvocation {
  file: string;
  args: string[];
  env: Record<string, string>;
}

/** The result of one host git call; stdout is raw bytes so binary patches and odd names survive. */
export interface HostGitResult {
  /** git's exit code; -1 when it did not start or was killed. */
  exitCode: number;
  stdout: Buffer;
  stderr: string;
  /** Set when git could not be started (`ENOENT`: not installed). */
  errorCode: string | undefined;
}

/**
 * `git <args>` as every host git call runs it: the inherited environment minus every `GIT_*`
 * variable, then {@link SAFE_GIT_ENV}, then what `settings` names; {@link SAFE_GIT_CONFIG} and then
 * the caller's settings as `-c` options.
 */
export function createHostGitInvocation(args: readonly string[], settings: HostGitSettings = {}): HostGitInvocation {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith("GIT_")) env[name] = value;
  }
  Object.assign(env, SAFE_GIT_ENV);
  if (settings.hostLocale === true) {
    if (process.env.LC_ALL === undefined) delete env.LC_ALL;
    else env.LC_ALL = process.env.LC_ALL;
  }
  const { identity } = settings;
  if (identity !== undefined)
    Object.assign(env, {
      GIT_AUTHOR_NAME: identity.name,
      GIT_AUTHOR_EMAIL: identity.email,
      GIT_COMMITTER_NAME: identity.name,
      GIT_COMMITTER_EMAIL: identity.email,
    });
  if (settings.optionalLocks === true) env.GIT_OPTIONAL_LOCKS = "1";
  if (settings.literalPathspecs === true) env.GIT_LITERAL_PATHSPECS = "1";
  for (const name of LOCATION_VARIABLES) {
    const value = settings.env?.[name];
    if (value !== undefined) env[name] = value;
  }
  const config = [
    ...SAFE_GIT_CONFIG,
    ...(settings.allowFileProtocol === true ? ["protocol.file.allow=always"] : []),
    ...(settings.config ?? []),
  ];
  return { file: "git", args: [...config.flatMap((entry) => ["-c", entry]), ...args], env };
}

/** Runs `git <args>` in `cwd` with the safe environment and settings; never rejects. */
export async function runHostGit(cwd: string, args: readonly string[], options: HostGitOptions = {}): Promise<HostGitResult> {
  const git = createHostGitInvocation(args, options);
  const execa = await loadExeca();
  const result = await execa(git.file, git.args, {
    cwd,
    env: git.env,
    extendEnv: false,
    reject: false,
    encoding: "buffer",
    stripFinalNewline: false,
    maxBuffer: options.maxBuffer ?? 256 * 1024 * 1024,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    ...(options.input === undefined ? { stdin: "ignore" as const } : { input: options.input }),
  });
  return {
    exitCode: result.exitCode ?? -1,
    stdout: Buffer.from(result.stdout ?? new Uint8Array()),
    stderr: Buffer.from(result.stderr ?? new Uint8Array()).toString("utf8"),
    errorCode: (result as { code?: string }).code,
  };
}

/** Options of one {@link startHostGit} call. */
export interface HostGitStreamOptions extends HostGitSettings {
  /** Kills git after this many ms. */
  timeoutMs: number;
}

/**
 * Starts `git <args>` in `cwd` as {@link runHostGit} runs it, with stdout as a stream (git grep's
 * matches are read as they come and git is killed past the limit) and stderr kept; `child` never rejects.
 */
export async function startHostGit(cwd: string, args: readonly string[], options: HostGitStreamOptions) {
  const git = createHostGitInvocation(args, options);
  const execa = await loadExeca();
  // Wrapped: the subprocess is itself a promise, which an async function would wait for.
  return {
    child: execa(git.file, git.args, {
      cwd,
      env: git.env,
      extendEnv: false,
      reject: false,
      buffer: { stdout: false, stderr: true },
      timeout: options.timeoutMs,
      stdin: "ignore",
    }),
  };
}

/** Where a work tree's repository lives, read from `.git` without running git. */
export interface RepositoryLocation {
  /** The top of the work tree (the directory holding `.git`). */
  top: string;
  /** The git directory of this work tree (for a linked worktree, its own one under `worktrees/`). */
  gitDir: string;
  /** The directory holding objects and refs (the main git directory). */
  commonDir: string;
}

const MAX_META_BYTES = 1024 * 1024;

// Reads a small regular file without following a symlink in its last component; null when absent.
async function readSmallFile(path: string, maxBytes = MAX_META_BYTES): Promise<Buffer | null> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > maxBytes) return null;
    const buffer = Buffer.alloc(info.size);
    const { bytesRead } = await handle.read(buffer, 0, info.size, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function isDirectory(path: string): Promise<boolean> {
  return lstat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

/** Finds the repository of `dir` by walking up to the nearest `.git` (a directory, or a `gitdir:` file). */
export async function locateRepository(dir: string): Promise<RepositoryLocation | null> {
  for (let top = resolve(dir); ; top = dirname(top)) {
    const dotGit = join(top, ".git");
    let gitDir: string | null = null;
    if (await isDirectory(dotGit)) gitDir = dotGit;
    else {
      const text = (await readSmallFile(dotGit))?.toString("utf8");
      const match = text === undefined ? null : /^gitdir: (.+?)\r?\n?$/.exec(text);
      if (match?.[1] !== undefined) gitDir = resolve(top, match[1]);
    }
    if (gitDir !== null && (await isDirectory(gitDir))) {
      const common = (await readSmallFile(join(gitDir, "commondir")))?.toString("utf8").trim();
      const commonDir = common === undefined || common === "" ? gitDir : isAbsolute(common) ? common : resolve(gitDir, common);
      return { top, gitDir, commonDir };
    }
    if (dirname(top) === top) return null;
  }
}

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** The commit HEAD names, following symbolic refs through loose refs and packed-refs; null when unborn. */
export async function resolveHead(repo: RepositoryLocation): Promise<string | null> {
  let ref = "HEAD";
  for (let depth = 0; depth < 6; depth += 1) {
    // HEAD and per-worktree refs live in the worktree's git dir, the rest in the common dir.
    const dir = ref === "HEAD" || ref.startsWith("refs/worktree/") || ref.startsWith("refs/bisect/") ? repo.gitDir : repo.commonDir;
    if (!/^(?:HEAD|refs\/[^\0]+)$/.test(ref) || ref.split("/").includes("..")) return null;
    const text = (await readSmallFile(join(dir, ref)))?.toString("utf8").trim() ?? (await packedRef(repo.commonDir, ref));
    if (text === null) return null;
    if (OBJECT_ID.test(text)) return text;
    const symbolic = /^ref: (.+)$/.exec(text);
    if (symbolic?.[1] === undefined) return null;
    ref = symbolic[1].trim();
  }
  return null;
}

async function packedRef(commonDir: string, ref: string): Promise<string | null> {
  const text = (await readSmallFile(join(commonDir, "packed-refs"), 256 * 1024 * 1024))?.toString("utf8");
  if (text === undefined) return null;
  for (const line of text.split("\n")) {
    const space = line.indexOf(" ");
    if (space > 0 && line.slice(space + 1).trimEnd() === ref && OBJECT_ID.test(line.slice(0, space))) return line.slice(0, space);
  }
  return null;
}

// The object format from the repository's config, read as text: only `extensions.objectformat` matters.
function objectFormat(config: string): "sha1" | "sha256" {
  let section = "";
  for (const raw of config.split("\n")) {
    const line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)\s*\]/.exec(line);
    if (header?.[1] !== undefined) {
      section = header[1].toLowerCase();
      continue;
    }
    const entry = /^([A-Za-z0-9-]+)\s*=\s*"?([A-Za-z0-9]+)"?/.exec(line);
    if (section === "extensions" && entry?.[1]?.toLowerCase() === "objectformat" && entry[2]?.toLowerCase() === "sha256") return "sha256";
  }
  return "sha1";
}

/** A private git directory standing in for a work tree's own; see the file comment. */
export interface ShadowRepository {
  location: RepositoryLocation;
  /** The commit HEAD named when the shadow was made; null when unborn. */
  head: string | null;
  /** The repository's object format (the length of its object ids). */
  objectFormat: "sha1" | "sha256";
  /** The private index (a copy of the real one, or absent when the repository had none). */
  indexFile: string;
  /** GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE for {@link runHostGit}. */
  env: Readonly<HostGitLocation>;
  /** Removes the shadow. */
  close(): Promise<void>;
}

/** Makes a shadow git directory for the work tree holding `dir`; null when `dir` is in no work tree. */
export async function createShadowRepository(
  dir: string,
  options: { copyIndex?: boolean; extraExcludes?: readonly string[] } = {},
): Promise<ShadowRepository | null> {
  const location = await locateRepository(dir);
  if (location === null) return null;
  const shadow = await mkdtemp(join(tmpdir(), "agent-evidence-git-"));
  trackTempDir(shadow);
  try {
    const realConfig = (await readSmallFile(join(location.commonDir, "config")))?.toString("utf8") ?? "";
    const format = objectFormat(realConfig);
    const head = await resolveHead(location);
    const gitDir = join(shadow, "git");
    await mkdir(join(gitDir, "objects", "info"), { recursive: true });
    await Promise.all([
      mkdir(join(gitDir, "refs", "heads"), { recursive: true }),
      mkdir(join(gitDir, "refs", "tags"), { recursive: true }),
    ]);
    const config =
      format === "sha256"
        ? "[core]\n\trepositoryformatversion = 1\n\tbare = false\n[extensions]\n\tobjectformat = sha256\n"
        : "[core]\n\trepositoryformatversion = 0\n\tbare = false\n";
    await writeFile(join(gitDir, "config"), config);
    await writeFile(join(gitDir, "HEAD"), head === null ? "ref: refs/heads/unborn\n" : `${head}\n`);
    await writeFile(join(gitDir, "objects", "info", "alternates"), `${join(location.commonDir, "objects")}\n`);
    const exclude = await readSmallFile(join(location.commonDir, "info", "exclude"));
    const extra = options.extraExcludes ?? [];
    if (exclude !== null || extra.length > 0) {
      await mkdir(join(gitDir, "info"));
      const own = exclude ?? Buffer.alloc(0);
      const separator = own.length > 0 && own[own.length - 1] !== 10 ? "\n" : "";
      await writeFile(
        join(gitDir, "info", "exclude"),
        Buffer.concat([own, Buffer.from(`${separator}${extra.map((line) => `${line}\n`).join("")}`)]),
      );
    }
    const indexFile = join(shadow, "index");
    if (options.copyIndex !== false) await copyIndex(location.gitDir, indexFile, gitDir);
    return {
      location,
      head,
      objectFormat: format,
      indexFile,
      env: { GIT_DIR: gitDir, GIT_WORK_TREE: location.top, GIT_INDEX_FILE: indexFile },
      close: () => rm(shadow, { recursive: true, force: true, maxRetries: 3 }),
    };
  } catch (error) {
    await rm(shadow, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Copies an index file (never through a symlink) and keeps its mtime: git trusts an entry's cached
 * stat data only when the file is older than the index ("racy git"), so a fresh mtime would hide a
 * same-size edit made within one timestamp tick of the index. False when there is no index to copy.
 */
export async function copyIndexFile(from: string, to: string): Promise<boolean> {
  const bytes = await readSmallFile(from, 2 * 1024 * 1024 * 1024 - 1);
  if (bytes === null) return false;
  await writeFile(to, bytes);
  const info = await lstat(from);
  await utimes(to, info.atime, info.mtime);
  return true;
}

// The real index, and a split index's shared part (looked up next to GIT_DIR, so it goes to the shadow).
async function copyIndex(realGitDir: string, to: string, shadowGitDir: string): Promise<void> {
  if (!(await copyIndexFile(join(realGitDir, "index"), to))) return;
  const shared = (await readdir(realGitDir).catch(() => [])).filter((name) => /^sharedindex\.[0-9a-f]+$/.test(name));
  for (const name of shared) {
    const part = await readSmallFile(join(realGitDir, name), 2 * 1024 * 1024 * 1024 - 1);
    if (part !== null) await writeFile(join(shadowGitDir, name), part);
  }
}
