// The native bash tool: policy check, isolation check, then `bash -c` in its own process group with
// the raw output streamed to log files and a bounded head + tail shown to the model. Its options are
// bash-options.ts, its input and data bash-data.ts.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";

import { defineTool, errorMessage, NATIVE_BASH, PER_CALL_SHELL, START_HOOK, type Tool, type ToolContext } from "../host/tool.js";
import { shellExitCode, TIMEOUT_EXIT } from "../process/process-group.js";
import { type BashData, type BashInput, bashInputSchema, type BashRunData, notRun } from "./bash-data.js";
import { type BashToolOptions, resolveBashToolOptions } from "./bash-options.js";
import { checkCommandPolicy } from "./bash-policy.js";
import { renderBashText, renderStream, timeoutNote } from "./bash-render.js";
import { runProcessGroup } from "./bash-run.js";
import { OutputCapture } from "./output-capture.js";
import { trackTempDir } from "./process-registry.js";
import {
  bubblewrapArgs,
  hostSpawnEnvironment,
  probeSandbox,
  SANDBOX_HOME,
  sandboxEnvironment,
  type SandboxLayout,
  type SandboxProbe,
} from "./sandbox.js";
import { createCallLimits, describeHost } from "./sandbox-host.js";

export type { BashData, BashInput, BashNotRunData, BashNotRunReason, BashRunData } from "./bash-data.js";
export { bashInputSchema, readBashOutput } from "./bash-data.js";
export type { BashToolOptions, ConfirmCallback, ConfirmRequest } from "./bash-options.js";

/** Creates the native bash tool. Throws an EvidenceError for a wrong option. */
export function createBashTool(options: BashToolOptions): Tool<BashInput, BashData> {
  const {
    workspace,
    name,
    level,
    network,
    bwrapPath,
    writablePaths,
    readablePaths,
    hiddenPaths,
    limits,
    defaultTimeoutMs,
    killGraceMs,
    maxOutputChars,
    rawCapBytes,
    tempBase,
    logRetention,
    confirm,
    progressIntervalMs,
    env,
  } = resolveBashToolOptions(options);
  const sandboxed = level !== false;

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
