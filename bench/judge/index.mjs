#!/usr/bin/env node
// bench/judge: a 200 MB pytest `-rA` log and a 200 MB `go test -json` stream, read from a file in
// 64 KiB chunks by our incremental parsers (dist/observers) and, in the same run, by a naive
// baseline shaped like SWE-bench's harness log parsers (read the log, split lines, match status
// prefixes; for go, JSON.parse every line and count pass/fail actions with a Test).
// The inputs are real runner output: pytest -rA on test/fixtures/py-project (every outcome, one id
// per 170 bytes of log: 1.23 M distinct ids in 200 MB) and on test/fixtures/py-app-project (a service
// suite whose passing tests print request lines and INFO logs, which -rA shows: an id per 1.4 KB), and
// go test -json on test/fixtures/go-project, run once here, then repeated with distinct ids up to the
// size (one final summary with matching counts for pytest; every go package still ends with its
// package event). A floor row keeps the pytest ids as strings and checks nothing (floorPytest).
// A second family repeats the same ids (pytest blocks cycling through 1000 names; go's -count=N shape,
// events repeated inside each package), so only the input grows: flat memory is judged on it, while
// with distinct ids peak RSS must grow with the ids the result holds ("held at end": heap in use after
// the parse with the result alive). The full judge stream (dist/evidence/judge.js) runs on the same inputs.
// Every measurement runs in its own child process, so peak RSS (maxRSS) belongs to that run alone;
// memory is compared at 50 MB and 200 MB. "MB/s per CPU second" divides by the process's CPU time
// (GC threads included), which other processes on the machine disturb less than wall time.
// A vitest input: `vitest run --reporter=verbose` on test/fixtures/vitest-project (one failing test),
// its test lines and failures repeated under a new directory per copy, one summary with scaled counts;
// its baseline reads the whole log and keeps the `✓`/`×` lines' ids.
// Run: npm run build && node --expose-gc bench/judge/index.mjs (BENCH_RUNS=3, BENCH_DIR=dir keeps inputs,
// BENCH_KINDS=vitest,go measures those inputs only).
import { spawnSync } from "node:child_process";
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const MB = 1e6;
const SIZES = [50, 200];
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CHUNK = 64 * 1024;
const TARGET_MBPS = 190;
// The issue sets 190 MB/s against "such a log": one on which the fastest Python check peaks at about
// 2.7 times the input. The service suite's -rA log is one (its Python peak is about 3 times the
// input here) and so is the go stream; the pytest log with 1.23 M distinct ids (Python: 4.5 times) is
// a stress input, held to a share of its floor instead (see floorPytest).
const TARGET_INPUTS = [
  ["pytest", "service"],
  ["go", "distinct"],
];
const STRESS_FLOOR_SHARE = 0.5;
// Flat memory: the 200 MB run may hold its result's ids, but not the input (the input grows by 150 MB).
const FLAT_SLACK_MB = 40;
const REPEAT_CYCLE = 1000;

