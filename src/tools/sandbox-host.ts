// The host side of the sandbox: which of the paths the layout binds or masks exist here, and the
// per-call process and memory limits. Limits use a cgroup where the library may create one (root on
// cgroup v1, or a delegated v2 tree), otherwise RLIMIT_NPROC set inside the sandbox; the bash data
// says which one held.
import { lstatSync, mkdirSync, readFileSync, readlinkSync, rmdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

import { trackCgroup, untrackCgroup } from "./process-registry.js";
import {
  MASKED_DIRECTORIES,
  MASKED_ETC_DIRECTORIES,
  MASKED_FILES,
  type SandboxHost,
  type SandboxLayout,
  type SandboxLevel,
  STRICT_SYSTEM_PATHS,
} from "./sandbox.js";

/** A layout with this host's facts and the defaults of the bash tool for everything not given. */
export function createSandboxLayout(options: {
  workspace: string;
  tempDir: string;
  level?: SandboxLevel;
  bwrapPath?: string;
  network?: boolean;
}): SandboxLayout {
  return {
    bwrapPath: options.bwrapPath ?? "bwrap",
    level: options.level ?? "strict",
    workspace: options.workspace,
    tempDir: options.tempDir,
    writablePaths: [],
    readablePaths: [],
    hiddenPaths: [],
    network: options.network ?? false,
    host: describeHost(),
  };
}

/** Reads what the layout needs to know about this host: euid, home, and which paths exist. */
export function describeHost(extraPaths: readonly string[] = []): SandboxHost {
  const root = typeof process.geteuid === "function" && process.geteuid() === 0;
  let home: string | undefined;
  try {
    home = homedir();
  } catch {
    home = undefined;
  }
  if (home === "/" || home === "") home = undefined;
  const entries = new Map<string, "directory" | "file" | "symlink">();
  const links = new Map<string, string>();
  const paths = [
    ...STRICT_SYSTEM_PATHS,
    ...MASKED_DIRECTORIES,
    ...MASKED_ETC_DIRECTORIES,
    ...MASKED_FILES,
    ...extraPaths,
    ...(home === undefined ? [] : [home]),
  ];
  for (const path of paths) {
    try {
      const info = lstatSync(path);
      if (info.isSymbolicLink()) {
        entries.set(path, "symlink");
        if ((STRICT_SYSTEM_PATHS as readonly string[]).includes(path)) links.set(path, readlinkSync(path));
      } else entries.set(path, info.isDirectory() ? "directory" : "file");
    } catch {
      // Absent here: nothing to bind or mask.
    }
  }
  return { root, home, entries, links };
}

/** How a limit is enforced for one call. */
export type LimitMechanism = "cgroup" | "rlimit" | "none";

/** The limits asked for; `null` turns one off. */
export interface SandboxLimits {
  pids: number | null;
  memoryBytes: number | null;
}

/** The limits of one tool's sandboxed calls: how each is enforced, the argv wrappers that apply them, and cleanup. */
export interface CallLimits {
  pids: LimitMechanism;
  memory: LimitMechanism;
  /** Wraps the host-side argv (bwrap ...) so the process joins the call's cgroups before it forks. */
  wrapHost(file: string, args: readonly string[]): { file: string; args: string[] };
  /** Wraps the argv run inside the sandbox so an rlimit applies to it. */
  wrapInner(argv: readonly string[]): string[];
  /** Kills whatever is left in the cgroups and removes them (also done when the process exits). */
  release(): void;
}

let sequence = 0;

// The cgroup directory of this process for one controller (v1), or for the unified tree (v2).
function ownCgroup(controller: "pids" | "memory"): { dir: string; version: 1 | 2 } | null {
  let table: string;
  try {
    table = readFileSync("/proc/self/cgroup", "utf8");
  } catch {
    return null;
  }
  for (const line of table.split("\n")) {
    const [, controllers, path] = line.split(":");
    if (controllers === undefined || path === undefined) continue;
    if (controllers.split(",").includes(controller)) return { dir: join("/sys/fs/cgroup", controller, path), version: 1 };
  }
  const unified = table.split("\n").find((line) => line.startsWith("0::"));
  if (unified === undefined) return null;
  for (const base of ["/sys/fs/cgroup/unified", "/sys/fs/cgroup"]) {
    try {
      const dir = join(base, unified.slice(3));
      const available = readFileSync(join(dir, "cgroup.subtree_control"), "utf8").split(/\s+/);
      if (available.includes(controller)) return { dir, version: 2 };
    } catch {
      // Not this mount.
    }
  }
  return null;
}

// Creates a child cgroup with one limit set; null when this host does not let us.
function createCgroup(controller: "pids" | "memory", value: number): string | null {
  const own = ownCgroup(controller);
  if (own === null) return null;
  const dir = join(own.dir, `agent-evidence-${process.pid}-${(sequence += 1)}`);
  try {
    mkdirSync(dir);
  } catch {
    return null;
  }
  try {
    const file = controller === "pids" ? "pids.max" : own.version === 1 ? "memory.limit_in_bytes" : "memory.max";
    writeFileSync(join(dir, file), String(value));
    if (controller === "memory" && own.version === 1) {
      // Without swap accounting this file is absent; the limit above still holds for memory itself.
      try {
        writeFileSync(join(dir, "memory.memsw.limit_in_bytes"), String(value));
      } catch {
        // No swap accounting here.
      }
    }
    trackCgroup(dir, removeCgroup);
    return dir;
  } catch {
    removeCgroup(dir);
    return null;
  }
}

function killCgroup(dir: string): void {
  let pids: string[];
  try {
    pids = readFileSync(join(dir, "cgroup.procs"), "utf8")
      .split("\n")
      .filter((pid) => pid !== "");
  } catch {
    return;
  }
  for (const pid of pids) {
    try {
      process.kill(Number(pid), "SIGKILL");
    } catch {
      // Gone already.
    }
  }
}

/** Kills what is left in a cgroup and removes it, waiting briefly for the kernel to reap the members. */
export function removeCgroup(dir: string): void {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    killCgroup(dir);
    try {
      rmdirSync(dir);
      untrackCgroup(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        untrackCgroup(dir);
        return;
      }
      // EBUSY: members still exiting.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4);
    }
  }
}

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * Sets up the limits for one tool's sandboxed calls: one cgroup per tool (created once; a cgroup per
 * call cost 9 ms), so calls that run at the same time share its limits. As root RLIMIT_NPROC does not
 * apply (the kernel exempts uid 0), so only a cgroup can hold the pids limit there.
 */
