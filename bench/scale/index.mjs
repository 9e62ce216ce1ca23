#!/usr/bin/env node
// bench/scale: judge and attributeExit on lines of 1,000 and 10,000 runs (`pytest tI.py; ...` and the
// same with `&&`) and on a 1,000-stage pipeline (`cat f0 | ... | cat f998 | pytest`), against a
// baseline measured in the same run: the same call on the 10-run (10-stage) form of the line, its cost
// per run times the line's runs. A ratio near 1 is linear; a quadratic cost shows as a ratio that grows
// tenfold from 1,000 to 10,000. A second baseline is a naive split-and-regex judge over the same line
// (split on ; && |, one regex per part, one per output line): the floor of reading the line at all.
// Each round times the small form, the big one and the naive one in turn, so load hits all alike.
// The target: 10,000 statements in under 1 s for judge and attributeExit, and a 1,000-stage
// pipeline well under 1 s, checked on the best round's CPU time (the process's, GC threads included:
// other work on the machine disturbs it less than wall time); exit 1 when missed.
// Run: npm run build && node --expose-gc bench/scale/index.mjs
// BENCH_RUNS (default 5) rounds; BENCH_SIZES (default 1000,10000); BENCH_DIST=path/to/dist measures
// another build (an older one: BENCH_MAX_SECONDS, default 60, skips a size once one call takes longer).
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

import { median } from "../support/stats.mjs";

const dist = resolve(process.env.BENCH_DIST ?? new URL("../../dist", import.meta.url).pathname);
const { judge } = await import(pathToFileURL(`${dist}/index.js`).href);
// attributeExit is public through agent-evidence/shell (dist/entries/shell.js), not the root entry.
const { analyzeCommand, attributeExit } = await import(pathToFileURL(`${dist}/entries/shell.js`).href);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SIZES = (process.env.BENCH_SIZES ?? "1000,10000").split(",").map(Number);
const MAX_MS = Number(process.env.BENCH_MAX_SECONDS ?? 60) * 1000;
const TARGET_MS = 1000;
const SMALL = 10;
const OUTPUT = "1 passed in 0.01s\n";

const shapes = [
  { name: "`;` statements", line: (n) => Array.from({ length: n }, (_, i) => `pytest t${i}.py`).join("; "), sizes: SIZES, target: 10000 },
  { name: "`&&` links", line: (n) => Array.from({ length: n }, (_, i) => `pytest t${i}.py`).join(" && "), sizes: SIZES, target: 10000 },
  {
    name: "pipeline stages",
    line: (n) => `${Array.from({ length: n - 1 }, (_, i) => `cat f${i}`).join(" | ")} | pytest`,
    sizes: [1000],
    target: 1000,
  },
];

const subjects = [
  { name: "judge", run: (line) => judge({ command: line, output: OUTPUT, exitCode: 0 }) },
  // The analysis is done before the clock starts: this is attribution alone.
  { name: "attributeExit", prepare: (line) => analyzeCommand(line), run: (analysis) => attributeExit(analysis, 0) },
];

// What a naive checker does with the same line: split it, find the runner in each part by regex, read
// each output line with a summary regex. No shell grammar, no exit attribution.
function naiveJudge(line, output) {
  const parts = line.split(/;|&&|\|\|?/);
  const lines = output.split("\n");
  let runs = 0;
  let passed = 0;
  for (const part of parts) {
    if (!/(?:^|\s)(?:python3? -m )?pytest(?:\s|$)/.test(part)) continue;
    runs += 1;
    for (const l of lines) if (/^(\d+) passed in [\d.]+s$/.test(l)) passed += 1;
  }
  return { runs, passed };
}

function time(fn) {
  globalThis.gc?.();
  const cpu = process.cpuUsage();
  const started = performance.now();
  fn();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

console.log(`build: ${dist}`);
console.log(`rounds: ${RUNS}; baseline: the 10-run form of each line, per run, times the runs`);
console.log(
  "| line | runs | call | first call ms | median ms | median CPU ms | best CPU ms | linear baseline ms | ratio to linear | naive ms | ratio to naive |",
);
console.log("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
const missed = [];
for (const shape of shapes) {
  const small = shape.line(SMALL);
  for (const n of shape.sizes) {
    const line = shape.line(n);
    for (const subject of subjects) {
      const smallInput = subject.prepare ? subject.prepare(small) : small;
      const bigInput = subject.prepare ? subject.prepare(line) : line;
      // The small form is repeated until its time is measurable, then taken per run.
      const repeats = Math.max(1, Math.round(n / SMALL));
      const rows = { big: [], bigCpu: [], linear: [], naive: [] };
      let first = null;
      for (let round = 0; round < RUNS; round++) {
        const base = time(() => {
          for (let k = 0; k < repeats; k++) subject.run(smallInput);
        });
        rows.linear.push(base.wall * (n / (repeats * SMALL)));
        const big = time(() => subject.run(bigInput));
        first ??= big.wall;
        rows.big.push(big.wall);
        rows.bigCpu.push(big.cpu);
        rows.naive.push(time(() => naiveJudge(line, OUTPUT)).wall);
        if (big.wall > MAX_MS) break;
      }
      const med = median(rows.big);
      const best = Math.min(...rows.bigCpu);
      const linear = median(rows.linear);
      const naive = median(rows.naive);
      console.log(
        `| ${shape.name} | ${n} | ${subject.name} | ${fmt(first)} | ${fmt(med)} | ${fmt(median(rows.bigCpu))} | ${fmt(best)} | ${fmt(linear)} | ${(med / linear).toFixed(2)}x | ${fmt(naive)} | ${(med / naive).toFixed(0)}x |`,
      );
      if (n === shape.target && best > TARGET_MS) missed.push(`${subject.name} on ${n} ${shape.name}: best ${fmt(best)} CPU ms`);
    }
  }
}
if (missed.length > 0) {
  console.log(`target missed: ${missed.join("; ")}`);
  process.exitCode = 1;
} else console.log(`target met: 10,000 statements and a 1,000-stage pipeline under ${TARGET_MS} ms of CPU (best round)`);
