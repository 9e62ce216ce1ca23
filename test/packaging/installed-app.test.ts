// The package as a user gets it (issue 17, sections 2 and acceptance): `npm pack`, then the tarball
// installed into a fresh app from the npm registry (the cache the repository's own install filled),
// then each way of loading it: ESM import, CommonJS require (Node 20.19+'s require(esm), which a
// top-level await would break), an esbuild bundle in both formats with the one grammar file copied
// beside it, and tsc type-checking the root entry under nodenext and bundler resolution.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/import-graph.js";

const scratch = mkdtempSync(join(tmpdir(), "ae-app-"));
const app = join(scratch, "app");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(command: string, args: string[], cwd = app, env: NodeJS.ProcessEnv = {}): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env }, timeout: 240_000 });
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

beforeAll(() => {
  mkdirSync(app);
  run("npm", ["pack", "--ignore-scripts", "--pack-destination", scratch], repoRoot);
  const tarball = readdirSync(scratch).find((name) => name.endsWith(".tgz"))!;
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", private: true, type: "module" }));
  run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", join(scratch, tarball), "@types/node@20", "typescript@5.9"]);
  writeFileSync(join(app, "esm.mjs"), USE('import { analyzeCommand, judge } from "agent-evidence";'));
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
    run(join(repoRoot, "node_modules", ".bin", "esbuild"), [entry, "--bundle", "--platform=node", `--format=${format}`, `--outfile=${join(dir, out)}`, "--log-level=error"]);
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
    writeFileSync(join(app, "check.ts"), 'import { judge, analyzeCommand, ready, type JudgeResult } from "agent-evidence";\nawait ready();\nconst result: JudgeResult = judge({ command: analyzeCommand("pytest").invocations[0]!.runner, output: "", exitCode: 0 });\nexport const verdict: string = result.verdict;\n');
    const tsc = join(app, "node_modules", ".bin", "tsc");
    expect(() => run(tsc, ["--noEmit", "--strict", "--skipLibCheck", "false", "--target", "es2022", "--module", module, "--moduleResolution", resolution, "--types", "node", "check.ts"])).not.toThrow();
  });
});
