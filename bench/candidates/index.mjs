#!/usr/bin/env node
// bench/candidates: 8 candidates of a 2,000-file Git repository, each fixing one file, verified with
// `python3 -m pytest -q tests`, through runCandidates({ concurrency: 2 }) with evidenceTools (sandboxed
// bash) against the naive pipeline: a shell loop that makes 8 `git worktree`s, writes the fix and runs
// the same command in each, two at a time (xargs -P 2). Wall time and peak RSS of each whole process
// (GNU time), ratio in the same run. Uses the built dist/.
// Run: npx tsc -p tsconfig.build.json && node bench/candidates/index.mjs
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const FILES = Number(process.env.BENCH_FILES ?? 2_000);
const CANDIDATES = Number(process.env.BENCH_CANDIDATES ?? 8);
const VERIFY = "python3 -m pytest -q -p no:cacheprovider tests";

function makeRepo(base) {
  const repo = join(base, "repo");
  for (let i = 0; i < FILES; i += 1) {
    const dir = join(repo, `pkg${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `mod${i}.py`), `VALUE_${i} = ${i}\n`.repeat(10));
  }
  mkdirSync(join(repo, "tests"));
  writeFileSync(join(repo, "calc.py"), "def add(a, b):\n    return a - b\n");
  writeFileSync(join(repo, "conftest.py"), "");
  writeFileSync(join(repo, ".gitignore"), "__pycache__/\n.pytest_cache/\n");
  writeFileSync(join(repo, "tests", "test_calc.py"), "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n");
  const git = (...args) => execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...args], { cwd: repo, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "init");
  return repo;
}

// One whole process under GNU time: wall seconds and peak RSS (KiB) of the process and its children.
function timed(command, args, env = {}) {
  const result = spawnSync("/usr/bin/time", ["-f", "%e %M", command, ...args], { encoding: "utf8", env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr}`);
  const [wall, rss] = result.stderr.trim().split("\n").at(-1).split(" ").map(Number);
  return { wallS: wall, peakRssMB: +(rss / 1024).toFixed(1), stdout: result.stdout };
}

const OURS = `
  const { runCandidates } = await import(${JSON.stringify(join(root, "dist/entries/candidates.js"))});
  const { evidenceTools } = await import(${JSON.stringify(join(root, "dist/index.js"))});
  const repo = process.env.BENCH_REPO;
  const createToolset = (dir) => evidenceTools(["bash", "file_write"], { cwd: dir });
  const agent = (tools) => tools.find((t) => t.name === "file_write").execute({ path: "calc.py", mode: "overwrite", content: "def add(a, b):\\n    return a + b\\n" });
  const list = Array.from({ length: Number(process.env.BENCH_CANDIDATES) }, (_, i) => ({ repo, label: "c" + i, agent, createToolset, verify: { command: ${JSON.stringify(VERIFY)} } }));
  const settled = await runCandidates(list, { concurrency: 2 });
  const green = settled.filter((s) => s.status === "fulfilled" && s.value.verification.some((r) => r.verified)).length;
  await Promise.all(settled.map((s) => (s.status === "fulfilled" ? s.value.workspace : s.reason.workspace).dispose()));
  console.log(JSON.stringify({ green }));
`;

const LOOP = `
  set -e
  run_one() {
    wt="$BENCH_WT/c$1"
    git -C "$BENCH_REPO" worktree add -q --detach "$wt" HEAD
    printf 'def add(a, b):\\n    return a + b\\n' > "$wt/calc.py"
    (cd "$wt" && ${VERIFY} > /dev/null)
    git -C "$BENCH_REPO" worktree remove --force "$wt"
  }
  export -f run_one
  seq 0 $((BENCH_CANDIDATES - 1)) | xargs -P 2 -I{} bash -c 'run_one {}'
`;

const base = realpathSync(mkdtempSync(join(tmpdir(), "ae-bench-candidates-")));
try {
  const repo = makeRepo(base);
  const worktrees = join(base, "loop");
  mkdirSync(worktrees);
  const env = { BENCH_REPO: repo, BENCH_CANDIDATES: String(CANDIDATES), BENCH_WT: worktrees };
  const loop = timed("bash", ["-c", LOOP], env);
  const ours = timed(process.execPath, ["--input-type=module", "-e", OURS], env);
  const { green } = JSON.parse(ours.stdout.trim().split("\n").at(-1));
  if (green !== CANDIDATES) throw new Error(`only ${green} of ${CANDIDATES} candidates verified green`);
  console.log(
    JSON.stringify(
      {
        files: FILES,
        candidates: CANDIDATES,
        concurrency: 2,
        loop: { wallS: loop.wallS, peakRssMB: loop.peakRssMB },
        ours: { wallS: ours.wallS, peakRssMB: ours.peakRssMB },
        wallRatio: +(ours.wallS / loop.wallS).toFixed(2),
        rssRatio: +(ours.peakRssMB / loop.peakRssMB).toFixed(2),
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(base, { recursive: true, force: true });
}
