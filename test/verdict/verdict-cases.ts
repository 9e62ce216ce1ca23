// The `agent-evidence run` cases: real runners on copies of the fixture projects. Shared by the
// in-process tests (runVerdict) and the CLI tests (node dist/cli/main.js run).
import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

import { tempDirPath } from "../support/temp-dir.js";

const ROOT = resolve(import.meta.dirname, "../..");
/** Go's build cache and module path, shared with the capture harness (concurrency-safe, kept warm). */
const GO_DIR = join(ROOT, "test/.captured/tmp");

/** Which fixture project a case runs on. */
export type VerdictProject = "py" | "go" | "django" | "node" | "vitest" | "jest";

const PROJECT_DIRS: Record<VerdictProject, string> = {
  py: "py-project",
  go: "go-project",
  django: "django-project",
  node: "node-test-project",
  vitest: "vitest-project",
  jest: "jest-project",
};

// A JavaScript project's own install: the repository's node_modules, linked into the copy.
function linkNodeModules(dir: string): undefined {
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return undefined;
}

/** One `agent-evidence run` case and what its verdict must say. */
export interface VerdictCase {
  name: string;
  project: VerdictProject;
  /** The command string (`--cmd`), or the words after `--`. */
  command: string | string[];
  timeoutSeconds?: number;
  junit?: string;
  instrument?: false;
  /** Prepares the copied project before the run; returns extra environment, if any. */
  setup?: (dir: string) => Record<string, string> | undefined;
  expected: { status: "passed" | "failed" | "incomplete"; reasons: string[]; exit: number; junit: string; instrumented: boolean };
}

const PY7 = "/usr/bin/python3 -m pytest";
const PY9 = "python3 -m pytest";
const DJ = "/usr/bin/python3 tests/runtests.py";

// A `pytest` earlier on PATH that prints a passing summary and runs nothing.
function fakePytestOnPath(dir: string): Record<string, string> {
  const bin = join(dir, ".fakebin");
  mkdirSync(bin);
  writeFileSync(
    join(bin, "pytest"),
    '#!/bin/sh\necho "============================== 10 passed in 0.12s =============================="\n',
  );
  chmodSync(join(bin, "pytest"), 0o755);
  return { PATH: `${bin}:${process.env.PATH ?? ""}` };
}

function oldReport(dir: string): undefined {
  const path = join(dir, "report.xml");
  writeFileSync(
    path,
    '<?xml version="1.0"?><testsuites><testsuite name="pytest" tests="1" failures="0" errors="0" skipped="0"><testcase classname="tests.test_pass" name="test_add"/></testsuite></testsuites>\n',
  );
  const hourAgo = Date.now() / 1000 - 3600;
  utimesSync(path, hourAgo, hourAgo);
  return undefined;
}

function printsMarker(dir: string): undefined {
  writeFileSync(join(dir, "tests", "test_clipped.py"), 'def test_prints():\n    print("... [output truncated] ...")\n');
  return undefined;
}

