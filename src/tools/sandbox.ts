// Process isolation for headless bash: bubblewrap with a read-only root, the workspace and a private
// temp dir writable, no network unless allowed, a new pid namespace, and death with the parent.
import { execa } from "execa";
import { errorMessage } from "./tool.js";

/** Where and how a sandboxed command may write and connect. */
export interface SandboxLayout {
  /** Path of the `bwrap` executable (a bare name is looked up in PATH). */
  bwrapPath: string;
  /** The workspace (a realpath): bound writable at the same path. */
  workspace: string;
  /** A host directory mounted writable as the sandbox's `/tmp`. */
  tempDir: string;
  /** Extra host paths bound writable at the same path (caches, for example). */
  writablePaths: readonly string[];
  /** Keep the host network (otherwise a fresh network namespace with only loopback). */
  network: boolean;
}

/** The result of checking that bubblewrap can start a sandbox here. */
export type SandboxProbe = { available: true } | { available: false; reason: string };

/** The bubblewrap arguments that run `argv` in the sandbox with working directory `cwd`. */
export function bubblewrapArgs(layout: SandboxLayout, cwd: string, argv: readonly string[]): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", layout.tempDir, "/tmp"];
  // Later mounts cover earlier ones, so a workspace under /tmp stays visible over the private /tmp.
  for (const path of [layout.workspace, ...layout.writablePaths]) args.push("--bind", path, path);
  args.push("--unshare-pid", "--unshare-ipc", "--die-with-parent", "--setenv", "TMPDIR", "/tmp");
  if (!layout.network) args.push("--unshare-net");
  args.push("--chdir", cwd, "--", ...argv);
  return args;
}

/** The hint every refusal carries: how to get isolation, or how to run without it. */
export const SANDBOX_FIX =
  "Install bubblewrap (Debian/Ubuntu: `apt-get install bubblewrap`, Fedora: `dnf install bubblewrap`) or pass `headless: false` to run commands without isolation.";

/** Starts one trivial sandbox with the real layout; any failure makes headless bash refuse to run. */
export async function probeSandbox(layout: SandboxLayout): Promise<SandboxProbe> {
  if (process.platform !== "linux") {
    return { available: false, reason: `headless bash needs bubblewrap, which runs only on Linux (this is ${process.platform}). Pass \`headless: false\` to run commands without isolation.` };
  }
  try {
    const result = await execa(layout.bwrapPath, bubblewrapArgs(layout, layout.workspace, ["true"]), {
      reject: false,
      timeout: 15_000,
      stdin: "ignore",
    });
    if (result.exitCode === 0) return { available: true };
    const detail = result.code === "ENOENT" ? `${layout.bwrapPath} was not found` : (String(result.stderr).trim() || result.shortMessage);
    return { available: false, reason: `headless bash needs the bubblewrap sandbox, and it cannot start here (${detail}). ${SANDBOX_FIX}` };
  } catch (error) {
    return { available: false, reason: `headless bash needs the bubblewrap sandbox, and it cannot start here (${errorMessage(error)}). ${SANDBOX_FIX}` };
  }
}
