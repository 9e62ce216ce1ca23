#!/usr/bin/env node
// bench/patches: parse a real Git diff of at least 50 MB with ours (dist/patches) and with
// parse-diff, gitdiff-parser and jsdiff's parsePatch, in the same run. Reports MB/s, the ratio to
// ours, and how many files each gets exactly right against `git diff --name-status -z`.
// The diff is generated here, in a temp dir: typescript's lib and a few other installed packages
// are committed, then modified (edits, additions, deletions, renames to awkward names, mode changes).
// Each parser runs in its own process so one parser's heap does not slow the next.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const PARSERS = ["agent-evidence", "parse-diff", "gitdiff-parser", "diff.parsePatch"];
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

async function main() {
  const work = mkdtempSync(join(tmpdir(), "ae-bench-patches-"));
  try {
    const started = Date.now();
    const { diffFile, statusFile, bytes } = buildDiff(work);
    console.log(
      `diff: ${(bytes / 1e6).toFixed(1)} MB, generated in ${((Date.now() - started) / 1000).toFixed(1)} s (git ${gitVersion()}, node ${process.version}, best of ${RUNS} runs)`,
    );
    const results = [];
    for (const parser of PARSERS) {
      const child = spawnSync(
        process.execPath,
        ["--expose-gc", "--max-old-space-size=8192", fileURLToPath(import.meta.url), "--worker", parser, diffFile, statusFile],
        { encoding: "utf8", maxBuffer: 1 << 24 },
      );
      if (child.status !== 0) {
        results.push({ parser, error: (child.stderr || "").trim().split("\n").slice(-1)[0] || `exit ${child.status}` });
        continue;
      }
      results.push(JSON.parse(child.stdout));
    }
    const ours = results[0];
    console.log("| parser | MB/s | ours / theirs | files right / expected |");
    console.log("|---|---:|---:|---:|");
    for (const result of results) {
      if (result.error) {
        console.log(`| ${result.parser} | failed: ${result.error} | | |`);
        continue;
      }
      const ratio = result.parser === ours.parser ? "1.00x" : `${(ours.mbps / result.mbps).toFixed(2)}x`;
      console.log(`| ${result.parser} | ${result.mbps.toFixed(1)} | ${ratio} | ${result.right} / ${result.expected} |`);
    }
    const slower = results.slice(1).filter((r) => !r.error && r.mbps >= ours.mbps);
    if (ours.right !== ours.expected || slower.length > 0) {
      console.log(`target missed: ${ours.right}/${ours.expected} right; not faster than ${slower.map((r) => r.parser).join(", ") || "-"}`);
      process.exitCode = 1;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function git(cwd, args, options = {}) {
  const env = {
    ...process.env,
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "Bench",
    GIT_AUTHOR_EMAIL: "bench@example.com",
    GIT_COMMITTER_NAME: "Bench",
    GIT_COMMITTER_EMAIL: "bench@example.com",
    GIT_AUTHOR_DATE: "2001-02-03T04:05:06Z",
    GIT_COMMITTER_DATE: "2001-02-03T04:05:06Z",
  };
  const result = spawnSync("git", args, { cwd, env, maxBuffer: 1 << 30, ...options });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

function gitVersion() {
  return git(root, ["--version"])
    .toString()
    .trim()
    .replace(/^git version /, "");
}

function textFiles(dir, base = dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) textFiles(path, base, out);
    else if (entry.isFile() && /\.(js|mjs|cjs|ts|mts|cts|json|md)$/.test(entry.name)) out.push(path.slice(base.length + 1));
  }
  return out;
}

const AWKWARD = ["with space ", " leading", "tab\there", 'quo"te', "back\\slash", "uni\u2028sep", "中文", "café", "b/dir named b", "a b/c"];

// Base: installed packages committed to a fresh repository; change: a deterministic mix of edits.
function buildDiff(work) {
  const repo = join(work, "repo");
  mkdirSync(repo);
  git(repo, ["init", "-q", "-b", "main", "."]);
  const sources = ["typescript/lib", "zod", "@typescript-eslint", "eslint/lib"].map((p) => join(root, "node_modules", p));
  for (const source of sources)
    cpSync(source, join(repo, source.slice(join(root, "node_modules").length + 1)), { recursive: true, dereference: true });
  writeFileSync(join(repo, "bin.dat"), Buffer.from([0, 1, 2, 3, 4, 5]));
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-q", "-m", "base"]);
  const files = textFiles(repo)
    .filter((path) => !path.startsWith(".git/"))
    .sort();
  files.forEach((path, index) => {
    const full = join(repo, path);
    switch (index % 20) {
      case 0:
        unlinkSync(full);
        break;
      case 1: {
        const name = `${AWKWARD[Math.floor(index / 20) % AWKWARD.length]} ${index}`;
        const target = join(repo, "renamed", name);
        mkdirSync(dirname(target), { recursive: true });
        renameSync(full, target);
        break;
      }
      case 2:
        chmodSync(full, 0o755);
        break;
      case 3: {
        const target = join(repo, "added", `${AWKWARD[Math.floor(index / 20) % AWKWARD.length]} new ${index}`);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, `${readFileSync(full, "utf8")}\n// added copy ${index}\n`);
        break;
      }
      default: {
        // Every other line edited: one long hunk per file, context, removals and additions mixed.
        const lines = readFileSync(full, "utf8").split("\n");
        writeFileSync(full, lines.map((line, n) => (n % 2 === 0 ? `${line} /* ${n} */` : line)).join("\n"));
      }
    }
  });
  writeFileSync(join(repo, "bin.dat"), Buffer.from([0, 1, 2, 3, 4, 6]));
  git(repo, ["add", "-A"]);
  const diffFile = join(work, "bench.diff");
  const statusFile = join(work, "bench.name-status");
  writeFileSync(diffFile, git(repo, ["diff", "--cached", "-M"]));
  writeFileSync(statusFile, git(repo, ["diff", "--cached", "-M", "--name-status", "-z"]));
  return { diffFile, statusFile, bytes: statSync(diffFile).size };
}

// Expected [old, new] per file from --name-status -z ("" for an absent side).
function expectedEntries(statusFile) {
  const fields = readFileSync(statusFile, "utf8").split("\0");
  fields.pop();
  const entries = [];
  for (let i = 0; i < fields.length;) {
    const status = fields[i];
    if (/^[RC]/.test(status)) {
      entries.push([fields[i + 1], fields[i + 2]]);
      i += 3;
    } else {
      const path = fields[i + 1];
      entries.push(status === "A" ? ["", path] : status === "D" ? [path, ""] : [path, path]);
      i += 2;
    }
  }
  return entries;
}

// The least a user would do with each parser's names: drop a/ b/, map /dev/null to "".
function plain(name, prefix) {
  if (name === undefined || name === null || name === "/dev/null") return "";
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

async function loadParsers() {
  const require = createRequire(join(root, "package.json"));
  const ours = await import(join(root, "dist/entries/patches.js"));
  const parseDiff = require("parse-diff");
  const gitdiffParser = require("gitdiff-parser");
  const jsdiff = require("diff");
  return {
    "agent-evidence": {
      parse: (text) => ours.parsePatch(text),
      entries: (files) => files.map((f) => [f.oldPath, f.newPath]),
    },
    "parse-diff": {
      parse: (text) => parseDiff(text),
      entries: (files) => files.map((f) => [f.new ? "" : plain(f.from, "a/"), f.deleted ? "" : plain(f.to, "b/")]),
    },
    "gitdiff-parser": {
      parse: (text) => gitdiffParser.parse(text),
      entries: (files) =>
        files.map((f) => [f.type === "add" ? "" : plain(f.oldPath, "a/"), f.type === "delete" ? "" : plain(f.newPath, "b/")]),
    },
    "diff.parsePatch": {
      parse: (text) => jsdiff.parsePatch(text),
      entries: (files) => files.map((f) => [plain(f.oldFileName, "a/"), plain(f.newFileName, "b/")]),
    },
  };
}

async function worker(name, diffFile, statusFile) {
  const parser = (await loadParsers())[name];
  const text = readFileSync(diffFile, "utf8");
  const megabytes = Buffer.byteLength(text) / 1e6;
  let files = parser.parse(text); // warm-up, and the result we score
  let best = Infinity;
  for (let run = 0; run < RUNS; run++) {
    // Drop the previous result before collecting, so each run parses with the same free heap.
    // eslint-disable-next-line no-useless-assignment
    files = null;
    globalThis.gc?.();
    const start = process.hrtime.bigint();
    files = parser.parse(text);
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
  }
  const expected = expectedEntries(statusFile);
  const remaining = new Map();
  for (const [oldPath, newPath] of parser.entries(files)) {
    const key = `${oldPath}\0${newPath}`;
    remaining.set(key, (remaining.get(key) ?? 0) + 1);
  }
  let right = 0;
  for (const [oldPath, newPath] of expected) {
    const key = `${oldPath}\0${newPath}`;
    const count = remaining.get(key) ?? 0;
    if (count > 0) {
      right += 1;
      remaining.set(key, count - 1);
    }
  }
  process.stdout.write(
    JSON.stringify({ parser: name, ms: best, mbps: megabytes / (best / 1000), files: files.length, right, expected: expected.length }),
  );
}

if (process.argv[2] === "--worker") await worker(process.argv[3], process.argv[4], process.argv[5]);
else await main();