export function createCallLimits(limits: SandboxLimits, root: boolean): CallLimits {
  const groups: string[] = [];
  let pids: LimitMechanism = "none";
  let memory: LimitMechanism = "none";
  if (limits.pids !== null) {
    const dir = createCgroup("pids", limits.pids);
    if (dir !== null) {
      groups.push(dir);
      pids = "cgroup";
    } else if (!root) pids = "rlimit";
  }
  if (limits.memoryBytes !== null) {
    const dir = createCgroup("memory", limits.memoryBytes);
    if (dir !== null) {
      groups.push(dir);
      memory = "cgroup";
    }
  }
  const pidsLimit = limits.pids;
  return {
    pids,
    memory,
    wrapHost(file, args) {
      if (groups.length === 0) return { file, args: [...args] };
      const join = groups.map((dir) => `echo $$ > ${quote(`${dir}/cgroup.procs`)}`).join(" && ");
      return { file: "/bin/sh", args: ["-c", `${join} && exec "$@"`, "sh", file, ...args] };
    },
    wrapInner(argv) {
      if (pids !== "rlimit" || pidsLimit === null) return [...argv];
      return ["/bin/sh", "-c", `ulimit -p ${pidsLimit} && exec "$@"`, "sh", ...argv];
    },
    release() {
      for (const dir of groups) removeCgroup(dir);
    },
  };
}
