#!/usr/bin/env node
// bench/ledger: issue 18, target 5 (the bash tool and the ledger cost next to nothing) and the ledger
// half of target 6 (cost against the number of bash calls in one ledger). Every figure is taken
// against a baseline measured in the same run, interleaved or in alternating rounds:
//  - wrapping, sandbox off: the raw bash tool against the same tool in BashEvidence, 200 short
//    commands, one after the other; the median of the per-command differences;
//  - wrapping, sandbox on (bubblewrap, as the library runs it: as root here): the same against the raw
//    tool with the same sandbox. The baseline is the sandboxed raw call, not bash outside bubblewrap:
//    what BashEvidence adds is the question, and the sandbox costs the same with or without it (its
//    own cost is printed against a bare `bwrap ... bash -c` as context);
//  - snapshot invalidation against conservative mode, 30 mixed non-test calls on a generated
//    10,000-file Git repository, the modes in alternating rounds;
//  - the ledger's cost against the number of bash calls in it (10, 1,000, 10,000 calls through
//    BashEvidence over an in-process tool that returns real pytest output for every 20th call, edits
//    and reads between): the per-call cost must not grow (worstGrowth: no step more than linear);
//  - context, no target: a persistent shell (every line measured), a pytest run raw against wrapped,
//    one snapshot of the repository, and the journal (the largest scaling run with and without it,
//    its size, its restore against a naive read of the same file).
// Uses the built dist/ (`npm run build` first), or BENCH_DIST=<dir> (another build, for a before/after).
// Run: npm run build && node --expose-gc bench/ledger/index.mjs
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { mean, median } from "../support/stats.mjs";
import { Targets, worstGrowth } from "../support/targets.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const dist = resolve(process.env.BENCH_DIST ?? join(root, "dist"));
const { BashEvidence } = await import(join(dist, "index.js"));
const { createWorkspaceSnapshotter, readJournal } = await import(join(dist, "entries/evidence.js"));
const { createBashTool } = await import(join(dist, "entries/tools.js"));

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const SNAPSHOT_CALLS = Number(process.env.BENCH_SNAPSHOT_CALLS ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SHORT_CALLS = Number(process.env.BENCH_SHORT_CALLS ?? 200);
const SANDBOX_CALLS = Number(process.env.BENCH_SANDBOX_CALLS ?? 200);
const TEST_RUNS = Number(process.env.BENCH_TEST_RUNS ?? 15);
const BALLAST_MB = Number(process.env.BENCH_BALLAST_MB ?? 300);
const LEDGER_CALLS = (process.env.BENCH_LEDGER_CALLS ?? "10,1000,10000")
  .split(",")
  .map(Number)
  .filter((n) => n > 0);
const JOURNAL = process.env.BENCH_JOURNAL !== "0";
// Every EVERY-th call of the scaling runs is a test run (500 in 10,000 calls).
const EVERY = 20;

const round = (value, digits = 2) => +value.toFixed(digits);
const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

// Runs both measurements for every command, in turns: a then b, then b then a; `into` gets the times.
async function pairs(commands, [a, b], [intoA, intoB]) {
  for (const [i, command] of commands.entries()) {
    if (i % 2 === 0) {
      intoA.push(await a(command));
      intoB.push(await b(command));
    } else {
      intoB.push(await b(command));
      intoA.push(await a(command));
    }
  }
}

async function timeCall(tool, command) {
  const start = performance.now();
  await tool.execute({ command });
  return performance.now() - start;
}

function makeRepo(base) {
  const repo = join(base, "repo");
  for (let i = 0; i < FILES; i += 1) {
    const dir = join(repo, `pkg${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `mod${i}.py`), `VALUE_${i} = ${i}\n`.repeat(20));
  }
  const git = (...args) => execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...args], { cwd: repo, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "init");
  return repo;
}

// Target 5a (and the persistent shell as context): raw, wrapped and wrapped-as-persistent, interleaved per command.
async function wrappingBench(repo, bash) {
  const raw = bash();
  const wrapped = new BashEvidence(bash(), { workspace: repo });
  const persistent = new BashEvidence(bash(), { workspace: repo, shell: "persistent" });
  await Promise.all([wrapped.ready(), persistent.ready()]);
  const commands = Array.from({ length: SHORT_CALLS }, (_, i) => [`echo ${i}`, "true", "pwd", `printf '%s\\n' a${i} | wc -c`][i % 4]);
  // Warm-up: the first calls compile the analysis (and the tool's own code).
  for (const command of commands.slice(0, 8)) for (const tool of [raw, wrapped, persistent]) await tool.execute({ command });
  const times = { raw: [], wrapped: [], persistent: [] };
  // Raw and wrapped in pairs whose order turns with each command (whichever goes first, or follows a
  // heavier call, pays for it); then the persistent shell against raw the same way.
  await pairs(commands, [(command) => timeCall(raw, command), (command) => timeCall(wrapped, command)], [times.raw, times.wrapped]);
  const rawAgain = [];
  await pairs(commands, [(command) => timeCall(raw, command), (command) => timeCall(persistent, command)], [rawAgain, times.persistent]);
  await wrapped.close();
  await persistent.close();
  return {
    calls: SHORT_CALLS,
    rawMedianMs: round(median(times.raw)),
    wrappedMedianMs: round(median(times.wrapped)),
    ratio: round(median(times.wrapped) / median(times.raw), 3),
    medianOverheadMs: round(median(times.raw.map((t, i) => times.wrapped[i] - t))),
    persistentShellMedianMs: round(median(times.persistent)),
    persistentShellRatio: round(median(times.persistent) / median(rawAgain), 3),
  };
}

// A bare bubblewrap around bash, the least a sandboxed call costs (context for the tool's own sandbox).
function bareBwrap(repo, command) {
  const args = [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    "--bind",
    repo,
    repo,
    "--unshare-all",
    "--die-with-parent",
    "--chdir",
    repo,
    "bash",
    "-c",
    command,
  ];
  return new Promise((resolveRun, reject) => {
    const start = performance.now();
    const child = spawn("bwrap", args, { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.resume();
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolveRun(performance.now() - start) : reject(new Error(`bwrap exited ${code}`))));
  });
}

// Target 5b: the sandboxed raw tool, the same tool wrapped, and a bare bwrap, interleaved per command.
async function sandboxBench(repo, logs) {
  const bash = () => createBashTool({ cwd: repo, sandbox: "strict", tempDir: logs });
  const raw = bash();
  const probe = await raw.execute({ command: "true" });
  if (probe.data?.status !== "completed" || probe.data.sandbox !== "bubblewrap") return { skipped: probe.text.slice(0, 200) };
  const wrapped = new BashEvidence(bash(), { workspace: repo });
  await wrapped.ready();
  for (const command of ["true", "echo 1", "pwd", "printf '%s\\n' a | wc -c"])
    for (const tool of [raw, wrapped]) await tool.execute({ command });
  let floor = true;
  await bareBwrap(repo, "true").catch(() => (floor = false));
  const commands = Array.from({ length: SANDBOX_CALLS }, (_, i) => [`echo ${i}`, "true", "pwd", `printf '%s\\n' a${i} | wc -c`][i % 4]);
  const times = { raw: [], wrapped: [], bare: [] };
  await pairs(commands, [(command) => timeCall(raw, command), (command) => timeCall(wrapped, command)], [times.raw, times.wrapped]);
  const rawAgain = [];
  if (floor) await pairs(commands, [(command) => timeCall(raw, command), (command) => bareBwrap(repo, command)], [rawAgain, times.bare]);
  await wrapped.close();
  const overhead = median(times.raw.map((t, i) => times.wrapped[i] - t));
  return {
    calls: SANDBOX_CALLS,
    limits: probe.data.limits,
    rawMedianMs: round(median(times.raw)),
    wrappedMedianMs: round(median(times.wrapped)),
    medianOverheadMs: round(overhead),
    overheadShare: round(overhead / median(times.raw), 4),
    bareBwrapMedianMs: floor ? round(median(times.bare)) : null,
    rawToBareBwrap: floor ? round(median(rawAgain) / median(times.bare)) : null,
  };
}

// Target 5c: both modes on the same non-test calls, in alternating rounds; a raw tool on the same calls and one snapshot alone as context.
async function snapshotBench(repo, bash) {
  // Read-only lines, a git read and a small edit, alternating, so every path is measured.
  const mixed = Array.from({ length: SNAPSHOT_CALLS }, (_, i) =>
    i % 3 === 2 ? `echo '# ${i}' >> pkg0/mod0.py` : i % 3 === 1 ? "git status --short | head -1" : "ls pkg1 | wc -l",
  );
  const perCall = { raw: [], conservative: [], snapshot: [] };
  for (let r = 0; r < ROUNDS; r += 1) {
    const order = r % 2 === 0 ? ["raw", "conservative", "snapshot"] : ["snapshot", "conservative", "raw"];
    for (const mode of order) {
      const tool = mode === "raw" ? bash() : new BashEvidence(bash(), { workspace: repo, invalidation: mode });
      await tool.ready?.();
      await tool.execute({ command: "true" }); // warm-up
      const times = [];
      for (const command of mixed) times.push(await timeCall(tool, command));
      await tool.close?.();
      perCall[mode].push(mean(times));
    }
  }
  const snapshotter = await createWorkspaceSnapshotter(repo);
  await snapshotter.take();
  const takes = [];
  for (let i = 0; i < 20; i += 1) {
    const start = performance.now();
    await snapshotter.take();
    takes.push(performance.now() - start);
  }
  // The same in a process holding BALLAST_MB more (an agent's process is large, and a spawn forks it).
  const ballast = Array.from({ length: BALLAST_MB }, () => Buffer.alloc(1024 * 1024, 1));
  const heavyTakes = [];
  for (let i = 0; i < (BALLAST_MB > 0 ? 10 : 0); i += 1) {
    const start = performance.now();
    await snapshotter.take();
    heavyTakes.push(performance.now() - start);
  }
  ballast.length = 0;
  await snapshotter.close();
  const [raw, conservative, snapshot] = [median(perCall.raw), median(perCall.conservative), median(perCall.snapshot)];
  return {
    files: FILES,
    calls: SNAPSHOT_CALLS,
    rounds: ROUNDS,
    rawMsPerCall: round(raw, 1),
    conservativeMsPerCall: round(conservative, 1),
    snapshotMsPerCall: round(snapshot, 1),
    ratio: round(snapshot / conservative),
    snapshotOverheadMsPerCall: round(snapshot - conservative, 1),
    oneSnapshotMedianMs: round(median(takes), 1),
    oneSnapshotHeavyProcessMs: heavyTakes.length > 0 ? round(median(heavyTakes), 1) : null,
    ballastMB: BALLAST_MB,
  };
}

// A pytest run on the same repository: the raw tool against BashEvidence in both modes (context).
async function testRunBench(repo, bash) {
  writeFileSync(join(repo, "test_bench.py"), "def test_a():\n    assert True\n");
  const command = "python3 -m pytest -q -p no:cacheprovider test_bench.py";
  const raw = bash();
  const conservative = new BashEvidence(bash(), { workspace: repo });
  const snapshot = new BashEvidence(bash(), { workspace: repo, invalidation: "snapshot" });
  await conservative.ready();
  await snapshot.ready();
  const times = { raw: [], conservative: [], snapshot: [] };
  for (let i = 0; i < TEST_RUNS; i += 1) {
    times.raw.push(await timeCall(raw, command));
    times.conservative.push(await timeCall(conservative, command));
    times.snapshot.push(await timeCall(snapshot, command));
  }
  const verified = conservative.verifiedTargets.includes("test_bench.py") && snapshot.verifiedTargets.includes("test_bench.py");
  await conservative.close();
  await snapshot.close();
  if (!verified) throw new Error("the bench's test run was not verified");
  return {
    runs: TEST_RUNS,
    rawMedianMs: round(median(times.raw), 1),
    conservativeMedianMs: round(median(times.conservative), 1),
    conservativeRatio: round(median(times.conservative) / median(times.raw)),
    snapshotMedianMs: round(median(times.snapshot), 1),
    snapshotRatio: round(median(times.snapshot) / median(times.raw)),
  };
}

// The scaling runs and the journal: an in-process tool that returns a real pytest output (the real
// judge runs) for the test runs, "ok" for the edits and reads between them.
function inProcessProject(base) {
  const project = join(base, "ledger-project");
  mkdirSync(project);
  for (let i = 0; i < 25; i += 1)
    writeFileSync(join(project, `test_m${i}.py`), `def test_a():\n    assert True\n\ndef test_b():\n    assert True\n`);
  const outputs = new Map();
  for (let i = 0; i < 25; i += 1) {
    const file = `test_m${i}.py`;
    try {
      outputs.set(
        file,
        execFileSync("python3", ["-m", "pytest", "-rA", "-p", "no:cacheprovider", file], {
          cwd: project,
          encoding: "utf8",
          env: { ...process.env, PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1" },
        }),
      );
    } catch (error) {
      throw new Error(`bench/ledger needs pytest: ${error.message}`, { cause: error });
    }
  }
  const tool = {
    name: "bash",
    description: "in-process",
    inputSchema: {},
    execute: ({ command }) => {
      const file = /test_m\d+\.py$/.exec(command)?.[0];
      return Promise.resolve({ text: `${command.startsWith("python -m pytest") ? outputs.get(file) : "ok\n"}Exit code: 0` });
    },
  };
  const command = (i) =>
    i % EVERY === 0
      ? `python -m pytest -rA test_m${(i / EVERY) % 25}.py`
      : i % 3 === 0
        ? `sed -i 's/True/True /' test_m${i % 25}.py`
        : `cat test_m${i % 25}.py`;
  // One ledger; `run(n)` makes its next n calls (the mix goes on where it stopped) and times them.
  const open = async (options = {}) => {
    const bash = new BashEvidence(tool, { workspace: project, ...options });
    await bash.ready();
    let next = 0;
    return {
      bash,
      get calls() {
        return next;
      },
      async run(calls) {
        globalThis.gc?.();
        const cpu = process.cpuUsage();
        const start = performance.now();
        for (const end = next + calls; next < end; next += 1) await bash.execute({ command: command(next) });
        const ms = performance.now() - start;
        const used = process.cpuUsage(cpu);
        return { calls, ms, cpuMs: (used.user + used.system) / 1000 };
      },
    };
  };
  return { project, open, testRuns: (calls) => Array.from({ length: calls }, (_, i) => i).filter((i) => i % EVERY === 0).length };
}

// Target 6 (ledger). Each ledger is first filled to its size (10, 1,000, 10,000 calls: the total
// cost of getting there is printed), then every ledger makes BLOCK more calls in turn, the order
// rotating, ROUNDS times: the cost of a call at each size, measured under the same load. (The
// smallest ledger is made anew each round, so it stays that small.) Linear total cost means a flat
// per-call cost: worstGrowth reads the points as sizes and size x per-call cost. The cost is the
// process's CPU time (the thread pool's file work included); the wall time is printed beside it.
const BLOCK = 60; // one period of the mix: 3 test runs, 19 edits, 38 reads
const BLOCK_ROUNDS = Number(process.env.BENCH_BLOCK_ROUNDS ?? 8);

async function scalingBench(ledger) {
  const sizes = [...LEDGER_CALLS].sort((a, b) => a - b);
  const ledgers = [];
  for (const calls of sizes) {
    const open = await ledger.open();
    const fill = await open.run(calls);
    ledgers.push({ size: calls, ledger: open, fill, records: open.bash.verificationRecords.length, blocks: [] });
  }
  for (let r = 0; r < BLOCK_ROUNDS; r += 1) {
    for (let k = 0; k < ledgers.length; k += 1) {
      const entry = ledgers[(k + r) % ledgers.length];
      if (entry === ledgers[0] && r > 0) {
        await entry.ledger.bash.close();
        entry.ledger = await ledger.open();
        await entry.ledger.run(entry.size);
      }
      entry.blocks.push(await entry.ledger.run(BLOCK));
    }
  }
  const points = [];
  for (const { size, ledger: open, fill, records, blocks } of ledgers) {
    points.push({
      calls: size,
      testRuns: ledger.testRuns(size),
      records,
      fillWallMs: Math.round(fill.ms),
      fillCpuMs: Math.round(fill.cpuMs),
      callWallMs: round(median(blocks.map((b) => b.ms / BLOCK)), 3),
      callCpuMs: round(median(blocks.map((b) => b.cpuMs / BLOCK)), 3),
    });
    await open.bash.close();
  }
  return points;
}

// The journal at the largest scaling run: with it against that run, then its size and its restore.
async function journalBench(base, ledger, plain) {
  const file = join(base, "ledger.jsonl");
  const seal = join(base, "ledger.seal");
  const open = await ledger.open({ journal: file, journalSeal: seal });
  const journaled = await open.run(plain.calls);
  journaled.records = open.bash.verificationRecords.length;
  await open.bash.close();
  const bytes = statSync(file).size;
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let start = performance.now();
  const state = readJournal(file, { seal });
  const restoreMs = performance.now() - start;
  const heapAfter = process.memoryUsage().heapUsed;
  start = performance.now();
  let parsed = 0;
  for (const line of readFileSync(file, "utf8").split("\n")) if (line !== "") parsed += JSON.parse(line.slice(65)) === null ? 0 : 1;
  const naiveMs = performance.now() - start;
  if (state.records.length !== journaled.records || state.warnings.length > 0)
    throw new Error(`restore mismatch: ${state.records.length} records, warnings ${state.warnings}`);
  return {
    calls: plain.calls,
    lines: parsed,
    journalMB: round(bytes / 1024 / 1024),
    withoutJournalMs: plain.fillWallMs,
    withJournalMs: Math.round(journaled.ms),
    ratio: round(journaled.ms / plain.fillWallMs),
    restoreMs: Math.round(restoreMs),
    naiveReadParseMs: Math.round(naiveMs),
    restoreRatio: round(restoreMs / naiveMs),
    restoreHeapMB: round((heapAfter - heapBefore) / 1024 / 1024, 1),
  };
}

async function main() {
  const started = Date.now();
  console.log(`bench/ledger: ${dist}; node ${process.version}; uid ${process.getuid?.()}; load average ${loadAverage()}`);
  const base = realpathSync(mkdtempSync(join(tmpdir(), "ae-bench-ledger-")));
  try {
    const logs = join(base, "logs");
    mkdirSync(logs);
    const repo = makeRepo(base);
    const bash = () => createBashTool({ cwd: repo, sandbox: false, tempDir: logs });

    const wrapping = SHORT_CALLS > 0 ? await wrappingBench(repo, bash) : null;
    if (wrapping)
      console.log(
        `\nwrapping, sandbox off, ${wrapping.calls} short commands: raw ${wrapping.rawMedianMs} ms, wrapped ${wrapping.wrappedMedianMs} ms (median; ${wrapping.ratio}x), median overhead ${wrapping.medianOverheadMs} ms; as a persistent shell (every line measured: two snapshots of ${FILES} files) ${wrapping.persistentShellMedianMs} ms (${wrapping.persistentShellRatio}x)`,
      );
    const sandbox = SANDBOX_CALLS > 0 ? await sandboxBench(repo, logs) : null;
    if (sandbox?.skipped !== undefined) console.log(`\nwrapping, bubblewrap: not measured (${sandbox.skipped})`);
    else if (sandbox)
      console.log(
        `\nwrapping, bubblewrap (limits: pids ${sandbox.limits.pids}, memory ${sandbox.limits.memory}), ${sandbox.calls} short commands: raw sandboxed tool ${sandbox.rawMedianMs} ms, wrapped ${sandbox.wrappedMedianMs} ms, median overhead ${sandbox.medianOverheadMs} ms (${(sandbox.overheadShare * 100).toFixed(1)}% of the raw call); a bare bwrap around bash: ${sandbox.bareBwrapMedianMs === null ? "not measured" : `${sandbox.bareBwrapMedianMs} ms (the raw sandboxed tool ${sandbox.rawToBareBwrap}x that)`}`,
      );
    const snapshot = SNAPSHOT_CALLS > 0 ? await snapshotBench(repo, bash) : null;
    if (snapshot)
      console.log(
        `\ninvalidation modes, ${snapshot.files}-file repository, ${snapshot.calls} mixed calls, median of ${snapshot.rounds} alternating rounds: raw ${snapshot.rawMsPerCall}, conservative ${snapshot.conservativeMsPerCall}, snapshot ${snapshot.snapshotMsPerCall} ms per call (snapshot ${snapshot.ratio}x conservative); one snapshot alone ${snapshot.oneSnapshotMedianMs} ms${snapshot.oneSnapshotHeavyProcessMs === null ? "" : `, ${snapshot.oneSnapshotHeavyProcessMs} ms with ${snapshot.ballastMB} MB more in this process`}`,
      );
    const testRun = TEST_RUNS > 0 ? await testRunBench(repo, bash) : null;
    if (testRun)
      console.log(
        `\na pytest run on the same repository, median of ${testRun.runs}: raw ${testRun.rawMedianMs}, conservative ${testRun.conservativeMedianMs} (${testRun.conservativeRatio}x), snapshot ${testRun.snapshotMedianMs} ms (${testRun.snapshotRatio}x)`,
      );

    const ledger = inProcessProject(base);
    const scaling = LEDGER_CALLS.length > 0 ? await scalingBench(ledger) : [];
    if (scaling.length > 0) {
      console.log(
        `\nthe ledger against the number of bash calls in it (in-process tool, a test run every ${EVERY} calls; a call's cost: median of ${BLOCK_ROUNDS} blocks of ${BLOCK} calls, the sizes in rotating order):\n\n| calls | test runs | records | filled in: wall ms | CPU ms | a call at this size: wall ms | CPU ms |\n|---:|---:|---:|---:|---:|---:|---:|`,
      );
      for (const p of scaling)
        console.log(`| ${p.calls} | ${p.testRuns} | ${p.records} | ${p.fillWallMs} | ${p.fillCpuMs} | ${p.callWallMs} | ${p.callCpuMs} |`);
    }
    const journal = JOURNAL && scaling.length > 0 ? await journalBench(base, ledger, scaling.at(-1)) : null;
    if (journal)
      console.log(
        `\njournal, ${journal.calls} calls: ${journal.journalMB} MB, ${journal.lines} lines; without ${journal.withoutJournalMs} ms, with ${journal.withJournalMs} ms (${journal.ratio}x); restore ${journal.restoreMs} ms (${journal.restoreRatio}x a naive read and JSON.parse, ${journal.naiveReadParseMs} ms), heap +${journal.restoreHeapMB} MB`,
      );

    console.log(`\nload average after: ${loadAverage()}; total ${((Date.now() - started) / 1000).toFixed(0)} s`);
    console.log(`figures: ${JSON.stringify({ wrapping, sandbox, snapshot, testRun, scaling, journal })}\n`);

    const t = new Targets();
    if (wrapping) t.ratio("wrapped bash tool, sandbox off: median overhead per call", wrapping.medianOverheadMs, 5, "max", " ms");
    if (sandbox?.skipped !== undefined) t.check(false, `wrapped bash tool with bubblewrap: not measured (${sandbox.skipped})`);
    else if (sandbox)
      t.ratio(
        "wrapped bash tool with bubblewrap: median overhead per call, share of the raw sandboxed call",
        sandbox.overheadShare * 100,
        10,
        "max",
        "%",
      );
    if (snapshot) t.ratio(`snapshot invalidation against conservative mode, ${snapshot.files}-file repository`, snapshot.ratio, 1.5, "max");
    if (scaling.length > 1) {
      const worst = worstGrowth(scaling.map((p) => [p.calls, p.calls * p.callCpuMs]));
      t.check(
        worst.ok,
        `ledger cost against bash calls in one ledger (CPU time of a call at 10 / 1,000 / 10,000 calls): worst step ${worst.from} -> ${worst.to} calls grows ${worst.factor.toFixed(2)}x linear (target <= 1.25x)`,
      );
    }
    t.finish();
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

await main();
