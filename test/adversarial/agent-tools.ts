// The agent's tools for the attacks: the real evidenceTools (bash and file_write), sandboxed, and
// BashEvidence over a long-lived bash process (a persistent shell, sandboxed with the native tool's
// bubblewrap layout unless asked otherwise).
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

import type { Tool, ToolResult } from "../../src/host/tool.js";
import { BashEvidence, type BashEvidenceOptions, type BashLikeInput } from "../../src/observation/bash-evidence.js";
import { evidenceTools, type EvidenceToolsOptions } from "../../src/observation/evidence-tools.js";
import { bashInputSchema, type BashToolOptions, createBashTool } from "../../src/tools/bash.js";
import { bubblewrapArgs, hostSpawnEnvironment, sandboxEnvironment } from "../../src/tools/sandbox.js";
import { createSandboxLayout, describeHost } from "../../src/tools/sandbox-host.js";
import type { VerificationRecord } from "../../src/types.js";
import { tempDirPath } from "../support/temp-dir.js";
import { TOOLCHAIN_PATHS } from "../support/toolchain.js";
import { AGENT_PATH, type AttackProject, cleanEnv, FAST_PYTEST, workerRoot } from "./projects.js";

/** The read side both toolsets offer. */
export interface EvidenceReader {
  readonly verificationRecords: VerificationRecord[];
  readonly verifiedTargets: string[];
}

/** What one call returned, as the agent sees it. */
export interface CallResult {
  text: string;
  exitCode: number | null;
}

/** The agent's view of one toolset. */
export interface AgentTools {
  /** Runs one bash call. */
  bash(command: string, timeoutMs?: number): Promise<CallResult>;
  /** Calls file_write (overwrite or create). */
  writeFile(path: string, content: string): Promise<CallResult>;
  evidence: EvidenceReader;
  close(): Promise<void>;
}

const closers: (() => Promise<void>)[] = [];

// Each toolset closes once, whether the test closed it already or afterAll does (a second close of
// BashEvidence throws EBADF from its journal).
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}

/** Closes every toolset made since the last call (use in afterAll, before cleanupProjects). */
export async function closeToolsets(): Promise<void> {
  for (const close of closers.splice(0).reverse()) await close();
}

function exitOf(text: string): number | null {
  const match = /Exit code: (-?\d+)\s*$/.exec(text);
  return match?.[1] === undefined ? null : Number(match[1]);
}

/** Options of {@link sandboxedTools}. */
export interface SandboxedToolsOptions extends Pick<EvidenceToolsOptions, "invalidation" | "journal" | "watch"> {
  /** More bash options (merged over the defaults: logs in scratch, FAST_PYTEST, pyenv readable). */
  bash?: Partial<BashToolOptions>;
}

