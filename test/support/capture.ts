// Runs the real runners on the fixture projects in every command form of capture-cases.ts, once per
// suite, and stores output, exit status and independent truth under test/.captured/ (gitignored).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism } from "node:os";
import { join, relative, resolve } from "node:path";

import { AUDIT_CASES, CAPTURE_CASES, type CaptureCase, type FixtureProject } from "./capture-cases.js";
import { git, gitEnv, gitInit } from "./git.js";
import {
  readCargoTruth,
  readGoTruth,
  readJestTruth,
  readMochaTruth,
  readNodeTestTruth,
  readPytestTruth,
  readUnittestTruth,
  readVitestTruth,
  type Truth,
} from "./truth.js";

const ROOT = resolve(import.meta.dirname, "../..");
/** Where captures live (gitignored). */
export const CAPTURED_DIR = join(ROOT, "test/.captured");
const WORK_DIR = join(CAPTURED_DIR, "work");
const RUNS_DIR = join(CAPTURED_DIR, "runs");
const MANIFEST = join(CAPTURED_DIR, "manifest.json");
const LOCK = join(CAPTURED_DIR, ".lock");
const PY_SUPPORT = join(ROOT, "test/support/python");
/** Committed captures of the cases whose interpreter apt cannot install (CaptureCase.pinned). */
export const PINNED_DIR = join(ROOT, "test/fixtures/captured");
const WORK_PLACEHOLDER = "<work>";
// pytest 7 prints `--- generated xml file: PATH ---` even under -q, inside a case's output: its
// width must not depend on where the repository is checked out (a rule whose title outgrows the
// terminal has a fill of 1 and no longer shows the width the run's other lines are cut against).
// So the truth reports go to a directory whose path has the same length in every checkout.
const JUNIT_DIR = join("/tmp", `ae-junit-${createHash("sha256").update(CAPTURED_DIR).digest("hex").slice(0, 12)}`);
const PROJECT_DIRS: Record<FixtureProject, string> = {
  py: "py-project",
  app: "py-app-project",
  go: "go-project",
  django: "django-project",
  node: "node-test-project",
  vitest: "vitest-project",
  jest: "jest-project",
  mocha: "mocha-project",
  cargo: "cargo-project",
  calc: "calc-project",
};
// Work copies made git repositories (everything committed once), for lines that run git.
const GIT_PROJECTS: readonly FixtureProject[] = ["calc"];
// The private copies of cases with a `setup` (CaptureCase.setup).
const CASES_DIR = join(WORK_DIR, "cases");
// The node:test cases' `node`: the real one with the truth reporter added (see node/bin/node).
const NODE_SHIM_DIR = join(ROOT, "test/support/node/bin");
const NODE_TRUTH_REPORTER = join(ROOT, "test/support/node/truth-reporter.mjs");
// The vitest cases' `vitest`: the repository's own vitest with the truth reporter added (see vitest/bin/vitest).
const VITEST_SHIM_DIR = join(ROOT, "test/support/vitest/bin");
const VITEST_TRUTH_REPORTER = join(ROOT, "test/support/vitest/truth-reporter.mjs");
// The jest cases' `jest`: the repository's own, with the truth processor added (see jest/bin/jest).
const JEST_SHIM_DIR = join(ROOT, "test/support/jest/bin");
const JEST_TRUTH_PROCESSOR = join(ROOT, "test/support/jest/truth-processor.mjs");
// The mocha cases' `mocha`: the repository's own, with the truth recorder required (see mocha/bin/mocha).
const MOCHA_SHIM_DIR = join(ROOT, "test/support/mocha/bin");
const MOCHA_TRUTH = join(ROOT, "test/support/mocha/truth.mjs");
const CASE_TIMEOUT_MS = 60_000;
// Everything one capture runs: the command forms and the audit scenarios' runs.
const ALL_CASES: readonly CaptureCase[] = [...CAPTURE_CASES, ...AUDIT_CASES];
// The cargo cases share one target directory, so the crate compiles once (see captureCargoCases).
const CARGO_ENV = { CARGO_TERM_COLOR: "never", CARGO_NET_OFFLINE: "true", RUST_BACKTRACE: "0" };

/** One captured run: what the runner printed (stdout and stderr merged), its status and the truth. */
export interface CapturedRun {
  name: string;
  line: string;
  project: FixtureProject;
  /** Absolute directory the line ran in. */
  cwd: string;
  /** Absolute project root (pytest's rootdir, the go module, the Django tree). */
  projectRoot: string;
  exitCode: number;
  durationMs: number;
  output: string;
  truth: Truth | null;
  /** pytest's own --junitxml report, when it wrote one. */
  junitXml: string | null;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "__pycache__") return [];
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

