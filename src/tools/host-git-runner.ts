// Host git calls through a small long-lived helper process. Node starts a process by forking itself,
// and a fork costs in proportion to the parent's memory: measured here, spawn() blocked the event loop
// 1.3 ms in a 51 MB process, 27 ms at 261 MB and 82 ms at 892 MB. An agent's process is large; a
// snapshot makes a git call or more per bash call. The helper is a bare `node -e` (about 45 MB) that
// spawns each git for us, with exactly the invocation (createHostGitInvocation), directory and input
// of {@link runHostGit}; the results come back whole. If the helper cannot start, dies, or answers
// what it should not, the call and every later one run through runHostGit directly.
import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";

import { createHostGitInvocation, type HostGitOptions, type HostGitResult, runHostGit } from "./host-git.js";

/** Runs host git calls as {@link runHostGit} does, through one helper process; see the file comment. */
export interface HostGitRunner {
  run(cwd: string, args: readonly string[], options?: HostGitOptions): Promise<HostGitResult>;
  /** How many calls the helper answered (the rest ran through runHostGit). */
  readonly answered: number;
  /** Ends the helper (it also ends by itself when this process goes). */
  close(): void;
}

// The helper: one JSON request per line on stdin, one JSON result per line on stdout, in order of
// completion (each names its id). It exits when its stdin closes.
const HELPER = `
const { spawn } = require("node:child_process");
let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  for (let nl = pending.indexOf("\\n"); nl >= 0; nl = pending.indexOf("\\n")) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    run(JSON.parse(line));
  }
});
process.stdin.on("end", () => process.exit(0));
function run(req) {
  const out = [];
  const err = [];
  let outBytes = 0;
  let overflow = false;
  let done = false;
  const finish = (exitCode, errorCode) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    process.stdout.write(JSON.stringify({ id: req.id, exitCode: overflow ? -1 : exitCode, stdout: Buffer.concat(out).toString("base64"), stderr: Buffer.concat(err).toString("utf8"), errorCode }) + "\\n");
  };
  let child;
  try {
    child = spawn(req.file, req.args, { cwd: req.cwd, env: req.env, stdio: [req.input === null ? "ignore" : "pipe", "pipe", "pipe"] });
  } catch (error) {
    return finish(-1, error.code);
  }
  const timer = req.timeoutMs === null ? undefined : setTimeout(() => child.kill("SIGTERM"), req.timeoutMs);
  child.stdout.on("data", (data) => {
    outBytes += data.length;
    if (outBytes > req.maxBuffer) {
      overflow = true;
      child.kill("SIGTERM");
    } else out.push(data);
  });
  child.stderr.on("data", (data) => err.push(data));
  child.on("error", (error) => finish(-1, error.code));
  child.on("close", (code) => finish(code === null ? -1 : code, undefined));
  if (req.input !== null) {
    child.stdin.on("error", () => undefined);
    child.stdin.end(Buffer.from(req.input, "base64"));
  }
}
`;

interface Reply {
  id: number;
  exitCode: number;
  stdout: string;
  stderr: string;
  errorCode?: string;
}

/** Options of {@link createHostGitRunner}. */
export interface HostGitRunnerOptions {
  /** The helper's script (`node -e`); tests hand in a broken one to see the fallback. */
  helperScript?: string;
}

/** Starts a helper for host git calls (lazily, at the first call). */
export function createHostGitRunner(options: HostGitRunnerOptions = {}): HostGitRunner {
  let helper: ChildProcessByStdio<Writable, Readable, null> | null = null;
  let broken = false;
  let closed = false;
  let nextId = 0;
  let answered = 0;
  let received = "";
  const waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();

  const fail = (error: Error): void => {
    broken = true;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
    helper?.kill();
    helper = null;
  };

  const start = (): ChildProcessByStdio<Writable, Readable, null> => {
    // No inherited NODE_OPTIONS or other settings: the helper is node and this script, nothing else.
    const child = spawn(process.execPath, ["-e", options.helperScript ?? HELPER], {
      stdio: ["pipe", "pipe", "ignore"],
      env: { PATH: process.env.PATH ?? "" },
    });
    child.on("error", (error) => fail(error));
    child.on("exit", () => {
      if (!closed || waiting.size > 0) fail(new Error("the git helper exited"));
    });
    child.stdin.on("error", (error) => fail(error));
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      received += chunk;
      for (let nl = received.indexOf("\n"); nl >= 0; nl = received.indexOf("\n")) {
        const line = received.slice(0, nl);
        received = received.slice(nl + 1);
        let reply: Reply;
        try {
          reply = JSON.parse(line) as Reply;
        } catch {
          return fail(new Error("the git helper answered what is not JSON"));
        }
        const entry = waiting.get(reply.id);
        if (entry === undefined) return fail(new Error("the git helper answered a call nobody made"));
        waiting.delete(reply.id);
        entry.resolve(reply);
      }
      idle();
    });
    // The helper never keeps this process alive on its own; a call in flight does.
    child.unref();
    holdsProcess(child.stdout, false);
    holdsProcess(child.stdin, false);
    return child;
  };

  const busy = (): void => {
    if (helper !== null) holdsProcess(helper.stdout, true);
  };
  const idle = (): void => {
    if (waiting.size === 0 && helper !== null) holdsProcess(helper.stdout, false);
  };

  const viaHelper = (cwd: string, args: readonly string[], options: HostGitOptions): Promise<Reply> => {
    helper ??= start();
    const id = (nextId += 1);
    const input = options.input === undefined ? null : Buffer.from(options.input).toString("base64");
    const request = {
      id,
      ...createHostGitInvocation(args, options),
      cwd,
      input,
      timeoutMs: options.timeoutMs ?? null,
      maxBuffer: options.maxBuffer ?? 256 * 1024 * 1024,
    };
    return new Promise<Reply>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      busy();
      helper?.stdin.write(`${JSON.stringify(request)}\n`);
    });
  };

  return {
    async run(cwd, args, options = {}) {
      if (broken || closed) return runHostGit(cwd, args, options);
      let reply: Reply;
      try {
        reply = await viaHelper(cwd, args, options);
      } catch {
        return runHostGit(cwd, args, options);
      }
      answered += 1;
      return { exitCode: reply.exitCode, stdout: Buffer.from(reply.stdout, "base64"), stderr: reply.stderr, errorCode: reply.errorCode };
    },
    get answered() {
      return answered;
    },
    close() {
      closed = true;
      helper?.stdin.end();
      helper = null;
    },
  };
}

// A pipe to a child is a socket: ref() makes it keep the event loop alive, unref() lets the process end.
function holdsProcess(stream: Readable | Writable, hold: boolean): void {
  const socket = stream as unknown as { ref?: () => void; unref?: () => void };
  if (hold) socket.ref?.();
  else socket.unref?.();
}