/** The real evidenceTools (bash and file_write), sandboxed (`strict`), in the project. */
export async function sandboxedTools(project: AttackProject, options: SandboxedToolsOptions = {}): Promise<AgentTools> {
  const { bash: bashOptions, ...rest } = options;
  const { tools, evidence } = evidenceTools(["bash", "file_write"], {
    cwd: project.dir,
    sandbox: "strict",
    allowFileCreation: true,
    ...rest,
    limits: { bash: { ...nativeBashOptions(project), ...bashOptions } },
  });
  const close = once(() => evidence.close());
  closers.push(close);
  await evidence.ready();
  const byName = (name: string): Tool<Record<string, unknown>, unknown> =>
    tools.find((t) => t.name === name) as unknown as Tool<Record<string, unknown>, unknown>;
  return {
    async bash(command, timeoutMs) {
      project.start();
      const result = await byName("bash").execute({ command, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
      const data = result.data as { exitCode?: number } | undefined;
      return { text: result.text, exitCode: typeof data?.exitCode === "number" ? data.exitCode : null };
    },
    async writeFile(path, content) {
      project.start();
      const mode = existsSync(join(project.dir, path)) ? "overwrite" : "create";
      const result = await byName("file_write").execute({ path, mode, content });
      return { text: result.text, exitCode: null };
    },
    evidence,
    close,
  };
}

// The sandboxed go tools share one build cache (compiling the testing package once per worker, not once
// per attack); the truth runs keep their own, which no sandbox sees.
function sandboxGoCache(): string {
  const dir = join(workerRoot(), "sandbox-go-build");
  mkdirSync(dir, { recursive: true });
  return dir;
}

function nativeBashOptions(project: AttackProject): Partial<BashToolOptions> {
  const env = { ...FAST_PYTEST, PATH: AGENT_PATH };
  const go = project.kind === "go" ? { writablePaths: [sandboxGoCache()], env: { ...env, GOCACHE: sandboxGoCache() } } : { env };
  return { tempDir: project.scratch, readablePaths: TOOLCHAIN_PATHS, ...go };
}

/** The native bash tool as `BashEvidence.fromJournal` needs it (sandboxed, like {@link sandboxedTools}). */
export function nativeBash(project: AttackProject): ReturnType<typeof createBashTool> {
  return createBashTool({ cwd: project.dir, sandbox: "strict", ...nativeBashOptions(project) });
}

/** Wraps a BashEvidence in the agent's view. */
export function agentView<T extends BashLikeInput>(project: AttackProject, bash: BashEvidence<T>): AgentTools {
  const close = once(() => bash.close());
  closers.push(close);
  return {
    async bash(command, timeoutMs) {
      project.start();
      const result = await bash.execute({ command, ...(timeoutMs === undefined ? {} : { timeoutMs }) } as T);
      const data = result.data as { exitCode?: number } | undefined;
      return { text: result.text, exitCode: typeof data?.exitCode === "number" ? data.exitCode : exitOf(result.text) };
    },
    writeFile() {
      return Promise.reject(new Error("no file_write in this toolset"));
    },
    evidence: bash,
    close,
  };
}

/** A bash tool that keeps one bash process alive across calls (as Anthropic's bash tool does). */
export interface PersistentShell extends Tool<BashLikeInput, unknown> {
  /** The host directory that is the shell's `$TMPDIR` (`/tmp` inside the sandbox): a test can signal a job through it. */
  readonly tempDir: string;
  close(): void;
}

/**
 * A long-lived `bash` fed each command on stdin; a random sentinel printed on stdout and on stderr
 * after the command marks the end of its output and carries its exit code. The command runs in the
 * shell itself (not a subshell), so functions, variables, `cd`, `hash` and background jobs carry over.
 * `sandbox` (default true) runs that bash under the same bubblewrap layout as the native tool.
 * The result's text is stdout, then stderr, then `Exit code: N`; a call that does not end within
 * `timeoutMs` (default 60 s) returns exit code 124 and leaves the shell as it is.
 */
export function persistentShell(project: AttackProject, options: { sandbox?: boolean } = {}): PersistentShell {
  const home = tempDirPath("shell-", { parent: project.scratch });
  const native = nativeBashOptions(project);
  const extra = native.env ?? {};
  let child: ChildProcessWithoutNullStreams;
  mkdirSync(join(home, ".home"));
  if (options.sandbox === false) {
    child = spawn("bash", ["--norc", "--noprofile"], {
      cwd: project.dir,
      env: { ...cleanEnv(extra), PATH: AGENT_PATH, HOME: join(home, ".home"), TMPDIR: home },
    });
  } else {
    const layout = {
      ...createSandboxLayout({ workspace: project.dir, tempDir: home }),
      readablePaths: TOOLCHAIN_PATHS,
      writablePaths: native.writablePaths ?? [],
      host: describeHost(TOOLCHAIN_PATHS),
    };
    const args = bubblewrapArgs(layout, project.dir, ["bash", "--norc", "--noprofile"], sandboxEnvironment(process.env, extra));
    child = spawn(layout.bwrapPath, args, { env: hostSpawnEnvironment() });
  }
  const streams = { stdout: "", stderr: "" };
  let onData: (() => void) | null = null;
  child.stdout.on("data", (chunk: Buffer) => {
    streams.stdout += chunk.toString("utf8");
    onData?.();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    streams.stderr += chunk.toString("utf8");
    onData?.();
  });
  // A shell that exits (`exit`, `exec` of another program) ends the call it was running.
  let exited: number | null = null;
  child.on("exit", (code) => {
    exited = code ?? 128;
    onData?.();
  });
  let queue: Promise<unknown> = Promise.resolve();
  const runOne = (input: BashLikeInput): Promise<ToolResult<unknown>> =>
    new Promise((resolve) => {
      const sentinel = `__ae_done_${randomBytes(8).toString("hex")}__`;
      const pattern = new RegExp(`${sentinel} (\\d+)\\n`);
      streams.stdout = "";
      streams.stderr = "";
      const timer = setTimeout(() => finish(124), input.timeoutMs ?? 60_000);
      const finish = (code: number): void => {
        clearTimeout(timer);
        onData = null;
        const out = before(streams.stdout, sentinel);
        const err = before(streams.stderr, sentinel);
        const text = [out, err === "" ? "" : `[stderr]\n${err}`].filter((part) => part !== "");
        resolve({ text: `${text.map((part) => (part.endsWith("\n") ? part : `${part}\n`)).join("")}Exit code: ${code}` });
      };
      onData = () => {
        const out = pattern.exec(streams.stdout);
        if (out !== null && pattern.test(streams.stderr)) finish(Number(out[1]));
        else if (exited !== null) finish(exited);
      };
      if (exited !== null) return onData();
      child.stdin.write(
        `${input.command}\n__ae_rc=$?; printf '\\n%s %s\\n' ${sentinel} "$__ae_rc"; printf '\\n%s %s\\n' ${sentinel} "$__ae_rc" >&2\n`,
      );
    });
  return {
    name: "bash",
    description: "a persistent bash session",
    tempDir: home,
    inputSchema: bashInputSchema,
    execute(input: BashLikeInput): Promise<ToolResult<unknown>> {
      const next = queue.then(() => runOne(input));
      queue = next.catch(() => undefined);
      return next;
    },
    close(): void {
      child.stdin.end();
      child.kill("SIGKILL");
    },
  };
}

// A stream's text up to the sentinel, without the newline printed in front of it.
function before(text: string, sentinel: string): string {
  const at = text.indexOf(sentinel);
  const head = at === -1 ? text : text.slice(0, at);
  return at !== -1 && head.endsWith("\n") ? head.slice(0, -1) : head;
}

/** BashEvidence over a {@link persistentShell}, in the agent's view. */
export function persistentTools(
  project: AttackProject,
  evidenceOptions: Partial<BashEvidenceOptions> = {},
  shellOptions: { sandbox?: boolean } = {},
): AgentTools & { tempDir: string } {
  const shell = persistentShell(project, shellOptions);
  const bash = new BashEvidence(shell, { workspace: project.dir, shell: "persistent", ...evidenceOptions });
  closers.push(() => Promise.resolve(shell.close()));
  return { ...agentView(project, bash), tempDir: shell.tempDir };
}
