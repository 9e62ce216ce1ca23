// pytest -rA logs for benchmarks: captured from real pytest runs of fixture projects, then grown by
// copying the run under new paths (header and progress, each section repeated per copy, one final
// summary with the counts scaled). The generator is bench/judge's (same shapes, same renaming), here
// so that more than one benchmark can use it.
import { spawnSync } from "node:child_process";
import { closeSync, cpSync, openSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";

/** @typedef {{ title: string; body: string[] }} LogSection */
/** @typedef {{ header: string[]; progress: string[]; sections: LogSection[]; summary: string }} PytestLog */
/** @typedef {(text: string) => void} Out */
/** @typedef {{ copies: number; counts: Record<string, number>; passedIds: number; failedIds: number }} GeneratedIds */

/**
 * `value`, or an error naming what was missing from the captured log.
 * @template T
 * @param {T | null | undefined} value
 * @param {string} what
 * @returns {T}
 */
function must(value, what) {
  if (value === null || value === undefined) throw new Error(`unexpected pytest -rA shape: no ${what}`);
  return value;
}

/**
 * The first python3 with pytest on this machine, and its version line.
 * @returns {{ python: string; version: string }}
 */
export function findPython() {
  for (const python of ["python3", "/usr/bin/python3"]) {
    const probe = spawnSync(python, ["-m", "pytest", "--version"], { encoding: "utf8" });
    if (probe.status === 0) return { python, version: (probe.stdout || probe.stderr).trim() };
  }
  throw new Error("no python3 with pytest on this machine (run npm run bootstrap)");
}

/**
 * Runs `pytest -rA -p no:cacheprovider ...args` in `project` and returns its output (stdout then
 * stderr, as a shell's `2>&1` shows a pytest run: pytest writes it all to stdout) and pytest's version.
 * @param {string} project
 * @param {string[]} [args]
 * @returns {{ text: string; version: string }}
 */
export function capturePytest(project, args = ["tests"]) {
  const { python, version } = findPython();
  const result = spawnSync(python, ["-m", "pytest", "-rA", "-p", "no:cacheprovider", ...args], {
    cwd: project,
    encoding: "utf8",
    maxBuffer: 1 << 28,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", NO_COLOR: "1" },
  });
  if (result.error) throw result.error;
  const text = result.stdout + result.stderr;
  if (!/short test summary info/.test(text) || !/ in [\d.]+s/.test(text))
    throw new Error(`pytest -rA gave no summary:\n${text.slice(-2000)}`);
  return { text, version };
}

/**
 * Copies a fixture project of test/fixtures into `work` (pytest then writes nothing into the repository).
 * @param {string} root
 * @param {string} work
 * @param {string} fixture
 * @returns {string}
 */
export function copyFixture(root, work, fixture) {
  const project = join(work, fixture);
  cpSync(join(root, "test/fixtures", fixture), project, { recursive: true });
  return project;
}

/**
 * A pytest -rA log cut into its header (to `collected N items`), progress lines, sections and final summary line.
 * @param {string} text
 * @returns {PytestLog}
 */
export function splitPytestLog(text) {
  const lines = text.replace(/\n$/, "").split("\n");
  const summaryAt = lines.findLastIndex((line) => /^=+ .* in [\d.]+s(?:econds)? .*=+$|^=+ .* in [\d.]+s =+$/.test(line));
  const collectedAt = lines.findIndex((line) => /^collected \d+ items?/.test(line));
  if (summaryAt === -1 || collectedAt === -1) throw new Error("unexpected pytest -rA shape");
  const header = lines.slice(0, collectedAt + 1);
  let at = collectedAt + 1;
  /** @type {string[]} */
  const progress = [];
  for (; at < summaryAt && !/^=+ .* =+$/.test(must(lines[at], "line")); at += 1)
    if (lines[at] !== "") progress.push(must(lines[at], "line"));
  /** @type {LogSection[]} */
  const sections = [];
  for (; at < summaryAt; at += 1) {
    const line = must(lines[at], "line");
    if (/^=+ .* =+$/.test(line)) sections.push({ title: line, body: [] });
    else must(sections.at(-1), "section").body.push(line);
  }
  return { header, progress, sections, summary: must(lines[summaryAt], "summary") };
}

/**
 * A pytest separator line around `title`, as pytest's sep() draws it at 80 columns.
 * @param {string} title
 * @returns {string}
 */
export function decorate(title) {
  // pytest's sep(): at least one `=` on each side, however long the title.
  const side = Math.max(1, Math.floor((80 - title.length - 2) / 2));
  return `${"=".repeat(side)} ${title} ${"=".repeat(side)}`;
}

/**
 * Writes `copies` copies of a captured pytest -rA run through `out(text)`: copy k's paths are under
 * `tests/b<k % cycle>/`, every section holds every copy, and one final summary has the counts times
 * `copies`. Returns the ids a parser must report (distinct ones: `cycle` bounds them).
 * @param {string} text
 * @param {Out} out
 * @param {number} copies
 * @param {number} [cycle]
 * @returns {GeneratedIds}
 */
export function generatePytest(text, out, copies, cycle = Infinity) {
  const log = splitPytestLog(text);
  /** @type {(line: string, copy: number) => string} */
  const rename = (line, copy) => line.replace(/\btests\//g, `tests/b${copy % cycle}/`);
  const perCopyTests = Number(must(/^collected (\d+)/.exec(must(log.header.at(-1), "header")), "collected line")[1]);
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
      /** @type {Map<string, string[]>} */
      const groups = new Map();
      for (const line of section.body) {
        const word = line.split(" ")[0] ?? "";
        const group = groups.get(word) ?? [];
        groups.set(word, group);
        group.push(line);
      }
      for (const group of groups.values())
        for (let copy = 0; copy < copies; copy += 1) for (const line of group) out(`${rename(line, copy)}\n`);
    } else {
      for (let copy = 0; copy < copies; copy += 1) for (const line of section.body) out(`${rename(line, copy)}\n`);
    }
  }
  const summary = must(must(/^=+ (.*?) =+$/.exec(log.summary), "summary line")[1], "summary text");
  /** @type {Record<string, number>} */
  const counts = {};
  const scaled = summary.replace(/(\d+) ([a-z]+)/g, (/** @type {string} */ _, /** @type {string} */ n, /** @type {string} */ word) => {
    counts[word] = Number(n) * copies;
    return `${counts[word]} ${word}`;
  });
  out(`${decorate(scaled)}\n`);
  const base = shortSummaryIds(log.sections);
  const named = Math.min(copies, cycle);
  return { copies, counts, passedIds: base.passed * named, failedIds: base.failed * named };
}

