#!/usr/bin/env node
// bench/run: `agent-evidence run` on a real pytest suite that prints ~1 GiB (AE_BENCH_BYTES to change
// it), against the same command run directly through bash with its output to a file, and against two
// physical floors of keeping the log through a pipe, measured in the same rounds:
//   - `COMMAND 2>&1 | cat > LOG`: a pipe and a copy to the file, nothing else;
//   - `COMMAND 2>&1 | tee LOG | openssl dgst -sha256`: the log and its SHA-256 (openssl uses the
//     CPU's SHA instructions; coreutils' sha256sum here does not, and is ~7x slower: it is the fallback).
// Rounds alternate the four (AE_BENCH_ROUNDS, default 3); figures are medians. Reports the peak RSS
// and the CPU time of the `agent-evidence run` process (probed from inside it at exit, all its threads;
// the suite runs in its own processes). Issue 18, target 4: at most 1.5x the direct run's wall time
// and at most 100 MB. Needs `npm run build`. AE_BENCH_AB=<another build's dist/cli/main.js> adds that
// build's `run` to every round (before/after figures from the same rounds).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { best, median } from "../support/stats.mjs";
import { Targets } from "../support/targets.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const cli = join(root, "dist/cli/main.js");
const TARGET_BYTES = Number(process.env.AE_BENCH_BYTES ?? 2 ** 30);
const ROUNDS = Number(process.env.AE_BENCH_ROUNDS ?? 3);
const WALL_LIMIT = 1.5;
const RSS_LIMIT_MB = 100;
const PYTHON = process.env.AE_BENCH_PYTHON ?? "/usr/bin/python3";
const OTHER_CLI = process.env.AE_BENCH_AB;

const CHATTY_TEST = `import sys

TARGET = ${TARGET_BYTES}


def test_chatty():
    # A suite whose test logs a lot: ordinary log lines, written in ~1 MiB blocks.
    line = "2024-05-01 12:00:00,000 INFO worker.pool: processed item 0123456789 in 0.42 ms, queue depth 17\\n"
    block = line * ((1 << 20) // len(line))
    for _ in range(max(1, TARGET // len(block))):
        sys.stdout.write(block)
    sys.stdout.flush()


def test_quiet():
    assert 1 + 1 == 2
`;