async function main() {
  // BENCH_DIR keeps the captured outputs and generated inputs between runs (for profiling).
  const keep = process.env.BENCH_DIR;
  const work = keep ? resolve(keep) : mkdtempSync(join(tmpdir(), "ae-bench-judge-"));
  if (keep) mkdirSync(work, { recursive: true });
  try {
    const started = Date.now();
    const kinds = new Set((process.env.BENCH_KINDS ?? "pytest,go,vitest").split(","));
    const pytestLog = kinds.has("pytest") ? cached(join(work, "pytest-capture.json"), () => capturePytest(work, "py-project")) : null;
    const serviceLog = kinds.has("pytest") ? cached(join(work, "pytest-service-capture.json"), () => capturePytest(work, "py-app-project")) : null;
    const goStream = kinds.has("go") ? cached(join(work, "go-capture.json"), () => captureGo(work)) : null;
    const vitestLog = kinds.has("vitest") ? cached(join(work, "vitest-capture.json"), () => captureVitest(work)) : null;
    const judgeAvailable = await hasJudgeStream();
    const inputs = [];
    for (const size of SIZES) {
      const add = (kind, family, label, generate) => kinds.has(kind) && inputs.push({ kind, family, label, size, ...writeInput(join(work, `${kind}-${family}-${size}`), size, generate) });
      add("pytest", "distinct", "pytest -rA", (out, copies) => generatePytest(pytestLog.text, out, copies, Infinity));
      // A service suite's -rA log: passing tests print request lines and INFO logs, which -rA shows.
      add("pytest", "service", "pytest -rA, service suite", (out, copies) => generatePytest(serviceLog.text, out, copies, Infinity));
      add("go", "distinct", "go test -json", (out, copies) => generateGo(goStream.text, out, copies));
      // The same ids over and over (pytest blocks cycle through 1000 names; go's -count=N shape): only the input grows.
      add("pytest", "repeated", "pytest -rA, 24k ids", (out, copies) => generatePytest(pytestLog.text, out, copies, REPEAT_CYCLE));
      add("go", "repeated", "go test -json -count=N, 20k ids", (out, reps) => generateGoCount(goStream.text, out, reps, REPEAT_CYCLE));
      add("vitest", "distinct", "vitest --reporter=verbose", (out, copies) => generateVitest(vitestLog.text, out, copies));
    }
    console.log(`inputs generated in ${((Date.now() - started) / 1000).toFixed(1)} s from real output (${[pytestLog, goStream, vitestLog].filter(Boolean).map((log) => log.version).join("; ")}); node ${process.version}; best and median of ${RUNS} runs on the 200 MB inputs with distinct ids; load average ${loadAverage()}`);
    const python = pythonAvailable();
    const impls = ["ours", "baseline", ...(judgeAvailable ? ["judge"] : []), ...(python ? ["python"] : [])];
    const results = [];
    for (const input of inputs) {
      // The baselines hold the whole input either way; the repeated-id inputs are there for our memory.
      // The floor (keeping the ids as strings, nothing else) is measured where pytest ids are distinct.
      const wanted = input.family === "repeated" ? impls.filter((impl) => impl !== "baseline" && impl !== "python") : input.kind === "pytest" ? [...impls, "floor"] : input.kind === "vitest" ? impls.filter((impl) => impl !== "python") : impls;
      for (const impl of wanted) results.push({ input, impl, ...runWorker(impl, input) });
    }
    printTable(results);
    printPythonRatios(results);
    printFloorRatios(results);
    if (!python) console.log("\npython reference: not measured (no python3 on the PATH).");
    if (!judgeAvailable) console.log("\njudge stream: not measured (dist/evidence/judge.js exports no createJudgeStream); the rows are the runner parsers alone.");
    const failures = checkTargets(results);
    console.log(`\nload average after: ${loadAverage()}; total ${((Date.now() - started) / 1000).toFixed(0)} s`);
    if (failures.length > 0) {
      console.log(`target missed: ${failures.join("; ")}`);
      process.exitCode = 1;
    } else console.log(`targets met: >= ${TARGET_MBPS} MB/s (best) on the 200 MB service-suite -rA log and go stream, >= ${STRESS_FLOOR_SHARE} x the floor on the 1.23 M-id log; with the same ids, peak RSS within ${FLAT_SLACK_MB} MB from 50 to 200 MB`);
  } finally {
    if (!keep) rmSync(work, { recursive: true, force: true });
  }
}

function cached(file, compute) {
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"));
  const value = compute();
  writeFileSync(file, JSON.stringify(value));
  return value;
}

function loadAverage() {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "n/a";
  }
}

function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 1 << 28, ...options });
  if (result.error) throw result.error;
  return result;
}

function findPython() {
  for (const python of ["python3", "/usr/bin/python3"]) {
    const probe = spawnSync(python, ["-m", "pytest", "--version"], { encoding: "utf8" });
    if (probe.status === 0) return { python, version: (probe.stdout || probe.stderr).trim() };
  }
  throw new Error("no python3 with pytest on this machine (run npm run bootstrap)");
}

