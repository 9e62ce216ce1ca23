// Independent truth readers: each reads what a runner's hooks or event stream recorded, never the
// printed text the parsers under test read. Deliberately simple and separate from src/observers.
import { relative } from "node:path";

/** The outcome of every test that ran, by id in the runner's own id form. */
export interface Truth {
  passed: string[];
  failed: string[];
  skipped: string[];
  /** go only: package import path -> package-level result. */
  packages?: Record<string, "pass" | "fail" | "skip">;
  /**
   * node:test only: the ids with their file in front (`test/a.test.js::suite > test`). The runner
   * prints no file for a passing test, so its ids do not say which target they lie in; these do.
   */
  located?: { passed: string[]; failed: string[] };
}

interface PytestHookRecord {
  kind: "test" | "collect";
  nodeid: string;
  when?: "setup" | "call" | "teardown";
  outcome: "passed" | "failed" | "skipped";
  wasxfail?: boolean;
}

function jsonLines<T>(text: string): T[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

function sortedTruth(passed: Set<string>, failed: Set<string>, skipped: Set<string>): Truth {
  return { passed: [...passed].sort(), failed: [...failed].sort(), skipped: [...skipped].sort() };
}

/** Reads ae_truth_plugin.py records: an error in any phase fails the test; xfail and xpass are skips. */
export function readPytestTruth(text: string): Truth {
  const failed = new Set<string>();
  const called = new Map<string, "passed" | "skipped">();
  for (const record of jsonLines<PytestHookRecord>(text)) {
    if (record.kind === "collect" || record.outcome === "failed") {
      failed.add(record.nodeid);
    } else if (record.when === "call" && record.outcome === "passed" && record.wasxfail !== true) {
      called.set(record.nodeid, "passed");
    } else if (record.outcome === "skipped" || record.wasxfail === true) {
      called.set(record.nodeid, "skipped");
    }
  }
  const passed = new Set<string>();
  const skipped = new Set<string>();
  for (const [id, outcome] of called) {
    if (failed.has(id)) continue;
    (outcome === "passed" ? passed : skipped).add(id);
  }
  return sortedTruth(passed, failed, skipped);
}

interface GoEvent {
  Action?: string;
  Package?: string;
  Test?: string;
  Output?: string;
}

/**
 * Reads go's JSON events. A test counts only if it had a `run` event (Go 1.19's test2json turns a
 * printed `--- PASS: X` into a pass event for a test that never ran); a test that ran with no
 * terminal event in a failed package failed.
 */
export function readGoTruth(text: string): Truth {
  const ran = new Set<string>();
  const terminal = new Map<string, string>();
  const packages: Record<string, "pass" | "fail" | "skip"> = {};
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    const event = JSON.parse(line) as GoEvent;
    if (event.Package === undefined || event.Action === undefined) continue;
    // test2json (Go 1.19) reports `-fuzz`'s start only as the output `=== FUZZ  FuzzX`.
    const fuzz = event.Action === "output" && typeof event.Output === "string" ? /^=== FUZZ\s+(\S+)/.exec(event.Output) : null;
    if (fuzz !== null) ran.add(`${event.Package}::${fuzz[1]}`);
    if (event.Test === undefined) {
      if (event.Action === "pass" || event.Action === "fail" || event.Action === "skip") packages[event.Package] = event.Action;
      continue;
    }
    const id = `${event.Package}::${event.Test}`;
    if (event.Action === "run") ran.add(id);
    if (event.Action === "pass" || event.Action === "fail" || event.Action === "skip") terminal.set(id, event.Action);
  }
  const passed = new Set<string>();
  const failed = new Set<string>();
  const skipped = new Set<string>();
  // Benchmarks get no `run` event (Go 1.19): a failing one is a failure all the same.
  for (const [id, action] of terminal) if (action === "fail" && id.slice(id.indexOf("::") + 2).startsWith("Benchmark")) failed.add(id);
  for (const id of ran) {
    const action = terminal.get(id);
    const pkg = id.slice(0, id.indexOf("::"));
    if (action === "pass") passed.add(id);
    else if (action === "skip") skipped.add(id);
    else if (action === "fail" || packages[pkg] === "fail") failed.add(id);
  }
  return { ...sortedTruth(passed, failed, skipped), packages };
}

interface UnittestHookRecord {
  outcome: "passed" | "failed" | "error" | "skipped" | "expected-failure" | "unexpected-success" | "subtest-failed";
  id: string;
}

