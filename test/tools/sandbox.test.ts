// The sandbox as a security boundary, through the real bash tool and real bubblewrap: as the user the
// suite runs as (root in CI) and, where this process may switch users, as `nobody` too.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type BashRunData, type BashToolOptions, createBashTool } from "../../src/tools/bash.js";
import { bubblewrapArgs, type SandboxHost } from "../../src/tools/sandbox.js";
import { makeTempDir, tempDirPath } from "../support/temp-dir.js";
import { survivors, uniqueSleep } from "./helpers.js";

const ROOT = process.geteuid?.() === 0;
const LEVELS = ["strict", "workspace-only"] as const;
const DIST = join(import.meta.dirname, "..", "..", "dist", "tools", "index.js");

let ws: { dir: string; cleanup: () => void };
let outside: { dir: string; cleanup: () => void };
let scratch: { dir: string; cleanup: () => void };
let homeSecret: string;
let server: Server;
let socketServer: Server;
let socketPath: string;
let port = 0;

beforeAll(async () => {
  ws = makeTempDir("ae-sandbox-ws-");
  outside = makeTempDir("ae-sandbox-outside-");
  scratch = makeTempDir("ae-sandbox-tmp-");
  writeFileSync(join(outside.dir, "secret.txt"), "outside secret\n");
  symlinkSync(join(outside.dir, "secret.txt"), join(ws.dir, "link-to-secret"));
  homeSecret = tempDirPath(".ae-sandbox-home-", { parent: homedir() });
  writeFileSync(join(homeSecret, "credentials"), "home secret\n");
  server = createServer((socket) => socket.end("hello from the host\n"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  port = typeof address === "object" && address !== null ? address.port : 0;
  // A unix socket under $HOME, where an agent's docker.sock or ssh-agent socket would be.
  socketPath = join(homeSecret, "host.sock");
  socketServer = createServer((socket) => socket.end("hello from the host socket\n"));
  await new Promise<void>((resolve) => socketServer.listen(socketPath, resolve));
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await new Promise<void>((resolve) => socketServer.close(() => resolve()));
  rmSync(homeSecret, { recursive: true, force: true });
  ws.cleanup();
  outside.cleanup();
  scratch.cleanup();
});

function bash(options: Partial<BashToolOptions>) {
  return createBashTool({ cwd: ws.dir, tempDir: scratch.dir, ...options });
}

async function run(options: Partial<BashToolOptions>, command: string, timeoutMs = 20_000): Promise<{ text: string; data: BashRunData }> {
  const result = await bash(options).execute({ command, timeoutMs });
  if (result.data?.status !== "completed") throw new Error(`not run: ${result.text}`);
  return { text: result.text, data: result.data };
}

describe.each(LEVELS)("sandbox %s", (level) => {
  it("holds no capability and cannot remount the root read-write", async () => {
    const { text } = await run(
      { sandbox: level },
      "grep CapEff /proc/self/status; mount -o remount,bind,rw / 2>/dev/null && echo REMOUNTED; (echo x > /usr/ae-remount-probe) 2>/dev/null && echo WROTE; true",
    );
    expect(text).toBe("CapEff:\t0000000000000000\nExit code: 0");
    expect(existsSync("/usr/ae-remount-probe")).toBe(false);
  });

  it("writes outside the workspace fail by every route", async () => {
    const target = join(outside.dir, "written");
    const routes = [
      `echo x > ${target}`,
      `echo x > ../${outside.dir.split("/").pop() ?? ""}/written`,
      `echo x > /proc/self/root${target}`,
      `ln -s ${outside.dir} out && echo x > out/written`,
      `mkdir -p m && mount --bind m ${outside.dir} && echo x > ${target}`,
      `echo x > /etc/ae-sandbox-probe`,
      `cp /bin/sh ${outside.dir}/sh`,
    ];
    for (const route of routes) await run({ sandbox: level }, `cd ${ws.dir} && (${route}) 2>/dev/null; rm -f out`);
    expect(readdirSync(outside.dir).sort()).toEqual(["secret.txt"]);
    expect(existsSync("/etc/ae-sandbox-probe")).toBe(false);
  });

  it("the workspace and /tmp are writable, and /tmp is private", async () => {
    const { text } = await run(
      { sandbox: level },
      "echo in > inside.txt && echo tmp > /tmp/t && cat inside.txt /tmp/t && ls /tmp | grep -c ae-sandbox-outside",
    );
    expect(text).toBe("in\ntmp\n0\nExit code: 1");
  });

  it("files under the host's $HOME and /root are not readable", async () => {
    const { text } = await run(
      { sandbox: level },
      `cat ${join(homeSecret, "credentials")} /root/.bashrc 2>/dev/null; ls ${homedir()} 2>/dev/null | grep -c ae-sandbox-home; echo HOME=$HOME`,
    );
    expect(text).toBe("0\nHOME=/tmp/.home\nExit code: 0");
  });

  it("a variable of the host process is not in the sandbox unless passed", async () => {
    process.env.AE_SANDBOX_HOST_SECRET = "sk-test-host-secret";
    try {
      const hidden = await run({ sandbox: level }, "echo ${AE_SANDBOX_HOST_SECRET-unset}; env | grep -c sk-test-host-secret");
      const passed = await run({ sandbox: level, env: { AE_SANDBOX_HOST_SECRET: "given" } }, "echo $AE_SANDBOX_HOST_SECRET");
      expect([hidden.text, passed.text]).toEqual(["unset\n0\nExit code: 1", "given\nExit code: 0"]);
    } finally {
      delete process.env.AE_SANDBOX_HOST_SECRET;
    }
  });

  it("a unix socket listening under the host's $HOME cannot be reached", async () => {
    const { text } = await run(
      { sandbox: level },
      `python3 -c "import socket; s = socket.socket(socket.AF_UNIX); s.connect('${socketPath}'); print(s.recv(64))" 2>/dev/null || echo unreachable`,
    );
    expect(text).toBe("unreachable\nExit code: 0");
  });

  it.each<[boolean, string]>([
    [false, "Exit code: 1"],
    [true, "hello from the host\nExit code: 0"],
  ])("a loopback TCP listener on the host with network %s", async (network, expected) => {
    const { text } = await run({ sandbox: level, network }, `{ exec 3<>/dev/tcp/127.0.0.1/${port}; } 2>/dev/null && cat <&3`, 10_000);
    expect(text).toBe(expected);
  });

  it("a fork loop is stopped by the pids limit while the host stays responsive", async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 50);
    try {
      // 2,000 background forks asked for; the limit lets fewer than 64 exist at once.
      const loop =
        "import os, time\nn = 0\nfor _ in range(2000):\n    try:\n        pid = os.fork()\n    except OSError:\n        break\n    if pid == 0:\n        time.sleep(30)\n        os._exit(0)\n    n += 1\nprint(n)";
      const { text, data } = await run({ sandbox: level, pidsLimit: 64 }, `python3 -c '${loop}'`, 15_000);
      expect(Number(text.split("\n")[0])).toBeLessThan(64);
      // As root only a cgroup can hold the limit (the kernel exempts uid 0 from RLIMIT_NPROC).
      expect(data.limits.pids).toBe(ROOT ? "cgroup" : "rlimit");
      expect(ticks).toBeGreaterThan(0);
      expect(survivors("ae-no-such-marker", data.processGroup)).toEqual([]);
    } finally {
      clearInterval(timer);
    }
  });

  it("sees its own processes only (new pid namespace)", async () => {
    const { text } = await run({ sandbox: level }, "ls /proc | grep -c '^[0-9]'");
    expect(Number(text.split("\n")[0])).toBeLessThan(10);
  });
});

