// The independent side of the cross-check (issue 16): runs pytest and go test directly (execFile,
// never through the library), reads their structured reports (pytest's JUnit XML, go's test2json
// events) with parsers of its own, and computes the SWE-bench table from two such reports. Nothing
// here imports from src/: a bug shared by the library and this file would hide itself.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";

import { tempDirPath } from "../support/temp-dir.js";

/** One test's outcome in a report; skips (and xfails) are neither. */
export type ReportOutcome = "passed" | "failed";

/** What one direct run of the runner reported. */
export interface RunnerReport {
  /** Every test id the report gives an outcome, as the runner prints ids. */
  outcomes: Map<string, ReportOutcome>;
  /** Ids the report lists as skipped (pytest skips and xfails, go skips). */
  skipped: string[];
  exitCode: number;
  /** The runner's exit took longer than the harness allowed (never expected here). */
  timedOut: boolean;
  /** The runner's own stdout and stderr, for failure messages. */
  output: string;
}

/** The per-test table, field for field as `CandidateTestTable` of src/candidates/rank.ts spells it. */
export interface CrossTable {
  failToPass: string[];
  passToPass: string[];
  passToFail: string[];
  failToFail: string[];
  candidateOnly: { passed: string[]; failed: string[] };
  baseOnly: string[];
}

interface Exec {
  exitCode: number;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], cwd: string, env: Record<string, string>, timeoutMs: number): Promise<Exec> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd, env, timeout: timeoutMs, killSignal: "SIGKILL", maxBuffer: 64 * 1024 * 1024, encoding: "utf8" },
      (error, stdout, stderr) => {
        const failure = error as (Error & { code?: unknown; killed?: boolean }) | null;
        const exitCode = failure === null ? 0 : typeof failure.code === "number" ? failure.code : -1;
        resolve({ exitCode, timedOut: failure?.killed === true, stdout, stderr });
      },
    );
  });
}