// pytest -rA on the fixture project: every section a real -rA log has (errors, failures, passes, short summary).
function capturePytest(work, fixture) {
  const { python, version } = findPython();
  const project = join(work, fixture);
  cpSync(join(root, "test/fixtures", fixture), project, { recursive: true });
  const result = run(python, ["-m", "pytest", "-rA", "-p", "no:cacheprovider", "tests"], { cwd: project, env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", NO_COLOR: "1" } });
  const text = result.stdout + result.stderr;
  if (!/short test summary info/.test(text) || !/ in [\d.]+s/.test(text)) throw new Error(`pytest -rA gave no summary:\n${text.slice(-2000)}`);
  return { text, version };
}

function captureGo(work) {
  const project = join(work, "go-project");
  cpSync(join(root, "test/fixtures/go-project"), project, { recursive: true });
  const env = { ...process.env, GOTOOLCHAIN: "local", GOCACHE: join(work, "gocache"), GOPATH: join(work, "gopath"), GOFLAGS: "-count=1", GOTELEMETRY: "off" };
  const version = run("go", ["version"], { env }).stdout.trim();
  const result = run("go", ["test", "-json", "./..."], { cwd: project, env });
  const text = result.stdout;
  if (!text.includes('"Action":"pass"')) throw new Error(`go test -json gave no events:\n${result.stderr.slice(-2000)}`);
  return { text, version };
}

// vitest --reporter=verbose on the fixture project, one test failing (VT_FAIL=1): test lines, a
// `Failed Tests` section and the summary. The copy finds vitest through a link to our node_modules.
function captureVitest(work) {
  const project = join(work, "vitest-project");
  cpSync(join(root, "test/fixtures/vitest-project"), project, { recursive: true, filter: (src) => !src.includes("node_modules") });
  symlinkSync(join(root, "node_modules"), join(project, "node_modules"));
  const vitest = join(root, "node_modules/.bin/vitest");
  // Not under a coding agent's variables (vitest would pick its agent reporter) and without colour.
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: "C.UTF-8", TERM: "dumb", NO_COLOR: "1", VT_FAIL: "1" };
  const version = run(vitest, ["--version"], { env }).stdout.trim();
  // One stream, as a shell's `2>&1` shows it: the failures (stderr) before the summary (stdout).
  const text = run("bash", ["-c", `"$0" run --reporter=verbose 2>&1`, vitest], { cwd: project, env }).stdout;
  if (!/^ {6}Tests {2}1 failed/m.test(text)) throw new Error(`vitest gave no failing summary:\n${text.slice(-2000)}`);
  return { text, version };
}

// Copies of the real output needed for the size: the bytes of 1 and 2 copies give the fixed and per-copy parts.
function copiesFor(generate, targetBytes) {
  const count = (copies) => {
    let bytes = 0;
    generate((text) => (bytes += Buffer.byteLength(text, "utf8")), copies);
    return bytes;
  };
  const one = count(1);
  const perCopy = count(2) - one;
  return Math.max(1, Math.ceil((targetBytes - (one - perCopy)) / perCopy));
}

function writeInput(path, sizeMb, generate) {
  const copies = copiesFor(generate, sizeMb * MB);
  const meta = `${path}.json`;
  if (existsSync(meta) && existsSync(path)) return JSON.parse(readFileSync(meta, "utf8"));
  const fd = openSync(path, "w");
  let pending = [];
  let pendingBytes = 0;
  let written = 0;
  const out = (text) => {
    pending.push(text);
    pendingBytes += text.length;
    if (pendingBytes >= 1 << 20) flush();
  };
  const flush = () => {
    const buffer = Buffer.from(pending.join(""), "utf8");
    writeSync(fd, buffer);
    written += buffer.length;
    pending = [];
    pendingBytes = 0;
  };
  const expected = generate(out, copies);
  flush();
  closeSync(fd);
  const input = { path, bytes: statSync(path).size, written, expected };
  writeFileSync(meta, JSON.stringify(input));
  return input;
}

// ---- pytest -rA: header, progress, then each section repeated per copy, one summary with scaled counts.

function splitPytestLog(text) {
  const lines = text.replace(/\n$/, "").split("\n");
  const summaryAt = lines.findLastIndex((line) => /^=+ .* in [\d.]+s(?:econds)? .*=+$|^=+ .* in [\d.]+s =+$/.test(line));
  const collectedAt = lines.findIndex((line) => /^collected \d+ items?/.test(line));
  if (summaryAt === -1 || collectedAt === -1) throw new Error("unexpected pytest -rA shape");
  const header = lines.slice(0, collectedAt + 1);
  let at = collectedAt + 1;
  const progress = [];
  for (; at < summaryAt && !/^=+ .* =+$/.test(lines[at]); at += 1) if (lines[at] !== "") progress.push(lines[at]);
  const sections = [];
  for (; at < summaryAt; at += 1) {
    const line = lines[at];
    if (/^=+ .* =+$/.test(line)) sections.push({ title: line, body: [] });
    else sections.at(-1).body.push(line);
  }
  return { header, progress, sections, summary: lines[summaryAt] };
}

function decorate(title) {
  // pytest's sep(): at least one `=` on each side, however long the title.
  const side = Math.max(1, Math.floor((80 - title.length - 2) / 2));
  return `${"=".repeat(side)} ${title} ${"=".repeat(side)}`;
}

function generatePytest(text, out, copies, cycle) {
  const log = splitPytestLog(text);
  const rename = (line, copy) => line.replace(/\btests\//g, `tests/b${copy % cycle}/`);
  const perCopyTests = Number(/^collected (\d+)/.exec(log.header.at(-1))[1]);
  const total = perCopyTests * copies;
  for (const line of log.header.slice(0, -1)) out(`${line}\n`);
  out(`collected ${total} items\n\n`);
  let done = 0;
  for (let copy = 0; copy < copies; copy += 1) {
    for (const line of log.progress) {
      const space = line.indexOf(" ");
      const path = rename(line.slice(0, space), copy);
      const marks = line.slice(space + 1).replace(/\s+\[\s*\d+%\]$/, "");
      done += marks.length;
      const left = `${path} ${marks}`;
      out(`${left.length >= 73 ? `${left} ` : left.padEnd(73)}[${String(Math.floor((done * 100) / total)).padStart(3)}%]\n`);
    }
  }
  out("\n");
  for (const section of log.sections) {
    out(`${section.title}\n`);
    if (/short test summary info/.test(section.title)) {
      // pytest groups the short summary by status: all PASSED lines, then SKIPPED, and so on.
      const groups = new Map();
      for (const line of section.body) {
        const word = line.split(" ")[0];
        if (!groups.has(word)) groups.set(word, []);
        groups.get(word).push(line);
      }
      for (const group of groups.values()) for (let copy = 0; copy < copies; copy += 1) for (const line of group) out(`${rename(line, copy)}\n`);
    } else {
      for (let copy = 0; copy < copies; copy += 1) for (const line of section.body) out(`${rename(line, copy)}\n`);
    }
  }
  const summary = /^=+ (.*?) =+$/.exec(log.summary)[1];
  const counts = {};
  const scaled = summary.replace(/(\d+) ([a-z]+)/g, (_, n, word) => {
    counts[word] = Number(n) * copies;
    return `${counts[word]} ${word}`;
  });
  out(`${decorate(scaled)}\n`);
  const base = parsedCounts(log.sections);
  const named = Math.min(copies, cycle);
  return { copies, counts, passedIds: base.passed * named, failedIds: base.failed * named };
}

// Ids per copy the parser must report, from the short summary (an id with ERROR also printed PASSED fails).
function parsedCounts(sections) {
  const short = sections.find((s) => /short test summary info/.test(s.title));
  const failed = new Set();
  const passed = new Set();
  for (const line of short.body) {
    const [word, rest = ""] = [line.slice(0, line.indexOf(" ")), line.slice(line.indexOf(" ") + 1)];
    const id = rest.split(" - ")[0];
    if (word === "PASSED") passed.add(id);
    if (word === "FAILED" || word === "ERROR") failed.add(id);
  }
  for (const id of failed) passed.delete(id);
  return { passed: passed.size, failed: failed.size };
}

// ---- go test -json: each package's events (they end with its package pass/fail/skip) under a new path per copy.

function generateGo(text, out, copies) {
  const lines = text.replace(/\n$/, "").split("\n");
  let passes = 0;
  let fails = 0;
  for (let copy = 0; copy < copies; copy += 1) {
    const prefix = `example.com/aefix/b${copy}/`;
    for (const line of lines) {
      const renamed = line.replaceAll("example.com/aefix/", prefix);
      out(`${renamed}\n`);
    }
  }
  for (const line of lines) {
    // go before 1.24 prints a package that fails to build as a plain text line among the events.
    if (!line.startsWith("{")) continue;
    const event = JSON.parse(line);
    if (event.Test && event.Action === "pass") passes += 1;
    if (event.Test && event.Action === "fail") fails += 1;
  }
  return { copies, passEvents: passes * copies, failEvents: fails * copies };
}

// go test -json -count=N: each package runs its tests N times (events repeat), then ends once.
function generateGoCount(text, out, reps, packageCopies) {
  const lines = text.replace(/\n$/, "").split("\n");
  const groups = new Map();
  for (const line of lines) {
    const pkg = line.startsWith("{") ? JSON.parse(line).Package : line.split(/\s+/)[1];
    if (!groups.has(pkg)) groups.set(pkg, { body: [], end: [] });
    const group = groups.get(pkg);
    (line.startsWith("{") && JSON.parse(line).Test !== undefined ? group.body : group.end).push(line);
  }
  for (let copy = 0; copy < packageCopies; copy += 1) {
    const prefix = `example.com/aefix/b${copy}/`;
    for (const group of groups.values()) {
      const body = group.body.map((line) => `${line.replaceAll("example.com/aefix/", prefix)}\n`).join("");
      for (let rep = 0; rep < reps; rep += 1) out(body);
      for (const line of group.end) out(`${line.replaceAll("example.com/aefix/", prefix)}\n`);
    }
  }
  return { copies: packageCopies, reps };
}

// ---- vitest --reporter=verbose: the header, each copy's test lines and failures under b<copy>/, one summary.

function generateVitest(text, out, copies) {
  const lines = text.replace(/\n$/, "").split("\n");
  const firstTest = lines.findIndex((line) => /^ [✓×↓□] /.test(line));
  const summaryAt = lines.findIndex((line) => line.startsWith(" Test Files  "));
  const failuresAt = lines.findIndex((line, i) => i > firstTest && line.startsWith("⎯"));
  if (firstTest === -1 || summaryAt === -1 || failuresAt === -1 || failuresAt > summaryAt) throw new Error("unexpected vitest output shape");
  const rename = (line, copy) => line.replace(/(^ [✓×↓□] | FAIL {2}|❯ )(?=\S)/, `$1b${copy}/`);
  const tests = lines.slice(firstTest, failuresAt);
  const failures = lines.slice(failuresAt + 1, summaryAt);
  let passes = 0;
  let fails = 0;
  for (const line of tests) {
    if (line.startsWith(" ✓ ")) passes += 1;
    if (line.startsWith(" × ")) fails += 1;
  }
  for (const line of lines.slice(0, firstTest)) out(`${line}\n`);
  for (let copy = 0; copy < copies; copy += 1) for (const line of tests) out(`${rename(line, copy)}\n`);
  out(`${lines[failuresAt].replace(/Failed Tests (\d+)/, (_, n) => `Failed Tests ${Number(n) * copies}`)}\n`);
  for (let copy = 0; copy < copies; copy += 1) for (const line of failures) out(`${rename(line, copy)}\n`);
  const counts = {};
  for (const line of lines.slice(summaryAt)) {
    const scaled = /^ {6}Tests {2}| Test Files {2}/.test(line)
      ? line.replace(/(\d+) (failed|passed|skipped|todo)|\((\d+)\)/g, (whole, n, word, total) => {
          if (total !== undefined) return `(${Number(total) * copies})`;
          if (line.startsWith("      Tests")) counts[word] = Number(n) * copies;
          return `${Number(n) * copies} ${word}`;
        })
      : line;
    out(`${scaled}\n`);
  }
  return { copies, counts, passedIds: passes * copies, failedIds: fails * copies };
}

// SWE-bench-style naive reader: the whole log, split lines, a pass or fail mark starts the line, the id is the rest without its duration.
function baselineVitest(file) {
  const log = readFileSync(file, "utf8");
  const statusMap = new Map();
  for (const line of log.split("\n")) {
    if (!line.startsWith(" ✓ ") && !line.startsWith(" × ")) continue;
    statusMap.set(line.slice(3).replace(/ \d+ms$/, ""), line[1] === "✓" ? "PASSED" : "FAILED");
  }
  return { result: statusMap, ids: statusMap.size };
}

// ---- child processes: one measurement each, peak RSS from resourceUsage().

async function hasJudgeStream() {
  const file = join(root, "dist/evidence/judge.js");
  if (!existsSync(file)) return false;
  try {
    const mod = await import(file);
    return typeof mod.createJudgeStream === "function";
  } catch {
    return false;
  }
}

function pythonAvailable() {
  const probe = spawnSync("python3", ["--version"], { encoding: "utf8" });
  return probe.status === 0;
}

function runPython(input, runs) {
  const child = spawnSync("python3", [join(here, "reference.py"), input.kind, input.path, String(runs)], { encoding: "utf8", maxBuffer: 1 << 24 });
  if (child.status !== 0) return { error: (child.stderr || "").trim().split("\n").slice(-1)[0] || `exit ${child.status}` };
  const out = JSON.parse(child.stdout);
  const mb = input.bytes / MB;
  const result = { best: mb / out.best, median: mb / out.median, cpuMedian: null, heldMb: null, maxRssMb: out.maxRssMb, summary: out.summary };
  const problem = checkResult("baseline", input, out.summary);
  return problem === null ? result : { ...result, error: problem };
}

function runWorker(impl, input) {
  // Throughput is the 200 MB distinct-id rows' business (best and median of RUNS); the others run once.
  const runs = input.family !== "repeated" && input.size === 200 ? RUNS : 1;
  if (impl === "python") return runPython(input, runs);
  const child = spawnSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), "--worker", impl, input.kind, input.path, String(runs)], { encoding: "utf8", maxBuffer: 1 << 24 });
  if (child.status !== 0) return { error: (child.stderr || "").trim().split("\n").slice(-3).join(" ") || `exit ${child.status}` };
  const result = JSON.parse(child.stdout);
  const problem = checkResult(impl, input, result.summary);
  return problem === null ? result : { ...result, error: problem };
}