/** Reads the sitecustomize result hook: errors, unexpected successes and failed subtests fail a test. */
export function readUnittestTruth(text: string): Truth {
  const passed = new Set<string>();
  const failed = new Set<string>();
  const skipped = new Set<string>();
  for (const record of jsonLines<UnittestHookRecord>(text)) {
    switch (record.outcome) {
      case "passed":
        passed.add(record.id);
        break;
      case "skipped":
      case "expected-failure":
        skipped.add(record.id);
        break;
      case "failed":
      case "error":
      case "unexpected-success":
      case "subtest-failed":
        failed.add(record.id);
        break;
      default: {
        const never: never = record.outcome;
        throw new Error(`unknown unittest outcome ${String(never)}`);
      }
    }
  }
  for (const id of failed) passed.delete(id);
  return sortedTruth(passed, failed, skipped);
}

interface NodeTestRecord {
  event: "test:start" | "test:pass" | "test:fail";
  name: string;
  nesting: number;
  file: string | null;
  skip: boolean;
  todo: boolean;
  type: string | null;
}

/**
 * Reads the node:test truth reporter's records (test/support/node/truth-reporter.mjs), one text per
 * run. Ids are the names from the outermost suite down joined by ` > `, as the runner prints them;
 * `located` adds the file relative to `root` (`test/a.test.js::suite > test`). A suite or a test
 * with subtests is no test of its own: its failure counts only when none of its children failed
 * (the children's failures are the cause). Skips and todos (passing or failing) are skipped.
 */
export function readNodeTestTruth(texts: readonly string[], root: string): Truth {
  const passed = new Set<string>();
  const failed = new Set<string>();
  const skipped = new Set<string>();
  const located = { passed: new Set<string>(), failed: new Set<string>() };
  for (const text of texts) {
    const names: string[] = [];
    const children: { seen: boolean; failed: boolean }[] = [];
    for (const record of jsonLines<NodeTestRecord>(text)) {
      const depth = record.nesting;
      if (record.event === "test:start") {
        names[depth] = record.name;
        names.length = depth + 1;
        children[depth] = { seen: false, failed: false };
        if (depth > 0 && children[depth - 1] !== undefined) children[depth - 1]!.seen = true;
        continue;
      }
      const id = [...names.slice(0, depth), record.name].join(" > ");
      const own = children[depth] ?? { seen: false, failed: false };
      const fail = record.event === "test:fail" && !record.todo;
      if (depth > 0 && children[depth - 1] !== undefined && fail) children[depth - 1]!.failed = true;
      const container = own.seen || record.type === "suite";
      if (container && !(fail && !own.failed)) continue;
      const file = record.file === null ? "" : relative(root, record.file);
      if (record.skip || record.todo) skipped.add(id);
      else if (fail) {
        failed.add(id);
        located.failed.add(`${file}::${id}`);
      } else {
        passed.add(id);
        located.passed.add(`${file}::${id}`);
      }
    }
  }
  for (const id of failed) passed.delete(id);
  return { ...sortedTruth(passed, failed, skipped), located: { passed: [...located.passed].sort(), failed: [...located.failed].sort() } };
}

interface VitestTruthRecord {
  reason: string;
  unhandledErrors: number;
  files: { file: string; state: string; errors: number }[];
  tests: { file: string; names: string[]; state: string }[];
}

/**
 * Reads the vitest truth reporter's records (test/support/vitest/truth-reporter.mjs), one text per
 * run. Ids are `file > suite > test` with the file relative to vitest's root, as the runner prints
 * them; skipped and todo tests are skipped, tests that never finished are neither. `packages` holds
 * each file's own state and, as `(unhandled errors)`, the errors vitest caught outside any test: a
 * file that failed to load or an unhandled error fails the run whatever its tests did.
 */
export function readVitestTruth(texts: readonly string[]): Truth {
  const passed = new Set<string>();
  const failed = new Set<string>();
  const skipped = new Set<string>();
  const packages: Record<string, "pass" | "fail" | "skip"> = {};
  for (const text of texts) {
    const record = JSON.parse(text) as VitestTruthRecord;
    for (const test of record.tests) {
      const id = [test.file, ...test.names].join(" > ");
      if (test.state === "passed") passed.add(id);
      else if (test.state === "failed") failed.add(id);
      else if (test.state === "skipped") skipped.add(id);
    }
    for (const file of record.files)
      packages[file.file] = file.state === "failed" || file.errors > 0 ? "fail" : file.state === "skipped" ? "skip" : "pass";
    if (record.unhandledErrors > 0) packages["(unhandled errors)"] = "fail";
  }
  for (const id of failed) passed.delete(id);
  return { ...sortedTruth(passed, failed, skipped), packages };
}

interface JestTruthRecord {
  success: boolean;
  interrupted: boolean;
  suites: { file: string; execError: string | null; tests: { ancestors: string[]; title: string; status: string }[] }[];
}

/**
 * Reads the jest truth processor's records (test/support/jest/truth-processor.mjs), one text per
 * run: jest's own aggregated results. Ids are `file::describe > test` with the file relative to
 * `root`; a suite that failed to run is the failed id of its file alone. Pending, skipped, todo
 * and disabled tests are skipped.
 */
