// The native bash tool: policy check, isolation check, then `bash -c` in its own process group with
// the raw output streamed to log files and a bounded head + tail shown to the model.
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { z } from "zod/v4";

import { EvidenceError } from "../errors.js";
import type { CommandNotRunReport, CommandRunReport } from "../host/reports.js";
import {
  defineTool,
  errorMessage,
  NATIVE_BASH,
  PER_CALL_SHELL,
  START_HOOK,
  type Tool,
  type ToolContext,
  type ToolResult,
} from "../host/tool.js";
import { shellExitCode, TIMEOUT_EXIT } from "../process/process-group.js";
import { type BlockRule, checkCommandPolicy, type ConfirmRule } from "./bash-policy.js";
import { renderBashText, renderStream, timeoutNote } from "./bash-render.js";
import { runProcessGroup } from "./bash-run.js";
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
import { OutputCapture, type StreamFacts } from "./output-capture.js";
import { trackTempDir } from "./process-registry.js";
import {
  bubblewrapArgs,
  hostSpawnEnvironment,
  probeSandbox,
  SANDBOX_HOME,
  sandboxEnvironment,
  type SandboxLayout,
  type SandboxLevel,
  type SandboxProbe,
} from "./sandbox.js";
import { createCallLimits, describeHost, type LimitMechanism, type SandboxLimits } from "./sandbox-host.js";

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

/** Input of the bash tool. */
export interface BashInput {
  command: string;
  timeoutMs?: number | null | undefined;
}

/** Why a command did not run. */
export type BashNotRunReason = "policy-blocked" | "policy-declined" | "sandbox-unavailable" | "aborted-before-start" | "spawn-failed";

/** `data` of a bash call that ran: everything the evidence ledger needs. */
export interface BashRunData extends CommandRunReport {
  status: "completed";
  command: string;
  cwd: string;
  /** The shell's exit code; 124 on a timeout, 130 on an abort, 128+N when signal N ended the shell. */
  exitCode: number;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** True when either raw log hit `rawCapBytes`: the output is incomplete and proves nothing. */
  truncated: boolean;
  timeoutMs: number;
  durationMs: number;
  sandbox: "bubblewrap" | "none";
  /** The sandbox level the call ran at; null without a sandbox. */
  sandboxLevel: SandboxLevel | null;
  /** How the pids and memory limits were enforced for this call (`none` where the host allows neither). */
  limits: { pids: LimitMechanism; memory: LimitMechanism };
  /** The process group the command ran in (its leader's pid); gone when the call returns. */
  processGroup: number;
  stdout: StreamFacts;
  stderr: StreamFacts;
}

/** `data` of a bash call that never started (so it changed nothing). */
export interface BashNotRunData extends CommandNotRunReport {
  status: "not-run";
  command: string;
  reason: BashNotRunReason;
  rule: BlockRule | ConfirmRule | null;
}

/** `data` of every bash call. */
export type BashData = BashRunData | BashNotRunData;

/** The input schema of the bash tool. */
export const bashInputSchema = z.object({
  command: z.string().min(1).describe("The bash command line to run in the workspace."),
  timeoutMs: z.number().int().positive().max(2_147_483_647).nullish().describe("Timeout in milliseconds for this call."),
});

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

/** Reads both raw logs of a completed call (the complete output unless `truncated`). */
export async function readBashOutput(data: BashRunData): Promise<{ stdout: string; stderr: string }> {
  const [stdout, stderr] = await Promise.all([readFile(data.stdout.logPath, "utf8"), readFile(data.stderr.logPath, "utf8")]);
  return { stdout, stderr };
}

function notRun(command: string, reason: BashNotRunReason, rule: BlockRule | ConfirmRule | null, text: string): ToolResult<BashData> {
  return { text, isError: true, data: { status: "not-run", command, reason, rule } };
}