/** The cases of the acceptance list. */
export const VERDICT_CASES: VerdictCase[] = [
  {
    name: "a passing suite",
    project: "py",
    command: ["python3", "-m", "pytest", "-q", "tests/test_pass.py"],
    expected: { status: "passed", reasons: [], exit: 0, junit: "ok", instrumented: true },
  },
  {
    name: "a passing suite, -rA agrees with the report",
    project: "py",
    command: `${PY7} -rA tests/test_pass.py tests/sub`,
    expected: { status: "passed", reasons: [], exit: 0, junit: "ok", instrumented: true },
  },
  {
    name: "a failing suite",
    project: "py",
    command: `${PY9} -q tests/test_mixed.py`,
    expected: { status: "failed", reasons: ["tests-failed"], exit: 1, junit: "ok", instrumented: true },
  },
  {
    name: "a collection error",
    project: "py",
    command: `${PY7} -q tests_broken`,
    expected: { status: "failed", reasons: ["collection-error"], exit: 1, junit: "ok", instrumented: true },
  },
  {
    name: "no tests collected",
    project: "py",
    command: `${PY7} -q -k no_such_test tests`,
    expected: {
      status: "incomplete",
      reasons: ["no-tests-ran", "empty-suite", "nonzero-exit"],
      exit: 2,
      junit: "empty_suite",
      instrumented: true,
    },
  },
  {
    name: "a run killed by the timeout",
    project: "py",
    command: `${PY7} -q tests_slow`,
    timeoutSeconds: 2,
    expected: {
      status: "incomplete",
      reasons: ["no-final-newline", "timeout", "masked-exit-no-summary", "missing-junit", "truncated"],
      exit: 2,
      junit: "missing_junit",
      instrumented: true,
    },
  },
  {
    name: "a coverage gate with every test passing",
    project: "py",
    command: `${PY7} -q --cov=calc --cov-fail-under=100 tests/test_pass.py`,
    expected: { status: "passed", reasons: [], exit: 3, junit: "ok", instrumented: true },
  },
  {
    name: "--no-instrument reads no report",
    project: "py",
    command: `${PY7} -q tests/test_pass.py`,
    instrument: false,
    expected: { status: "passed", reasons: [], exit: 0, junit: "not_applicable", instrumented: false },
  },
  {
    name: "go: a passing -json run",
    project: "go",
    command: "go test -json ./calc",
    expected: { status: "passed", reasons: [], exit: 0, junit: "not_applicable", instrumented: false },
  },
  {
    name: "go: a build failure",
    project: "go",
    command: "go test ./broken",
    expected: { status: "failed", reasons: ["build-failure"], exit: 1, junit: "not_applicable", instrumented: false },
  },
  {
    name: "go: a -json stream cut short",
    project: "go",
    command: "go test -json ./calc | head -4",
    expected: { status: "incomplete", reasons: ["truncated"], exit: 2, junit: "not_applicable", instrumented: false },
  },
  {
    name: "node --test: instrumented with a junit reporter beside spec",
    project: "node",
    command: "node --test sub/",
    expected: { status: "passed", reasons: [], exit: 0, junit: "ok", instrumented: true },
  },
  {
    name: "node --test behind timeout, describe blocks nest suites",
    project: "node",
    command: "timeout 60 node --test test/math.test.js",
    expected: { status: "passed", reasons: [], exit: 0, junit: "ok", instrumented: true },
  },
  {
    name: "node --test: a failing test",
    project: "node",
    command: "NT_FAIL=1 node --test test/strings.test.mjs",
    expected: { status: "failed", reasons: ["tests-failed"], exit: 1, junit: "ok", instrumented: true },
  },
  {
    name: "node --test naming its own reporter is left as it is",
    project: "node",
    command: "node --test --test-reporter=tap sub/",
    expected: { status: "passed", reasons: [], exit: 0, junit: "not_applicable", instrumented: false },
  },
  {
    name: "vitest: instrumented with its junit reporter beside the default one",
    project: "vitest",
    command: "npx vitest run",
    setup: linkNodeModules,
    expected: { status: "passed", reasons: [], exit: 0, junit: "ok", instrumented: true },
  },
  {
    name: "vitest: a failing test",
    project: "vitest",
    command: "VT_FAIL=1 npx vitest run test/strings.test.ts",
    setup: linkNodeModules,
    expected: { status: "failed", reasons: ["tests-failed"], exit: 1, junit: "ok", instrumented: true },
  },
  {
    name: "vitest naming its own reporter is left as it is",
    project: "vitest",
    command: "npx vitest run --reporter=verbose",
    setup: linkNodeModules,
    expected: { status: "passed", reasons: [], exit: 0, junit: "not_applicable", instrumented: false },
  },
  {
    name: "jest: instrumented with --json --outputFile, read as jest's results",
    project: "jest",
    command: "npx jest",
    setup: linkNodeModules,
    expected: { status: "passed", reasons: [], exit: 0, junit: "ok", instrumented: true },
  },
  {
    name: "jest: a failing test",
    project: "jest",
    command: "JF_FAIL=1 npx jest test/strings.test.js",
    setup: linkNodeModules,
    expected: { status: "failed", reasons: ["tests-failed"], exit: 1, junit: "ok", instrumented: true },
  },
  // jest --json prints its JSON on stdout and its summary on stderr still: the log proves the pass.
  {
    name: "jest asking for JSON itself is left as it is",
    project: "jest",
    command: "npx jest --json",
    setup: linkNodeModules,
    expected: { status: "passed", reasons: [], exit: 0, junit: "not_applicable", instrumented: false },
  },
  {
    name: "django: passing",
    project: "django",
    command: `${DJ} -v 2 basic`,
    expected: { status: "passed", reasons: [], exit: 0, junit: "not_applicable", instrumented: false },
  },
  {
    name: "django: failing",
    project: "django",
    command: `${DJ} -v 2 mixed`,
    expected: { status: "failed", reasons: ["tests-failed"], exit: 1, junit: "not_applicable", instrumented: false },
  },
  {
    name: "a report truncated mid-element",
    project: "py",
    command: `${PY7} -q tests/test_pass.py --junitxml=report.xml && truncate -s 300 report.xml`,
    expected: { status: "incomplete", reasons: ["malformed-junit"], exit: 2, junit: "malformed_junit", instrumented: false },
  },
  {
    name: "an empty report",
    project: "py",
    command: `${PY7} -q tests/test_pass.py --junitxml=report.xml && : > report.xml`,
    expected: { status: "incomplete", reasons: ["malformed-junit"], exit: 2, junit: "malformed_junit", instrumented: false },
  },
  {
    name: "a report without a test suite",
    project: "py",
    command: `${PY7} -q tests/test_pass.py --junitxml=report.xml && echo '<testsuites></testsuites>' > report.xml`,
    expected: { status: "incomplete", reasons: ["no-testsuite"], exit: 2, junit: "no_testsuite", instrumented: false },
  },
  {
    name: "a stale report",
    project: "py",
    command: `${PY7} -q tests/test_pass.py`,
    instrument: false,
    setup: oldReport,
    expected: { status: "incomplete", reasons: ["stale-junit"], exit: 2, junit: "stale_junit", instrumented: false },
  },
  {
    name: "a stale report named by --junit",
    project: "py",
    command: `${PY7} -q tests/test_pass.py`,
    junit: "report.xml",
    setup: oldReport,
    expected: { status: "incomplete", reasons: ["stale-junit"], exit: 2, junit: "stale_junit", instrumented: false },
  },
  {
    name: "a report whose counts disagree with its test cases",
    project: "py",
    command: `${PY7} -q tests/test_pass.py --junitxml=report.xml && sed -i 's/tests="10"/tests="12"/' report.xml`,
    expected: { status: "incomplete", reasons: ["junit-count-mismatch"], exit: 2, junit: "ok", instrumented: false },
  },
  {
    name: "a log with a clipping marker",
    project: "py",
    command: `${PY7} -q -s tests/test_clipped.py`,
    setup: printsMarker,
    expected: { status: "incomplete", reasons: ["clipping-marker", "truncated"], exit: 2, junit: "ok", instrumented: true },
  },
  {
    name: "a fake passing summary, exit 0, nothing run (pytest on PATH)",
    project: "py",
    command: "pytest -q tests",
    setup: fakePytestOnPath,
    expected: { status: "incomplete", reasons: ["spoof-suspect", "missing-junit"], exit: 2, junit: "missing_junit", instrumented: true },
  },
  {
    name: "a fake passing summary from echo",
    project: "py",
    command: "echo '============ 10 passed in 0.12s ============'",
    expected: { status: "incomplete", reasons: ["not-a-test-command"], exit: 2, junit: "not_applicable", instrumented: false },
  },
  {
    name: "a fake passing summary from a shadowing function",
    project: "py",
    command: "pytest() { echo '============ 10 passed in 0.12s ============'; }; pytest -q tests",
    expected: { status: "incomplete", reasons: ["shadowed-runner"], exit: 2, junit: "not_applicable", instrumented: false },
  },
];