// A fast wrong answer is no answer: the ids and counts must match what the generator wrote.
function checkResult(impl, input, summary) {
  const expected = input.expected;
  if (impl === "floor") return summary.ids >= expected.passedIds + expected.failedIds ? null : `floor kept ${summary.ids} ids`;
  if (impl === "baseline") {
    if (input.kind === "go") return summary.pass === expected.passEvents && summary.fail === expected.failEvents ? null : `baseline counted ${JSON.stringify(summary)}`;
    return summary.ids >= expected.passedIds ? null : `baseline saw ${summary.ids} ids`;
  }
  if (impl === "judge") return summary.verdict === "failed" && summary.runs === 1 ? null : `judge gave ${JSON.stringify(summary)}`;
  if (input.kind === "pytest" || input.kind === "vitest") {
    const ok = summary.passed === expected.passedIds && summary.failed === expected.failedIds && summary.summaryPassed === expected.counts.passed && summary.summaryCount === 1;
    return ok ? null : `ours read ${JSON.stringify(summary)}, expected ${JSON.stringify(expected)}`;
  }
  return summary.passed > 0 && summary.failed > 0 && summary.packages >= expected.copies ? null : `ours read ${JSON.stringify(summary)}`;
}

async function worker(impl, kind, file, runs) {
  const bytes = statSync(file).size;
  const measure = await loadImpl(impl, kind);
  const times = [];
  const cpuTimes = [];
  // The previous run's result is dropped before the next run starts, so runs do not add up in RSS.
  const last = { summary: undefined };
  for (let i = 0; i < Number(runs); i += 1) {
    last.summary = undefined;
    globalThis.gc?.();
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    last.summary = measure(file);
    times.push(Number(process.hrtime.bigint() - started) / 1e9);
    const used = process.cpuUsage(cpu);
    cpuTimes.push((used.user + used.system) / 1e6);
  }
  // Heap still in use once the result is returned: the ids the result must hold, not the input.
  globalThis.gc?.();
  const heldMb = process.memoryUsage().heapUsed / MB;
  times.sort((a, b) => a - b);
  cpuTimes.sort((a, b) => a - b);
  const mbps = (seconds) => bytes / MB / seconds;
  const median = (list) => list[Math.floor(list.length / 2)];
  // CPU time (all threads, GC included) shows the cost of the code itself when other processes share the cores.
  const { result, ...summary } = last.summary;
  void result;
  process.stdout.write(JSON.stringify({ best: mbps(times[0]), median: mbps(median(times)), cpuMedian: mbps(median(cpuTimes)), heldMb, maxRssMb: (process.resourceUsage().maxRSS * 1024) / MB, summary }));
}

