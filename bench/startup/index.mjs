#!/usr/bin/env node
// bench/startup: what a short call costs from a cold process, the way a client or CI calls it
// (issue 17 section 4, issue 18 target 3). Each call is a whole `node dist/cli/main.js ...` process,
// measured under GNU time (wall, CPU, peak RSS), alternating with `node -e 0` in the same rounds so
// machine noise hits both; the ratio is against that baseline. Also the import of the package's
// entries inside one process, each the file package.json maps its name to (pure functions must
// import in under 30 ms; no entry loads the grammar), and the grammar's own start after it.
// Wall time is taken around the whole child (GNU time's own figure has 10 ms steps); CPU and peak
// RSS are GNU time's. BENCH_OTHER=DIR adds the same calls on another checkout's dist/ (an older
// build, say), in the same rounds.
// Run: npm run build && node bench/startup/index.mjs (BENCH_RUNS=7). npm run build bundles the CLI
// and the library's entries (scripts/bundle-cli.mjs, scripts/bundle-library.mjs); after tsc alone
// dist/ holds the unbundled modules, which work but are slower to start and import.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { median } from "../support/stats.mjs";
import { Targets } from "../support/targets.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TIME = "/usr/bin/time";
const cli = join(root, "dist", "cli", "main.js");
if (!existsSync(cli)) throw new Error("bench/startup needs dist/: run npm run build first");
if (!existsSync(TIME)) throw new Error("bench/startup needs GNU time at /usr/bin/time (apt-get install -y time)");

const scratch = mkdtempSync(join(tmpdir(), "ae-startup-"));
const state = join(scratch, "state");
const oneLine = join(scratch, "one-line.log");
writeFileSync(oneLine, "1 passed in 0.01s\n");
// The first recorded Stop scenario: a Claude Code transcript and its Stop payload, read from the fixture.
const scenario = join(root, "test", "fixtures", "hooks", "stop-scenarios", "a-subset-after-failure", "claude");
const transcript = join(scratch, "transcript.jsonl");
writeFileSync(transcript, readFileSync(join(scenario, "transcript-1.jsonl")));
const stopPayload = JSON.stringify({ ...JSON.parse(readFileSync(join(scenario, "stop-1.json"), "utf8")), transcript_path: transcript });
const postPayload = JSON.stringify({
  session_id: "bench-startup",
  transcript_path: transcript,
  cwd: scratch,
  permission_mode: "default",
  hook_event_name: "PostToolUse",
  tool_name: "Bash",
  tool_use_id: "toolu_bench",
  tool_input: { command: "python -m pytest -q tests/test_a.py" },
  tool_response: {
    stdout: "..                                                                       [100%]\n2 passed in 0.01s\n",
    stderr: "",
    interrupted: false,
    isImage: false,
  },
});

const cliCalls = (main, label, target) => [
  { name: `judge, one-line log${label}`, args: [main, "judge", "--output", oneLine, "--command", "pytest"], target },
  { name: `hook claude-post-tool-use${label}`, args: [main, "hook", "claude-post-tool-use"], stdin: postPayload, target },
  { name: `hook claude-stop, small transcript${label}`, args: [main, "hook", "claude-stop"], stdin: stopPayload },
  { name: `--version${label}`, args: [main, "--version"] },
];
const other = process.env.BENCH_OTHER;
const calls = [
  { name: "node -e 0 (baseline)", args: ["-e", "0"] },
  ...cliCalls(cli, "", true),
  ...(other === undefined ? [] : cliCalls(join(resolve(other), "dist", "cli", "main.js"), ` (${other})`, false)),
];

function measure(call) {
  const started = performance.now();
  const result = spawnSync(TIME, ["-f", "%U %S %M", process.execPath, ...call.args], {
    input: call.stdin ?? "",
    encoding: "utf8",
    env: { ...process.env, XDG_STATE_HOME: state },
  });
  const wall = (performance.now() - started) / 1000;
  const line = result.stderr.trim().split("\n").at(-1);
  const [user, sys, rssKb] = line.split(" ").map(Number);
  if (!Number.isFinite(rssKb)) throw new Error(`${call.name}: no timing (${result.stderr})`);
  return { wall, cpu: user + sys, rss: rssKb / 1024 };
}

const t = new Targets();
const samples = new Map(calls.map((call) => [call.name, []]));
for (const call of calls) measure(call); // warm the file cache
for (let round = 0; round < RUNS; round += 1) for (const call of calls) samples.get(call.name).push(measure(call));

