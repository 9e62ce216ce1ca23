// The bash tool's options: their public shape, and the checks that turn what a caller passed into
// the settings a tool runs with (a wrong option throws at construction, naming the value).
import { tmpdir } from "node:os";

import { EvidenceError } from "../errors.js";
import type { ConfirmRule } from "./bash-policy.js";
import {
  absolutePathListOption,
  booleanOption,
  directoryListOption,
  directoryOption,
  functionOption,
  optionsObject,
  positiveIntegerOption,
  rejectUnknownOptions,
  stringOption,
  stringRecordOption,
} from "./options.js";
import type { SandboxLevel } from "./sandbox.js";
import type { SandboxLimits } from "./sandbox-host.js";

/** What the confirm callback is asked about a risky command. */
export interface ConfirmRequest {
  tool: string;
  command: string;
  rule: ConfirmRule;
  reason: string;
}

/** Approves (true) or refuses (false) a risky command; a throw counts as a refusal. */
export type ConfirmCallback = (request: ConfirmRequest) => boolean | Promise<boolean>;

/** Options of {@link createBashTool}. Only `cwd` is required. */
export interface BashToolOptions {
  /** The workspace: commands run here, and it is the only writable tree in the sandbox. */
  cwd: string;
  /** Tool name (default `bash`). */
  name?: string;
  /**
   * Process isolation (bubblewrap on Linux): `strict` (default) shows only the system directories,
   * `workspace-only` the whole host read-only with secret places masked, `false` runs unsandboxed.
   * Both levels: only the workspace, `writablePaths` and a private /tmp are writable, no capabilities,
   * a cleared environment, a private $HOME, and pids and memory limits. See docs/tools.md.
   */
  sandbox?: SandboxLevel | false;
  /** @deprecated Use `sandbox`; `true` means `"strict"`, `false` means `false`. */
  headless?: boolean;
  /** Keep network access inside the sandbox; default false. */
  network?: boolean;
  /** The bubblewrap executable; default `bwrap` from PATH. */
  bwrapPath?: string;
  /** Extra host directories the sandbox may write (at the same path). */
  writablePaths?: string[];
  /** Extra host directories the sandbox may read (at the same path): a Go module cache, a venv, a toolchain. */
  readablePaths?: string[];
  /** Extra host paths hidden inside the sandbox (an empty directory or file in their place). */
  hiddenPaths?: string[];
  /** Most processes (threads included) one sandboxed call may have at once (default 2,048); `false` for none. */
  pidsLimit?: number | false;
  /** Most memory one sandboxed call may use, in bytes (default 4 GiB), where a cgroup can hold it; `false` for none. */
  memoryLimitBytes?: number | false;
  /** Default timeout per call in ms (default 120,000); the model may override it per call. */
  timeoutMs?: number;
  /** Time between SIGTERM and SIGKILL when a group is killed (default 2,000 ms). */
  killGraceMs?: number;
  /** Characters of each stream the model sees, as head + tail (default 8,000). */
  maxOutputChars?: number;
  /** Bytes of each stream kept in its raw log; past it the call is `truncated` (default 64 MiB). */
  rawCapBytes?: number;
  /** Where the tool keeps its files, in a fresh subdirectory: the raw logs and the sandbox's /tmp (default: the OS temp dir). */
  tempDir?: string;
  /** How many finished calls keep their logs; older ones are deleted (default 16). */
  logRetention?: number;
  /** Extra environment variables for every command. */
  env?: Record<string, string>;
  /**
   * Asked before a risky command runs; without it risky commands run. `"framework"`: the agent
   * framework's own approval flow asks (the tool's `needsApproval`: AI SDK, OpenAI Agents), and a
   * call that did not come through it is refused. With a callback, such a framework asks instead of it.
   */
  confirm?: ConfirmCallback | "framework";
  /** How often a running call reports progress to `ctx.onProgress`, in ms (default 5,000). */
  progressIntervalMs?: number;
}