function streamFile(file, push) {
  const fd = openSync(file, "r");
  const buffer = Buffer.allocUnsafe(CHUNK);
  const decoder = new StringDecoder("utf8");
  try {
    for (;;) {
      const n = readSync(fd, buffer, 0, CHUNK, null);
      if (n === 0) break;
      push(decoder.write(n === CHUNK ? buffer : buffer.subarray(0, n)));
    }
    const rest = decoder.end();
    if (rest !== "") push(rest);
  } finally {
    closeSync(fd);
  }
}

async function loadImpl(impl, kind) {
  if (impl === "baseline") return kind === "pytest" ? baselinePytest : kind === "vitest" ? baselineVitest : baselineGo;
  if (impl === "floor") return floorPytest;
  if (impl === "judge") {
    const { createJudgeStream } = await import(join(root, "dist/evidence/judge.js"));
    const { analyzeCommand } = await import(join(root, "dist/grammar/analyze-command.js"));
    const command = kind === "pytest" ? "python -m pytest -rA tests" : kind === "vitest" ? "vitest run --reporter=verbose" : "go test -json ./...";
    return (file) => {
      const stream = createJudgeStream(analyzeCommand(command, { cwd: "/work/project" }), { exitCode: 1 });
      streamFile(file, (chunk) => stream.push(chunk));
      const result = stream.end();
      const run = result.runs[0];
      return { result, verdict: result.verdict, runs: result.runs.length, ids: run ? run.passed.length + run.failed.length + run.skipped.length : 0 };
    };
  }
  const observers = await import(join(root, "dist/observers/index.js"));
  const create = kind === "pytest" ? observers.createPytestParser : kind === "vitest" ? observers.createVitestParser : observers.createGoTestParser;
  return (file) => {
    const parser = create();
    streamFile(file, (chunk) => parser.push(chunk));
    const result = parser.end();
    return {
      result,
      passed: result.passed.length,
      failed: result.failed.length,
      skipped: result.skipped.length,
      summaryPassed: result.summary?.counts.passed,
      summaryCount: result.summaryCount,
      packages: kind === "go" ? (result.summary?.counts["packages passed"] ?? 0) + (result.summary?.counts["packages failed"] ?? 0) + (result.summary?.counts["packages skipped"] ?? 0) : undefined,
      lines: result.lines,
    };
  };
}