function run(argv, env, cwd) {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(argv[0], argv.slice(1), { env, stdio: "ignore", cwd });
    child.on("error", fail);
    child.on("close", (code) => done({ code, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
  });
}

const hasOpenssl = spawnSync("openssl", ["version"], { stdio: "ignore" }).status === 0;
const hasher = hasOpenssl ? "openssl dgst -sha256" : "sha256sum";

const work = mkdtempSync(join(tmpdir(), "ae-bench-run-"));
try {
  mkdirSync(join(work, "tests"));
  writeFileSync(join(work, "tests", "test_chatty.py"), CHATTY_TEST);
  const command = `${PYTHON} -m pytest -q -s -p no:cacheprovider tests`;
  const env = { ...process.env, PYTHONDONTWRITEBYTECODE: "1", CI: "1" };
  const log = join(work, "floor.log");
  // The run's own peak RSS and CPU time (user + system, every thread), written by a preload at exit.
  const probe = join(work, "probe.mjs");
  const probeFile = join(work, "probe.json");
  writeFileSync(
    probe,
    `import { writeFileSync } from "node:fs";\nprocess.on("exit", () => { const u = process.resourceUsage(); writeFileSync(${JSON.stringify(probeFile)}, JSON.stringify({ maxRSS: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 })); });\n`,
  );

  const ways = {
    direct: async () => run(["bash", "-c", `${command} > ${log} 2>&1`], env, work),
    "| cat > LOG": async () => run(["bash", "-c", `${command} 2>&1 | cat > ${log}`], env, work),
    [`| tee LOG | ${hasher}`]: async () => run(["bash", "-c", `${command} 2>&1 | tee ${log} | ${hasher} > /dev/null`], env, work),
    "agent-evidence run": async () => viaRun(cli),
    ...(OTHER_CLI === undefined ? {} : { "AE_BENCH_AB run": async () => viaRun(resolve(OTHER_CLI)) }),
  };
  async function viaRun(main) {
    const out = join(work, "out");
    rmSync(out, { recursive: true, force: true });
    const result = await run(
      [process.execPath, "--import", probe, main, "run", "--cwd", work, "--out", out, "--cmd", command],
      env,
      undefined,
    );
    const verdict = JSON.parse(readFileSync(join(out, "verdict.json"), "utf8"));
    return { ...result, verdict, ...JSON.parse(readFileSync(probeFile, "utf8")) };
  }
  const times = Object.fromEntries(Object.keys(ways).map((name) => [name, []]));
  const runs = [];
  const otherRuns = [];
  let directBytes = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, way] of Object.entries(ways)) {
      rmSync(log, { force: true });
      const result = await way();
      times[name].push(result.ms);
      if (name === "direct") directBytes = statSync(log).size;
      if (name === "agent-evidence run") runs.push(result);
      if (name === "AE_BENCH_AB run") otherRuns.push(result);
    }
    console.log(
      `round ${round + 1}: ${Object.entries(times)
        .map(([name, ms]) => `${name} ${(ms.at(-1) / 1000).toFixed(2)} s`)
        .join(", ")}`,
    );
  }
  rmSync(log, { force: true });

  const wall = Object.fromEntries(Object.entries(times).map(([name, ms]) => [name, median(ms)]));
  const ours = wall["agent-evidence run"];
  const rssMb = Math.max(...runs.map((r) => r.maxRSS)) / 1024;
  const cpuS = median(runs.map((r) => r.cpuMs)) / 1000;
  const last = runs.at(-1);
  console.log(
    `\nsuite output: ${(last.verdict.bytes / 2 ** 20).toFixed(0)} MiB through agent-evidence run (direct run: ${(directBytes / 2 ** 20).toFixed(0)} MiB); ${ROUNDS} rounds, medians`,
  );
  console.log(`verdict: ${last.verdict.status} ${JSON.stringify(last.verdict.reasons)}, exit ${last.code}, tests ${last.verdict.tests}`);
  // Bests too: on a shared machine the short direct run's median swings most.
  const fastest = Object.fromEntries(Object.entries(times).map(([name, ms]) => [name, best(ms)]));
  for (const [name, ms] of Object.entries(wall)) {
    const ratio =
      name === "agent-evidence run"
        ? ""
        : `; agent-evidence run is ${(ours / ms).toFixed(2)}x this (bests: ${(fastest["agent-evidence run"] / fastest[name]).toFixed(2)}x)`;
    console.log(`wall time, ${name}: median ${(ms / 1000).toFixed(2)} s, best ${(fastest[name] / 1000).toFixed(2)} s${ratio}`);
  }
  console.log(`agent-evidence run: CPU ${cpuS.toFixed(2)} s (user + system, all threads), peak RSS ${rssMb.toFixed(1)} MB (worst round)`);
  if (otherRuns.length > 0) {
    const otherRss = Math.max(...otherRuns.map((r) => r.maxRSS)) / 1024;
    console.log(
      `AE_BENCH_AB run (${OTHER_CLI}): CPU ${(median(otherRuns.map((r) => r.cpuMs)) / 1000).toFixed(2)} s, peak RSS ${otherRss.toFixed(1)} MB, verdict ${otherRuns.at(-1).verdict.status}`,
    );
  }

  const t = new Targets();
  t.check(
    runs.every((r) => r.verdict.status === "passed" && r.verdict.bytes >= Math.min(TARGET_BYTES, directBytes) * 0.99),
    "every run passed with the full output kept",
  );
  t.ratio("agent-evidence run wall time against the direct run", ours / wall.direct, WALL_LIMIT, "max");
  t.ratio("agent-evidence run peak RSS", rssMb, RSS_LIMIT_MB, "max", " MB");
  t.finish();
} finally {
  rmSync(work, { recursive: true, force: true });
}