const OPTION_KEYS = [
  "cwd",
  "name",
  "sandbox",
  "headless",
  "network",
  "bwrapPath",
  "writablePaths",
  "readablePaths",
  "hiddenPaths",
  "pidsLimit",
  "memoryLimitBytes",
  "timeoutMs",
  "killGraceMs",
  "maxOutputChars",
  "rawCapBytes",
  "tempDir",
  "logRetention",
  "env",
  "confirm",
  "progressIntervalMs",
] as const;

/** The sandbox level from `sandbox` and its deprecated alias `headless`; a contradiction throws. */
export function sandboxOption(tool: string, sandbox: unknown, headless: unknown): SandboxLevel | false {
  const fromHeadless = booleanOption(tool, "headless", headless, true) ? "strict" : false;
  if (sandbox === undefined) return fromHeadless;
  if (sandbox !== "strict" && sandbox !== "workspace-only" && sandbox !== false) {
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `${tool} option "sandbox" is ${JSON.stringify(sandbox)}; accepted: "strict", "workspace-only" or false.`,
    );
  }
  if (headless !== undefined && (sandbox === false) !== (headless === false)) {
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `${tool} options "sandbox" (${JSON.stringify(sandbox)}) and "headless" (${JSON.stringify(headless)}) disagree; pass only "sandbox".`,
    );
  }
  return sandbox;
}

function limitOption(tool: string, key: string, value: unknown, fallback: number): number | null {
  if (value === false) return null;
  return positiveIntegerOption(tool, key, value, fallback);
}

/** The settings of a bash tool, from its checked options. Throws an EvidenceError for a wrong option. */
export function resolveBashToolOptions(options: BashToolOptions) {
  const tool = "createBashTool";
  optionsObject(tool, options);
  rejectUnknownOptions(tool, options, OPTION_KEYS);
  return {
    workspace: directoryOption(tool, "cwd", options.cwd),
    name: stringOption(tool, "name", options.name, "bash"),
    level: sandboxOption(tool, options.sandbox, options.headless),
    network: booleanOption(tool, "network", options.network, false),
    bwrapPath: stringOption(tool, "bwrapPath", options.bwrapPath, "bwrap"),
    writablePaths: directoryListOption(tool, "writablePaths", options.writablePaths),
    readablePaths: directoryListOption(tool, "readablePaths", options.readablePaths),
    hiddenPaths: absolutePathListOption(tool, "hiddenPaths", options.hiddenPaths),
    limits: {
      pids: limitOption(tool, "pidsLimit", options.pidsLimit, 2_048),
      memoryBytes: limitOption(tool, "memoryLimitBytes", options.memoryLimitBytes, 4 * 1024 * 1024 * 1024),
    } satisfies SandboxLimits,
    defaultTimeoutMs: positiveIntegerOption(tool, "timeoutMs", options.timeoutMs, 120_000, 2_147_483_647),
    killGraceMs: positiveIntegerOption(tool, "killGraceMs", options.killGraceMs, 2_000, 600_000),
    maxOutputChars: positiveIntegerOption(tool, "maxOutputChars", options.maxOutputChars, 8_000, 10_000_000),
    rawCapBytes: positiveIntegerOption(tool, "rawCapBytes", options.rawCapBytes, 64 * 1024 * 1024),
    tempBase: options.tempDir === undefined ? tmpdir() : directoryOption(tool, "tempDir", options.tempDir),
    logRetention: positiveIntegerOption(tool, "logRetention", options.logRetention, 16),
    confirm: options.confirm === "framework" ? "framework" : functionOption<ConfirmCallback>(tool, "confirm", options.confirm),
    progressIntervalMs: positiveIntegerOption(tool, "progressIntervalMs", options.progressIntervalMs, 5_000, 2_147_483_647),
    env: stringRecordOption(tool, "env", options.env),
  } as const;
}
