#!/usr/bin/env node
// bench/run: `agent-evidence run` on a real pytest suite that prints ~1 GiB (AE_BENCH_BYTES to
// change it). Reports the peak RSS of the `agent-evidence run` process (probed from inside it at exit;
// the suite runs in its own processes) and the wall-time overhead against running the same command
// directly through bash with its output to a file, as a ratio from the same run. Needs `npm run build`.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const cli = join(root, "dist/cli/main.js");
const TARGET_BYTES = Number(process.env.AE_BENCH_BYTES ?? 2 ** 30);
const RSS_LIMIT_MB = 150;
const PYTHON = process.env.AE_BENCH_PYTHON ?? "/usr/bin/python3";

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

function run(argv, env, stdio, cwd) {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(argv[0], argv.slice(1), { env, stdio, cwd });
    child.on("error", fail);
    child.on("close", (code) => done({ code, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
  });
}

const work = mkdtempSync(join(tmpdir(), "ae-bench-run-"));
try {
  mkdirSync(join(work, "tests"));
  writeFileSync(join(work, "tests", "test_chatty.py"), CHATTY_TEST);
  const command = `${PYTHON} -m pytest -q -s -p no:cacheprovider tests`;
  const env = { ...process.env, PYTHONDONTWRITEBYTECODE: "1", CI: "1" };

  // Baseline: the same command through bash, output to a file.
  const direct = await run(["bash", "-c", `${command} > ${join(work, "direct.log")} 2>&1`], env, "ignore", work);
  const directBytes = statSync(join(work, "direct.log")).size;
  rmSync(join(work, "direct.log"));

  // agent-evidence run, its own maxRSS written by a preload at exit.
  const probe = join(work, "rss-probe.mjs");
  const rssFile = join(work, "rss.txt");
  writeFileSync(probe, `import { writeFileSync } from "node:fs";\nprocess.on("exit", () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));\n`);
  const viaRun = await run(
    [process.execPath, "--import", probe, cli, "run", "--cwd", work, "--log", join(work, "suite.log"), "--out", join(work, "out"), "--verdict", join(work, "verdict.json"), "--cmd", command],
    env,
    ["ignore", "ignore", "ignore"],
  );
  const verdict = JSON.parse(readFileSync(join(work, "verdict.json"), "utf8"));
  const rssMb = Number(readFileSync(rssFile, "utf8")) / 1024;

  const ratio = viaRun.ms / direct.ms;
  console.log(`suite output: ${(verdict.bytes / 2 ** 20).toFixed(0)} MiB through agent-evidence run (direct run: ${(directBytes / 2 ** 20).toFixed(0)} MiB)`);
  console.log(`verdict: ${verdict.status} ${JSON.stringify(verdict.reasons)}, exit ${viaRun.code}, tests ${verdict.tests}`);
  console.log(`peak RSS of agent-evidence run: ${rssMb.toFixed(1)} MB (limit ${RSS_LIMIT_MB} MB)`);
  console.log(`wall time: direct ${(direct.ms / 1000).toFixed(2)} s, agent-evidence run ${(viaRun.ms / 1000).toFixed(2)} s, ratio ${ratio.toFixed(2)}x`);
  const ok = rssMb < RSS_LIMIT_MB && verdict.status === "passed" && verdict.bytes >= Math.min(TARGET_BYTES, directBytes) * 0.99;
  if (!ok) console.log("FAIL: peak memory over the limit, or the run did not pass with the full output");
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
