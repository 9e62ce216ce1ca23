import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBashTool, type BashToolOptions } from "../../src/tools/bash.js";
import { bubblewrapArgs } from "../../src/tools/sandbox.js";
import { makeTempDir } from "./helpers.js";

let ws: { dir: string; cleanup: () => void };
let outside: { dir: string; cleanup: () => void };
let scratch: { dir: string; cleanup: () => void };
let server: Server;
let port = 0;

beforeAll(async () => {
  ws = makeTempDir("ae-sandbox-ws-");
  outside = makeTempDir("ae-sandbox-outside-");
  scratch = makeTempDir("ae-sandbox-tmp-");
  writeFileSync(join(outside.dir, "secret.txt"), "outside secret\n");
  symlinkSync(join(outside.dir, "secret.txt"), join(ws.dir, "link-to-secret"));
  server = createServer((socket) => socket.end("hello from the host\n"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  port = typeof address === "object" && address !== null ? address.port : 0;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  ws.cleanup();
  outside.cleanup();
  scratch.cleanup();
});

function bash(options: Partial<BashToolOptions>) {
  return createBashTool({ cwd: ws.dir, tempDir: scratch.dir, ...options });
}

describe("headless bash runs under bubblewrap", () => {
  it("the same write outside the workspace fails in the sandbox and succeeds without it", async () => {
    const target = join(outside.dir, "written.txt");
    const sandboxed = await bash({ headless: true }).execute({ command: `echo x > ${target}` });
    const writtenBySandbox = existsSync(target);
    const unsandboxed = await bash({ headless: false }).execute({ command: `echo x > ${target}` });
    expect({ sandboxed: sandboxed.data, writtenBySandbox, unsandboxedExit: unsandboxed.text, writtenUnsandboxed: existsSync(target) }).toMatchObject({
      sandboxed: { status: "completed", exitCode: 1, sandbox: "bubblewrap" },
      writtenBySandbox: false,
      unsandboxedExit: "Exit code: 0",
      writtenUnsandboxed: true,
    });
  });

  it.each(["/etc/ae-sandbox-probe", "/var/tmp/ae-sandbox-probe", "/usr/ae-sandbox-probe"])("writing %s fails (read-only root)", async (target) => {
    const result = await bash({ headless: true }).execute({ command: `echo x > ${target}` });
    expect({ exitCode: result.data?.status === "completed" ? result.data.exitCode : null, created: existsSync(target) }).toEqual({ exitCode: 1, created: false });
  });

  it("the workspace and /tmp are writable", async () => {
    const result = await bash({ headless: true }).execute({ command: "echo in > inside.txt && echo tmp > /tmp/t && cat inside.txt /tmp/t" });
    expect(result.text).toBe("in\ntmp\nExit code: 0");
  });

  it("reading a symlink that points outside the workspace fails in the sandbox and succeeds without it", async () => {
    const sandboxed = await bash({ headless: true }).execute({ command: "cat link-to-secret" });
    const unsandboxed = await bash({ headless: false }).execute({ command: "cat link-to-secret" });
    expect([sandboxed.text.includes("outside secret"), sandboxed.text.endsWith("Exit code: 1"), unsandboxed.text]).toEqual([
      false,
      true,
      "outside secret\nExit code: 0",
    ]);
  });

  it.each<[boolean, string]>([
    [false, "Exit code: 1"],
    [true, "hello from the host\nExit code: 0"],
  ])("a connection to a host listener on 127.0.0.1 with network %s", async (network, expected) => {
    const result = await bash({ headless: true, network }).execute({ command: `{ exec 3<>/dev/tcp/127.0.0.1/${port}; } 2>/dev/null && cat <&3`, timeoutMs: 10_000 });
    expect(result.text).toBe(expected);
  });

  it("runs a real go test: build caches go to the private /tmp because $HOME is read-only", async () => {
    mkdirSync(join(ws.dir, "gomod"), { recursive: true });
    writeFileSync(join(ws.dir, "gomod", "go.mod"), "module example.com/m\n\ngo 1.19\n");
    writeFileSync(join(ws.dir, "gomod", "a_test.go"), 'package m\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\n');
    const result = await bash({ headless: true }).execute({ command: "cd gomod && go test -count=1 ./...", timeoutMs: 120_000 });
    expect(result.text).toMatch(/^ok\s+example\.com\/m\s+[\d.]+s\nExit code: 0$/);
  });

  it("sees its own processes only (new pid namespace)", async () => {
    const result = await bash({ headless: true }).execute({ command: "ls /proc | grep -c '^[0-9]'" });
    const count = Number(result.text.split("\n")[0]);
    expect(count).toBeLessThan(10);
  });
});

describe("headless bash without a working bubblewrap refuses", () => {
  it("names the fix when bwrap is missing and never runs the command", async () => {
    const result = await bash({ headless: true, bwrapPath: join(scratch.dir, "missing", "bwrap") }).execute({ command: "touch ran-without-sandbox" });
    expect(result.isError).toBe(true);
    expect(result.data).toEqual({ status: "not-run", command: "touch ran-without-sandbox", reason: "sandbox-unavailable", rule: null });
    expect(result.text).toContain("apt-get install bubblewrap");
    expect(result.text).toContain("`headless: false`");
    expect(existsSync(join(ws.dir, "ran-without-sandbox"))).toBe(false);
  });

  it("refuses when the bwrap probe fails (an executable that is not bubblewrap)", async () => {
    const fake = join(scratch.dir, "fake-bin");
    mkdirSync(fake, { recursive: true });
    writeFileSync(join(fake, "bwrap"), "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n", { mode: 0o755 });
    const result = await bash({ headless: true, bwrapPath: join(fake, "bwrap") }).execute({ command: "touch ran-without-sandbox" });
    expect([result.data?.status, result.text.includes("No permissions to create new namespace"), existsSync(join(ws.dir, "ran-without-sandbox"))]).toEqual([
      "not-run",
      true,
      false,
    ]);
  });

  it("headless: false runs without bubblewrap", async () => {
    const result = await bash({ headless: false, bwrapPath: join(scratch.dir, "missing", "bwrap") }).execute({ command: "echo plain" });
    expect(result.text).toBe("plain\nExit code: 0");
  });
});

describe("bubblewrapArgs", () => {
  it.each<[boolean, string[]]>([
    [false, ["--unshare-net"]],
    [true, []],
  ])("network %s", (network, netArgs) => {
    const args = bubblewrapArgs({ bwrapPath: "bwrap", workspace: "/ws", tempDir: "/host/tmp", writablePaths: ["/cache"], network }, "/ws/sub", ["bash", "-c", "ls"]);
    expect(args).toEqual([
      "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", "/host/tmp", "/tmp",
      "--bind", "/ws", "/ws", "--bind", "/cache", "/cache",
      "--unshare-pid", "--unshare-ipc", "--die-with-parent", "--setenv", "TMPDIR", "/tmp",
      ...netArgs, "--chdir", "/ws/sub", "--", "bash", "-c", "ls",
    ]);
  });
});
