// The library's entries as `npm run build` leaves them (issue 18, target 3): each file package.json
// exports is esbuild's bundle (scripts/bundle-library.mjs), importing shared chunks in dist/chunks/
// and none of tsc's modules, and gives the same results as tsc's modules on the same inputs: every
// captured run's command line and output through both, judged and analysed. What the modules find
// from their own place (the grammar, the audit's worker threads) the chunks still find, and the
// grammar loader imports none of the node modules only the load needs.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ensureCaptured, loadCapture } from "../support/capture.js";
import { CAPTURE_CASES } from "../support/capture-cases.js";
import { repoRoot } from "../support/import-graph.js";
import { tempDirPath } from "../support/temp-dir.js";

const dist = join(repoRoot, "dist");
const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
  exports: Record<string, string | { import: string }>;
};
const entryFiles = Object.values(manifest.exports)
  .map((target) => (typeof target === "string" ? target : target.import))
  .filter((file) => file.endsWith(".js"))
  .map((file) => join(repoRoot, file));
const scratch = tempDirPath("ae-library-bundle-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// A module script in a fresh node process (a file: worker threads inherit node's options); its stdout parsed as JSON.
let scripts = 0;
function inNode(script: string, env: NodeJS.ProcessEnv = {}): unknown {
  const file = join(scratch, `script-${(scripts += 1)}.mjs`);
  writeFileSync(file, script);
  const result = spawnSync(process.execPath, [file], {
    cwd: scratch,
    encoding: "utf8",
    env: { ...process.env, ...env },
    maxBuffer: 1 << 28,
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout);
}

const url = (file: string): string => JSON.stringify(join(dist, file));

describe("the bundled library entries (dist/index.js, dist/entries/*.js, dist/adapters/*.js)", () => {
  it.each(entryFiles.map((file) => [file.slice(repoRoot.length + 1), file]))("%s imports only its chunks", (_name, file) => {
    const source = readFileSync(file, "utf8");
    const local = [...source.matchAll(/^(?:import|export)\s[^;]*?["'](\.[^"']+)["']/gm)].map((m) => m[1]!);
    expect(local.length).toBeGreaterThan(0);
    expect(local.filter((spec) => !spec.startsWith("../chunks/chunk-") && !spec.startsWith("./chunks/chunk-"))).toEqual([]);
  });

  it("share one copy of each module: an entry's function is the root entry's", () => {
    const same = inNode(`
      const root = await import(${url("index.js")});
      const shell = await import(${url("entries/shell.js")});
      console.log(JSON.stringify([shell.analyzeCommand === root.analyzeCommand, shell.ready === root.ready]));`);
    expect(same).toEqual([true, true]);
  });

  describe("against tsc's modules, on every captured run", () => {
    beforeAll(async () => {
      await ensureCaptured();
    });

    it("judge and analyzeCommand give the same fields", () => {
      const cases = CAPTURE_CASES.map((spec) => loadCapture(spec.name)).map((run) => ({
        name: run.name,
        line: run.line,
        cwd: run.cwd,
        output: run.output,
        exitCode: run.exitCode,
      }));
      expect(cases.length).toBeGreaterThan(50);
      const input = join(scratch, "cases.json");
      writeFileSync(input, JSON.stringify(cases));
      const compared = inNode(`
        import { readFileSync } from "node:fs";
        const cases = JSON.parse(readFileSync(${JSON.stringify(input)}, "utf8"));
        const bundle = await import(${url("index.js")});
        const { judge } = await import(${url("evidence/judge.js")});
        const { analyzeCommand } = await import(${url("grammar/analyze-command.js")});
        const differ = [];
        let runs = 0;
        for (const c of cases) {
          const input = { command: c.line, output: c.output, exitCode: c.exitCode, cwd: c.cwd };
          const viaBundle = JSON.stringify([bundle.judge(input), bundle.analyzeCommand(c.line, { cwd: c.cwd })]);
          const viaModules = JSON.stringify([judge(input), analyzeCommand(c.line, { cwd: c.cwd })]);
          if (viaBundle !== viaModules) differ.push(c.name);
          runs += JSON.parse(viaBundle)[0].runs.length;
        }
        console.log(JSON.stringify({ differ, runs }));`) as { differ: string[]; runs: number };
      expect(compared.differ).toEqual([]);
      expect(compared.runs).toBeGreaterThan(50);
    });
  });

  it("finds the package's grammar from its chunks, and loads no node module only the grammar's load needs until it parses", () => {
    const loaded = inNode(
      `
      const shell = await import(${url("entries/shell.js")});
      const builtins = () => process.moduleLoadList.filter((m) => /^NativeModule (crypto|v8|vm)$/.test(m)).length;
      const atImport = builtins();
      const runs = shell.analyzeCommand("cd pkg && pytest -q 2>&1 | tail -3").invocations.length;
      console.log(JSON.stringify({ atImport, runs, afterParse: builtins() }));`,
      { AGENT_EVIDENCE_GRAMMAR: "" },
    );
    expect(loaded).toEqual({ atImport: 0, runs: 1, afterParse: 3 });
  });

  it("audits with worker threads from its chunks and reports what one thread reports", () => {
    const fixtures = join(repoRoot, "test", "fixtures", "transcripts", "claude-code");
    const files = readdirSync(fixtures, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".jsonl"))
      .slice(0, 17);
    expect(files.length).toBeGreaterThan(8); // more than one worker's batch
    const transcripts = join(scratch, "transcripts");
    mkdirSync(transcripts);
    const paths = files.map((name, index) => {
      const path = join(transcripts, `t${String(index).padStart(2, "0")}.jsonl`);
      writeFileSync(path, readFileSync(join(fixtures, name)));
      return path;
    });
    const audited = inNode(`
      const { auditFiles } = await import(${url("entries/audit.js")});
      const audit = async (jobs) => { const out = []; await auditFiles(${JSON.stringify(paths)}, { jobs, onResult: (r) => out.push(r) }); return out; };
      const [threads, single] = [await audit(2), await audit(1)];
      console.log(JSON.stringify({ same: JSON.stringify(threads) === JSON.stringify(single), errors: threads.filter((r) => r.kind === "error").length, count: threads.length }));`) as {
      same: boolean;
      errors: number;
      count: number;
    };
    expect(audited).toEqual({ same: true, errors: 0, count: files.length });
  });
});
