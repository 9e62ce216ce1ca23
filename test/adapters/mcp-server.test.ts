// The evidence MCP server in-process, driven by the SDK's real Client over its in-memory transport
// (mcp-helpers.ts records what each side sends): every tool's title and annotations, progress notifications
// of a long bash call, and a cancelled call (issue 17, sections 5 and 6).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";

import {
  createEvidenceMcpServer,
  type EvidenceMcpServer,
  type EvidenceMcpServerOptions,
  registerMcpTools,
} from "../../src/adapters/mcp.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { makeTempDir } from "../support/temp-dir.js";
import { gone, waitFor } from "./abort-fixture.js";
import { connectInMemory, type Connection, textOf } from "./mcp-helpers.js";

async function connect(options: EvidenceMcpServerOptions): Promise<Connection<EvidenceMcpServer["evidence"]>> {
  const { server, evidence } = createEvidenceMcpServer(options);
  return connectInMemory(server, evidence);
}

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
const EDITS = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

describe("titles and annotations in listTools", () => {
  it.each<[string, string, Record<string, boolean>]>([
    ["bash", "Run a shell command", { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }],
    ["file_read", "Read a file", READ_ONLY],
    ["file_write", "Write a file", EDITS],
    ["apply_patch", "Apply a patch", EDITS],
    ["grep", "Search files", READ_ONLY],
    ["git_diff", "Show the diff", READ_ONLY],
    ["evidence_status", "Show the test evidence", READ_ONLY],
    ["judge", "Judge test output", READ_ONLY],
  ])("%s (unsandboxed server): title %j and its hints", async (name, title, hints) => {
    const project = makeTempDir("ae-mcp-annotations-");
    try {
      const { client } = await connect({ cwd: project.dir, sandbox: false });
      const tool = (await client.listTools()).tools.find((listed) => listed.name === name);
      expect(tool?.title).toBe(title);
      // MCP's annotations carry the title too (clients of older revisions read it there).
      expect(tool?.annotations).toEqual({ title, ...hints });
    } finally {
      project.cleanup();
    }
  });

  it("bash is not open-world under the sandbox without network, and is with network kept", async () => {
    const project = makeTempDir("ae-mcp-annotations-");
    try {
      const sandboxed = await connect({ cwd: project.dir, sandbox: "strict" });
      const listed = (await sandboxed.client.listTools()).tools.find((tool) => tool.name === "bash");
      expect(listed?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: false });

      const { tools, evidence } = evidenceTools(["bash"], { cwd: project.dir, sandbox: "strict", network: true });
      const server = new McpServer({ name: "network", version: "1.0.0" });
      registerMcpTools(server, tools);
      const networked = await connectInMemory(server, evidence);
      expect((await networked.client.listTools()).tools[0]?.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true,
        openWorldHint: true,
      });
    } finally {
      project.cleanup();
    }
  });
});

describe("progress notifications of a long bash call", () => {
  const LONG = { name: "bash", arguments: { command: "sleep 3; echo done" } };

  it("a call with onprogress gets updates whose progress grows, each with a message, then the result", async () => {
    const project = makeTempDir("ae-mcp-progress-");
    try {
      const { client, sent } = await connect({ cwd: project.dir, sandbox: false, limits: { bash: { progressIntervalMs: 250 } } });
      const updates: Progress[] = [];
      const result = await client.callTool(LONG, undefined, { onprogress: (update) => updates.push(update) });
      expect(textOf(result)).toMatch(/^done\n[\s\S]*Exit code: 0$/);
      expect(updates.length).toBeGreaterThanOrEqual(2);
      for (const [i, update] of updates.entries()) {
        expect(update.message).toMatch(/^running for \d+ s, \d+ bytes of output so far$/);
        if (i > 0) expect(update.progress).toBeGreaterThan(updates[i - 1]!.progress);
      }
      // Every notification went out before the response, none after it.
      const methods = sent.server.map((message) => ("method" in message ? message.method : "response"));
      expect(methods.lastIndexOf("notifications/progress")).toBeLessThan(methods.lastIndexOf("response"));
    } finally {
      project.cleanup();
    }
  });

  it("a call without onprogress is sent no notification and still works", async () => {
    const project = makeTempDir("ae-mcp-progress-");
    try {
      const { client, sent, errors } = await connect({ cwd: project.dir, sandbox: false, limits: { bash: { progressIntervalMs: 250 } } });
      const result = await client.callTool(LONG);
      expect(textOf(result)).toMatch(/^done\n[\s\S]*Exit code: 0$/);
      expect(sent.server.filter((message) => "method" in message && message.method === "notifications/progress")).toEqual([]);
      expect(errors).toEqual({ client: [], server: [] });
    } finally {
      project.cleanup();
    }
  });

  it("a client listener that throws breaks neither the call nor later updates", async () => {
    const project = makeTempDir("ae-mcp-progress-");
    try {
      const { client } = await connect({ cwd: project.dir, sandbox: false, limits: { bash: { progressIntervalMs: 250 } } });
      let calls = 0;
      const result = await client.callTool(LONG, undefined, {
        onprogress: () => {
          calls += 1;
          throw new Error("listener failed");
        },
      });
      expect(result.isError).not.toBe(true);
      expect(textOf(result)).toMatch(/^done\n[\s\S]*Exit code: 0$/);
      expect(calls).toBeGreaterThanOrEqual(2);
    } finally {
      project.cleanup();
    }
  });

  it("a notification the server cannot send is dropped, never the call", async () => {
    const project = makeTempDir("ae-mcp-progress-");
    try {
      const connection = await connect({ cwd: project.dir, sandbox: false, limits: { bash: { progressIntervalMs: 250 } } });
      let refused = 0;
      connection.serverSend((send, message) => {
        if ("method" in message && message.method === "notifications/progress") {
          refused += 1;
          return Promise.reject(new Error("transport refused the notification"));
        }
        return send(message);
      });
      const result = await connection.client.callTool(LONG, undefined, { onprogress: () => undefined });
      expect(textOf(result)).toMatch(/^done\n[\s\S]*Exit code: 0$/);
      expect(refused).toBeGreaterThanOrEqual(2);
    } finally {
      project.cleanup();
    }
  });
});

