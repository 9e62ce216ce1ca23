// Process isolation for bash: bubblewrap with no capabilities, a cleared environment, a private /tmp
// and $HOME, no network unless allowed, new pid and ipc namespaces, and death with the parent. As root
// the sandbox also gets its own user namespace, so nothing in it holds a capability on the host.
// Two levels say what the host file system shows: `strict` binds only the system directories (and
// what the caller names), `workspace-only` binds the whole root read-only with secret places masked.
import { errorMessage } from "../host/tool.js";
import { loadExeca } from "./load-execa.js";

/** How much of the host a sandboxed command sees; `false` (elsewhere) means no sandbox at all. */
export type SandboxLevel = "strict" | "workspace-only";

/** Where and how a sandboxed command may read, write and connect. */
export interface SandboxLayout {
  /** Path of the `bwrap` executable (a bare name is looked up in PATH). */
  bwrapPath: string;
  level: SandboxLevel;
  /** The workspace (a realpath): bound writable at the same path. */
  workspace: string;
  /** A host directory mounted writable as the sandbox's `/tmp` (the private `$HOME` lives in it). */
  tempDir: string;
  /** Extra host paths bound writable at the same path (caches, for example). */
  writablePaths: readonly string[];
  /** Extra host paths bound read-only at the same path (a Go module cache, a Python venv). */
  readablePaths: readonly string[];
  /** Extra host paths hidden behind an empty directory (or an empty file). */
  hiddenPaths: readonly string[];
  /** Keep the host network (otherwise a fresh network namespace with only loopback). */
  network: boolean;
  /** Facts about the host the layout depends on; {@link describeHost} reads them. */
  host: SandboxHost;
}

/** What the layout needs to know about the host (read once per tool by {@link describeHost}). */
export interface SandboxHost {
  /** True when the library runs as root: the sandbox then gets its own user namespace. */
  root: boolean;
  /** The host user's home directory, hidden at both levels. */
  home: string | undefined;
  /** Host paths that exist, with their kind: only those are bound or masked. */
  entries: ReadonlyMap<string, "directory" | "file" | "symlink">;
  /** Targets of top-level symlinks such as `/bin -> usr/bin` (merged /usr). */
  links: ReadonlyMap<string, string>;
}

/** The result of checking that bubblewrap can start a sandbox here. */
export type SandboxProbe = { available: true } | { available: false; reason: string };

/** Inside the sandbox: the private temp dir, the private home in it, and the uid used as root. */
export const SANDBOX_TMP = "/tmp";
export const SANDBOX_HOME = "/tmp/.home";
const SANDBOX_UID = "65534";

/** The system directories `strict` binds read-only (each only where the host has it). */
export const STRICT_SYSTEM_PATHS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"] as const;

/**
 * Places hidden at both levels: homes, runtime dirs with sockets, service state and logs, and the
 * files under /etc that hold secrets. Under `strict` most of them are absent anyway; the /etc files
 * are masked there too, because /etc is bound.
 */
export const MASKED_DIRECTORIES = [
  "/root",
  "/home",
  "/run",
  "/var/run",
  "/var/lib",
  "/var/log",
  "/var/spool",
  "/var/mail",
  "/var/backups",
  "/var/tmp",
  "/srv",
  "/mnt",
  "/media",
  "/sys",
] as const;
export const MASKED_FILES = [
  "/etc/shadow",
  "/etc/shadow-",
  "/etc/gshadow",
  "/etc/gshadow-",
  "/etc/sudoers",
  "/etc/security/opasswd",
  "/etc/machine-id",
] as const;
export const MASKED_ETC_DIRECTORIES = [
  "/etc/ssh",
  "/etc/sudoers.d",
  "/etc/ssl/private",
  "/etc/letsencrypt",
  "/etc/docker",
  "/etc/kubernetes",
  "/etc/wireguard",
] as const;

/** Environment variables the sandbox keeps from the host; everything else is cleared. */
export const PASSED_ENV = ["PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TERM", "TZ"] as const;

/** The environment inside the sandbox: the allowlisted host variables, fixed places, then the caller's `env`. */
export function sandboxEnvironment(
  hostEnv: NodeJS.ProcessEnv,
  extra: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASSED_ENV) {
    const value = hostEnv[name];
    if (value !== undefined) env[name] = value;
  }
  env.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  // The private home and /tmp outlive a call: settings kept there would reach later calls' runners
  // unseen, so Python's user site (a `.pth` can put any module first) and go's env file are off.
  Object.assign(
    env,
    { HOME: SANDBOX_HOME, TMPDIR: SANDBOX_TMP, XDG_CACHE_HOME: `${SANDBOX_TMP}/.cache`, PYTHONNOUSERSITE: "1", GOENV: "off" },
    extra ?? {},
  );
  return env;
}

function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

