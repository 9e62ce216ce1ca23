#!/usr/bin/env node
// bench/tools: the native bash tool against raw execa, built code from dist/.
//   1. A command printing 1 GB: the tool's peak RSS must stay under 200 MB while the model-visible text
//      stays bounded (measured in a fresh worker process so nothing else inflates the peak).
//   2. 200 short commands through the tool and through raw execa, interleaved: median overhead and ratio.
// Build first: npx tsc -p tsconfig.build.json   Run: node bench/tools/index.mjs [--quick]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { interpolatedMedian } from "../support/stats.mjs";

const here = fileURLToPath(import.meta.url);
const dist = new URL("../../dist/entries/tools.js", import.meta.url).href;
const distSandbox = new URL("../../dist/tools/sandbox.js", import.meta.url).href;
const distSandboxHost = new URL("../../dist/tools/sandbox-host.js", import.meta.url).href;
const GB = 1_000_000_000;
const RSS_LIMIT = 200 * 1024 * 1024;

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function worker(kind, bytes) {
  const { createBashTool } = await import(dist);
  const ws = mkdtempSync(join(tmpdir(), "ae-bench-tools-"));
  try {
    const tool = createBashTool({ cwd: ws, sandbox: false, tempDir: ws });
    const command = kind === "big" ? `yes 'the quick brown fox jumps over the lazy dog 0123456789' | head -c ${bytes}` : "true";
    const started = performance.now();
    const result = await tool.execute({ command, timeoutMs: 600_000 });
    const ms = performance.now() - started;
    process.stdout.write(
      JSON.stringify({
        maxRss: process.resourceUsage().maxRSS * 1024,
        ms,
        textLength: result.text.length,
        bytes: result.data.stdout.bytes,
        loggedBytes: result.data.stdout.loggedBytes,
        truncated: result.data.truncated,
        exitCode: result.data.exitCode,
      }),
    );
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

function runWorker(kind, bytes) {
  const child = spawnSync(process.execPath, [here, "--worker", kind, String(bytes)], { encoding: "utf8", maxBuffer: 1024 * 1024 });
  if (child.status !== 0) throw new Error(`worker ${kind} failed: ${child.stderr}`);
  return JSON.parse(child.stdout);
}

async function shortCommands(count) {
  const { createBashTool } = await import(dist);
  const { bubblewrapArgs, sandboxEnvironment } = await import(distSandbox);
  const { createSandboxLayout } = await import(distSandboxHost);
  const { execa } = await import("execa");
  const ws = mkdtempSync(join(tmpdir(), "ae-bench-tools-"));
  const sandboxTmp = mkdtempSync(join(tmpdir(), "ae-bench-sandbox-"));
  try {
    const layout = createSandboxLayout({ workspace: ws, tempDir: sandboxTmp });
    const env = sandboxEnvironment(process.env, undefined);
    // Each mode against the raw execa call that does the same work: plain bash, or bash in the same bwrap sandbox.
    const modes = [
      {
        mode: "unsandboxed",
        tool: createBashTool({ cwd: ws, sandbox: false, tempDir: ws }),
        raw: (command) => execa("bash", ["-c", command], { cwd: ws, reject: false }),
      },
      {
        mode: "bubblewrap",
        tool: createBashTool({ cwd: ws, sandbox: "strict", tempDir: ws }),
        raw: (command) => execa("bwrap", bubblewrapArgs(layout, ws, ["bash", "-c", command], env), { cwd: ws, reject: false }),
      },
    ];
    const rows = [];
    for (const { mode, tool, raw } of modes) {
      const commands = Array.from({ length: count }, (_, i) => (i % 2 === 0 ? `echo call ${i}` : `printf '%s\\n' ${i} >&2; exit ${i % 3}`));
      // Warm up both paths (module loading, the sandbox probe, the log directory).
      await tool.execute({ command: "true" });
      await raw("true");
      const toolMs = [];
      const rawMs = [];
      for (const command of commands) {
        let started = performance.now();
        await raw(command);
        rawMs.push(performance.now() - started);
        started = performance.now();
        await tool.execute({ command });
        toolMs.push(performance.now() - started);
      }
      rows.push({ mode, count, rawMedian: interpolatedMedian(rawMs), toolMedian: interpolatedMedian(toolMs) });
    }
    return rows;
  } finally {
    rmSync(ws, { recursive: true, force: true });
    rmSync(sandboxTmp, { recursive: true, force: true });
  }
}

// The bubblewrap flags before the sandbox was hardened (read-only root, no capability drop, no user
// namespace, inherited environment), kept here only as the baseline of section 3.
function previousArgs(ws, tempDir, argv) {
  return [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--bind",
    tempDir,
    "/tmp",
    "--bind",
    ws,
    ws,
    "--unshare-pid",
    "--unshare-ipc",
    "--die-with-parent",
    "--setenv",
    "TMPDIR",
    "/tmp",
    "--unshare-net",
    "--chdir",
    ws,
    "--",
    ...argv,
  ];
}

// Section 3: one sandboxed call with the old flags against the new levels, each through raw execa and
// interleaved; the "+ limits" rows add what the tool adds per call (the cgroup or rlimit wrappers).
async function sandboxFlagCost(count) {
  const { bubblewrapArgs, sandboxEnvironment } = await import(distSandbox);
  const { createSandboxLayout, createCallLimits } = await import(distSandboxHost);
  const { execa } = await import("execa");
  const ws = mkdtempSync(join(tmpdir(), "ae-bench-flags-"));
  const sandboxTmp = mkdtempSync(join(tmpdir(), "ae-bench-flags-tmp-"));
  try {
    const env = sandboxEnvironment(process.env, undefined);
    const hostEnv = { env: { PATH: process.env.PATH ?? "" }, extendEnv: false };
    const strictLayout = createSandboxLayout({ workspace: ws, tempDir: sandboxTmp, level: "strict" });
    // One set of limits per tool, as the bash tool keeps them.
    const limits = createCallLimits({ pids: 2048, memoryBytes: 4 * 1024 ** 3 }, strictLayout.host.root);
    const variants = {
      previous: () => execa("bwrap", previousArgs(ws, sandboxTmp, ["bash", "-c", "true"]), { cwd: ws, reject: false }),
      strict: () =>
        execa(
          "bwrap",
          bubblewrapArgs(createSandboxLayout({ workspace: ws, tempDir: sandboxTmp, level: "strict" }), ws, ["bash", "-c", "true"], env),
          { cwd: ws, reject: false, ...hostEnv },
        ),
      "workspace-only": () =>
        execa(
          "bwrap",
          bubblewrapArgs(
            createSandboxLayout({ workspace: ws, tempDir: sandboxTmp, level: "workspace-only" }),
            ws,
            ["bash", "-c", "true"],
            env,
          ),
          { cwd: ws, reject: false, ...hostEnv },
        ),
      "strict + limits": () => {
        const argv = limits.wrapHost("bwrap", bubblewrapArgs(strictLayout, ws, limits.wrapInner(["bash", "-c", "true"]), env));
        return execa(argv.file, argv.args, { cwd: ws, reject: false, ...hostEnv });
      },
    };
    const times = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
    for (const run of Object.values(variants)) await run();
    for (let i = 0; i < count; i += 1) {
      for (const [name, run] of Object.entries(variants)) {
        const started = performance.now();
        const result = await run();
        times[name].push(performance.now() - started);
        if (result.exitCode !== 0) throw new Error(`${name}: exit ${result.exitCode}: ${result.stderr}`);
      }
    }
    return Object.fromEntries(Object.entries(times).map(([name, values]) => [name, interpolatedMedian(values)]));
  } finally {
    rmSync(ws, { recursive: true, force: true });
    rmSync(sandboxTmp, { recursive: true, force: true });
  }
}

async function main() {
  const quick = process.argv.includes("--quick");
  const bytes = quick ? 100_000_000 : GB;
  const count = quick ? 40 : 200;
  let failed = false;

  const baseline = runWorker("true", 0);
  const big = runWorker("big", bytes);
  const bounded = big.textLength <= 2 * 8_000 + 400;
  const underLimit = big.maxRss < RSS_LIMIT;
  console.log(`1) ${bytes.toLocaleString("en")} bytes of output through the bash tool (maxOutputChars 8,000, raw cap 64 MiB)`);
  console.log(
    `   peak RSS ${mb(big.maxRss)} (limit 200 MB: ${underLimit ? "ok" : "EXCEEDED"}); same worker running \`true\`: ${mb(baseline.maxRss)}`,
  );
  console.log(
    `   peak RSS / output size = ${(big.maxRss / big.bytes).toFixed(4)}; extra RSS over the \`true\` run / output size = ${((big.maxRss - baseline.maxRss) / big.bytes).toFixed(4)}`,
  );
  console.log(
    `   model-visible text ${big.textLength} chars (${bounded ? "bounded" : "NOT BOUNDED"}); log kept ${big.loggedBytes.toLocaleString("en")} bytes, truncated=${big.truncated}; ${(big.ms / 1000).toFixed(1)} s`,
  );
  failed ||= !bounded || !underLimit || big.bytes !== bytes;

  console.log(`2) ${count} short commands, raw execa (same bash, same sandbox) vs the bash tool (interleaved, medians)`);
  for (const row of await shortCommands(count)) {
    const overhead = row.toolMedian - row.rawMedian;
    console.log(
      `   ${row.mode.padEnd(11)} raw ${row.rawMedian.toFixed(2)} ms, tool ${row.toolMedian.toFixed(2)} ms: overhead ${overhead.toFixed(2)} ms, ratio ${(row.toolMedian / row.rawMedian).toFixed(2)}x`,
    );
  }

  console.log(
    `3) ${count} sandboxed \`true\` calls per flag set (raw execa, interleaved, medians): the hardened flags against the previous ones`,
  );
  const flags = await sandboxFlagCost(count);
  for (const [name, ms] of Object.entries(flags)) {
    console.log(`   ${name.padEnd(16)} ${ms.toFixed(2)} ms, ratio to previous ${(ms / flags.previous).toFixed(3)}x`);
  }

  // 4) The policy on a 200 KB base64 line (the 18 s case) against the previous fork-bomb regex
  //    on a line a twentieth of that size (its cost grows with the square of the word's length).
  const { checkCommandPolicy } = await import(dist);
  // base64 of zero bytes: one 200 KB word of `A`s, the shape that made the previous regex quadratic.
  const blob = Buffer.alloc(150_000).toString("base64");
  const previousRule = /([\w:.]+)\s*\(\)\s*\{\s*\1\s*\|\s*\1\s*&/;
  const timeIt = (fn) => {
    const runs = [];
    for (let i = 0; i < 5; i += 1) {
      const started = performance.now();
      fn();
      runs.push(performance.now() - started);
    }
    return interpolatedMedian(runs);
  };
  const policyMs = timeIt(() => checkCommandPolicy(`echo ${blob} | base64 -d > f`));
  const previousMs = timeIt(() => previousRule.test(`echo ${blob.slice(0, 10_000)}`));
  console.log(
    `4) the bash policy on a ${(blob.length / 1000).toFixed(0)} KB base64 line: ${policyMs.toFixed(2)} ms (target under 50 ms: ${policyMs < 50 ? "ok" : "MISSED"}); the previous fork-bomb regex on 10 KB of it: ${previousMs.toFixed(1)} ms (ratio ${(policyMs / previousMs).toFixed(3)}x)`,
  );
  failed ||= policyMs >= 50;
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[2] === "--worker") await worker(process.argv[3], Number(process.argv[4]));
else await main();