// Captures are reused only while every input that shapes them is unchanged.
function inputsHash(): string {
  const hash = createHash("sha256");
  const inputs = [
    ...Object.values(PROJECT_DIRS).flatMap((dir) => filesUnder(join(ROOT, "test/fixtures", dir))),
    ...filesUnder(join(ROOT, "test/support")),
    ...filesUnder(PINNED_DIR),
  ].sort();
  for (const file of inputs) hash.update(relative(ROOT, file)).update(readFileSync(file));
  return hash.digest("hex");
}

function runLine(
  line: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  outFile: string,
  mergeStderr: boolean,
): Promise<{ exitCode: number; durationMs: number }> {
  const fd = openSync(outFile, "w");
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn("bash", ["-c", line], { cwd, env, stdio: ["ignore", fd, mergeStderr ? fd : "ignore"], detached: true });
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }, CASE_TIMEOUT_MS);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      closeSync(fd);
      resolvePromise({ exitCode: code ?? (signal === null ? -1 : 128 + 9), durationMs: Date.now() - started });
    });
  });
}

// The truth files a runner's shim (node, vitest, jest) or recorder (mocha) wrote for a case: one per
// runner process the line started, named after the case's truth file, in the order they were written.
function shimTruthTexts(caseName: string, runner: string): string[] {
  const prefix = `${caseName}.truth.jsonl.${runner}-`;
  const files = readdirSync(RUNS_DIR)
    .filter((file) => file.startsWith(prefix))
    .sort();
  return files.map((file) => readFileSync(join(RUNS_DIR, file), "utf8"));
}