const PYTEST_STATUSES = ["PASSED", "FAILED", "ERROR", "SKIPPED", "XFAIL", "XPASS"];

// SWE-bench's parse_log_pytest: whole log, split lines, status prefix, id is the second word.
function baselinePytest(file) {
  const log = readFileSync(file, "utf8");
  const statusMap = new Map();
  for (let line of log.split("\n")) {
    if (!PYTEST_STATUSES.some((status) => line.startsWith(status))) continue;
    if (line.startsWith("FAILED")) line = line.replace(" - ", " ");
    const words = line.split(/\s+/).filter(Boolean);
    if (words.length <= 1) continue;
    statusMap.set(words[1], words[0]);
  }
  return { result: statusMap, ids: statusMap.size };
}

// The floor: what keeping the result costs, with no checking at all. The log streams in the same
// chunks, each line starting with a status word gives up the rest of the line as a string, and the
// strings are kept in one array. No dedup, no summary, no sections: any parser that returns these ids
// as strings does at least this much work, so on a log with a million distinct ids this bounds the
// speed any such parser can reach on this machine.
const STATUS_PREFIXES = PYTEST_STATUSES.map((status) => `${status} `);
function floorPytest(file) {
  const ids = [];
  let tail = "";
  streamFile(file, (chunk) => {
    let start = 0;
    for (let newline = chunk.indexOf("\n"); newline !== -1; newline = chunk.indexOf("\n", start)) {
      let line = chunk;
      let from = start;
      let to = newline;
      if (tail !== "") {
        line = tail + chunk.slice(0, newline);
        from = 0;
        to = line.length;
        tail = "";
      }
      const first = line.charCodeAt(from);
      // E, F, P, S, X: the first letters of the status words.
      if (first >= 69 && first <= 88) {
        for (const prefix of STATUS_PREFIXES) {
          if (line.startsWith(prefix, from)) {
            ids.push(line.slice(from + prefix.length, to));
            break;
          }
        }
      }
      start = newline + 1;
    }
    tail += chunk.slice(start);
  });
  return { result: ids, ids: ids.length };
}

