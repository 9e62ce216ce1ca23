#!/usr/bin/env node
// bench/ledger: (1) snapshot mode's cost per call on a generated 10,000-file Git repository against
// conservative mode, through BashEvidence around the real bash tool (headless: false, so the sandbox
// start-up is not part of the figure); (2) the wrapped bash tool against the raw one on 200 short
// commands (ratio of medians, median overhead in ms); (3) a pytest run on the same repository, raw
// against BashEvidence in both modes (the snapshots and the harness walk every test run pays); (4) the journal: 10,000 calls with 500 test runs
// through BashEvidence over an in-process tool that returns a real pytest output (the real judge
// runs), against the same calls without a journal; its size, and its restore time against a naive
// read-and-JSON.parse of the same file. Uses the built dist/.
// Run: npx tsc -p tsconfig.build.json && node bench/ledger/index.mjs
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { BashEvidence } = await import(join(root, "dist/evidence/bash-evidence.js"));
const { createBashTool } = await import(join(root, "dist/tools/bash.js"));
const { readJournal } = await import(join(root, "dist/evidence/journal.js"));

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const SNAPSHOT_CALLS = Number(process.env.BENCH_SNAPSHOT_CALLS ?? 30);
const SHORT_CALLS = Number(process.env.BENCH_SHORT_CALLS ?? 200);
const JOURNAL_CALLS = Number(process.env.BENCH_JOURNAL_CALLS ?? 10_000);
const JOURNAL_RUNS = Number(process.env.BENCH_JOURNAL_RUNS ?? 500);
const TEST_RUNS = Number(process.env.BENCH_TEST_RUNS ?? 15);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function timeCalls(tool, commands) {
  const times = [];
  for (const command of commands) {
    const start = performance.now();
    await tool.execute({ command });
    times.push(performance.now() - start);
  }
  return times;
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

// (4) A test run on the same 10,000-file repository: the raw tool against BashEvidence in both
// modes. Every run pays, since this session: a snapshot before and after (git add -A and the stat
// check of every index entry), and a walk of the tree for the harness and escaping links.
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
    times.raw.push(...(await timeCalls(raw, [command])));
    times.conservative.push(...(await timeCalls(conservative, [command])));
    times.snapshot.push(...(await timeCalls(snapshot, [command])));
  }
  const verified = conservative.verifiedTargets.includes("test_bench.py") && snapshot.verifiedTargets.includes("test_bench.py");
  await conservative.close();
  await snapshot.close();
  if (!verified) throw new Error("the bench's test run was not verified");
  return {
    files: FILES,
    runs: TEST_RUNS,
    rawMedianMs: +median(times.raw).toFixed(1),
    conservativeMedianMs: +median(times.conservative).toFixed(1),
    conservativeRatio: +(median(times.conservative) / median(times.raw)).toFixed(2),
    snapshotMedianMs: +median(times.snapshot).toFixed(1),
    snapshotRatio: +(median(times.snapshot) / median(times.raw)).toFixed(2),
  };
}

