// The package as a user gets it (issue 17, sections 2 and acceptance): `npm pack`, then the tarball
// installed into fresh apps from the npm registry (the cache the repository's own install filled),
// then each way of loading it: ESM import, CommonJS require (Node 20.19+'s require(esm), which a
// top-level await would break), an esbuild bundle in both formats with the one grammar file copied
// beside it, and tsc type-checking the root entry and every subpath that needs no framework under
// nodenext and bundler resolution. Then an app installed with --legacy-peer-deps (no peers
// installed for it), an app on zod 3.25 (the package's zod range takes the app's copy: one zod, the
// v4 API through `zod/v4`), and `npx -y --package <tarball> agent-evidence mcp` in an empty
// directory answering a real MCP client.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { repoRoot } from "../support/import-graph.js";
import { tempDirPath } from "../support/temp-dir.js";

const scratch = tempDirPath("ae-app-");
const app = join(scratch, "app");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(command: string, args: string[], cwd = app, env: NodeJS.ProcessEnv = {}): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
      timeout: 240_000,
    });
  } catch (error) {
    // What the command printed is the diagnosis (tsc's errors are on stdout).
    const failed = error as Error & { stdout?: string; stderr?: string };
    failed.message = `${failed.message}\n${failed.stdout ?? ""}${failed.stderr ?? ""}`;
    throw failed;
  }
}

// A judged pytest run as a user's first call would make it: the verdict proves the two tests.
const PYTEST_OUTPUT = [
  "============================= test session starts ==============================",
  "platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0",
  "rootdir: /repo",
  "collected 2 items",
  "",
  "tests/test_a.py ..                                                       [100%]",
  "",
  "============================== 2 passed in 0.01s ===============================",
  "",
].join("\\n");
const USE = (load: string): string => `${load}
const analysis = analyzeCommand("cd pkg && pytest -q", { cwd: "/repo" });
const result = judge({ command: "pytest tests/test_a.py", output: "${PYTEST_OUTPUT}", exitCode: 0 });
console.log(JSON.stringify({ workspace: analysis.invocations[0].workspace, verdict: result.verdict }));`;
const EXPECTED = JSON.stringify({ workspace: "/repo/pkg", verdict: "passed" });

let tarball = "";
const INSTALL = ["install", "--prefer-offline", "--no-audit", "--no-fund"];

function makeApp(name: string, install: string[]): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version: "1.0.0", private: true, type: "module" }));
  run("npm", [...INSTALL, ...install], dir);
  writeFileSync(join(dir, "esm.mjs"), USE('import { analyzeCommand, judge } from "agent-evidence";'));
  return dir;
}

beforeAll(() => {
  run("npm", ["pack", "--ignore-scripts", "--pack-destination", scratch], repoRoot);
  tarball = join(
    scratch,
    readdirSync(scratch).find((name) => name.endsWith(".tgz"))!,
  );
  makeApp("app", [tarball, "@types/node@20", "typescript@5.9"]);
  writeFileSync(join(app, "cjs.cjs"), USE('const { analyzeCommand, judge } = require("agent-evidence");'));
});

