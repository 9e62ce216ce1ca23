// fromMcpTool (issue 17, section 6): a bash tool someone else's MCP server serves, read through the
// SDK's real Client and observed by BashEvidence. The foreign server is a small real one in-process
// (McpServer + a `bash` tool that runs real bash and answers `output + "\nExit code: N"`), running
// real pytest fixtures.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, it } from "vitest";
import { z } from "zod/v4";

import { inputSchemaFromJson } from "../../src/adapters/json-schema-input.js";
import { createEvidenceMcpServer, fromCallToolResult, fromMcpTool } from "../../src/adapters/mcp.js";
import { isEvidenceError } from "../../src/errors.js";
import type { ToolProgress } from "../../src/host/tool.js";
import { BashEvidence, type BashLikeInput } from "../../src/observation/bash-evidence.js";
import { makeTempDir } from "../support/temp-dir.js";
import { gone, waitFor } from "./abort-fixture.js";
import { makePytestProject, PASSING_TEST, PYTEST_COMMAND } from "./helpers.js";
import { connectInMemory } from "./mcp-helpers.js";

// Real bash in its own process group, stdout and stderr in one stream; an abort kills the group.
function runBash(command: string, cwd: string, signal: AbortSignal): Promise<{ output: string; code: number }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", command], { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    const kill = (): void => {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    };
    signal.addEventListener("abort", kill, { once: true });
    child.on("close", (code, killed) => {
      signal.removeEventListener("abort", kill);
      resolve({ output, code: code ?? 128 + (killed === "SIGKILL" ? 9 : 15) });
    });
  });
}

