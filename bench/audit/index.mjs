#!/usr/bin/env node
// bench/audit: `agent-evidence audit` throughput on 10,000 transcripts, with one worker thread and
// with two (sessions per second, and the ratio). The transcripts are generated here from real runs:
// pytest on the audit tests' project (failing, passing, `| tail`, `-k` filtered, nothing collected,
// a `git stash` baseline, as the suite's audit capture cases run them), placed in Claude Code, Codex
// and generic JSONL record shapes, and varied (client, number and order of runs and edits, shell
// edits, final message) with a seeded PRNG.
// Run: npx tsc -p tsconfig.build.json && node bench/audit/index.mjs   (BENCH_SESSIONS=N to change the count)
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { mulberry32 } from "../support/prng.mjs";
import { copyFixture } from "../support/pytest-logs.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 10_000);
const PYTEST = "python3 -m pytest -q -p no:cacheprovider";

function sh(dir, command) {
  const env = { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@e", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@e" };
  const r = spawnSync("bash", ["-c", command], { cwd: dir, encoding: "utf8", env });
  return { command, stdout: r.stdout, stderr: r.stderr, exitCode: r.status ?? -1 };
}

// The audit tests' project (test/fixtures/calc-project, the suite's audit capture cases), run the same ways.
function captureRuns(work) {
  const dir = copyFixture(root, work, "calc-project");
  if (sh(dir, "git init -q && git add -A && git commit -qm buggy").exitCode !== 0) throw new Error("git setup failed");
  const failing = sh(dir, PYTEST);
  const tail = sh(dir, `${PYTEST} 2>&1 | tail -3`);
  writeFileSync(join(dir, "calc.py"), "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    return a - b\n");
  const runs = {
    failing,
    tail,
    passing: sh(dir, PYTEST),
    filtered: sh(dir, `${PYTEST} -k add`),
    nothing: sh(dir, `${PYTEST} -k no_such_test`),
    stash: sh(dir, `git stash && ${PYTEST}; git stash pop`),
    file: sh(dir, `${PYTEST} tests/test_add.py`),
  };
  if (!/1 failed, 1 passed/.test(failing.stdout) || !/2 passed/.test(runs.passing.stdout))
    throw new Error(`pytest did not give the expected outputs: ${failing.stdout}${failing.stderr}`);
  return { dir, runs };
}

const MESSAGES = [
  "All tests pass.",
  "Fixed `sub`; all tests pass now.",
  "The whole suite passes.",
  "2 passed.",
  "1 test still fails: `test_sub`.",
  "I did not run the tests.",
  "Let me run the tests to make sure they pass.",
  "Done. The tests are passing now.",
  "Updated calc.py.",
];
const at = (s) => new Date(Date.UTC(2026, 0, 5, 10, 0, 0, s * 10)).toISOString();

const claude = {
  user: (text, s) => ({
    type: "user",
    uuid: `u${s}`,
    sessionId: "b",
    cwd: "/w",
    timestamp: at(s),
    isSidechain: false,
    message: { role: "user", content: text },
  }),
  text: (text, s) => ({
    type: "assistant",
    uuid: `a${s}`,
    sessionId: "b",
    cwd: "/w",
    timestamp: at(s),
    isSidechain: false,
    message: { id: `m${s}`, type: "message", role: "assistant", content: [{ type: "text", text }] },
  }),
  tool: (id, name, input, s) => ({
    type: "assistant",
    uuid: `a${s}`,
    sessionId: "b",
    cwd: "/w",
    timestamp: at(s),
    isSidechain: false,
    message: { id: `m${s}`, type: "message", role: "assistant", content: [{ type: "tool_use", id, name, input }] },
  }),
  bash: (id, run, s) => {
    const combined = [run.stdout, run.stderr].filter(Boolean).join("\n");
    const base = { type: "user", uuid: `u${s}`, sessionId: "b", cwd: "/w", timestamp: at(s), isSidechain: false };
    return run.exitCode === 0
      ? {
          ...base,
          message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: combined, is_error: false }] },
          toolUseResult: { stdout: run.stdout, stderr: run.stderr, interrupted: false, isImage: false },
        }
      : {
          ...base,
          message: {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: id, content: `Exit code ${run.exitCode}\n${combined}`, is_error: true }],
          },
          toolUseResult: `Error: Exit code ${run.exitCode}\n${combined}`,
        };
  },
  edited: (id, s) => ({
    type: "user",
    uuid: `u${s}`,
    sessionId: "b",
    timestamp: at(s),
    isSidechain: false,
    message: {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: id, content: "The file /w/calc.py has been updated.", is_error: false }],
    },
    toolUseResult: { filePath: "/w/calc.py" },
  }),
};
const codex = {
  meta: (cwd) => ({
    timestamp: at(0),
    type: "session_meta",
    payload: { id: "rollout-b", cwd, originator: "codex_cli_rs", cli_version: "0.46.0" },
  }),
  call: (id, command, cwd, s) => ({
    timestamp: at(s),
    type: "response_item",
    payload: { type: "function_call", name: "shell_command", arguments: JSON.stringify({ command, workdir: cwd }), call_id: id },
  }),
  out: (id, run, s) => ({
    timestamp: at(s),
    type: "response_item",
    payload: {
      type: "function_call_output",
      call_id: id,
      output: `Exit code: ${run.exitCode}\nWall time: 0.4 seconds\nOutput:\n${run.stdout}${run.stderr}`,
    },
  }),
  patch: (id, s) => ({
    timestamp: at(s),
    type: "response_item",
    payload: {
      type: "custom_tool_call",
      status: "completed",
      call_id: id,
      name: "apply_patch",
      input: "*** Begin Patch\n*** Update File: calc.py\n@@\n-    return a + b\n+    return a - b\n*** End Patch\n",
    },
  }),
  patched: (id, s) => ({
    timestamp: at(s),
    type: "response_item",
    payload: {
      type: "custom_tool_call_output",
      call_id: id,
      output: "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nM calc.py\n",
    },
  }),
  say: (text, s) => ({ timestamp: at(s), type: "event_msg", payload: { type: "agent_message", message: text } }),
};