// A pytest test that would pass: it writes its pid and its child's (a sleep in the same process
// group), then waits for the file `go` beside them (at most 30 s).
const SLOW_TEST = (dir: string): string => `import os, subprocess, time

def test_slow():
    child = subprocess.Popen(["sleep", "300"])
    with open(${JSON.stringify(join(dir, "pids.tmp"))}, "w") as f:
        f.write(f"{os.getpid()} {child.pid}\\n")
    os.rename(${JSON.stringify(join(dir, "pids.tmp"))}, ${JSON.stringify(join(dir, "pids"))})
    deadline = time.time() + 30
    while not os.path.exists(${JSON.stringify(join(dir, "go"))}) and time.time() < deadline:
        time.sleep(0.05)
    child.kill()
    assert os.path.exists(${JSON.stringify(join(dir, "go"))})
`;
const SLOW_COMMAND = "python3 -m pytest -rA -p no:cacheprovider test_slow.py";

describe("a cancelled bash call", () => {
  function slowProject(): { dir: string; flags: string; cleanup: () => void } {
    const project = makeTempDir("ae-mcp-cancel-");
    const flags = makeTempDir("ae-mcp-cancel-flags-");
    writeFileSync(join(project.dir, "test_slow.py"), SLOW_TEST(flags.dir));
    return { dir: project.dir, flags: flags.dir, cleanup: () => (project.cleanup(), flags.cleanup()) };
  }
  const pidsIn = (flags: string): number[] => readFileSync(join(flags, "pids"), "utf8").trim().split(" ").map(Number);

  it("the same run not cancelled passes and is verified (the control)", async () => {
    const project = slowProject();
    try {
      const { client, evidence } = await connect({ cwd: project.dir, sandbox: false });
      const call = client.callTool({ name: "bash", arguments: { command: SLOW_COMMAND } });
      expect(await waitFor(() => existsSync(join(project.flags, "pids")))).toBe(true);
      writeFileSync(join(project.flags, "go"), "");
      const result = await call;
      expect(textOf(result)).toContain("PASSED test_slow.py::test_slow");
      expect(evidence.verifiedTargets).toContain("test_slow.py::test_slow");
    } finally {
      project.cleanup();
    }
  });

  it("kills the process group, is not a pass, gets no response, and the connection carries on", async () => {
    const project = slowProject();
    try {
      const { client, evidence, sent, errors } = await connect({
        cwd: project.dir,
        sandbox: false,
        limits: { bash: { progressIntervalMs: 100 } },
      });
      const controller = new AbortController();
      let progress = 0;
      const call = client.callTool({ name: "bash", arguments: { command: SLOW_COMMAND } }, undefined, {
        signal: controller.signal,
        onprogress: () => (progress += 1),
      });
      expect(await waitFor(() => existsSync(join(project.flags, "pids")) && progress > 0)).toBe(true);
      const [pytest, child] = pidsIn(project.flags) as [number, number];
      expect(gone(pytest) || gone(child)).toBe(false);
      controller.abort();

      // The SDK's convention: the caller's promise rejects at once, with the abort reason.
      await expect(call).rejects.toThrow(/aborted/i);
      const cancelledAt = sent.server.length;
      const request = sent.client.find((message) => "method" in message && message.method === "tools/call") as { id: number };
      expect(sent.client.at(-1)).toMatchObject({ method: "notifications/cancelled", params: { requestId: request.id } });

      // On the server the tool call was aborted: the group killed, the run recorded as not passed.
      expect(await waitFor(() => evidence.verificationRecords.length === 1)).toBe(true);
      expect(gone(pytest)).toBe(true);
      expect(await waitFor(() => gone(child))).toBe(true);
      expect(evidence.verificationRecords[0]).toMatchObject({ command: SLOW_COMMAND, exitCode: 130, verified: false });
      expect(evidence.verificationRecords[0]?.outcome).not.toBe("passed");
      expect(evidence.verifiedTargets).toEqual([]);

      // No response to the cancelled request and no progress after the cancellation (either would be
      // reported to the client's onerror as a message for an unknown request), nothing thrown.
      expect(sent.server.some((message) => "id" in message && message.id === request.id)).toBe(false);
      const later = await client.callTool({ name: "bash", arguments: { command: "echo still here" } });
      expect(textOf(later)).toMatch(/^still here\n[\s\S]*Exit code: 0$/);
      expect(
        sent.server.slice(cancelledAt).filter((message) => "method" in message && message.method === "notifications/progress"),
      ).toEqual([]);
      expect(errors).toEqual({ client: [], server: [] });
      const status = await client.callTool({ name: "evidence_status", arguments: {} });
      expect(status.structuredContent).toMatchObject({
        verifiedTargets: [],
        verificationRecords: [{ command: SLOW_COMMAND, verified: false }],
      });
    } finally {
      project.cleanup();
    }
  });
});