// JSON.parse every line, count pass and fail actions of tests.
function baselineGo(file) {
  const log = readFileSync(file, "utf8");
  let pass = 0;
  let fail = 0;
  for (const line of log.split("\n")) {
    if (line === "") continue;
    let event;
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof event.Test !== "string") continue;
    if (event.Action === "pass") pass += 1;
    else if (event.Action === "fail") fail += 1;
  }
  return { result: null, pass, fail };
}

// ---- report

function printTable(results) {
  console.log("\n| input | MB | impl | MB/s best | MB/s median | MB/s per CPU second | ratio to baseline | ids | peak RSS MB | RSS / input | held at end MB |");
  console.log("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const row of results) {
    const label = row.input.label;
    const mb = row.input.bytes / MB;
    if (row.error) {
      console.log(`| ${label} | ${mb.toFixed(0)} | ${row.impl} | failed: ${row.error} | | | | | | | |`);
      continue;
    }
    const base = results.find((r) => r.input === row.input && r.impl === "baseline" && !r.error);
    const ratio = row.impl === "baseline" ? "1.00x" : base ? `${(row.median / base.median).toFixed(2)}x` : "-";
    const s = row.summary;
    const ids = row.impl === "ours" ? s.passed + s.failed + s.skipped : row.impl === "floor" ? `${s.ids} lines` : (s.ids ?? `${s.pass + s.fail} events`);
    const optional = (value) => (value === null ? "-" : value.toFixed(0));
    console.log(`| ${label} | ${mb.toFixed(0)} | ${row.impl} | ${row.best.toFixed(0)} | ${row.median.toFixed(0)} | ${optional(row.cpuMedian)} | ${ratio} | ${ids} | ${row.maxRssMb.toFixed(0)} | ${(row.maxRssMb / mb).toFixed(2)} | ${optional(row.heldMb)} |`);
  }
}