describe("what each level shows of the host", () => {
  it("strict binds the system directories only; workspace-only the whole root with secrets masked", async () => {
    const probe = `cd / && for p in /usr /etc/passwd /work /srv /var/lib /run /home; do test -e $p && echo "$p yes" || echo "$p no"; done`;
    const strict = await run({ sandbox: "strict" }, probe);
    const open = await run({ sandbox: "workspace-only" }, `${probe}; find /run /var/lib /home /srv -mindepth 1 | wc -l`);
    expect(strict.text).toContain("/usr yes\n/etc/passwd yes\n/work no\n/srv no\n/var/lib no\n");
    expect(open.text).toContain("/usr yes\n/etc/passwd yes\n");
    expect(open.text).toMatch(/\n0\nExit code: 0$/); // there, but empty
  });

  it("the shadow files are masked at both levels", async () => {
    for (const level of LEVELS) expect((await run({ sandbox: level }, "cat /etc/shadow 2>/dev/null | wc -c")).text).toBe("0\nExit code: 0");
  });

  it("readablePaths binds a host directory read-only", async () => {
    const { text } = await run(
      { sandbox: "strict", readablePaths: [outside.dir] },
      `cat ${join(outside.dir, "secret.txt")} && echo x > ${join(outside.dir, "new")}`,
    );
    expect(text).toContain("outside secret");
    expect(existsSync(join(outside.dir, "new"))).toBe(false);
  });

  it("runs a real go test: build caches go to the private /tmp", async () => {
    mkdirSync(join(ws.dir, "gomod"), { recursive: true });
    writeFileSync(join(ws.dir, "gomod", "go.mod"), "module example.com/m\n\ngo 1.19\n");
    writeFileSync(join(ws.dir, "gomod", "a_test.go"), 'package m\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\n');
    const { text } = await run({ sandbox: "strict" }, "cd gomod && go test -count=1 ./...", 120_000);
    expect(text).toMatch(/^ok\s+example\.com\/m\s+[\d.]+s\nExit code: 0$/);
  });
});