const baseline = median(samples.get(calls[0].name).map((s) => s.wall));
console.log(`| call | wall (median of ${RUNS}) | ratio to node -e 0 | CPU | peak RSS |`);
console.log("| --- | ---: | ---: | ---: | ---: |");
const checks = [];
for (const call of calls) {
  const runs = samples.get(call.name);
  const wall = median(runs.map((s) => s.wall));
  const rss = median(runs.map((s) => s.rss));
  console.log(
    `| ${call.name} | ${wall.toFixed(3)} s | ${(wall / baseline).toFixed(2)}x | ${median(runs.map((s) => s.cpu)).toFixed(3)} s | ${rss.toFixed(0)} MB |`,
  );
  if (call.target)
    checks.push(() => {
      t.ratio(`${call.name}, wall against node -e 0`, wall / baseline, 2.5, "max");
      t.ratio(`${call.name}, peak RSS`, rss, 60, "max", " MB");
    });
}

// Import cost inside one process, the way a user imports the package: each entry file is the one
// package.json maps the name to, loaded in a fresh process and timed around import() alone. The
// grammar's own start follows, after importing agent-evidence/shell: ready() (read, check and
// compile the grammar), then the first analyzeCommand of a line that needs it (the first parse
// compiles the parser's WebAssembly functions as it calls them, and the analysis its JavaScript),
// then a second line (both warm). Rows of BENCH_OTHER's build run in the same rounds.
function entryFile(base, name) {
  const manifest = JSON.parse(readFileSync(join(base, "package.json"), "utf8"));
  const target = manifest.exports[name === "agent-evidence" ? "." : `./${name.slice("agent-evidence/".length)}`];
  return join(base, typeof target === "string" ? target : target.import);
}

const PHASES = ["import", "ready", "first", "warm"];
function importRows(base, label) {
  const rows = [
    {
      name: `agent-evidence/patches (pure)${label}`,
      file: entryFile(base, "agent-evidence/patches"),
      limit: label === "" ? 30 : undefined,
    },
    {
      name: `agent-evidence/shell (no grammar until a parse)${label}`,
      file: entryFile(base, "agent-evidence/shell"),
      limit: label === "" ? 30 : undefined,
      grammar: true,
    },
    { name: `agent-evidence (root)${label}`, file: entryFile(base, "agent-evidence") },
  ];
  return rows;
}
const imports = [...importRows(root, ""), ...(other === undefined ? [] : importRows(resolve(other), ` (${other})`))];

function measureImport(row) {
  const grammar = row.grammar
    ? `let at = performance.now(); await m.ready(); const ready = performance.now() - at;
       at = performance.now(); m.analyzeCommand("cd pkg && pytest -q 2>&1 | tail -3"); const first = performance.now() - at;
       at = performance.now(); m.analyzeCommand("cd app && python -m pytest tests/unit -x; echo done"); const warm = performance.now() - at;
       console.log(JSON.stringify({ import: imported, ready, first, warm }));`
    : "console.log(JSON.stringify({ import: imported }));";
  const script = `const t = performance.now(); const m = await import(${JSON.stringify(row.file)}); const imported = performance.now() - t; ${grammar}`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${row.name}: ${result.stderr}`);
  return JSON.parse(result.stdout.trim());
}

const importSamples = new Map(imports.map((row) => [row, []]));
for (let round = 0; round < RUNS; round += 1) for (const row of imports) importSamples.get(row).push(measureImport(row));
console.log(
  `\n| import | import ms (median of ${RUNS}) | then ready(): grammar loaded, ms | then the first analyzeCommand, ms | then another line, ms | target |`,
);
console.log("| --- | ---: | ---: | ---: | ---: | --- |");
for (const row of imports) {
  const runs = importSamples.get(row);
  const phase = (key) => (runs[0][key] === undefined ? "" : median(runs.map((r) => r[key])).toFixed(1));
  console.log(`| ${row.name} | ${PHASES.map(phase).join(" | ")} | ${row.limit === undefined ? "" : `import under ${row.limit} ms`} |`);
  if (row.limit !== undefined)
    checks.push(() => t.ratio(`${row.name}, import`, median(runs.map((r) => r.import)), row.limit, "max", " ms"));
}

rmSync(scratch, { recursive: true, force: true });
console.log("");
for (const check of checks) check();
t.finish();