function readIfExists(path: string): string | null {
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

// Several text runs share one `-json` truth line: run each distinct line (and environment) once.
const goTruthRuns = new Map<string, Promise<Truth>>();

function goTruth(
  line: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  outFile: string,
  extraEnv: Record<string, string> | undefined,
): Promise<Truth> {
  const key = `${cwd}|${line}|${JSON.stringify(extraEnv ?? {})}`;
  let run = goTruthRuns.get(key);
  if (run === undefined) {
    run = runLine(line, cwd, env, outFile, false).then(() => readGoTruth(readFileSync(outFile, "utf8")));
    goTruthRuns.set(key, run);
  }
  return run;
}

/** The committed file of a pinned case. */
export function pinnedPath(spec: CaptureCase): string {
  return join(PINNED_DIR, `${spec.name}.${spec.pinned!}.json`);
}

/** A pinned case's committed capture, with its paths moved under this checkout's work copy. */
export function loadPinned(spec: CaptureCase): CapturedRun {
  const text = readFileSync(pinnedPath(spec), "utf8");
  return JSON.parse(text.split(WORK_PLACEHOLDER).join(WORK_DIR)) as CapturedRun;
}

/** A live capture written as a pinned file: this checkout's work copy becomes `<work>`. */
export function pinnedText(run: CapturedRun): string {
  return `${JSON.stringify(run, null, 1).split(WORK_DIR).join(WORK_PLACEHOLDER)}\n`;
}

/** Runs one case now (for pinned-captures.test.ts); its files are written under `name`. */
export function captureLive(spec: CaptureCase, name: string): Promise<CapturedRun> {
  return captureCase({ ...spec, name }, sharedEnv()).then((run) => ({ ...run, name: spec.name }));
}

// A work copy must be its own repository: a git line in it must never reach this checkout's.
function makeOwnRepository(dir: string): void {
  gitInit(dir, "fixture");
  const top = git(dir, "rev-parse", "--show-toplevel");
  if (top !== realpathSync(dir)) throw new Error(`${dir} is not its own git repository (top level ${top})`);
}

// A private copy of the case's project, put in the state its setup lines make.
function setUpCopy(spec: CaptureCase & { setup: string }): string {
  const copy = join(CASES_DIR, spec.name);
  cpSync(join(WORK_DIR, spec.project), copy, { recursive: true });
  if (GIT_PROJECTS.includes(spec.project) && git(copy, "rev-parse", "--show-toplevel") !== realpathSync(copy))
    throw new Error(`${copy} is not its own git repository`);
  const result = spawnSync("bash", ["-c", spec.setup], { cwd: copy, env: gitEnv(), encoding: "utf8" });
  if (result.status !== 0) throw new Error(`setup of ${spec.name} failed (exit ${String(result.status)}): ${result.stderr}`);
  return copy;
}

async function captureCase(spec: CaptureCase, shared: NodeJS.ProcessEnv): Promise<CapturedRun> {
  const projectRoot = spec.setup === undefined ? join(WORK_DIR, spec.project) : setUpCopy({ ...spec, setup: spec.setup });
  const cwd = join(projectRoot, spec.cwd);
  const base = join(RUNS_DIR, spec.name);
  const truthFile = `${base}.truth.jsonl`;
  const junitFile = join(JUNIT_DIR, `${spec.name}.xml`);
  const env: NodeJS.ProcessEnv = { ...shared, AE_TRUTH_FILE: truthFile, COVERAGE_FILE: `${base}.coverage`, ...spec.env };
  if (spec.project === "py" || spec.project === "app" || spec.project === "calc") {
    // Plugins the machine's pytest 9 autoloads but the fixtures never use cost a second of import each.
    env.PYTEST_ADDOPTS = `-p ae_truth_plugin -p no:cacheprovider -p no:hypothesispytest -p no:benchmark --junitxml=${junitFile} -o junit_family=xunit1`;
  }
  if (spec.project === "node") {
    env.PATH = `${NODE_SHIM_DIR}:${env.PATH ?? ""}`;
    env.AE_REAL_NODE = process.execPath;
    env.AE_NODE_TRUTH_REPORTER = NODE_TRUTH_REPORTER;
  }
  if (spec.project === "vitest") {
    env.PATH = `${VITEST_SHIM_DIR}:${env.PATH ?? ""}`;
    env.AE_REAL_VITEST = join(ROOT, "node_modules/.bin/vitest");
    env.AE_VITEST_TRUTH_REPORTER = VITEST_TRUTH_REPORTER;
  }
  if (spec.project === "jest") {
    env.PATH = `${JEST_SHIM_DIR}:${env.PATH ?? ""}`;
    env.AE_REAL_JEST = join(ROOT, "node_modules/.bin/jest");
    env.AE_JEST_TRUTH_PROCESSOR = JEST_TRUTH_PROCESSOR;
  }
  if (spec.project === "mocha") {
    env.PATH = `${MOCHA_SHIM_DIR}:${env.PATH ?? ""}`;
    env.AE_REAL_MOCHA = join(ROOT, "node_modules/.bin/mocha");
    env.AE_MOCHA_TRUTH = MOCHA_TRUTH;
  }
  if (spec.project === "cargo") Object.assign(env, CARGO_ENV, { CARGO_TARGET_DIR: cargoTargetDir() }, spec.env);
  const { exitCode, durationMs } = await runLine(spec.line, cwd, env, `${base}.out`, true);
  let truth: Truth | null = null;
  switch (spec.truth) {
    case "pytest-hooks":
      truth = readPytestTruth(readIfExists(truthFile) ?? "");
      break;
    case "unittest-hook":
      truth = readUnittestTruth(readIfExists(truthFile) ?? "");
      break;
    case "go-json": {
      if (spec.truthLine === undefined) {
        truth = readGoTruth(readFileSync(`${base}.out`, "utf8"));
      } else {
        truth = await goTruth(spec.truthLine, cwd, env, `${base}.gotruth.jsonl`, spec.env);
      }
      break;
    }
    case "node-events": {
      truth = readNodeTestTruth(shimTruthTexts(spec.name, "node"), projectRoot);
      break;
    }
    case "vitest-reporter": {
      truth = readVitestTruth(shimTruthTexts(spec.name, "vitest"));
      break;
    }
    case "jest-results": {
      truth = readJestTruth(shimTruthTexts(spec.name, "jest"), projectRoot);
      break;
    }
    case "mocha-events": {
      truth = readMochaTruth(shimTruthTexts(spec.name, "mocha"), projectRoot);
      break;
    }
    case "cargo-json": {
      // stderr too: cargo's headers name the binaries whose events follow.
      await runLine(spec.truthLine!, cwd, env, `${base}.cargotruth.txt`, true);
      truth = readCargoTruth(readFileSync(`${base}.cargotruth.txt`, "utf8"));
      break;
    }
    case "none":
      break;
    default: {
      const never: never = spec.truth;
      throw new Error(`unknown truth source ${String(never)}`);
    }
  }
  return {
    name: spec.name,
    line: spec.line,
    project: spec.project,
    cwd,
    projectRoot,
    exitCode,
    durationMs,
    output: readFileSync(`${base}.out`, "utf8"),
    truth,
    junitXml: readIfExists(junitFile),
  };
}

async function captureEverything(hash: string): Promise<void> {
  rmSync(WORK_DIR, { recursive: true, force: true });
  rmSync(RUNS_DIR, { recursive: true, force: true });
  mkdirSync(RUNS_DIR, { recursive: true });
  rmSync(JUNIT_DIR, { recursive: true, force: true });
  mkdirSync(JUNIT_DIR, { recursive: true });
  for (const [project, dir] of Object.entries(PROJECT_DIRS)) {
    cpSync(join(ROOT, "test/fixtures", dir), join(WORK_DIR, project), { recursive: true, filter: (src) => !src.includes("__pycache__") });
  }
  for (const project of GIT_PROJECTS) makeOwnRepository(join(WORK_DIR, project));
  goTruthRuns.clear();
  const shared = sharedEnv();
  const queue = ALL_CASES.filter((spec) => spec.pinned === undefined && spec.project !== "cargo");
  const results: CapturedRun[] = ALL_CASES.filter((spec) => spec.pinned !== undefined).map(loadPinned);
  // Go cases first: their first build fills the shared GOCACHE while Python cases keep the other worker busy.
  queue.sort((a, b) => Number(b.project === "go") - Number(a.project === "go"));
  const workers = Math.max(2, Math.min(3, availableParallelism()));
  await Promise.all([
    ...Array.from({ length: workers }, async () => {
      for (let spec = queue.shift(); spec !== undefined; spec = queue.shift()) results.push(await captureCase(spec, shared));
    }),
    captureCargoCases(shared).then((runs) => results.push(...runs)),
  ]);
  for (const run of results) writeFileSync(join(RUNS_DIR, `${run.name}.json`), JSON.stringify(run, null, 1));
  writeFileSync(MANIFEST, JSON.stringify({ hash, cases: results.map((r) => r.name).sort() }));
}

function cargoTargetDir(): string {
  return join(CAPTURED_DIR, "tmp", "cargo-target");
}

/**
 * The cargo cases, one after another in one target directory: compiling dominates their time, so the
 * crate is built once first (a case then only links what it changes), and no two cargo processes
 * wait on each other's build lock (`Blocking waiting for file lock` would land in the output).
 */
async function captureCargoCases(shared: NodeJS.ProcessEnv): Promise<CapturedRun[]> {
  const cases = CAPTURE_CASES.filter((spec) => spec.project === "cargo" && spec.pinned === undefined);
  if (cases.length === 0) return [];
  const env = { ...shared, ...CARGO_ENV, CARGO_TARGET_DIR: cargoTargetDir() };
  await runLine("cargo test --workspace --exclude broken --no-run", join(WORK_DIR, "cargo"), env, join(RUNS_DIR, "cargo-build.out"), true);
  const runs: CapturedRun[] = [];
  for (const spec of cases) runs.push(await captureCase(spec, shared));
  return runs;
}

// The environment every case runs in (a case's own env goes over it).
function sharedEnv(): NodeJS.ProcessEnv {
  const temp = join(CAPTURED_DIR, "tmp");
  const shared: NodeJS.ProcessEnv = {
    PATH: `${pythonBinDir()}:${process.env.PATH ?? ""}`,
    HOME: process.env.HOME,
    LANG: "C.UTF-8",
    TERM: "dumb",
    PYTHONPATH: PY_SUPPORT,
    PYTHONDONTWRITEBYTECODE: "1",
    GOCACHE: join(temp, "gocache"),
    GOPATH: join(temp, "gopath"),
    GOTOOLCHAIN: "local",
    GOFLAGS: "-count=1",
    GOPROXY: "off",
    COLUMNS: "100",
  };
  mkdirSync(join(temp, "gocache"), { recursive: true });
  return shared;
}

// `python3` resolves to the real interpreter rather than a version-manager shim (pyenv's adds seconds under load).
function pythonBinDir(): string {
  const prefix = execFileSync("python3", ["-c", "import sys; print(sys.prefix)"], { encoding: "utf8" }).trim();
  return join(prefix, "bin");
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function manifestHash(): string | null {
  const text = readIfExists(MANIFEST);
  return text === null ? null : (JSON.parse(text) as { hash: string }).hash;
}

/**
 * Makes sure test/.captured holds captures of the current fixtures and harness. `fresh` (the
 * globalSetup) always recaptures; otherwise captures with a matching inputs hash are reused. A lock
 * directory keeps parallel test files from capturing twice.
 */
export async function ensureCaptured(options: { fresh?: boolean } = {}): Promise<void> {
  mkdirSync(CAPTURED_DIR, { recursive: true });
  const hash = inputsHash();
  for (;;) {
    if (options.fresh !== true && manifestHash() === hash) return;
    try {
      mkdirSync(LOCK);
    } catch {
      // Another worker is capturing; a lock older than the whole capture budget is abandoned.
      if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > 300_000) rmSync(LOCK, { recursive: true, force: true });
      await sleep(250);
      if (options.fresh === true) options = {};
      continue;
    }
    try {
      if (options.fresh === true || manifestHash() !== hash) {
        rmSync(MANIFEST, { force: true });
        await captureEverything(hash);
      }
      return;
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}

/** Loads one captured run by case name (after {@link ensureCaptured}). */
export function loadCapture(name: string): CapturedRun {
  const path = join(RUNS_DIR, `${name}.json`);
  if (!existsSync(path)) throw new Error(`no captured run named ${name}; known: ${ALL_CASES.map((c) => c.name).join(", ")}`);
  return JSON.parse(readFileSync(path, "utf8")) as CapturedRun;
}
