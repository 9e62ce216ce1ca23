#!/usr/bin/env node
// bench/startup: what a short call costs from a cold process, the way a client or CI calls it
// (issue 17 section 4, issue 18 target 3). Each call is a whole `node dist/cli/main.js ...` process,
// measured under GNU time (wall, CPU, peak RSS), alternating with `node -e 0` in the same rounds so
// machine noise hits both; the ratio is against that baseline. Also the import of the package's
// entries inside one process (pure functions must import in under 30 ms; the root entry loads no
// grammar, which the first parse reads).
// Wall time is taken around the whole child (GNU time's own figure has 10 ms steps); CPU and peak
// RSS are GNU time's. BENCH_OTHER=DIR adds the same calls on another checkout's dist/ (an older
// build, say), in the same rounds.
// Run: npm run build && node bench/startup/index.mjs (BENCH_RUNS=7). npm run build bundles the CLI
// (scripts/bundle-cli.mjs); after tsc alone dist/cli/main.js is the unbundled CLI, slower to start.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

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
  session_id: "bench-startup", transcript_path: transcript, cwd: scratch, permission_mode: "default", hook_event_name: "PostToolUse",
  tool_name: "Bash", tool_use_id: "toolu_bench", tool_input: { command: "python -m pytest -q tests/test_a.py" },
  tool_response: { stdout: "..                                                                       [100%]\n2 passed in 0.01s\n", stderr: "", interrupted: false, isImage: false },
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
    input: call.stdin ?? "", encoding: "utf8", env: { ...process.env, XDG_STATE_HOME: state },
  });
  const wall = (performance.now() - started) / 1000;
  const line = result.stderr.trim().split("\n").at(-1);
  const [user, sys, rssKb] = line.split(" ").map(Number);
  if (!Number.isFinite(rssKb)) throw new Error(`${call.name}: no timing (${result.stderr})`);
  return { wall, cpu: user + sys, rss: rssKb / 1024 };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const samples = new Map(calls.map((call) => [call.name, []]));
for (const call of calls) measure(call); // warm the file cache
for (let round = 0; round < RUNS; round += 1) for (const call of calls) samples.get(call.name).push(measure(call));

const baseline = median(samples.get(calls[0].name).map((s) => s.wall));
const misses = [];
console.log(`| call | wall (median of ${RUNS}) | ratio to node -e 0 | CPU | peak RSS |`);
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const call of calls) {
  const runs = samples.get(call.name);
  const wall = median(runs.map((s) => s.wall));
  const ratio = wall / baseline;
  const rss = median(runs.map((s) => s.rss));
  console.log(`| ${call.name} | ${wall.toFixed(3)} s | ${ratio.toFixed(2)}x | ${median(runs.map((s) => s.cpu)).toFixed(3)} s | ${rss.toFixed(0)} MB |`);
  if (call.target && ratio > 2.5) misses.push(`${call.name}: ${ratio.toFixed(2)}x node -e 0 (target 2.5x)`);
  if (call.target && rss >= 60) misses.push(`${call.name}: ${rss.toFixed(0)} MB peak RSS (target under 60 MB)`);
}

// Import cost inside one process: each entry in a fresh process, timed around import() alone.
const entries = [
  ["agent-evidence/patches (pure)", "dist/patches/index.js", 30],
  ["agent-evidence/shell (pure, no grammar until a parse)", "dist/shell/index.js", 30],
  ["agent-evidence (root)", "dist/index.js", undefined],
  ["root, then the first analyzeCommand (reads the grammar)", "dist/index.js", undefined, true],
];
console.log("\n| import | median ms | target |");
console.log("| --- | ---: | --- |");
for (const [name, file, limit, parse] of entries) {
  const times = [];
  for (let round = 0; round < RUNS; round += 1) {
    const script = `const t = performance.now(); const m = await import(${JSON.stringify(join(root, file))}); ${parse ? 'm.analyzeCommand("cd pkg && pytest -q");' : ""} console.log(performance.now() - t);`;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    times.push(Number(result.stdout.trim()));
  }
  const ms = median(times);
  console.log(`| ${name} | ${ms.toFixed(1)} | ${limit === undefined ? "" : `under ${limit} ms`} |`);
  if (limit !== undefined && ms >= limit) misses.push(`${name}: ${ms.toFixed(1)} ms import (target under ${limit} ms)`);
}

rmSync(scratch, { recursive: true, force: true });
console.log(misses.length === 0 ? "\ntargets met" : `\ntargets missed:\n${misses.map((m) => `- ${m}`).join("\n")}`);