export function readJestTruth(texts: readonly string[], root: string): Truth {
  const passed = new Set<string>();
  const failed = new Set<string>();
  const skipped = new Set<string>();
  for (const text of texts) {
    for (const record of jsonLines<JestTruthRecord>(text)) {
      for (const suite of record.suites) {
        const file = relative(root, suite.file);
        if (suite.execError !== null) failed.add(file);
        for (const test of suite.tests) {
          const id = `${file}::${[...test.ancestors, test.title].join(" > ")}`;
          if (test.status === "passed") passed.add(id);
          else if (test.status === "failed") failed.add(id);
          else skipped.add(id);
        }
      }
    }
  }
  for (const id of failed) passed.delete(id);
  return sortedTruth(passed, failed, skipped);
}

interface MochaRecord {
  event: "start" | "pass" | "fail" | "pending" | "end";
  titlePath?: string[];
  file?: string | null;
  hook?: boolean;
}

/** The failed id the mocha truth adds for a run that started and never ended (killed, or a test ended the process). */
export const MOCHA_RUN_NOT_ENDED = "(the mocha run did not end)";

/**
 * Reads the mocha truth recorder's records (test/support/mocha/truth.mjs), one text per mocha process.
 * Ids are the title path joined by ` > ` (a failed hook is a failure, titled as mocha titles it:
 * `suite > "before all" hook for "test"`); `located` adds the file relative to `root`. A run that
 * started and never ended adds {@link MOCHA_RUN_NOT_ENDED} to `failed`: the tests after it never ran.
 */
export function readMochaTruth(texts: readonly string[], root: string): Truth {
  const passed = new Set<string>();
  const failed = new Set<string>();
  const skipped = new Set<string>();
  const located = { passed: new Set<string>(), failed: new Set<string>() };
  for (const text of texts) {
    let started = false;
    let ended = false;
    for (const record of jsonLines<MochaRecord>(text)) {
      if (record.event === "start") started = true;
      if (record.event === "end") ended = true;
      if (record.titlePath === undefined) continue;
      const id = record.titlePath.join(" > ");
      const file = record.file === null || record.file === undefined ? "" : relative(root, record.file);
      if (record.event === "pending") skipped.add(id);
      else if (record.event === "fail") {
        failed.add(id);
        located.failed.add(`${file}::${id}`);
      } else {
        passed.add(id);
        located.passed.add(`${file}::${id}`);
      }
    }
    if (started && !ended) {
      failed.add(MOCHA_RUN_NOT_ENDED);
      located.failed.add(`::${MOCHA_RUN_NOT_ENDED}`);
    }
  }
  for (const id of failed) passed.delete(id);
  return { ...sortedTruth(passed, failed, skipped), located: { passed: [...located.passed].sort(), failed: [...located.failed].sort() } };
}

interface LibtestEvent {
  type?: string;
  event?: string;
  name?: string;
}

/**
 * Reads libtest's JSON events (`RUSTC_BOOTSTRAP=1 cargo test ... -- -Z unstable-options --format
 * json`) with cargo's own headers on stderr, which name each test binary (`Running ... (deps/calc-1a2b..)`,
 * `Doc-tests calc`): ids `<binary>::<test>`. `packages` holds each binary's suite result; a binary
 * that started and never ended (killed, crashed) failed, and so did each of its tests without a result.
 */
export function readCargoTruth(text: string): Truth {
  const passed = new Set<string>();
  const failed = new Set<string>();
  const skipped = new Set<string>();
  const packages: Record<string, "pass" | "fail" | "skip"> = {};
  let binary: string | null = null;
  const started = new Set<string>();
  const ended = new Set<string>();
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const header = /^Running .* \((?:.*\/)?([^/]+?)-[0-9a-f]{16}\)$/.exec(line) ?? /^Doc-tests (\S+)$/.exec(line);
    if (header !== null) {
      binary = header[1]!;
      packages[binary] = "fail";
      continue;
    }
    if (!line.startsWith("{") || binary === null) continue;
    const event = JSON.parse(line) as LibtestEvent;
    if (event.type === "suite" && (event.event === "ok" || event.event === "failed"))
      packages[binary] = event.event === "ok" ? "pass" : "fail";
    if (event.type !== "test" || event.name === undefined) continue;
    const id = `${binary}::${event.name}`;
    if (event.event === "started") started.add(id);
    else ended.add(id);
    if (event.event === "ok") passed.add(id);
    else if (event.event === "failed" || event.event === "timeout") failed.add(id);
    else if (event.event === "ignored") skipped.add(id);
  }
  for (const id of started) if (!ended.has(id)) failed.add(id);
  return { ...sortedTruth(passed, failed, skipped), packages };
}