/** Creates the native bash tool. Throws an EvidenceError for a wrong option. */
export function createBashTool(options: BashToolOptions): Tool<BashInput, BashData> {
  const tool = "createBashTool";
  optionsObject(tool, options);
  rejectUnknownOptions(tool, options, OPTION_KEYS);
  const workspace = directoryOption(tool, "cwd", options.cwd);
  const name = stringOption(tool, "name", options.name, "bash");
  const level = sandboxOption(tool, options.sandbox, options.headless);
  const sandboxed = level !== false;
  const network = booleanOption(tool, "network", options.network, false);
  const bwrapPath = stringOption(tool, "bwrapPath", options.bwrapPath, "bwrap");
  const writablePaths = directoryListOption(tool, "writablePaths", options.writablePaths);
  const readablePaths = directoryListOption(tool, "readablePaths", options.readablePaths);
  const hiddenPaths = absolutePathListOption(tool, "hiddenPaths", options.hiddenPaths);
  const limits: SandboxLimits = {
    pids: limitOption(tool, "pidsLimit", options.pidsLimit, 2_048),
    memoryBytes: limitOption(tool, "memoryLimitBytes", options.memoryLimitBytes, 4 * 1024 * 1024 * 1024),
  };
  const defaultTimeoutMs = positiveIntegerOption(tool, "timeoutMs", options.timeoutMs, 120_000, 2_147_483_647);
  const killGraceMs = positiveIntegerOption(tool, "killGraceMs", options.killGraceMs, 2_000, 600_000);
  const maxOutputChars = positiveIntegerOption(tool, "maxOutputChars", options.maxOutputChars, 8_000, 10_000_000);
  const rawCapBytes = positiveIntegerOption(tool, "rawCapBytes", options.rawCapBytes, 64 * 1024 * 1024);
  const tempBase = options.tempDir === undefined ? tmpdir() : directoryOption(tool, "tempDir", options.tempDir);
  const logRetention = positiveIntegerOption(tool, "logRetention", options.logRetention, 16);
  const confirm = options.confirm === "framework" ? "framework" : functionOption<ConfirmCallback>(tool, "confirm", options.confirm);
  const progressIntervalMs = positiveIntegerOption(tool, "progressIntervalMs", options.progressIntervalMs, 5_000, 2_147_483_647);
  const env = stringRecordOption(tool, "env", options.env);

  let home: Promise<string> | undefined;
  let sandbox: Promise<{ layout: SandboxLayout; probe: SandboxProbe }> | undefined;
  let toolLimits: ReturnType<typeof createCallLimits> | undefined;
  const finishedCalls: string[] = [];
  let calls = 0;

  // One directory per tool instance: `logs/<call>/` for raw output, `tmp/` for the sandbox's /tmp.
  const homeDir = (): Promise<string> =>
    (home ??= mkdtemp(join(tempBase, "agent-evidence-bash-")).then(async (dir) => {
      trackTempDir(dir);
      await Promise.all([mkdir(join(dir, "logs")), mkdir(join(dir, "tmp", SANDBOX_HOME.slice("/tmp/".length)), { recursive: true })]);
      return dir;
    }));

  const prepareSandbox = async (): Promise<{ layout: SandboxLayout; probe: SandboxProbe }> => {
    if (level === false) throw new Error("prepareSandbox without a sandbox level");
    const host = describeHost([...hiddenPaths]);
    const layout: SandboxLayout = {
      bwrapPath,
      level,
      workspace,
      tempDir: join(await homeDir(), "tmp"),
      writablePaths,
      readablePaths,
      hiddenPaths,
      network,
      host,
    };
    return { layout, probe: await probeSandbox(layout) };
  };

  const callDir = async (): Promise<string> => {
    // Numbered before the await so parallel calls get distinct directories.
    calls += 1;
    const call = String(calls);
    const dir = join(await homeDir(), "logs", call);
    await mkdir(dir);
    return dir;
  };

  const retire = async (dir: string): Promise<void> => {
    finishedCalls.push(dir);
    while (finishedCalls.length > logRetention) {
      const oldest = finishedCalls.shift();
      if (oldest !== undefined) await rm(oldest, { recursive: true, force: true });
    }
  };

  const bashTool = defineTool<BashInput, BashData>({
    name,
    title: "Run a shell command",
    // Without the sandbox, or with its network kept, a command can reach outside the workspace.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: !sandboxed || network },
    ...(confirm === undefined ? {} : { needsApproval: (input: unknown) => needsConfirmation(input) }),
    description:
      "Run a bash command in the workspace" +
      (sandboxed
        ? `, sandboxed: only the workspace and /tmp are writable${network ? "" : ", no network"}${level === "strict" ? ", only system directories are visible" : ""}. `
        : ". ") +
      `Each output stream is shown as head and tail, at most ${maxOutputChars} characters, followed by "Exit code: N". ` +
      `Default timeout ${defaultTimeoutMs} ms (set timeoutMs to change it); on timeout the whole process group is killed and the exit code is 124.`,
    inputSchema: bashInputSchema,
    async run(input, ctx) {
      const { command } = input;
      const timeoutMs = input.timeoutMs ?? defaultTimeoutMs;
      const decision = checkCommandPolicy(command);
      switch (decision.action) {
        case "allow":
          break;
        case "block":
          return notRun(
            command,
            "policy-blocked",
            decision.rule,
            `Error: command refused by the safety policy (${decision.reason}); it was not run.`,
          );
        case "confirm": {
          // Approved by the framework's approval flow (needsApproval said yes, a person said yes).
          if (confirm === undefined || ctx.approved === true) break;
          if (confirm === "framework") {
            return notRun(
              command,
              "policy-declined",
              decision.rule,
              `Error: command needs approval (${decision.reason}) through the agent framework's approval flow, and this call did not come through it; it was not run.`,
            );
          }
          let approved: boolean;
          try {
            approved = (await confirm({ tool: name, command, rule: decision.rule, reason: decision.reason })) === true;
          } catch (error) {
            return notRun(
              command,
              "policy-declined",
              decision.rule,
              `Error: the confirmation of a risky command failed (${errorMessage(error)}); it was not run.`,
            );
          }
          if (!approved) {
            return notRun(command, "policy-declined", decision.rule, `Error: command not approved (${decision.reason}); it was not run.`);
          }
          break;
        }
        default: {
          const never: never = decision;
          throw new Error(`unhandled policy decision ${JSON.stringify(never)}`);
        }
      }

      let argv = { file: "bash", args: ["-c", command] };
      let runEnv = env;
      let extendEnv = true;
      if (sandboxed) {
        sandbox ??= prepareSandbox();
        const { layout, probe } = await sandbox;
        if (!probe.available) return notRun(command, "sandbox-unavailable", null, `Error: ${probe.reason}`);
        toolLimits ??= createCallLimits(limits, layout.host.root);
        const inner = toolLimits.wrapInner(["bash", "-c", command]);
        argv = toolLimits.wrapHost(bwrapPath, bubblewrapArgs(layout, workspace, inner, sandboxEnvironment(process.env, env)));
        // The host process (sh, bwrap) needs only PATH; the sandbox's environment is set by --setenv.
        runEnv = hostSpawnEnvironment();
        extendEnv = false;
      }
      if (ctx.signal?.aborted === true)
        return notRun(command, "aborted-before-start", null, "Error: the call was aborted before the command started.");

      const dir = await callDir();
      const windowBytes = maxOutputChars * 4;
      const stdout = new OutputCapture(join(dir, "stdout.log"), rawCapBytes, windowBytes);
      const stderr = new OutputCapture(join(dir, "stderr.log"), rawCapBytes, windowBytes);
      await Promise.all([stdout.openLog(), stderr.openLog()]);
      // The command really starts now: an observer (BashEvidence) makes its transitions here, so a
      // refused command never touches the evidence.
      ctx.onCommandStart?.();
      // The tool's cgroups stay for its next call; the registry removes them when the process exits.
      const stopProgress = reportProgress(ctx.onProgress, progressIntervalMs, [stdout, stderr]);
      const outcome = await runProcessGroup({
        ...argv,
        cwd: workspace,
        env: runEnv,
        extendEnv,
        timeoutMs,
        killGraceMs,
        signal: ctx.signal,
        stdout,
        stderr,
      }).finally(stopProgress);
      if (!outcome.started) {
        await Promise.all([stdout.closeLog(), stderr.closeLog()]);
        await rm(dir, { recursive: true, force: true });
        return notRun(command, "spawn-failed", null, `Error: the command could not start (${outcome.error}).`);
      }
      await retire(dir);
      const exitCode = outcome.timedOut ? TIMEOUT_EXIT : outcome.aborted ? 130 : shellExitCode(outcome.code, outcome.signal);
      const stdoutFacts = stdout.facts();
      const stderrFacts = stderr.facts();
      const truncated = stdoutFacts.truncated || stderrFacts.truncated;
      const notes: string[] = [];
      if (outcome.timedOut) notes.push(timeoutNote(timeoutMs));
      if (outcome.aborted) notes.push("Command aborted; its process group was killed.");
      if (truncated)
        notes.push(`[the raw output exceeded ${rawCapBytes} bytes; the log kept only the first ${rawCapBytes} bytes of each stream]`);
      const text = renderBashText({
        stdout: renderStream(stdout.windows(), maxOutputChars, "stdout"),
        stderr: renderStream(stderr.windows(), maxOutputChars, "stderr"),
        exitCode,
        note: notes.length > 0 ? notes.join("\n") : undefined,
      });
      const data: BashRunData = {
        status: "completed",
        command,
        cwd: workspace,
        exitCode,
        signal: outcome.signal,
        timedOut: outcome.timedOut,
        aborted: outcome.aborted,
        truncated,
        timeoutMs,
        durationMs: outcome.durationMs,
        sandbox: sandboxed ? "bubblewrap" : "none",
        sandboxLevel: level === false ? null : level,
        limits:
          sandboxed && toolLimits !== undefined ? { pids: toolLimits.pids, memory: toolLimits.memory } : { pids: "none", memory: "none" },
        processGroup: outcome.pid,
        stdout: stdoutFacts,
        stderr: stderrFacts,
      };
      return { text, data };
    },
  });
  // Tells BashEvidence that this tool calls onCommandStart right before it spawns.
  Object.defineProperty(bashTool, START_HOOK, { value: true });
  // Its data names the raw logs it wrote: BashEvidence reads its results from them (and only its).
  Object.defineProperty(bashTool, NATIVE_BASH, { value: true });
  // Every call is a new bash process: nothing a line defines reaches the next call.
  Object.defineProperty(bashTool, PER_CALL_SHELL, { value: true });
  return bashTool;
}

// The policy's confirm rules, on the model's raw input (a non-string command is refused later anyway).
function needsConfirmation(input: unknown): boolean {
  const command = typeof input === "object" && input !== null ? (input as { command?: unknown }).command : undefined;
  return typeof command === "string" && checkCommandPolicy(command).action === "confirm";
}

// Every `intervalMs` while the command runs: seconds elapsed and bytes of output so far. A listener
// that throws is the caller's problem, never the call's: it is dropped.
function reportProgress(onProgress: ToolContext["onProgress"], intervalMs: number, streams: readonly OutputCapture[]): () => void {
  if (onProgress === undefined) return () => undefined;
  const started = Date.now();
  let listener: typeof onProgress | undefined = onProgress;
  const timer = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    const bytes = streams.reduce((sum, stream) => sum + stream.facts().bytes, 0);
    try {
      listener?.({ progress: seconds, message: `running for ${seconds} s, ${bytes} bytes of output so far` });
    } catch {
      listener = undefined;
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
