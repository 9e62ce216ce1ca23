// The evidence MCP server as a client sees it: `agent-evidence mcp` spawned over stdio and driven by
// the SDK's real Client. Needs a built CLI (npm run build; npm test builds first).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { judge } from "../../src/evidence/judge.js";
import type { JudgeInput } from "../../src/evidence/judge-types.js";
import { makeTempDir, tempDirPath } from "../support/temp-dir.js";
import { gone, waitFor } from "./abort-fixture.js";
import { makePytestProject, PASSING_TEST, PYTEST_COMMAND } from "./helpers.js";

const cli = resolve(import.meta.dirname, "../../dist/cli/main.js");
const TOOL_NAMES = ["bash", "file_read", "file_write", "apply_patch", "grep", "git_diff", "evidence_status", "judge"];

interface Connection {
  client: Client;
  stderr: () => string;
}

async function connect(cwd: string, flags: string[], env?: Record<string, string>): Promise<Connection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, "mcp", "--cwd", cwd, ...flags],
    stderr: "pipe",
    ...(env === undefined ? {} : { env }),
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = new Client({ name: "agent-evidence-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const content = result.content as { type: string; text?: string }[];
  return content.map((part) => part.text ?? "").join("");
}

describe("agent-evidence mcp", () => {
  let project: ReturnType<typeof makePytestProject>;
  let connection: Connection;
  beforeAll(async () => {
    if (!existsSync(cli)) throw new Error(`${cli} is missing: build first (npx tsc -p tsconfig.build.json)`);
    project = makePytestProject();
    connection = await connect(project.dir, ["--sandbox", "strict"]);
  });
  afterAll(async () => {
    await connection?.client.close();
    project?.cleanup();
  });

  it("lists the eight tools and logs to stderr only", async () => {
    const { tools } = await connection.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    expect(tools.find((tool) => tool.name === "evidence_status")?.outputSchema).toBeDefined();
    // A stray line on stdout would have broken the JSON-RPC stream before listTools returned.
    expect(connection.stderr()).toContain("agent-evidence mcp: serving bash,");
  });

  it("runs a real pytest fixture through bash (sandboxed), then evidence_status shows it verified, and an edit makes it stale", async () => {
    const run = await connection.client.callTool({ name: "bash", arguments: { command: PYTEST_COMMAND } });
    expect(run.isError).not.toBe(true);
    expect(textOf(run)).toContain(`PASSED ${PASSING_TEST}`);

    const status = await connection.client.callTool({ name: "evidence_status", arguments: {} });
    expect(status.structuredContent).toMatchObject({
      verifiedTargets: expect.arrayContaining([PASSING_TEST]) as unknown,
      verificationRecords: [
        {
          target: "test_x.py",
          command: PYTEST_COMMAND,
          exitCode: 0,
          verified: true,
          applicability: "current",
          outcome: "passed",
          passed: [PASSING_TEST],
        },
      ],
    });
    expect(textOf(status)).toContain(`Verified targets (2): test_x.py, ${PASSING_TEST}`);

    const edit = await connection.client.callTool({
      name: "file_write",
      arguments: { path: "test_x.py", mode: "str_replace", oldString: "1 + 1 == 2", newString: "2 + 2 == 4" },
    });
    expect(edit.isError).not.toBe(true);
    const after = await connection.client.callTool({ name: "evidence_status", arguments: {} });
    expect(after.structuredContent).toMatchObject({
      verifiedTargets: [],
      verificationRecords: [{ target: "test_x.py", applicability: "unknown", postTestEdits: ["test_x.py"] }],
    });
    expect(textOf(after)).toContain("Verified targets: none.");
  });

  describe("judge", () => {
    let passingOutput: string;
    let failingOutput: string;
    beforeAll(() => {
      passingOutput = execFileSync("python3", ["-m", "pytest", "-rA", "-p", "no:cacheprovider", "test_x.py"], {
        cwd: project.dir,
        encoding: "utf8",
      });
      const failing = makeTempDir("ae-adapters-fail-");
      try {
        writeFileSync(join(failing.dir, "test_x.py"), "def test_bad():\n    assert 1 + 1 == 3\n");
        const run = spawnSync("python3", ["-m", "pytest", "-rA", "-p", "no:cacheprovider", "test_x.py"], {
          cwd: failing.dir,
          encoding: "utf8",
        });
        expect(run.status).toBe(1);
        failingOutput = run.stdout;
      } finally {
        failing.cleanup();
      }
    });

    it.each<{ name: string; args: () => Record<string, unknown>; verdict: string }>([
      { name: "real passing output with exit 0", args: () => ({ output: passingOutput, exitCode: 0 }), verdict: "passed" },
      {
        name: "the same output marked truncated",
        args: () => ({ output: passingOutput, exitCode: 0, truncated: true }),
        verdict: "unknown",
      },
      {
        name: "real failing output with exit 1 and a cwd",
        args: () => ({ output: failingOutput, exitCode: 1, cwd: "/w" }),
        verdict: "failed",
      },
    ])("returns the judge JSON for $name", async ({ args, verdict }) => {
      const { truncated, ...rest } = args();
      const result = await connection.client.callTool({ name: "judge", arguments: { command: PYTEST_COMMAND, ...args() } });
      const expected = judge({ command: PYTEST_COMMAND, ...rest, ...(truncated === true ? { outputTruncated: true } : {}) } as JudgeInput);
      expect(expected.verdict).toBe(verdict);
      expect(result.structuredContent).toEqual(expected);
      expect(JSON.parse(textOf(result))).toEqual(expected);
    });
  });
});

describe("agent-evidence mcp without a sandbox", () => {
  it("still lists every tool, and bash answers with the refusal message", async () => {
    const project = makePytestProject();
    const emptyPath = tempDirPath("ae-nopath-");
    // No bwrap on PATH: headless bash cannot start its sandbox.
    const connection = await connect(project.dir, ["--headless"], { ...getDefaultEnvironment(), PATH: emptyPath });
    try {
      expect((await connection.client.listTools()).tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
      const run = await connection.client.callTool({ name: "bash", arguments: { command: PYTEST_COMMAND } });
      expect(run.isError).toBe(true);
      expect(textOf(run)).toMatch(/^Error: sandboxed bash needs the bubblewrap sandbox, and it cannot start here \(bwrap was not found\)/);
      const status = await connection.client.callTool({ name: "evidence_status", arguments: {} });
      expect(status.structuredContent).toEqual({ verifiedTargets: [], verificationRecords: [] });
    } finally {
      await connection.client.close();
      rmSync(emptyPath, { recursive: true, force: true });
      project.cleanup();
    }
  });
});

describe("agent-evidence mcp: a cancelled call over stdio", () => {
  it("kills the command's process group, and the server answers the next call", async () => {
    const project = makePytestProject();
    const flags = makeTempDir("ae-mcp-stdio-cancel-");
    const connection = await connect(project.dir, ["--sandbox", "none"]);
    try {
      const pids = join(flags.dir, "pids");
      const controller = new AbortController();
      const call = connection.client.callTool(
        { name: "bash", arguments: { command: `sleep 300 & echo "$$ $!" > ${pids}.tmp && mv ${pids}.tmp ${pids}; wait` } },
        undefined,
        { signal: controller.signal },
      );
      expect(await waitFor(() => existsSync(pids))).toBe(true);
      const [shell, child] = readFileSync(pids, "utf8").trim().split(" ").map(Number) as [number, number];
      expect(gone(shell) || gone(child)).toBe(false);
      controller.abort();
      await expect(call).rejects.toThrow(/aborted/i);
      expect(await waitFor(() => gone(shell) && gone(child))).toBe(true);
      const next = await connection.client.callTool({ name: "bash", arguments: { command: "echo next" } });
      expect(textOf(next)).toMatch(/^next\n[\s\S]*Exit code: 0$/);
    } finally {
      await connection.client.close();
      flags.cleanup();
      project.cleanup();
    }
  });
});

describe("agent-evidence mcp usage", () => {
  it.each([
    ["a workspace that does not exist", ["mcp", "--cwd", "/no/such/dir"]],
    ["an unknown option", ["mcp", "--bogus"]],
  ])("exits 64 with one line for %s", (_name, args) => {
    const result = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", input: "" });
    expect(result.status).toBe(64);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^agent-evidence: /);
  });
});