describe("the packed tarball in a fresh app", () => {
  it("imports as ESM and judges", () => {
    expect(run(process.execPath, ["esm.mjs"]).trim()).toBe(EXPECTED);
  });

  it("loads with require() from CommonJS", () => {
    expect(run(process.execPath, ["cjs.cjs"]).trim()).toBe(EXPECTED);
  });

  it.each([
    ["esm", "esm.mjs", "app.mjs"],
    ["cjs", "cjs.cjs", "app.cjs"],
  ])("survives an esbuild bundle (%s) with bash.grammar copied beside it, and says what is missing without it", (format, entry, out) => {
    const dir = join(scratch, `bundle-${format}`);
    run(join(repoRoot, "node_modules", ".bin", "esbuild"), [
      entry,
      "--bundle",
      "--platform=node",
      `--format=${format}`,
      `--outfile=${join(dir, out)}`,
      "--log-level=error",
    ]);
    let missing = "";
    try {
      run(process.execPath, [join(dir, out)], dir);
    } catch (error) {
      missing = (error as { stderr: string }).stderr;
    }
    expect(missing).toContain(`the bash grammar is not at ${join(dir, "bash.grammar")}`);
    copyFileSync(join(app, "node_modules", "agent-evidence", "grammar", "bash.grammar"), join(dir, "bash.grammar"));
    // The bundle sits outside the app: it runs on what it holds, with no node_modules in reach.
    expect(run(process.execPath, [join(dir, out)], dir).trim()).toBe(EXPECTED);
  });

  it.each(["nodenext", "bundler"])("type-checks with moduleResolution %s", (resolution) => {
    const module = resolution === "nodenext" ? "nodenext" : "esnext";
    // Every entry that needs no framework package (the adapters need theirs installed).
    const subpaths = ["shell", "runners", "patches", "evidence", "tools", "verdict", "audit", "candidates", "testing"];
    writeFileSync(
      join(app, "check.ts"),
      [
        'import { judge, analyzeCommand, ready, type JudgeResult } from "agent-evidence";',
        ...subpaths.map((name) => `import * as ${name} from "agent-evidence/${name}";`),
        "await ready();",
        'const result: JudgeResult = judge({ command: analyzeCommand("pytest").invocations[0]!.runner, output: "", exitCode: 0 });',
        "export const outcome: string = result.verdict;",
        'export const paths: string[] = patches.patchPaths("");',
        'export const replay = testing.createReplayBashTool([{ command: "pytest", output: "", exitCode: 0 }]);',
        `export const entries = [${subpaths.join(", ")}];`,
        "",
      ].join("\n"),
    );
    const tsc = join(app, "node_modules", ".bin", "tsc");
    expect(() =>
      run(tsc, [
        "--noEmit",
        "--strict",
        "--skipLibCheck",
        "false",
        "--target",
        "es2022",
        "--module",
        module,
        "--moduleResolution",
        resolution,
        "--types",
        "node",
        "check.ts",
      ]),
    ).not.toThrow();
  });
});

describe("the packed tarball in other installs", () => {
  it("works in an app installed with --legacy-peer-deps: nothing it needs is a peer", () => {
    const dir = makeApp("legacy", ["--legacy-peer-deps", tarball]);
    expect(run(process.execPath, ["esm.mjs"], dir).trim()).toBe(EXPECTED);
  });

  it("installs into an app on zod 3.25, shares its zod, and its tool schemas validate", () => {
    const dir = makeApp("zod3", [tarball, "zod@3.25.76", "@types/node@20", "typescript@5.9"]);
    expect((JSON.parse(readFileSync(join(dir, "node_modules", "zod", "package.json"), "utf8")) as { version: string }).version).toBe(
      "3.25.76",
    );
    expect(existsSync(join(dir, "node_modules", "agent-evidence", "node_modules", "zod"))).toBe(false);
    writeFileSync(
      join(dir, "tools.mjs"),
      `import { evidenceTools } from "agent-evidence";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const { tools } = evidenceTools(["bash"], { cwd: mkdtempSync(join(tmpdir(), "ae-zod3-")), sandbox: false });
const bash = tools.find((tool) => tool.name === "bash");
console.log(JSON.stringify([bash.inputSchema.safeParse({ command: "ls" }).success, bash.inputSchema.safeParse({ command: 7 }).success]));`,
    );
    expect(run(process.execPath, ["tools.mjs"], dir).trim()).toBe("[true,false]");
    writeFileSync(
      join(dir, "check.ts"),
      'import { judge, type JudgeResult } from "agent-evidence";\nconst result: JudgeResult = judge({ command: "pytest", output: "", exitCode: 0 });\nexport const verdict: string = result.verdict;\n',
    );
    expect(() =>
      run(
        join(dir, "node_modules", ".bin", "tsc"),
        [
          "--noEmit",
          "--strict",
          "--target",
          "es2022",
          "--module",
          "nodenext",
          "--moduleResolution",
          "nodenext",
          "--types",
          "node",
          "check.ts",
        ],
        dir,
      ),
    ).not.toThrow();
  });

  // `npx -y agent-evidence mcp` as a client config names it; a tarball is named with --package.
  it("serves MCP from npx -y --package <tarball> agent-evidence mcp in an empty directory", async () => {
    const empty = join(scratch, "empty");
    const workspace = join(scratch, "mcp-workspace");
    mkdirSync(empty);
    mkdirSync(workspace);
    const transport = new StdioClientTransport({
      command: "npx",
      args: [
        "-y",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--package",
        tarball,
        "agent-evidence",
        "mcp",
        "--cwd",
        workspace,
        "--sandbox",
        "none",
      ],
      cwd: empty,
      env: { ...getDefaultEnvironment(), npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? "/root", ".npm") },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const client = new Client({ name: "agent-evidence-packaging-test", version: "1.0.0" });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()?.name, stderr).toBe("agent-evidence");
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("bash");
    } finally {
      await client.close();
    }
  }, 240_000);
});
