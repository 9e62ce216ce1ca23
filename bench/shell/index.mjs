#!/usr/bin/env node
// Analyses 100,000 realistic agent command lines with the built analyser (dist/) and compares the
// time per line with shell-quote's parse on the same lines, measured in the same run.
// Build first: npx tsc -p tsconfig.build.json (or npm run build). Run: node bench/shell/index.mjs
import { performance } from "node:perf_hooks";

import shellQuote from "shell-quote";

import { analyzeCommand, attributeExit } from "../../dist/entries/shell.js";
import { mulberry32 } from "../support/prng.mjs";
import { median } from "../support/stats.mjs";

const COUNT = Number(process.env.BENCH_LINES ?? 100_000);

// A seeded generator, so every run measures the same lines.
const rand = mulberry32(20240917);
const pick = (items) => items[Math.floor(rand() * items.length)];
const maybe = (p, text) => (rand() < p ? text : "");

const targets = [
  "",
  "tests/",
  "tests/test_api.py",
  "tests/test_models.py::TestUser::test_save",
  "'tests/test_x.py::test_y[a-1]'",
  "tests/unit tests/integration",
];
const pytestOptions = [
  "-q",
  "-x",
  "-rA",
  "-v",
  "-k 'parser and not slow'",
  "-m 'not slow'",
  "-n 4",
  "--tb=short",
  "-p no:cacheprovider",
  "--junitxml=report.xml",
  "--maxfail=1",
  "--lf",
  "-o addopts=''",
  "--cov=src --cov-report=term-missing",
];
const runners = [
  () => `pytest ${pick(pytestOptions)} ${pick(targets)}`,
  () => `python -m pytest ${pick(pytestOptions)} ${pick(pytestOptions)} ${pick(targets)}`,
  () => `python3 -B -m pytest ${pick(pytestOptions)} ${pick(targets)}`,
  () => `uv run pytest ${pick(pytestOptions)} ${pick(targets)}`,
  () => `timeout 300 ${pick(["pytest", "python -m pytest", ".venv/bin/pytest"])} ${pick(pytestOptions)} ${pick(targets)}`,
  () =>
    `go test ${pick(["./...", "./pkg/...", "./internal/parser"])} ${pick(["", "-run TestParse", "-count=1", "-v", "-json", "-race -timeout 5m"])}`,
  () =>
    `python tests/runtests.py ${pick(["", "--settings=test_sqlite", "-v 2", "--parallel 1"])} ${pick(["migrations", "admin_views.tests", "forms_tests"])}`,
  () => `python manage.py test ${pick(["", "app", "app.tests.test_views", "--keepdb -v 2"])}`,
  () => `python -m unittest ${pick(["", "-v", "discover -s tests"])} ${pick(["", "tests.test_x"])}`,
  () => `coverage run -m pytest ${pick(targets)}`,
];
const plain = [
  "ls -la",
  "git status",
  "git diff --stat",
  "git log --oneline -5",
  "cat src/app.py",
  "grep -rn 'def parse' src/ | head -20",
  "sed -i 's/old/new/' src/app.py",
  "find . -name '*.py' | wc -l",
  "rg TODO --type py",
  "head -50 README.md",
  "black . && ruff check .",
  "pip install -e .",
  "npm test 2>&1 | tail -20",
  "python -c 'import sys; print(sys.version)'",
  "echo $PATH",
  "mkdir -p build && cd build",
];
const tails = [
  "",
  " 2>&1 | tail -3",
  " 2>&1 | tail -n 50",
  " | tee out.log",
  " 2>&1 | head -40",
  " > test.log 2>&1",
  " 2>&1 | grep -E 'passed|failed'",
  " && echo ALL_OK",
  " && echo OK || echo BROKEN",
  " || true",
  '; echo "EXIT=$?"',
];

function line() {
  const roll = rand();
  if (roll < 0.3) return pick(plain);
  const runner = `${maybe(0.15, "PYTHONHASHSEED=0 ")}${pick(runners)()}`.replace(/ +/g, " ").trim();
  const body = `${maybe(0.35, `cd ${pick(["sub", "pkg", "/repo/backend", "tests"])} && `)}${maybe(0.1, "set -o pipefail; ")}${runner}${pick(tails)}`;
  if (roll < 0.36) return `bash -c ${JSON.stringify(body)}`;
  if (roll < 0.4) return `cat > conftest.py <<'EOF'\nimport pytest\n\n@pytest.fixture\ndef db():\n    return {}\nEOF\n${body}`;
  if (roll < 0.44) return `git stash && ${runner} ; git stash pop`;
  if (roll < 0.5) return `${pick(plain)}\n${body}`;
  return body;
}

const lines = Array.from({ length: COUNT }, line);

// The machine may be shared: the three measurements run interleaved, chunk by chunk, so load changes
// hit all of them alike; the ratio is taken per chunk and the median reported.
const CHUNK = 5_000;
const subjects = [
  { label: "agent-evidence analyzeCommand", fn: (l) => analyzeCommand(l) },
  { label: "analyzeCommand + attributeExit", fn: (l) => attributeExit(analyzeCommand(l), 0, { output: "OK" }) },
  { label: "shell-quote parse", fn: (l) => shellQuote.parse(l) },
];
for (const subject of subjects) {
  subject.ms = 0;
  subject.chunks = [];
  for (let i = 0; i < Math.min(2_000, lines.length); i++) subject.fn(lines[i]);
}
for (let from = 0; from < lines.length; from += CHUNK) {
  const chunk = lines.slice(from, from + CHUNK);
  for (const subject of subjects) {
    globalThis.gc?.();
    const started = performance.now();
    for (const l of chunk) subject.fn(l);
    const elapsed = performance.now() - started;
    subject.ms += elapsed;
    subject.chunks.push(elapsed);
  }
}
const ratio = (a, b) => median(a.chunks.map((ms, i) => ms / b.chunks[i]));
const [ours, withAttribution, baseline] = subjects;

const invocations = lines.reduce((sum, l) => sum + analyzeCommand(l).invocations.length, 0);
console.log(`lines: ${lines.length}, test-runner invocations found: ${invocations}`);
for (const r of subjects)
  console.log(
    `${r.label.padEnd(34)} ${((r.ms * 1000) / lines.length).toFixed(2).padStart(8)} µs/line  (${(r.ms / 1000).toFixed(2)} s total)`,
  );
console.log(`ratio analyzeCommand / shell-quote parse: ${ratio(ours, baseline).toFixed(2)}x (median over ${ours.chunks.length} chunks)`);
console.log(`ratio analyzeCommand + attributeExit / shell-quote parse: ${ratio(withAttribution, baseline).toFixed(2)}x`);