// 10,000 calls, every 20th a pytest run of one of 25 files (the real judge on real output), the rest
// edits and reads; with and without a journal. Then the journal's size and its restore.
async function journalBench(base) {
  const project = join(base, "journal-project");
  mkdirSync(project);
  for (let i = 0; i < 25; i += 1) writeFileSync(join(project, `test_m${i}.py`), `def test_a():\n    assert True\n\ndef test_b():\n    assert True\n`);
  const outputs = new Map();
  const outputOf = (file) => {
    if (!outputs.has(file)) {
      let text;
      try {
        text = execFileSync("python3", ["-m", "pytest", "-rA", "-p", "no:cacheprovider", file], { cwd: project, encoding: "utf8", env: { ...process.env, PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1" } });
      } catch (error) {
        throw new Error(`bench/ledger needs pytest: ${error.message}`, { cause: error });
      }
      outputs.set(file, text);
    }
    return outputs.get(file);
  };
  const every = Math.max(1, Math.floor(JOURNAL_CALLS / JOURNAL_RUNS));
  const commands = Array.from({ length: JOURNAL_CALLS }, (_, i) => (i % every === 0 ? `python -m pytest -rA test_m${(i / every) % 25}.py` : i % 3 === 0 ? `sed -i 's/True/True /' test_m${i % 25}.py` : `cat test_m${i % 25}.py`));
  const tool = {
    name: "bash",
    description: "in-process",
    inputSchema: {},
    execute: ({ command }) => {
      const file = /test_m\d+\.py$/.exec(command)?.[0];
      const output = command.startsWith("python -m pytest") ? outputOf(file) : "ok\n";
      return Promise.resolve({ text: `${output}Exit code: 0` });
    },
  };
  for (const command of commands) if (command.startsWith("python")) tool.execute({ command }); // capture outputs first
  const drive = async (options) => {
    const bash = new BashEvidence(tool, { workspace: project, ...options });
    const start = performance.now();
    for (const command of commands) await bash.execute({ command });
    const ms = performance.now() - start;
    await bash.close();
    return { ms, records: bash.verificationRecords.length };
  };
  const plain = await drive({});
  const file = join(base, "ledger.jsonl");
  const seal = join(base, "ledger.seal");
  const journaled = await drive({ journal: file, journalSeal: seal });
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
  if (state.records.length !== journaled.records || state.warnings.length > 0) throw new Error(`restore mismatch: ${state.records.length} records, warnings ${state.warnings}`);
  return {
    calls: JOURNAL_CALLS,
    testRuns: commands.filter((c) => c.startsWith("python")).length,
    lines: parsed,
    journalMB: +(bytes / 1024 / 1024).toFixed(2),
    withoutJournalMs: Math.round(plain.ms),
    withJournalMs: Math.round(journaled.ms),
    ratio: +(journaled.ms / plain.ms).toFixed(2),
    restoreMs: Math.round(restoreMs),
    naiveReadParseMs: Math.round(naiveMs),
    restoreRatio: +(restoreMs / naiveMs).toFixed(2),
    restoreHeapMB: +((heapAfter - heapBefore) / 1024 / 1024).toFixed(1),
  };
}

async function main() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "ae-bench-ledger-")));
  try {
    const logs = join(base, "logs");
    mkdirSync(logs);
    const repo = makeRepo(base);
    const bash = () => createBashTool({ cwd: repo, headless: false, tempDir: logs });
    // Non-test commands: read-only ones and a small edit, alternating, so both paths are measured.
    const mixed = Array.from({ length: SNAPSHOT_CALLS }, (_, i) => (i % 3 === 2 ? `echo '# ${i}' >> pkg0/mod0.py` : i % 3 === 1 ? "git status --short | head -1" : "ls pkg1 | wc -l"));
    const modes = {};
    for (const invalidation of ["conservative", "snapshot"]) {
      const tool = new BashEvidence(bash(), { workspace: repo, invalidation });
      await tool.execute({ command: "true" }); // warm-up (creates the private index in snapshot mode)
      const times = await timeCalls(tool, mixed);
      await tool.close();
      modes[invalidation] = { meanMs: mean(times), medianMs: median(times) };
    }
    const snapshot = {
      files: FILES,
      calls: SNAPSHOT_CALLS,
      conservativeMsPerCall: +modes.conservative.meanMs.toFixed(1),
      snapshotMsPerCall: +modes.snapshot.meanMs.toFixed(1),
      ratio: +(modes.snapshot.meanMs / modes.conservative.meanMs).toFixed(2),
      snapshotOverheadMsPerCall: +(modes.snapshot.meanMs - modes.conservative.meanMs).toFixed(1),
    };

    // Wrapped vs raw on short commands, interleaved so machine load hits both alike.
    // A third copy is wrapped as if its shell persisted between calls (the session memory on).
    const raw = bash();
    const wrapped = new BashEvidence(bash(), { workspace: repo });
    const persistent = new BashEvidence(bash(), { workspace: repo, shell: "persistent" });
    const shortCommands = Array.from({ length: SHORT_CALLS }, (_, i) => [`echo ${i}`, "true", "pwd", `printf '%s\\n' a${i} | wc -c`][i % 4]);
    const rawTimes = [];
    const wrappedTimes = [];
    const persistentTimes = [];
    for (const command of shortCommands) {
      rawTimes.push(...(await timeCalls(raw, [command])));
      wrappedTimes.push(...(await timeCalls(wrapped, [command])));
      persistentTimes.push(...(await timeCalls(persistent, [command])));
    }
    await wrapped.close();
    await persistent.close();
    const overheads = rawTimes.map((t, i) => wrappedTimes[i] - t);
    const wrapping = {
      calls: SHORT_CALLS,
      rawMedianMs: +median(rawTimes).toFixed(2),
      wrappedMedianMs: +median(wrappedTimes).toFixed(2),
      ratio: +(median(wrappedTimes) / median(rawTimes)).toFixed(3),
      medianOverheadMs: +median(overheads).toFixed(2),
      persistentShellMedianMs: +median(persistentTimes).toFixed(2),
      persistentShellRatio: +(median(persistentTimes) / median(rawTimes)).toFixed(3),
    };
    const testRun = TEST_RUNS > 0 ? await testRunBench(repo, bash) : null;
    const journal = await journalBench(base);
    console.log(JSON.stringify({ snapshot, wrapping, testRun, journal }, null, 2));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

await main();