/** Someone else's MCP server: a plain `bash`, a tool that always fails, and one with structured output. */
function foreignServer(cwd: string): McpServer {
  const server = new McpServer({ name: "someone-elses-tools", version: "1.0.0" });
  server.registerTool(
    "bash",
    {
      title: "Shell",
      description: "Run a bash command in the project.",
      inputSchema: { command: z.string().min(1).describe("The command line.") },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    async ({ command }, extra) => {
      const { output, code } = await runBash(command, cwd, extra.signal);
      return { content: [{ type: "text", text: `${output}\nExit code: ${code}` }] };
    },
  );
  server.registerTool("deploy", { description: "Always refuses.", inputSchema: { target: z.string() } }, ({ target }) => ({
    content: [{ type: "text", text: `deploy to ${target} refused: no credentials` }],
    isError: true,
  }));
  server.registerTool(
    "count",
    { description: "Count words.", inputSchema: { text: z.string() }, outputSchema: { words: z.number() } },
    ({ text }) => {
      const words = text.split(/\s+/).filter((word) => word !== "").length;
      return {
        content: [
          { type: "text", text: `${words} words` },
          { type: "image", data: "aGk=", mimeType: "image/png" },
        ],
        structuredContent: { words },
      };
    },
  );
  server.registerTool("dotted.name", { description: "A name with a dot.", inputSchema: {} }, () => ({
    content: [{ type: "text", text: "ok" }],
  }));
  return server;
}

const connectForeign = (cwd: string) => connectInMemory(foreignServer(cwd), undefined);

describe("fromMcpTool reads the tool's definition", () => {
  it("keeps name, title, description and hints, and converts the input schema with z.fromJSONSchema", async () => {
    const project = makeTempDir("ae-mcp-client-");
    try {
      const { client } = await connectForeign(project.dir);
      const bash = await fromMcpTool(client, "bash");
      expect(bash).toMatchObject({
        name: "bash",
        title: "Shell",
        description: "Run a bash command in the project.",
        annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
      });
      // This install's zod (4.2 or later) has the converter: the schema validates as the server's does.
      expect(typeof (z as { fromJSONSchema?: unknown }).fromJSONSchema).toBe("function");
      expect(bash.inputSchemaKind).toBe("converted");
      expect(bash.inputSchema.safeParse({ command: "ls" }).success).toBe(true);
      expect(bash.inputSchema.safeParse({ command: "" }).success).toBe(false);
      expect(bash.inputSchema.safeParse({}).success).toBe(false);
      expect(z.toJSONSchema(bash.inputSchema)).toMatchObject({
        type: "object",
        properties: { command: { type: "string", minLength: 1, description: "The command line." } },
        required: ["command"],
      });
    } finally {
      project.cleanup();
    }
  });

  it("throws E_UNKNOWN_TOOL for a tool the server does not list, and needs `name` for an MCP name ours refuses", async () => {
    const project = makeTempDir("ae-mcp-client-");
    try {
      const { client } = await connectForeign(project.dir);
      const missing = await fromMcpTool(client, "shell").catch((error: unknown) => error);
      expect(isEvidenceError(missing, "E_UNKNOWN_TOOL")).toBe(true);
      expect((missing as Error).message).toBe('fromMcpTool: the MCP server lists no tool named "shell".');
      await expect(fromMcpTool(client, "dotted.name")).rejects.toThrow(/Tool option "name" is "dotted.name"/);
      const renamed = await fromMcpTool(client, "dotted.name", { name: "dotted_name" });
      expect(renamed.name).toBe("dotted_name");
      expect(await renamed.execute({})).toEqual({ text: "ok" });
    } finally {
      project.cleanup();
    }
  });
});

describe("a foreign bash observed by BashEvidence", () => {
  it("a real passing pytest run is verified", async () => {
    const project = makePytestProject();
    try {
      const { client } = await connectForeign(project.dir);
      const bash = new BashEvidence(await fromMcpTool<BashLikeInput>(client, "bash"), { workspace: project.dir });
      try {
        const result = await bash.execute({ command: PYTEST_COMMAND });
        expect(result.isError).toBeUndefined();
        expect(result.text).toContain(`PASSED ${PASSING_TEST}`);
        expect(result.text).toMatch(/\nExit code: 0$/);
        expect(bash.verifiedTargets).toEqual(expect.arrayContaining(["test_x.py", PASSING_TEST]));
        expect(bash.verificationRecords).toMatchObject([
          { command: PYTEST_COMMAND, exitCode: 0, verified: true, outcome: "passed", passed: [PASSING_TEST] },
        ]);
      } finally {
        await bash.close();
      }
    } finally {
      project.cleanup();
    }
  });

  it("a real failing pytest run is not verified", async () => {
    const project = makePytestProject();
    writeFileSync(join(project.dir, "test_x.py"), "def test_ok():\n    assert 1 + 1 == 3\n");
    try {
      const { client } = await connectForeign(project.dir);
      const bash = new BashEvidence(await fromMcpTool<BashLikeInput>(client, "bash"), { workspace: project.dir });
      try {
        const result = await bash.execute({ command: PYTEST_COMMAND });
        expect(result.text).toContain(`FAILED ${PASSING_TEST}`);
        expect(result.text).toMatch(/\nExit code: 1$/);
        expect(bash.verifiedTargets).toEqual([]);
        expect(bash.verificationRecords).toMatchObject([{ exitCode: 1, verified: false, outcome: "failed" }]);
      } finally {
        await bash.close();
      }
    } finally {
      project.cleanup();
    }
  });

  it("an aborted call rejects with the abort reason, the foreign server kills its command, and nothing passes", async () => {
    const project = makePytestProject();
    const flags = makeTempDir("ae-mcp-client-flags-");
    // Would pass if it ran to the end: it writes its pid, then waits for `go` (never written).
    writeFileSync(
      join(project.dir, "test_x.py"),
      `import os, time\n\ndef test_ok():\n    open(${JSON.stringify(join(flags.dir, "pid"))}, "w").write(f"{os.getpid()}\\n")\n    while not os.path.exists(${JSON.stringify(join(flags.dir, "go"))}):\n        time.sleep(0.05)\n`,
    );
    try {
      const { client, errors } = await connectForeign(project.dir);
      const bash = new BashEvidence(await fromMcpTool<BashLikeInput>(client, "bash"), { workspace: project.dir });
      try {
        const controller = new AbortController();
        const call = bash.execute({ command: PYTEST_COMMAND }, { signal: controller.signal });
        expect(
          await waitFor(() => existsSync(join(flags.dir, "pid")) && /^\d+\n$/.test(readFileSync(join(flags.dir, "pid"), "utf8"))),
        ).toBe(true);
        const pid = Number(readFileSync(join(flags.dir, "pid"), "utf8"));
        const reason = new Error("the user pressed stop");
        controller.abort(reason);
        await expect(call).rejects.toBe(reason);
        expect(await waitFor(() => gone(pid))).toBe(true);
        expect(bash.verifiedTargets).toEqual([]);
        expect(bash.verificationRecords.filter((record) => record.verified)).toEqual([]);
        // The foreign server got the cancellation and sent no response for it.
        expect(errors).toEqual({ client: [], server: [] });
      } finally {
        await bash.close();
      }
    } finally {
      flags.cleanup();
      project.cleanup();
    }
  });
});

describe("results", () => {
  it("isError maps to isError; structuredContent to data; other content is named, not dropped silently", async () => {
    const project = makeTempDir("ae-mcp-client-");
    try {
      const { client } = await connectForeign(project.dir);
      const deploy = await fromMcpTool(client, "deploy");
      expect(await deploy.execute({ target: "prod" })).toEqual({ text: "deploy to prod refused: no credentials", isError: true });
      const count = await fromMcpTool(client, "count");
      expect(await count.execute({ text: "one two three" })).toEqual({
        text: "3 words\n[image content image/png not shown]",
        data: { words: 3 },
      });
    } finally {
      project.cleanup();
    }
  });

  it("never throws for a failed call: invalid input, a closed connection, a timeout", async () => {
    const project = makeTempDir("ae-mcp-client-");
    try {
      const { client } = await connectForeign(project.dir);
      const bash = await fromMcpTool(client, "bash");
      const invalid = await bash.execute({ command: 42 });
      expect(invalid.isError).toBe(true);
      expect(invalid.text).toMatch(/^(MCP error -32602: )?Input validation error/);

      // A timeout cancels the call on the server too: its command is killed.
      const flags = makeTempDir("ae-mcp-client-flags-");
      try {
        const slow = await fromMcpTool(client, "bash", { timeoutMs: 1_000 });
        const timedOut = await slow.execute({
          command: `echo $$ > ${join(flags.dir, "pid.tmp")} && mv ${join(flags.dir, "pid.tmp")} ${join(flags.dir, "pid")} && exec sleep 30`,
        });
        expect(timedOut).toEqual({
          text: expect.stringMatching(/^Error: the MCP tool bash failed: MCP error -32001: Request timed out/) as unknown,
          isError: true,
        });
        expect(await waitFor(() => existsSync(join(flags.dir, "pid")))).toBe(true);
        const pid = Number(readFileSync(join(flags.dir, "pid"), "utf8"));
        expect(await waitFor(() => gone(pid))).toBe(true);
      } finally {
        flags.cleanup();
      }

      await client.close();
      const closed = await bash.execute({ command: "echo hi" });
      expect(closed).toEqual({
        text: expect.stringMatching(/^Error: the MCP tool bash failed: .*Not connected/) as unknown,
        isError: true,
      });
    } finally {
      project.cleanup();
    }
  });

  it("fromCallToolResult reads a protocol 2024-10-07 toolResult", () => {
    expect(fromCallToolResult({ toolResult: { ok: true } })).toEqual({ text: '{"ok":true}', data: { ok: true } });
  });
});

describe("progress from the server", () => {
  it("reaches ctx.onProgress, growing, and keeps a call longer than timeoutMs alive; a throwing listener is dropped", async () => {
    const project = makeTempDir("ae-mcp-client-");
    try {
      // agent-evidence's own server as the foreign one: its bash reports progress.
      const { server, evidence } = createEvidenceMcpServer({
        cwd: project.dir,
        sandbox: false,
        limits: { bash: { progressIntervalMs: 100 } },
      });
      const { client } = await connectInMemory(server, evidence);
      const bash = await fromMcpTool(client, "bash", { timeoutMs: 2_000 });
      const updates: ToolProgress[] = [];
      const result = await bash.execute({ command: "sleep 4; echo done" }, { onProgress: (update) => updates.push(update) });
      expect(result).toEqual({ text: expect.stringMatching(/^done\n[\s\S]*Exit code: 0$/) as unknown });
      expect(updates.length).toBeGreaterThanOrEqual(2);
      for (const [i, update] of updates.entries()) {
        expect(update.message).toMatch(/^running for \d+ s/);
        if (i > 0) expect(update.progress).toBeGreaterThan(updates[i - 1]!.progress);
      }

      let thrown = 0;
      const again = await bash.execute(
        { command: "sleep 1; echo again" },
        {
          onProgress: () => {
            thrown += 1;
            throw new Error("listener failed");
          },
        },
      );
      expect(again.text).toMatch(/^again\n/);
      expect(thrown).toBe(1);
    } finally {
      project.cleanup();
    }
  });
});

describe("inputSchemaFromJson", () => {
  const json = {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { command: { type: "string" } },
    required: ["command"],
    additionalProperties: false,
  };

  it.each<[string, Parameters<typeof inputSchemaFromJson>[1]]>([
    ["without a converter (zod 3.25's zod/v4)", null],
    [
      "when the converter refuses the schema",
      () => {
        throw new Error("Reference not found");
      },
    ],
    ["when the converter gives no object schema", () => z.string()],
  ])("is permissive %s, and still renders the JSON Schema", (_name, convert) => {
    const { schema, kind } = inputSchemaFromJson(json, convert);
    expect(kind).toBe("permissive");
    expect(schema.safeParse({ anything: 1 }).success).toBe(true);
    expect(schema.safeParse("not an object").success).toBe(false);
    expect(z.toJSONSchema(schema)).toMatchObject({ type: "object", properties: { command: { type: "string" } }, required: ["command"] });
  });
});
