// The CLI as `npm run build` leaves it: dist/cli/main.js is esbuild's bundle (scripts/bundle-cli.mjs),
// and what the unbundled modules found from their own place the bundle still finds from dist/cli/:
// the grammar (a line that is not plain words loads it), the audit's worker threads, the version
// in package.json. Whole processes, as a client starts them.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { tempDirPath } from "../support/temp-dir.js";

const root = resolve(import.meta.dirname, "../..");
const cli = join(root, "dist", "cli", "main.js");
const scratch = tempDirPath("ae-cli-bundle-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(args: string[], input = "", env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], {
    input,
    encoding: "utf8",
    env: { ...process.env, ...env },
    maxBuffer: 1 << 26,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("the bundled CLI (dist/cli/main.js)", () => {
  it("is the bundle: it imports its own chunks, not the modules of dist/", () => {
    const main = readFileSync(cli, "utf8");
    expect(main).toMatch(/from "\.\/bundle-chunk-[A-Z0-9]+\.js"/);
    expect(main).not.toMatch(/from "\.\.\//);
  });

  it("reads its version from the package's package.json", () => {
    const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    expect(run(["--version"]).stdout.trim()).toBe(version);
  });

  it("finds the package's grammar for a line that is not plain words, and says where it looked when it is missing", () => {
    const output = `${".....".padEnd(73)}[100%]\n5 passed in 0.10s\n`;
    const judged = run(["judge", "--command", "cd . && pytest -q 2>&1 | tail -3", "--exit-code", "0"], output, {
      AGENT_EVIDENCE_GRAMMAR: "",
    });
    expect({ status: judged.status, verdict: (JSON.parse(judged.stdout) as { verdict: string }).verdict, stderr: judged.stderr }).toEqual({
      status: 0,
      verdict: "passed",
      stderr: "",
    });
    const missing = run(["judge", "--command", "cd . && pytest -q"], output, { AGENT_EVIDENCE_GRAMMAR: join(scratch, "none.grammar") });
    expect(missing.status).toBe(70);
    expect(missing.stderr).toContain(`the bash grammar is not at ${join(scratch, "none.grammar")}`);
  });

  it("audits with its worker threads and reports what one thread reports", () => {
    const transcripts = join(scratch, "transcripts");
    const fixtures = join(root, "test", "fixtures", "transcripts", "claude-code");
    const files = readdirSync(fixtures, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".jsonl"))
      .slice(0, 17);
    expect(files.length).toBeGreaterThan(8); // more than one worker's batch
    mkdirSync(transcripts);
    files.forEach((name, index) => copyFileSync(join(fixtures, name), join(transcripts, `t${String(index).padStart(2, "0")}.jsonl`)));
    const threads = run(["audit", transcripts, "--jobs", "2", "--no-progress"]);
    const single = run(["audit", transcripts, "--jobs", "1", "--no-progress"]);
    expect(threads.stderr).not.toMatch(/internal error|Cannot find module/);
    expect(threads.stdout.trim().split("\n")).toHaveLength(files.length);
    expect(threads).toEqual(single);
  });
});