/** The bubblewrap arguments that run `argv` in the sandbox with working directory `cwd` and environment `env`. */
export function bubblewrapArgs(
  layout: SandboxLayout,
  cwd: string,
  argv: readonly string[],
  env: Readonly<Record<string, string>>,
): string[] {
  const { host } = layout;
  const args: string[] = [];
  if (layout.level === "strict") {
    for (const path of STRICT_SYSTEM_PATHS) {
      const link = host.links.get(path);
      if (link !== undefined) args.push("--symlink", link, path);
      else if (host.entries.get(path) === "directory") args.push("--ro-bind", path, path);
    }
    args.push("--tmpfs", "/var", "--dir", "/var/tmp", "--tmpfs", "/run");
  } else {
    args.push("--ro-bind", "/", "/");
  }
  args.push("--dev", "/dev", "--proc", "/proc");
  // Masks: an empty tmpfs over each secret directory the host has, /dev/null over each secret file.
  // Symlinks are skipped: their target is masked (or absent) itself, and bwrap would follow them.
  const maskedDirectories = [
    ...new Set([...MASKED_DIRECTORIES, ...MASKED_ETC_DIRECTORIES, ...(host.home === undefined ? [] : [host.home])]),
  ];
  // Under `strict` only what is bound needs a mask (a home under /opt, say, or inside a readable path).
  const bound = [...STRICT_SYSTEM_PATHS.filter((path) => !host.links.has(path)), ...layout.readablePaths];
  const needsMask = (path: string): boolean => layout.level === "workspace-only" || bound.some((root) => inside(path, root));
  for (const path of [...maskedDirectories, ...layout.hiddenPaths]) {
    if (!needsMask(path) && !layout.hiddenPaths.includes(path)) continue;
    const kind = host.entries.get(path);
    if (kind === "directory") args.push("--tmpfs", path);
    else if (kind === "file") args.push("--ro-bind", "/dev/null", path);
  }
  for (const path of MASKED_FILES) if (host.entries.get(path) === "file") args.push("--ro-bind", "/dev/null", path);
  // Later mounts cover earlier ones: the private /tmp, then what the caller names, then the workspace
  // (so a workspace or a readable path under /tmp or under a masked home stays visible).
  args.push("--bind", layout.tempDir, SANDBOX_TMP);
  for (const path of layout.readablePaths) args.push("--ro-bind", path, path);
  for (const path of [...layout.writablePaths, layout.workspace]) args.push("--bind", path, path);
  // Under `strict` the root is bwrap's own tmpfs, which the sandbox could write: a directory the host
  // lacks but PATH names (`~/.local/bin`) could then hold a planted runner. Read-only once mounted.
  if (layout.level === "strict") args.push("--remount-ro", "/");
  if (host.root) args.push("--unshare-user", "--uid", SANDBOX_UID, "--gid", SANDBOX_UID, "--disable-userns");
  args.push("--cap-drop", "ALL", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--hostname", "sandbox", "--die-with-parent");
  if (!layout.network) args.push("--unshare-net");
  args.push("--clearenv");
  for (const [name, value] of Object.entries(env)) args.push("--setenv", name, value);
  args.push("--chdir", cwd, "--", ...argv);
  return args;
}

/** The environment of the host-side processes (sh, bwrap): PATH only, to find them the way a shell would. */
export function hostSpawnEnvironment(): Record<string, string> {
  return process.env.PATH === undefined ? {} : { PATH: process.env.PATH };
}

/** The hint every refusal carries: how to get isolation, or how to run without it. */
export const SANDBOX_FIX =
  "Install bubblewrap (Debian/Ubuntu: `apt-get install bubblewrap`, Fedora: `dnf install bubblewrap`) or pass `sandbox: false` to run commands without isolation.";

/** The hint when bubblewrap runs but cannot make the user namespace that root needs. */
export const USERNS_FIX =
  "As root the sandbox needs a user namespace (so that no capability reaches the host); enable them (`sysctl -w user.max_user_namespaces=15000`, and `kernel.unprivileged_userns_clone=1` where that exists), run as an unprivileged user, or pass `sandbox: false`.";

/** Starts one trivial sandbox with the real layout; any failure makes sandboxed bash refuse to run. */
export async function probeSandbox(layout: SandboxLayout): Promise<SandboxProbe> {
  if (process.platform !== "linux") {
    return {
      available: false,
      reason: `sandboxed bash needs bubblewrap, which runs only on Linux (this is ${process.platform}). Pass \`sandbox: false\` to run commands without isolation.`,
    };
  }
  try {
    const env = sandboxEnvironment(process.env, undefined);
    const execa = await loadExeca();
    const result = await execa(layout.bwrapPath, bubblewrapArgs(layout, layout.workspace, ["true"], env), {
      reject: false,
      timeout: 15_000,
      stdin: "ignore",
      env: hostSpawnEnvironment(),
      extendEnv: false,
    });
    if (result.exitCode === 0) return { available: true };
    const detail = result.code === "ENOENT" ? `${layout.bwrapPath} was not found` : String(result.stderr).trim() || result.shortMessage;
    const fix =
      layout.host.root && /namespace|uid map|setgroups|Operation not permitted|disable-userns/i.test(String(detail))
        ? USERNS_FIX
        : SANDBOX_FIX;
    return { available: false, reason: `sandboxed bash needs the bubblewrap sandbox, and it cannot start here (${detail}). ${fix}` };
  } catch (error) {
    return {
      available: false,
      reason: `sandboxed bash needs the bubblewrap sandbox, and it cannot start here (${errorMessage(error)}). ${SANDBOX_FIX}`,
    };
  }
}