// Ours and the judge against the Python reference on the same inputs (median MB/s, peak RSS).
function printPythonRatios(results) {
  const lines = [];
  for (const row of results) {
    if (row.error || (row.impl !== "ours" && row.impl !== "judge")) continue;
    const python = results.find((r) => r.input === row.input && r.impl === "python" && !r.error);
    if (!python) continue;
    lines.push(`${row.input.label} ${row.input.size} MB ${row.impl}: ${(row.median / python.median).toFixed(2)}x the speed, ${(row.maxRssMb / python.maxRssMb).toFixed(2)}x the peak RSS`);
  }
  if (lines.length > 0) console.log(`\nagainst the Python reference:\n${lines.map((line) => `  ${line}`).join("\n")}`);
}

// Ours and the judge against the floor (keeping the ids, nothing else) on the same input.
function printFloorRatios(results) {
  const lines = [];
  for (const row of results) {
    if (row.error || (row.impl !== "ours" && row.impl !== "judge") || row.input.size !== 200) continue;
    const floor = results.find((r) => r.input === row.input && r.impl === "floor" && !r.error);
    if (floor) lines.push(`${row.input.label} ${row.impl}: ${(row.best / floor.best).toFixed(2)}x the floor's speed (best ${row.best.toFixed(0)} against ${floor.best.toFixed(0)} MB/s)`);
  }
  if (lines.length > 0) console.log(`\nagainst the floor (status-line ids kept as strings, nothing checked):\n${lines.map((line) => `  ${line}`).join("\n")}`);
}

function checkTargets(results) {
  const failures = [];
  for (const row of results) if (row.error) failures.push(`${row.input.label} ${row.input.size} MB ${row.impl}: ${row.error}`);
  const find = (impl, kind, family, size) => results.find((r) => r.impl === impl && r.input.kind === kind && r.input.family === family && r.input.size === size && !r.error);
  for (const impl of ["ours", "judge"]) {
    for (const [kind, family] of TARGET_INPUTS) {
      const big = find(impl, kind, family, 200);
      if (big && big.best < TARGET_MBPS) failures.push(`${impl} ${big.input.label} ${big.best.toFixed(0)} MB/s < ${TARGET_MBPS}`);
    }
    // The stress input is held to a share of its floor: a regression shows, the floor's own cost does not.
    const [stress, floor] = [find(impl, "pytest", "distinct", 200), find("floor", "pytest", "distinct", 200)];
    if (stress && floor && stress.best < STRESS_FLOOR_SHARE * floor.best) failures.push(`${impl} ${stress.input.label} ${stress.best.toFixed(0)} MB/s < ${STRESS_FLOOR_SHARE} x the floor's ${floor.best.toFixed(0)}`);
    for (const kind of ["pytest", "go"]) {
      const [small, large] = [find(impl, kind, "repeated", 50), find(impl, kind, "repeated", 200)];
      if (small && large && large.maxRssMb - small.maxRssMb > FLAT_SLACK_MB) failures.push(`${impl} ${kind} peak RSS ${small.maxRssMb.toFixed(0)} MB at 50 MB -> ${large.maxRssMb.toFixed(0)} MB at 200 MB with the same ids`);
    }
  }
  return failures;
}

if (process.argv[2] === "--worker") await worker(process.argv[3], process.argv[4], process.argv[5], process.argv[6]);
else await main();
