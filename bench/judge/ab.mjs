#!/usr/bin/env node
// bench/judge/ab.mjs OLD_ROOT NEW_ROOT: createJudgeStream of two builds (each a checkout with its tsc dist/)
// on the same generated logs (a pytest -rA log of 300 k ids, a go -json stream of 100 k tests),
// alternating, five rounds each in one process; prints the medians and the ratio new/old.
// Run: node --expose-gc bench/judge/ab.mjs /path/to/old/checkout .
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { median } from "../support/stats.mjs";
const [oldRoot, newRoot] = process.argv.slice(2);
const load = async (root) => ({
  judge: await import(pathToFileURL(join(root, "dist/index.js")).href),
  analyze: await import(pathToFileURL(join(root, "dist/index.js")).href),
});
const impls = { old: await load(oldRoot), new: await load(newRoot) };
function pytestLog(ids) {
  const parts = [
    "============================= test session starts ==============================\n",
    "platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0\n",
    "rootdir: /work/project\n",
    `collected ${ids} items\n`,
    "\n",
    "=========================== short test summary info ============================\n",
  ];
  for (let i = 0; i < ids; i++)
    parts.push(`PASSED tests/test_mod_${String(i % 500).padStart(5, "0")}.py::TestThing::test_case_${i % 10}[param-${i}]\n`);
  parts.push(`======================== ${ids} passed in 12.34s ========================\n`);
  return parts.join("");
}
function goLog(tests) {
  const parts = [];
  for (let i = 0; i < tests; i++) {
    parts.push(`{"Time":"2026-01-01T00:00:00Z","Action":"run","Package":"example.com/p","Test":"TestCase${i}"}\n`);
    parts.push(
      `{"Time":"2026-01-01T00:00:00Z","Action":"output","Package":"example.com/p","Test":"TestCase${i}","Output":"=== RUN   TestCase${i}\\n"}\n`,
    );
    parts.push(`{"Time":"2026-01-01T00:00:00Z","Action":"pass","Package":"example.com/p","Test":"TestCase${i}","Elapsed":0}\n`);
  }
  parts.push(`{"Time":"2026-01-01T00:00:00Z","Action":"output","Package":"example.com/p","Output":"ok  \\texample.com/p\\t0.1s\\n"}\n`);
  parts.push(`{"Time":"2026-01-01T00:00:00Z","Action":"pass","Package":"example.com/p","Elapsed":0.1}\n`);
  return parts.join("");
}
const inputs = [
  ["pytest -rA, 300 k ids", "python -m pytest -rA tests", pytestLog(300_000)],
  ["go test -json, 100 k tests", "go test -json ./...", goLog(100_000)],
];
const CHUNK = 64 * 1024;
for (const [label, command, text] of inputs) {
  const times = { old: [], new: [] };
  let verdicts = {};
  for (let round = 0; round < 5; round++) {
    for (const name of round % 2 === 0 ? ["old", "new"] : ["new", "old"]) {
      const { judge, analyze } = impls[name];
      globalThis.gc?.();
      const t0 = performance.now();
      const stream = judge.createJudgeStream(analyze.analyzeCommand(command, { cwd: "/work/project" }), { exitCode: 0 });
      for (let at = 0; at < text.length; at += CHUNK) stream.push(text.slice(at, at + CHUNK));
      const result = stream.end();
      times[name].push(performance.now() - t0);
      verdicts[name] = `${result.verdict} ${result.runs[0]?.passed.length}`;
    }
  }
  const mb = Buffer.byteLength(text) / 1e6;
  console.log(
    `${label} (${mb.toFixed(1)} MB): old ${median(times.old).toFixed(0)} ms (${verdicts.old}), new ${median(times.new).toFixed(0)} ms (${verdicts.new}), new/old ${(median(times.new) / median(times.old)).toFixed(2)}x`,
  );
}