describe("as an unprivileged user", () => {
  // runuser needs root; the same checks then run in a node process as nobody.
  it.runIf(ROOT && existsSync("/usr/sbin/runuser") && existsSync(DIST))("nobody gets the same boundary", () => {
    const dir = tempDirPath("ae-sandbox-nobody-");
    try {
      const workspace = join(dir, "ws");
      mkdirSync(workspace);
      chmodSync(dir, 0o755);
      chownSync(workspace, 65534, 65534);
      const script = join(dir, "check.mjs");
      writeFileSync(
        script,
        `import { createBashTool } from ${JSON.stringify(DIST)};
const out = {};
for (const level of ["strict", "workspace-only"]) {
  const bash = createBashTool({ cwd: ${JSON.stringify(workspace)}, sandbox: level, pidsLimit: 64 });
  const run = async (command) => (await bash.execute({ command, timeoutMs: 15000 })).text;
  out[level] = {
    caps: await run("grep CapEff /proc/self/status"),
    remount: await run("mount -o remount,bind,rw / 2>/dev/null && echo REMOUNTED; echo x > ${join(dir, "escaped")} 2>/dev/null; echo in > inside && cat inside"),
    env: await run("echo \${AE_NOBODY_SECRET-unset}"),
    bomb: (await bash.execute({ command: "f(){ f & f; }; f 2>/dev/null", timeoutMs: 5000 })).data.limits,
  };
}
process.stdout.write(JSON.stringify(out));`,
      );
      chmodSync(script, 0o644);
      const result = spawnSync("runuser", ["-u", "nobody", "--", process.execPath, script], {
        encoding: "utf8",
        cwd: dir,
        env: { ...process.env, AE_NOBODY_SECRET: "leaked" },
        timeout: 120_000,
      });
      expect(result.stderr).toBe("");
      const out = JSON.parse(result.stdout) as Record<string, unknown>;
      for (const level of LEVELS) {
        expect(out[level]).toEqual({
          caps: "CapEff:\t0000000000000000\nExit code: 0",
          remount: "in\nExit code: 0",
          env: "unset\nExit code: 0",
          bomb: { pids: "rlimit", memory: "none" },
        });
      }
      expect(existsSync(join(dir, "escaped"))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a signal to the host process", () => {
  it.runIf(existsSync(DIST)).each(["SIGTERM", "SIGINT", "SIGHUP"] as const)("%s leaves no process and no temp dir", async (signal) => {
    const sleep = uniqueSleep();
    const base = tempDirPath("ae-sandbox-signal-");
    try {
      const script = join(base, "host.mjs");
      writeFileSync(
        script,
        `import { createBashTool } from ${JSON.stringify(DIST)};
const sandboxed = createBashTool({ cwd: ${JSON.stringify(ws.dir)}, tempDir: ${JSON.stringify(base)} });
const plain = createBashTool({ cwd: ${JSON.stringify(ws.dir)}, tempDir: ${JSON.stringify(base)}, sandbox: false });
setTimeout(() => process.stdout.write("READY\\n"), 1500);
await Promise.all([sandboxed.execute({ command: "sleep ${sleep}" }), plain.execute({ command: "sleep ${sleep} & sleep ${sleep}" })]);`,
      );
      const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
      await new Promise<void>((resolve) => child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("READY") && resolve()));
      expect(survivors(sleep).length).toBeGreaterThanOrEqual(2);
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, how) => resolve(how)));
      child.kill(signal);
      expect(await exited).toBe(signal);
      for (let i = 0; i < 50 && survivors(sleep).length > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(survivors(sleep)).toEqual([]);
      expect(readdirSync(base)).toEqual(["host.mjs"]);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe("sandboxed bash without a working bubblewrap refuses", () => {
  it("names the fix when bwrap is missing and never runs the command", async () => {
    const result = await bash({ sandbox: "strict", bwrapPath: join(scratch.dir, "missing", "bwrap") }).execute({
      command: "touch ran-without-sandbox",
    });
    expect(result.isError).toBe(true);
    expect(result.data).toEqual({ status: "not-run", command: "touch ran-without-sandbox", reason: "sandbox-unavailable", rule: null });
    expect(result.text).toContain("apt-get install bubblewrap");
    expect(result.text).toContain("`sandbox: false`");
    expect(existsSync(join(ws.dir, "ran-without-sandbox"))).toBe(false);
  });

  it("refuses when the bwrap probe fails (an executable that is not bubblewrap)", async () => {
    const fake = join(scratch.dir, "fake-bin");
    mkdirSync(fake, { recursive: true });
    writeFileSync(join(fake, "bwrap"), "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n", { mode: 0o755 });
    const result = await bash({ sandbox: "strict", bwrapPath: join(fake, "bwrap") }).execute({ command: "touch ran-without-sandbox" });
    expect([
      result.data?.status,
      result.text.includes("No permissions to create new namespace"),
      existsSync(join(ws.dir, "ran-without-sandbox")),
    ]).toEqual(["not-run", true, false]);
    // As root, a namespace failure names the user-namespace fix rather than "install bubblewrap".
    expect(result.text.includes("user namespace")).toBe(ROOT);
  });

  it("sandbox: false runs without bubblewrap; headless is its deprecated alias", async () => {
    const plain = await bash({ sandbox: false, bwrapPath: join(scratch.dir, "missing", "bwrap") }).execute({ command: "echo plain" });
    const alias = await bash({ headless: false, bwrapPath: join(scratch.dir, "missing", "bwrap") }).execute({ command: "echo plain" });
    expect([plain.text, alias.text]).toEqual(["plain\nExit code: 0", "plain\nExit code: 0"]);
    expect(() => bash({ sandbox: "strict", headless: false })).toThrow(/disagree/);
    expect(() => bash({ sandbox: "open" as never })).toThrow(
      'createBashTool option "sandbox" is "open"; accepted: "strict", "workspace-only" or false.',
    );
  });
});

describe("bubblewrapArgs", () => {
  const host: SandboxHost = {
    root: true,
    home: "/root",
    entries: new Map([
      ["/usr", "directory"],
      ["/etc", "directory"],
      ["/root", "directory"],
      ["/run", "directory"],
      ["/etc/shadow", "file"],
      ["/bin", "symlink"],
    ]),
    links: new Map([["/bin", "usr/bin"]]),
  };
  const layout = {
    bwrapPath: "bwrap",
    workspace: "/ws",
    tempDir: "/host/tmp",
    writablePaths: ["/cache"],
    readablePaths: ["/opt/venv"],
    hiddenPaths: [],
    network: false,
    host,
  } as const;

  it("strict: system directories, masks inside them, then the caller's paths, /tmp and the workspace; no capability, user namespace as root", () => {
    expect(bubblewrapArgs({ ...layout, level: "strict" }, "/ws/sub", ["bash", "-c", "ls"], { PATH: "/usr/bin" })).toEqual([
      "--ro-bind",
      "/usr",
      "/usr",
      "--symlink",
      "usr/bin",
      "/bin",
      "--ro-bind",
      "/etc",
      "/etc",
      "--tmpfs",
      "/var",
      "--dir",
      "/var/tmp",
      "--tmpfs",
      "/run",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--ro-bind",
      "/dev/null",
      "/etc/shadow",
      "--bind",
      "/host/tmp",
      "/tmp",
      "--ro-bind",
      "/opt/venv",
      "/opt/venv",
      "--bind",
      "/cache",
      "/cache",
      "--bind",
      "/ws",
      "/ws",
      "--remount-ro",
      "/",
      "--unshare-user",
      "--uid",
      "65534",
      "--gid",
      "65534",
      "--disable-userns",
      "--cap-drop",
      "ALL",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
      "--hostname",
      "sandbox",
      "--die-with-parent",
      "--unshare-net",
      "--clearenv",
      "--setenv",
      "PATH",
      "/usr/bin",
      "--chdir",
      "/ws/sub",
      "--",
      "bash",
      "-c",
      "ls",
    ]);
  });

  it("workspace-only: the root read-only with homes and runtime dirs masked; network kept when asked", () => {
    const args = bubblewrapArgs({ ...layout, level: "workspace-only", network: true, host: { ...host, root: false } }, "/ws", ["true"], {});
    expect(args.slice(0, 12)).toEqual([
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--tmpfs",
      "/root",
      "--tmpfs",
      "/run",
      "--ro-bind",
    ]);
    expect(args).not.toContain("--unshare-net");
    expect(args).not.toContain("--unshare-user");
    expect(args).toContain("--cap-drop");
  });
});

// Keeps `execFileSync` in use for a quick sanity check that bwrap is the real one.
it("bubblewrap is installed", () => {
  expect(execFileSync("bwrap", ["--version"], { encoding: "utf8" })).toMatch(/^bubblewrap \d/);
});