// ---------------------------------------------------------------------------------------------
// pytest: JUnit XML

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, body: string) => {
    if (body.startsWith("#x")) return String.fromCodePoint(parseInt(body.slice(2), 16));
    if (body.startsWith("#")) return String.fromCodePoint(parseInt(body.slice(1), 10));
    return ENTITIES[body] ?? whole;
  });
}

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of tag.matchAll(/([A-Za-z_:][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
    out[match[1]!] = decodeXml(match[2] ?? match[3] ?? "");
  return out;
}

/**
 * pytest's JUnit `classname` + `name` as the node id pytest prints relative to `root`: the longest
 * dotted prefix of the classname that is a `.py` file under `root` is the module path, the rest are
 * classes (`tests.test_strs.TestJoin` + `test_two` -> `tests/test_strs.py::TestJoin::test_two`). A
 * collection error has an empty classname and the module's dotted path as its name (`tests.test_strs`
 * -> `tests/test_strs.py`, the id pytest prints in `ERROR tests/test_strs.py`).
 */
export function junitId(root: string, classname: string, name: string): string {
  if (classname === "") {
    const module = `${name.split(".").join("/")}.py`;
    if (!existsSync(join(root, module))) throw new Error(`JUnit testcase without classname names no module under ${root}: ${name}`);
    return module;
  }
  const parts = classname.split(".");
  for (let end = parts.length; end > 0; end--) {
    const module = `${parts.slice(0, end).join("/")}.py`;
    if (existsSync(join(root, module))) return [module, ...parts.slice(end), name].join("::");
  }
  throw new Error(`JUnit classname ${classname} names no module under ${root}`);
}

/** Reads pytest's JUnit XML: a testcase with a `<failure>` or `<error>` failed, one with `<skipped>` skipped, any other passed. */
export function parseJUnit(xml: string, root: string): Pick<RunnerReport, "outcomes" | "skipped"> {
  const outcomes = new Map<string, ReportOutcome>();
  const skipped = new Set<string>();
  const cases = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
  let count = 0;
  for (const match of xml.matchAll(cases)) {
    count++;
    const attrs = attributes(match[1]!);
    if (attrs.classname === undefined || attrs.name === undefined)
      throw new Error(`JUnit testcase without classname or name: ${match[0].slice(0, 200)}`);
    const id = junitId(root, attrs.classname, attrs.name);
    const body = match[3] ?? "";
    const failed = /<(failure|error)\b/.test(body);
    const skip = !failed && /<skipped\b/.test(body);
    if (failed) {
      outcomes.set(id, "failed");
      skipped.delete(id);
    } else if (skip) {
      if (!outcomes.has(id)) skipped.add(id);
    } else if (!outcomes.has(id)) outcomes.set(id, "passed");
  }
  // (The suite's `tests` count is no check: pytest counts a teardown error as one more test.)
  if (count === 0 && !/<testsuite\b/.test(xml)) throw new Error("not a JUnit report: no testsuite element");
  return { outcomes, skipped: [...skipped].sort() };
}

/** Runs `python -m pytest -p no:cacheprovider --junitxml=<tmp> tests` in `dir` and reads the report. */
export async function pytestReport(python: string, dir: string, timeoutMs = 120_000): Promise<RunnerReport> {
  const scratch = tempDirPath("ae-xcheck-junit-");
  try {
    const xmlPath = join(scratch, "r.xml");
    const env = { PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8", HOME: scratch, PYTHONDONTWRITEBYTECODE: "1" };
    const result = await run(python, ["-m", "pytest", "-p", "no:cacheprovider", `--junitxml=${xmlPath}`, "tests"], dir, env, timeoutMs);
    const output = `${result.stdout}${result.stderr}`;
    if (result.timedOut) return { outcomes: new Map(), skipped: [], exitCode: result.exitCode, timedOut: true, output };
    if (!existsSync(xmlPath)) throw new Error(`pytest wrote no JUnit report in ${dir} (exit ${result.exitCode}):\n${output}`);
    return { ...parseJUnit(await readFile(xmlPath, "utf8"), dir), exitCode: result.exitCode, timedOut: false, output };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// go test: test2json events

/**
 * Reads `go test -json` output: each `pass`/`fail`/`skip` event of a test is that test's outcome,
 * keyed `<package>::<test>` (subtests keep go's `Parent/sub` name). Lines that are not JSON objects
 * (Go 1.19 prints build failures as text even under -json) carry no test outcome. A test that ran
 * but never reached a terminal event (its binary died) has no outcome in the report.
 */
export function parseGoJson(stdout: string): Pick<RunnerReport, "outcomes" | "skipped"> {
  const outcomes = new Map<string, ReportOutcome>();
  const skipped = new Set<string>();
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    const event = JSON.parse(line) as { Action?: string; Package?: string; Test?: string };
    if (event.Test === undefined || event.Package === undefined) continue;
    const id = `${event.Package}::${event.Test}`;
    if (event.Action === "fail") {
      outcomes.set(id, "failed");
      skipped.delete(id);
    } else if (event.Action === "pass" && !outcomes.has(id)) outcomes.set(id, "passed");
    else if (event.Action === "skip" && !outcomes.has(id)) skipped.add(id);
  }
  return { outcomes, skipped: [...skipped].sort() };
}

/** Runs `go test -count=1 -json ./...` in `dir` (build cache in `cacheDir`, no network) and reads the events. */
export async function goReport(go: string, dir: string, cacheDir: string, timeoutMs = 120_000): Promise<RunnerReport> {
  const env = {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    LANG: "C.UTF-8",
    HOME: cacheDir,
    GOCACHE: join(cacheDir, "go-build"),
    GOPATH: join(cacheDir, "gopath"),
    GOENV: "off",
    GOFLAGS: "",
    GOPROXY: "off",
    CGO_ENABLED: "0",
  };
  const result = await run(go, ["test", "-count=1", "-json", "./..."], dir, env, timeoutMs);
  const output = `${result.stdout}${result.stderr}`;
  if (result.timedOut) return { outcomes: new Map(), skipped: [], exitCode: result.exitCode, timedOut: true, output };
  return { ...parseGoJson(result.stdout), exitCode: result.exitCode, timedOut: false, output };
}

// ---------------------------------------------------------------------------------------------
// The table

/** fail-to-pass, pass-to-pass, pass-to-fail, fail-to-fail (and the ids only one side has) from two reports. */
export function crossTable(base: ReadonlyMap<string, ReportOutcome>, candidate: ReadonlyMap<string, ReportOutcome>): CrossTable {
  const out: CrossTable = {
    failToPass: [],
    passToPass: [],
    passToFail: [],
    failToFail: [],
    candidateOnly: { passed: [], failed: [] },
    baseOnly: [],
  };
  for (const [id, now] of candidate) {
    const before = base.get(id);
    if (before === undefined) (now === "passed" ? out.candidateOnly.passed : out.candidateOnly.failed).push(id);
    else if (before === "passed" && now === "passed") out.passToPass.push(id);
    else if (before === "passed") out.passToFail.push(id);
    else if (now === "passed") out.failToPass.push(id);
    else out.failToFail.push(id);
  }
  for (const id of base.keys()) if (!candidate.has(id)) out.baseOnly.push(id);
  const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  for (const list of [
    out.failToPass,
    out.passToPass,
    out.passToFail,
    out.failToFail,
    out.candidateOnly.passed,
    out.candidateOnly.failed,
    out.baseOnly,
  ])
    list.sort(byCodeUnit);
  return out;
}