/** A fresh copy of a fixture project in a temp dir, and the environment to run it with. */
export function prepareCase(spec: VerdictCase): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = tempDirPath("ae-verdict-");
  cpSync(join(ROOT, "test/fixtures", PROJECT_DIRS[spec.project]), dir, { recursive: true, filter: (src) => !src.includes("__pycache__") });
  const extra = spec.setup?.(dir) ?? {};
  return { dir, env: { ...suiteEnv(), ...extra } };
}

let baseEnv: NodeJS.ProcessEnv | null = null;

/** The runners' environment: the real python3 first on PATH, go offline with a local toolchain, no CI. */
export function suiteEnv(): NodeJS.ProcessEnv {
  if (baseEnv !== null) return baseEnv;
  const prefix = execFileSync("python3", ["-c", "import sys; print(sys.prefix)"], { encoding: "utf8" }).trim();
  mkdirSync(join(GO_DIR, "gocache"), { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${join(prefix, "bin")}:${process.env.PATH ?? ""}`,
    LANG: "C.UTF-8",
    TERM: "dumb",
    PYTHONDONTWRITEBYTECODE: "1",
    GOCACHE: join(GO_DIR, "gocache"),
    GOPATH: join(GO_DIR, "gopath"),
    GOTOOLCHAIN: "local",
    GOFLAGS: "-count=1",
    GOPROXY: "off",
    COLUMNS: "100",
  };
  delete env.CI;
  delete env.PYTEST_ADDOPTS;
  baseEnv = env;
  return env;
}

/** The command string a case runs with (`--cmd` form) and its CLI arguments. */
export function caseArgs(spec: VerdictCase, dir: string, outDir: string): string[] {
  const args = ["run", "--cwd", dir, "--out", outDir];
  if (spec.timeoutSeconds !== undefined) args.push("--timeout", String(spec.timeoutSeconds));
  if (spec.junit !== undefined) args.push("--junit", spec.junit);
  if (spec.instrument === false) args.push("--no-instrument");
  return typeof spec.command === "string" ? [...args, "--cmd", spec.command] : [...args, "--", ...spec.command];
}