/**
 * Ids per copy a parser must report, from the short summary (an id with ERROR also printed PASSED fails).
 * @param {LogSection[]} sections
 * @returns {{ passed: number; failed: number }}
 */
function shortSummaryIds(sections) {
  const short = must(
    sections.find((s) => /short test summary info/.test(s.title)),
    "short test summary",
  );
  /** @type {Set<string>} */
  const failed = new Set();
  /** @type {Set<string>} */
  const passed = new Set();
  for (const line of short.body) {
    const [word, rest = ""] = [line.slice(0, line.indexOf(" ")), line.slice(line.indexOf(" ") + 1)];
    const id = rest.split(" - ")[0] ?? "";
    if (word === "PASSED") passed.add(id);
    if (word === "FAILED" || word === "ERROR") failed.add(id);
  }
  for (const id of failed) passed.delete(id);
  return { passed: passed.size, failed: failed.size };
}

/**
 * How many copies make about `targetBytes`, from the bytes one and two copies take (the fixed and
 * per-copy parts of a generator's output).
 * @param {(out: Out, copies: number) => unknown} generate
 * @param {number} targetBytes
 * @returns {number}
 */
export function copiesFor(generate, targetBytes) {
  /** @type {(copies: number) => number} */
  const count = (copies) => {
    let bytes = 0;
    generate((text) => (bytes += Buffer.byteLength(text, "utf8")), copies);
    return bytes;
  };
  const one = count(1);
  const perCopy = count(2) - one;
  return Math.max(1, Math.ceil((targetBytes - (one - perCopy)) / perCopy));
}

/**
 * Writes `generate(out, copies)` to `path` in 1 MB writes; returns the file's bytes and what the generator returned.
 * @template T
 * @param {string} path
 * @param {(out: Out, copies: number) => T} generate
 * @param {number} copies
 * @returns {{ path: string; bytes: number; expected: T }}
 */
export function writeGenerated(path, generate, copies) {
  const fd = openSync(path, "w");
  /** @type {string[]} */
  let pending = [];
  let pendingBytes = 0;
  const flush = () => {
    writeSync(fd, Buffer.from(pending.join(""), "utf8"));
    pending = [];
    pendingBytes = 0;
  };
  /** @type {Out} */
  const out = (text) => {
    pending.push(text);
    pendingBytes += text.length;
    if (pendingBytes >= 1 << 20) flush();
  };
  try {
    const expected = generate(out, copies);
    flush();
    return { path, bytes: statSync(path).size, expected };
  } finally {
    closeSync(fd);
  }
}