function generate(index, real) {
  // Seeded, so every bench run audits the same transcripts.
  const random = mulberry32(index + 1);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const kinds = Object.keys(real.runs);
  const steps = Array.from({ length: 2 + Math.floor(random() * 12) }, () => {
    const r = random();
    if (r < 0.6) return { kind: "run", run: real.runs[pick(kinds)] };
    if (r < 0.8) return { kind: "edit" };
    if (r < 0.9) return { kind: "shell-edit", run: { command: "sed -i 's/a + b/a - b/' calc.py", stdout: "", stderr: "", exitCode: 0 } };
    return { kind: "say", text: "Running the tests now." };
  });
  steps.push({ kind: "say", text: pick(MESSAGES) });
  const client = pick(["claude", "codex", "generic"]);
  const records = [];
  if (client === "claude") records.push(claude.user("Fix the bug in sub().", 0));
  if (client === "codex") records.push(codex.meta(real.dir));
  steps.forEach((step, i) => {
    const s = 1 + i * 2;
    const id = `c${i}`;
    if (client === "generic") {
      records.push(
        step.kind === "say"
          ? { assistant: step.text }
          : step.kind === "edit"
            ? { edit: "calc.py" }
            : { command: step.run.command, output: `${step.run.stdout}${step.run.stderr}`, exitCode: step.run.exitCode, cwd: real.dir },
      );
    } else if (client === "claude") {
      if (step.kind === "say") records.push(claude.text(step.text, s));
      else if (step.kind === "edit")
        records.push(
          claude.tool(id, "Edit", { file_path: "/w/calc.py", old_string: "a + b", new_string: "a - b" }, s),
          claude.edited(id, s + 1),
        );
      else records.push(claude.tool(id, "Bash", { command: step.run.command }, s), claude.bash(id, step.run, s + 1));
    } else if (step.kind === "say") records.push(codex.say(step.text, s));
    else if (step.kind === "edit") records.push(codex.patch(id, s), codex.patched(id, s + 1));
    else records.push(codex.call(id, step.run.command, real.dir, s), codex.out(id, step.run, s + 1));
  });
  return `${records.map((r) => JSON.stringify(r)).join("\n")}\n`;
}

async function measure(auditFiles, files, jobs) {
  let sessions = 0;
  const started = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  await auditFiles(files, { jobs, useWorkers: true, onResult: (result) => (sessions += result.kind === "audit" ? 1 : 0) });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  // CPU time of the whole process (every thread): on a shared machine, time stolen by other guests
  // moves the wall figure by tens of percent and this one much less.
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  if (sessions !== files.length) throw new Error(`audited ${sessions} of ${files.length}`);
  return { seconds, perSecond: sessions / seconds, cpuSeconds, perCpuSecond: sessions / cpuSeconds };
}

async function main() {
  const { auditFiles } = await import(pathToFileURL(join(root, "dist/entries/audit.js")).href);
  const { collectTranscriptFiles } = await import(pathToFileURL(join(root, "dist/audit/audit-files.js")).href);
  const work = mkdtempSync(join(tmpdir(), "ae-bench-audit-"));
  try {
    const real = captureRuns(work);
    const out = join(work, "transcripts");
    for (let i = 0; i < SESSIONS; i += 1) {
      const sub = join(out, String(Math.floor(i / 1000)));
      if (i % 1000 === 0) mkdirSync(sub, { recursive: true });
      writeFileSync(join(sub, `session-${i}.jsonl`), generate(i, real));
    }
    const files = collectTranscriptFiles([out]);
    await measure(auditFiles, files.slice(0, 200), 1); // warm-up (file cache, JIT in this thread)
    const one = await measure(auditFiles, files, 1);
    const two = await measure(auditFiles, files, 2);
    console.log(
      `audit: ${files.length} transcripts (Claude Code, Codex, generic; real pytest outputs), ${availableParallelism()} cores available`,
    );
    console.log(
      `  1 worker : ${one.perSecond.toFixed(0)} sessions/s (${one.seconds.toFixed(2)} s; ${one.perCpuSecond.toFixed(0)} sessions per CPU second)`,
    );
    console.log(
      `  2 workers: ${two.perSecond.toFixed(0)} sessions/s (${two.seconds.toFixed(2)} s; ${two.perCpuSecond.toFixed(0)} sessions per CPU second)`,
    );
    console.log(`  ratio 2/1: ${(two.perSecond / one.perSecond).toFixed(2)}x`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
