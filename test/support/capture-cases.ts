// The command forms the suite runs on the fixture projects, once per suite (see capture.ts).
// Each line is typed the way an agent types it; the truth comes from hooks set in the environment,
// never from the printed text the parsers read.

/** Which fixture project a case runs in (copied under test/.captured/work/). */
export type FixtureProject = "py" | "app" | "go" | "django" | "node" | "vitest" | "jest" | "mocha" | "cargo" | "calc";

/** How the independent truth of a case is recorded. */
export type TruthSource =
  /** pytest: the ae_truth_plugin hook records (plus pytest's own --junitxml file). */
  | "pytest-hooks"
  /** go: the JSON events of the case's own `-json` run, or of `truthLine` for text runs. */
  | "go-json"
  /** unittest and Django: the sitecustomize result hook. */
  | "unittest-hook"
  /**
   * node:test: the runner's own event stream, written by a reporter module of the harness's
   * (test/support/node/truth-reporter.mjs) that its `node` shim adds beside the case's reporters.
   */
  | "node-events"
  /**
   * vitest: the runner's own task tree at the end of each run, written by a reporter of the harness's
   * (test/support/vitest/truth-reporter.mjs) that its `vitest` shim adds beside the case's reporters.
   */
  | "vitest-reporter"
  /**
   * jest: the runner's own aggregated results, written by a results processor of the harness's
   * (test/support/jest/truth-processor.mjs) that its `jest` shim adds (it prints nothing).
   */
  | "jest-results"
  /**
   * mocha: the runner's own test events, recorded by a module of the harness's
   * (test/support/mocha/truth.mjs) that its `mocha` shim requires before the line's own options.
   */
  | "mocha-events"
  /**
   * cargo test: libtest's JSON events of `truthLine` (the case's line as `RUSTC_BOOTSTRAP=1 cargo test
   * ... -- -Z unstable-options --format json`), with cargo's headers naming each test binary.
   */
  | "cargo-json"
  /** Nothing ran, so there is nothing to record (usage errors, `-list`). */
  | "none";

/** One command form run on a fixture project. */
export interface CaptureCase {
  name: string;
  project: FixtureProject;
  /** Directory inside the project the line runs in ("" for the project root). */
  cwd: string;
  line: string;
  truth: TruthSource;
  /** go text runs: the equivalent `-json` line whose events are the truth. */
  truthLine?: string;
  env?: Record<string, string>;
  /**
   * Shell lines that put a private copy of the project in the state the line needs (an edit, a
   * commit); the case then runs in that copy, so no other case sees the state.
   */
  setup?: string;
  /**
   * The interpreter, named with its version, for a case apt cannot provide one for: it was run once
   * on the machine image's pyenv interpreter, and its capture is committed as
   * test/fixtures/captured/<name>.<pinned>.json (paths under the work copy as `<work>`). Every
   * machine loads that file instead of running the line; pinned-captures.test.ts re-runs it where
   * the interpreter exists and fails when the committed copy no longer matches.
   */
  pinned?: string;
}

const PY9 = "python3 -m pytest";
const PY7 = "/usr/bin/python3 -m pytest";
const DJ = "/usr/bin/python3 tests/runtests.py";
const PY310 = "/root/.pyenv/versions/3.10.13/bin/python3";
const PY312 = "/root/.pyenv/versions/3.12.1/bin/python3";
/** Interpreters apt does not ship (Debian 12's python3 is 3.11), and the name their captures are pinned under. */
export const PINNED_INTERPRETERS: [path: string, pinned: string][] = [
  [PY310, "python-3.10.13"],
  [PY312, "python-3.12.1"],
];

function py(name: string, line: string, cwd = ""): CaptureCase {
  return { name, project: "py", cwd, line, truth: "pytest-hooks" };
}

// The service-style suite (test/fixtures/py-app-project): passing tests print and log, so -rA shows their output.
function app(name: string, line: string): CaptureCase {
  return { name, project: "app", cwd: "", line, truth: "pytest-hooks" };
}

function go(name: string, line: string, truthLine?: string, env?: Record<string, string>): CaptureCase {
  const base: CaptureCase = {
    name,
    project: "go",
    cwd: "",
    line,
    truth: truthLine === undefined && !line.includes("-json") ? "none" : "go-json",
  };
  if (truthLine !== undefined) base.truthLine = truthLine;
  if (env !== undefined) base.env = env;
  return base;
}

function dj(name: string, line: string, cwd = ""): CaptureCase {
  const base: CaptureCase = { name, project: "django", cwd, line, truth: "unittest-hook" };
  const pinned = PINNED_INTERPRETERS.find(([path]) => line.includes(path));
  if (pinned !== undefined) base.pinned = pinned[1];
  return base;
}

// node:test (test/fixtures/node-test-project), Node's own test runner of the machine's node.
function nt(name: string, line: string, cwd = ""): CaptureCase {
  return { name, project: "node", cwd, line, truth: "node-events" };
}

const CARGO_JSON = "RUSTC_BOOTSTRAP=1 cargo test";
const CARGO_JSON_AFTER = "-Z unstable-options --format json";

// cargo test (test/fixtures/cargo-project): the case's line, and the same selection with libtest's
// JSON events as its truth (`args` before `--`, `after` after it).
function cg(
  name: string,
  line: string,
  truth: { args: string; after?: string; env?: Record<string, string>; line?: string } | null,
  cwd = "",
): CaptureCase {
  const base: CaptureCase = { name, project: "cargo", cwd, line, truth: truth === null ? "none" : "cargo-json" };
  if (truth !== null)
    base.truthLine = truth.line ?? `${CARGO_JSON} ${truth.args} -- ${CARGO_JSON_AFTER} ${truth.after ?? ""}`.replace(/ +/g, " ").trim();
  if (truth?.env !== undefined) base.env = truth.env;
  return base;
}

const FAIL = { AE_FAIL: "1" };

/** cargo test in the forms an agent types (issue 14, section 2). The crate compiles once, before these run. */
const CARGO_FORMS: CaptureCase[] = [
  cg("cg-plain", "cargo test", { args: "" }),
  cg("cg-quiet", "cargo test -q", { args: "" }),
  cg("cg-libtest-quiet", "cargo test --lib --tests -- -q", { args: "--lib --tests" }),
  cg("cg-fail", "cargo test --lib --tests", { args: "--lib --tests", env: FAIL }),
  cg("cg-fail-no-fail-fast", "cargo test --no-fail-fast", { args: "--no-fail-fast", env: FAIL }),
  cg("cg-fail-quiet", "cargo test -q --lib", { args: "--lib", env: FAIL }),
  cg("cg-filter", "cargo test adds", { args: "adds" }),
  cg("cg-filter-exact", "cargo test --lib -- --exact tests::adds", { args: "--lib", after: "--exact tests::adds" }),
  cg("cg-skip", "cargo test --lib --tests -- --skip slow --skip forge", { args: "--lib --tests", after: "--skip slow --skip forge" }),
  cg("cg-nothing-matched", "cargo test zzz_no_such_test", { args: "zzz_no_such_test" }),
  cg("cg-skip-only", "cargo test --test ignored_only", { args: "--test ignored_only" }),
  cg("cg-ignored", "cargo test --test api -- --ignored", { args: "--test api", after: "--ignored" }),
  cg("cg-include-ignored", "cargo test --lib -- --include-ignored", { args: "--lib", after: "--include-ignored" }),
  cg("cg-tail-n20", "cargo test --lib --tests 2>&1 | tail -n 20", { args: "--lib --tests" }),
  cg("cg-tail5", "cargo test --lib | tail -5", { args: "--lib" }),
  cg("cg-tail-n100", "cargo test --lib --tests 2>&1 | tail -n 100", { args: "--lib --tests" }),
  cg("cg-stderr-null", "cargo test --lib --tests 2>/dev/null", { args: "--lib --tests" }),
  cg("cg-echo-done", "cargo test --lib --tests; echo done", { args: "--lib --tests" }),
  cg("cg-or-true-fail", "cargo test --lib || true", { args: "--lib", env: FAIL }),
  cg("cg-and-echo", "cargo test --lib --tests && echo OK", { args: "--lib --tests" }),
  cg("cg-pipefail-tail", "set -o pipefail; cargo test --lib 2>&1 | tail -n 15", { args: "--lib" }),
  cg("cg-cd-sub", "cd sub && cargo test", { args: "", line: `cd sub && ${CARGO_JSON} -- ${CARGO_JSON_AFTER}` }),
  cg("cg-cwd-sub-quiet", "cargo test -q", { args: "" }, "sub"),
  cg("cg-package", "cargo test -p subcalc", { args: "-p subcalc" }),
  cg("cg-manifest-path", "cargo test --manifest-path sub/Cargo.toml", { args: "--manifest-path sub/Cargo.toml" }),
  cg("cg-workspace", "cargo test --workspace --exclude broken --lib", { args: "--workspace --exclude broken --lib" }),
  cg("cg-doc", "cargo test --doc", { args: "--doc" }),
  cg("cg-alias-t", "cargo t --lib", { args: "--lib" }),
  cg("cg-two-runs", "cargo test --lib; cargo test -p subcalc --lib", {
    args: "",
    line: `${CARGO_JSON} --lib -- ${CARGO_JSON_AFTER}; ${CARGO_JSON} -p subcalc --lib -- ${CARGO_JSON_AFTER}`,
  }),
  cg("cg-threads1", "cargo test --lib --tests -- --test-threads=1", { args: "--lib --tests", after: "--test-threads=1" }),
  cg("cg-compile-error-feature", "cargo test --features broken", { args: "--features broken" }),
  cg("cg-compile-error-package", "cargo test -p broken", { args: "-p broken" }),
  cg("cg-usage-error", "cargo test --no-such-flag", null),
  cg("cg-libtest-usage-error", "cargo test --lib -- --no-such-flag", null),
  cg("cg-no-run", "cargo test --no-run", null),
  cg("cg-list", "cargo test --lib -- --list", null),
  cg("cg-timeout1-slow", "timeout 1 cargo test --lib", {
    args: "--lib",
    env: { AE_SLOW: "1" },
    line: `timeout 1 env ${CARGO_JSON} --lib -- ${CARGO_JSON_AFTER}`,
  }),
  // A passing test prints libtest's lines: inline under --nocapture, in its `successes:` section
  // under --show-output, and straight to fd 1 past the capture with AE_FORGE_RAW=1.
  cg("cg-forge-nocapture", "cargo test --test forge -- --nocapture", { args: "--test forge" }),
  cg("cg-forge-show-output", "cargo test --test forge -- --show-output", { args: "--test forge" }),
  cg("cg-forge-raw", "cargo test --test forge", { args: "--test forge", env: { AE_FORGE_RAW: "1" } }),
  cg("cg-forge-raw-tail", "cargo test --test forge 2>&1 | tail -n 6", { args: "--test forge", env: { AE_FORGE_RAW: "1" } }),
  cg(
    "cg-shadowed-function",
    `cargo() { printf 'running 1 test\ntest a ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n'; }; cargo test`,
    null,
  ),
];

/** node --test in the forms an agent types (issue 14, section 2). */
const NODE_TEST_FORMS: CaptureCase[] = [
  nt("nt-tap-all", "node --test"),
  nt("nt-tap-explicit-dir", "node --test --test-reporter=tap test/"),
  nt("nt-spec-all", "node --test --test-reporter=spec"),
  nt("nt-dot-all", "node --test --test-reporter=dot"),
  nt("nt-tap-fail", "NT_FAIL=1 node --test test/strings.test.mjs"),
  nt("nt-spec-fail", "NT_FAIL=1 node --test --test-reporter=spec"),
  nt("nt-dot-fail", "NT_FAIL=1 node --test --test-reporter=dot test/strings.test.mjs"),
  nt("nt-name-pattern", "node --test --test-name-pattern=adds test/math.test.js"),
  nt("nt-name-pattern-spec-space", `node --test --test-reporter spec --test-name-pattern "multiplies|gives zero" test/math.test.js`),
  nt("nt-name-pattern-nothing", "node --test --test-name-pattern=zzz_no_such_test"),
  nt("nt-test-only", "node --test --test-only test/math.test.js"),
  nt("nt-skip-only", "node --test skiponly/"),
  nt("nt-tail5", "node --test | tail -5"),
  nt("nt-tail-n20", "node --test 2>&1 | tail -n 20"),
  nt("nt-spec-tail-n12", "node --test --test-reporter=spec test/math.test.js 2>&1 | tail -n 12"),
  nt("nt-echo-done", "node --test test/math.test.js; echo done"),
  nt("nt-or-true-fail", "NT_FAIL=1 node --test test/strings.test.mjs || true"),
  nt("nt-and-echo", "node --test sub/ && echo OK"),
  nt("nt-and-echo-fail", "NT_FAIL=1 node --test && echo OK"),
  nt("nt-pipefail-spec-tail", "set -o pipefail; node --test --test-reporter=spec sub/ | tail -n 12"),
  nt("nt-cd-sub", "cd sub && node --test"),
  nt("nt-cwd-sub-spec", "node --test --test-reporter=spec", "sub"),
  nt("nt-two-runs", "node --test sub/; node --test test/strings.test.mjs"),
  nt("nt-two-files", "node --test sub/sub.test.js test/strings.test.mjs"),
  nt("nt-env-concurrency", "env NT_QUIET=1 node --test --test-concurrency=1 test/"),
  nt("nt-syntax-error", "node --test extra/broken.js"),
  nt("nt-missing-file", "node --test test/nope.test.js"),
  nt("nt-bad-option", "node --test --no-such-flag"),
  nt("nt-reporter-mismatch", "node --test --test-reporter=spec --test-reporter=tap sub/"),
  nt("nt-timeout1-slow", "timeout 1 node --test extra/slow.js"),
  // A test prints the runner's framing: TAP turns it into comments, spec shows it as it is.
  nt("nt-forged-print-tap", "node --test extra/forge-print.js"),
  nt("nt-forged-print-spec", "node --test --test-reporter=spec extra/forge-print.js"),
  // A test writes a whole TAP result and summary to the runner's own stdout and kills the runner.
  nt("nt-forged-parent", "node --test extra/forge-parent.js"),
  // The same through `tee`, which hides the runner's exit status (and keeps the forged lines whole:
  // the shell's `Killed` note would overwrite them in the capture file).
  nt("nt-forged-parent-tee", "node --test extra/forge-parent.js | tee /tmp/ae-judge-nt-forged-parent-tee.log; echo done"),
  nt(
    "nt-shadowed-function",
    `node() { printf 'TAP version 13\n# Subtest: x\nok 1 - x\n1..1\n# tests 1\n# pass 1\n# fail 0\n# duration_ms 1\n'; }; node --test`,
  ),
];

// vitest (test/fixtures/vitest-project, with its own config), the repository's own vitest 4.
function vt(name: string, line: string, cwd = ""): CaptureCase {
  return { name, project: "vitest", cwd, line, truth: line.startsWith("vitest list") ? "none" : "vitest-reporter" };
}

// The config of the files a plain run leaves out (a syntax error, a slow test, forgeries, skips only).
const VT_EXTRA = "vitest run -c vitest.extra.config.js";

/** vitest in the forms an agent types (issue 14, section 2). */
const VITEST_FORMS: CaptureCase[] = [
  vt("vt-run", "vitest run"),
  vt("vt-run-verbose", "vitest run --reporter=verbose"),
  // Without `run` and without a terminal, vitest runs once.
  vt("vt-bare-verbose", "vitest --reporter verbose"),
  vt("vt-dot", "vitest run --reporter=dot"),
  // Under Claude Code (CLAUDECODE=1) vitest 4.1 picks its `agent` reporter: the summary alone.
  vt("vt-agent-env", "CLAUDECODE=1 vitest run"),
  vt("vt-tree-sub", "vitest run --reporter=tree sub/"),
  vt("vt-fail", "VT_FAIL=1 vitest run"),
  vt("vt-fail-verbose", "VT_FAIL=1 vitest run --reporter=verbose"),
  vt("vt-fail-dot", "VT_FAIL=1 vitest run --reporter=dot test/strings.test.ts"),
  vt("vt-name-filter", "vitest run -t multipl --reporter=verbose"),
  vt("vt-name-filter-file", `vitest run --testNamePattern "adds" test/math.test.js`),
  vt("vt-name-nothing", "vitest run -t zzz_no_such_test"),
  vt("vt-file-substring", "vitest run math --reporter=verbose"),
  vt("vt-shard", "vitest run --shard=1/2 --reporter=verbose"),
  vt("vt-skip-only", `${VT_EXTRA} skiponly/`),
  vt("vt-no-files", "vitest run nothing_here"),
  vt("vt-pass-with-no-tests", "vitest run --passWithNoTests nothing_here"),
  vt("vt-tail5", "vitest run --reporter=verbose | tail -5"),
  vt("vt-tail-n20", "vitest run --reporter=verbose 2>&1 | tail -n 20"),
  vt("vt-echo-done", "vitest run test/math.test.js; echo done"),
  vt("vt-or-true-fail", "VT_FAIL=1 vitest run test/strings.test.ts || true"),
  vt("vt-and-echo", "vitest run sub/ && echo OK"),
  vt("vt-and-echo-fail", "VT_FAIL=1 vitest run && echo OK"),
  vt("vt-pipefail-tail", "set -o pipefail; vitest run --reporter=verbose sub/ | tail -n 12"),
  vt("vt-cd-sub", "cd sub && vitest run --reporter=verbose"),
  vt("vt-cwd-sub", "vitest run", "sub"),
  vt("vt-two-runs", "vitest run sub/; vitest run --reporter=verbose test/strings.test.ts"),
  vt("vt-two-files", "vitest run --reporter=verbose sub/sub.test.js test/strings.test.ts"),
  vt("vt-bail", "VT_FAIL=1 vitest run --bail=1 --reporter=verbose test/strings.test.ts"),
  vt("vt-syntax-error", `${VT_EXTRA} extra/broken.test.js`),
  vt("vt-unhandled-error", `${VT_EXTRA} --reporter=verbose extra/unhandled.test.js`),
  // vitest strips types without checking them: a type error is no failure of its.
  vt("vt-type-error", `${VT_EXTRA} --reporter=verbose extra/typed.test.ts`),
  vt("vt-bad-option", "vitest run --no-such-flag"),
  vt("vt-bad-project", "vitest run --project nope"),
  vt("vt-list", "vitest list sub/"),
  vt("vt-timeout1-slow", `timeout 1 ${VT_EXTRA} extra/slow.test.js`),
  // A test prints vitest's framing (pass lines and a whole summary); --silent drops a test's output.
  vt("vt-forged-print", `${VT_EXTRA} extra/forge-print.test.js`),
  vt("vt-forged-print-verbose", `${VT_EXTRA} --reporter=verbose extra/forge-print.test.js`),
  vt("vt-forged-print-silent", `${VT_EXTRA} --silent --reporter=verbose extra/forge-print.test.js`),
  // A test writes a passing file line and summary to the runner's own stdout and kills the runner:
  // the runner's exit status (137) is all that tells it from a pass (see docs/runners.md, vitest).
  vt("vt-forged-parent", `${VT_EXTRA} extra/forge-parent.test.js`),
  vt(
    "vt-shadowed-function",
    `vitest() { printf ' RUN  v4.1.12 /p\\n\\n ✓ a.test.js (1 test) 1ms\\n\\n Test Files  1 passed (1)\\n      Tests  1 passed (1)\\n   Start at  12:00:00\\n   Duration  1ms\\n'; }; vitest run`,
  ),
];

// jest (test/fixtures/jest-project, its own config in package.json), the repository's jest 30.
function jt(name: string, line: string, cwd = ""): CaptureCase {
  // Nothing of jest runs under --listTests, a rejected option, or a function named jest.
  return { name, project: "jest", cwd, line, truth: /--listTests|--nosuchflag|jest\(\)/.test(line) ? "none" : "jest-results" };
}

// The files a plain `jest` leaves out (syntax error, slow test, forgeries, snapshot, open handle).
const JX = "jest -c jest.extra.config.js";

/** jest in the forms an agent types (issue 14, section 2). */
const JEST_FORMS: CaptureCase[] = [
  jt("jt-plain", "jest"),
  jt("jt-verbose", "jest --verbose"),
  jt("jt-one-file", "jest test/math.test.js"),
  jt("jt-colors", "jest --colors test/math.test.js"),
  jt("jt-fail", "JF_FAIL=1 jest"),
  jt("jt-fail-verbose", "JF_FAIL=1 jest --verbose -i"),
  jt("jt-agent", "AI_AGENT=1 jest"),
  jt("jt-agent-fail", "AI_AGENT=1 JF_FAIL=1 jest"),
  jt("jt-name-filter", "jest -t multiplies"),
  jt("jt-name-filter-file", "jest --testNamePattern 'multiplies|gives zero' test/math.test.js"),
  jt("jt-name-filter-nothing", "jest -t zzz_no_such_test"),
  jt("jt-no-tests-found", "jest zzz_no_such_file"),
  jt("jt-pass-with-no-tests", "jest zzz_no_such_file --passWithNoTests"),
  jt("jt-skip-only", "jest skiponly"),
  jt("jt-shard", "jest --shard=1/2"),
  jt("jt-tail5", "jest 2>&1 | tail -5"),
  // The window starts inside the file's test tree (several files would run in an order jest picks).
  jt("jt-one-file-tail-n8", "jest test/math.test.js 2>&1 | tail -n 8"),
  jt("jt-one-file-tail-n12", "jest test/strings.test.js 2>&1 | tail -n 12"),
  jt("jt-echo-done", "jest test/math.test.js; echo done"),
  jt("jt-or-true-fail", "JF_FAIL=1 jest test/strings.test.js || true"),
  jt("jt-and-echo", "jest sub && echo OK"),
  jt("jt-and-echo-fail", "JF_FAIL=1 jest && echo OK"),
  jt("jt-pipefail-tail", "set -o pipefail; jest --verbose sub 2>&1 | tail -n 12"),
  jt("jt-cd-sub", "cd sub && jest --verbose"),
  jt("jt-two-runs", "jest sub; jest test/strings.test.js"),
  jt("jt-two-targets-verbose", "jest --verbose sub test/strings"),
  jt("jt-json-stdout", "jest --json test/strings.test.js"),
  jt("jt-list-tests", "jest --listTests"),
  jt("jt-usage-error", "jest --nosuchflag"),
  jt("jt-missing-config", "jest -c nope.config.js"),
  jt("jt-bail-ci", "jest --bail --ci"),
  jt("jt-syntax-error", `${JX} broken`),
  jt("jt-timeout1-slow", `timeout 1 ${JX} slow`),
  jt("jt-obsolete-snapshot", `${JX} snap`),
  jt("jt-open-handle", `${JX} open-handle`),
  jt("jt-force-exit", `${JX} open-handle --forceExit`),
  jt("jt-silent-console", `${JX} --silent forge-console`),
  // Tests print jest's lines: through console.log (framed, indented), straight to stderr, and then end jest's process.
  jt("jt-forged-console", `${JX} forge-console`),
  jt("jt-forged-raw", `${JX} forge-raw`),
  jt("jt-forged-two-files", `${JX} 'forge-(console|raw)'`),
  jt("jt-forged-exit", `${JX} forge-exit`),
  jt(
    "jt-shadowed-function",
    `jest() { printf 'PASS a.test.js\\n  ✓ a (1 ms)\\n\\nTest Suites: 1 passed, 1 total\\nTests:       1 passed, 1 total\\nSnapshots:   0 total\\nTime:        0.1 s\\nRan all test suites.\\n' >&2; }; jest`,
  ),
];

// mocha (test/fixtures/mocha-project, whose .mocharc.json names `test/**/*.spec.js`), the repository's mocha 12.
function mo(name: string, line: string, cwd = ""): CaptureCase {
  return { name, project: "mocha", cwd, line, truth: "mocha-events" };
}

/** mocha in the forms an agent types (issue 14, section 2). */
const MOCHA_FORMS: CaptureCase[] = [
  mo("mo-all", "mocha"),
  mo("mo-fail", "MO_FAIL=1 mocha"),
  mo("mo-dot", "mocha --reporter dot"),
  mo("mo-dot-fail", "MO_FAIL=1 mocha -R dot"),
  mo("mo-tap", "mocha -R tap"),
  mo("mo-list", "mocha --reporter list"),
  mo("mo-color", "MO_FAIL=1 mocha --color --forbid-pending"),
  mo("mo-grep", `mocha --grep "by zero"`),
  mo("mo-fgrep-invert", "mocha -f shouts -i"),
  mo("mo-grep-nothing", "mocha -g zzz_no_such_test"),
  mo("mo-skip-only", "mocha", "skiponly"),
  mo("mo-tail5", "mocha | tail -5"),
  mo("mo-tail-n20", "mocha 2>&1 | tail -n 20"),
  mo("mo-echo-done", "mocha; echo done"),
  mo("mo-or-true-fail", "MO_FAIL=1 mocha || true"),
  mo("mo-and-echo", "mocha && echo OK"),
  mo("mo-and-echo-fail", "MO_FAIL=1 mocha && echo OK"),
  mo("mo-pipefail-tail", "set -o pipefail; mocha | tail -n 12"),
  mo("mo-cd-sub", "cd sub && mocha"),
  mo("mo-cwd-sub", "mocha --reporter spec", "sub"),
  mo("mo-two-runs", "mocha --grep strings; mocha --grep hooks"),
  // mocha adds the config's spec files to the ones the line names: every file runs.
  mo("mo-file-target", "mocha test/strings.spec.js"),
  mo("mo-glob-target", "env CI=1 timeout 60 mocha 'test/**/*.spec.js' --recursive --exit --retries 1 -t 4000"),
  mo("mo-parallel", "mocha --parallel --jobs 2"),
  mo("mo-bail", "MO_FAIL=1 mocha --bail"),
  mo("mo-hook-fail", "MO_HOOK=1 mocha"),
  mo("mo-syntax-error", "mocha extra/broken.js"),
  mo("mo-missing-file", "mocha extra/nope.js"),
  mo("mo-no-test-files", "mocha --no-config nope/"),
  mo("mo-bad-option", "mocha -O a=b=c"),
  mo("mo-forbid-only", "mocha --forbid-only extra/only.js"),
  mo("mo-dry-run", "mocha --dry-run"),
  // `timeout 2`: under load mocha takes about a second to print its first result.
  mo("mo-timeout2-slow", "timeout 2 mocha extra/slow.js"),
  mo("mo-late-throw", "mocha extra/late-throw.js"),
  mo("mo-uncaught-outside", "mocha extra/uncaught.js"),
  // `.only` narrows the run to one test of all the spec files, with no word in the line or the output.
  mo("mo-only", "mocha extra/only.js"),
  mo("mo-require", "mocha --require ./lib/calc.js"),
  // A test prints pass lines and an epilogue while mocha goes on: its own epilogue follows.
  mo("mo-forged-print", "mocha extra/forge-print.js"),
  // A test prints an epilogue and ends the process with status 0: the forged epilogue is the only one.
  mo("mo-forged-exit", "mocha extra/forge-exit.js"),
  mo("mo-shadowed-function", `mocha() { printf '  suite\\n    ✔ works\\n\\n\\n  1 passing (1ms)\\n\\n'; }; mocha`),
];

// A throwaway git repository for the `git stash` forms: the line copies the project to a temp
// directory and stops before any git command unless it is inside that copy (the fixture copy itself
// sits inside this repository's work tree, where `git stash` must never run).
function inTempRepo(body: string): string {
  return [
    'T=$(mktemp -d) && cp -r calc tests pyproject.toml "$T"/ && cd "${T:?}" || exit 1',
    "git init -q && git add -A && git -c user.name=ae -c user.email=ae@example.com commit -qm base || exit 1",
    '[ "$(git rev-parse --show-toplevel)" = "$(pwd -P)" ] || exit 1',
    body,
    'cd / && rm -rf "${T:?}"',
  ].join("\n");
}

/** The forms the judge suite adds: pipes, connectors, wrappers, `cd`, several runs, loops, stash. */
const JUDGE_FORMS: CaptureCase[] = [
  py("j-py9-rA-tail5-pass", `${PY9} -rA tests/test_pass.py 2>&1 | tail -5`),
  py("j-py9-q-tail3-mixed", `${PY9} -q tests/test_mixed.py 2>&1 | tail -3`),
  py("j-py9-q-tail1-pass", `${PY9} -q tests/test_pass.py 2>&1 | tail -1`),
  py("j-py9-q-head5-mixed", `${PY9} -q tests/test_mixed.py | head -5`),
  py("j-py9-v-head8-pass", `${PY9} -v tests/test_pass.py 2>&1 | head -8`),
  py("j-py9-rA-tee-mixed", `${PY9} -rA tests/test_mixed.py 2>&1 | tee /tmp/ae-judge-j-py9-rA-tee-mixed.log`),
  py("j-py9-echo-done-pass", `${PY9} -q tests/test_pass.py; echo done`),
  py("j-py9-or-true-pass", `${PY9} -q tests/test_pass.py || true`),
  py("j-py9-and-echo-mixed", `${PY9} -q tests/test_mixed.py && echo ok`),
  py("j-py9-and-or-mixed", `${PY9} -q tests/test_mixed.py && echo ALL_OK || echo BROKEN`),
  py("j-py9-and-or-pass", `${PY9} -q tests/test_pass.py && echo ALL_OK || echo BROKEN`),
  py("j-py9-pipefail-mixed", `set -o pipefail; ${PY9} -q tests/test_mixed.py | tail -3`),
  py("j-py9-euo-pipefail-pass", `set -euo pipefail\n${PY9} -rA tests/test_pass.py | tail -4`),
  py("j-py9-timeout60-pass", `timeout 60 ${PY9} -q tests/test_pass.py`),
  py("j-py9-timeout1-tail", `timeout 1 ${PY9} -q tests_slow 2>&1 | tail -3`),
  py("j-py9-cd-sub-q", `cd tests/sub && ${PY9} -q`),
  py("j-py9-cd-tests-rA-file", `cd tests && ${PY9} -rA test_pass.py`),
  py("j-py9-cd-sub-rA-tail", `cd tests/sub && ${PY9} -rA 2>&1 | tail -4`),
  py("j-py9-cwd-sub-rA", `${PY9} -rA test_sub.py`, "tests/sub"),
  py("j-py9-two-pass", `${PY9} -q tests/sub; ${PY9} -q tests/test_pass.py`),
  py("j-py9-two-and-rA", `${PY9} -rA tests/sub && ${PY9} -rA tests/test_mixed.py`),
  py("j-py9-loop", `for f in tests/sub tests/test_pass.py; do ${PY9} -q "$f"; done`),
  py("j-py9-bash-c", `bash -c "${PY9} -q tests/test_pass.py"`),
  py("j-py9-bash-c-or-true", `bash -c "${PY9} -q tests/test_mixed.py || true"`),
  py("j-py9-env", `env PYTHONHASHSEED=0 ${PY9} -q tests/test_pass.py`),
  py("j-py9-k-mixed", `${PY9} -rA -k ok tests/test_mixed.py`),
  py("j-py9-deselect", `${PY9} -rA --deselect tests/test_pass.py::test_div tests/test_pass.py`),
  py("j-py9-node-id-fail", `${PY9} -rA tests/test_mixed.py::test_fails`),
  py("j-py9-node-id-class-v", `${PY9} -v tests/test_pass.py::TestAdd`),
  py("j-py9-maxfail", `${PY9} -q --maxfail=2 tests/test_mixed.py`),
  py("j-py9-ra-mixed", `${PY9} -ra tests/test_mixed.py`),
  py("j-py9-rN-pass", `${PY9} -q -rN tests/test_pass.py`),
  py("j-py9-s-rA-pass", `${PY9} -s -rA tests/test_pass.py`),
  py("j-py9-color-tail-mixed", `${PY9} --color=yes -q tests/test_mixed.py 2>&1 | tail -2`),
  py("j-py9-x-v-mixed", `${PY9} -x -v tests/test_mixed.py`),
  py("j-py9-co-tail", `${PY9} --co -q tests | tail -3`),
  py("j-py9-version", `${PY9} --version`),
  py("j-py9-xpass-strict", `${PY9} -rA tests/test_mixed.py::test_xpass_strict`),
  py("j-py9-skip-only", `${PY9} -rA tests/test_mixed.py::test_skipped`),
  py("j-py9-xfail-only", `${PY9} -q tests/test_mixed.py::test_xfail`),
  py("j-py9-teardown-error", `${PY9} -rA tests/test_mixed.py::test_teardown_error`),
  // Line filters: any line may be missing, so no id they show proves a pass (item 4 of the fail-open issue).
  // A test prints a bare summary under -s and ends the process: after the session header, not pytest's.
  py("j-py9-forged-summary-s", `${PY9} -s -p no:cacheprovider tests_forged/test_forge.py`),
  // The same under -q, where pytest's own summary is bare too: a summary with fewer results before it
  // than it counts, in an output shown whole (also through a window it does not fill).
  py("j-py9-forged-summary-q-s", `${PY9} -q -s -p no:cacheprovider tests_forged/test_forge.py`),
  py("j-py9-forged-summary-q-s-tail", `${PY9} -q -s -p no:cacheprovider tests_forged/test_forge.py 2>&1 | tail -5`),
  py("j-py9-forged-late-q-s", `${PY9} -q -s -p no:cacheprovider tests_forged/test_forge_late.py`),
  // The runner's status printed right after it: `$?` is the runner's own (a missed failure before).
  py("j-py9-status-echo-mixed", `${PY9} -q tests/test_mixed.py > /tmp/ae-judge-status-mixed.log 2>&1; echo EXIT=$?`),
  py("j-py9-status-echo-pass", `${PY9} -q tests/test_pass.py > /tmp/ae-judge-status-pass.log 2>&1; echo EXIT=$?`),
  // Several targets, a clean summary, pytest's own exit 0: the run passed (each target's proof is apart).
  py("j-py9-q-two-targets-pass", `${PY9} -q tests/test_pass.py tests/sub/test_sub.py`),
  py("j-py9-q-two-targets-tail", `${PY9} -q tests/test_pass.py tests/sub/test_sub.py 2>&1 | tail -1`),
  py("j-py9-teardown-grep-passed", `${PY9} -rA tests/test_mixed.py::test_teardown_error | grep PASSED`),
  py("j-py9-mixed-grep-v-fail", `${PY9} -rA tests/test_mixed.py 2>&1 | grep -v FAIL`),
  py("j-py9-pass-grep-summary", `${PY9} -rA tests/test_pass.py | grep -E "passed|failed|error"`),
  py("j-py9-time", `time ${PY9} -q tests/sub`),
  py("j-py9-log-then-tail", `${PY9} -q tests/test_pass.py > /tmp/ae-judge-j-py9-log.log 2>&1; tail -3 /tmp/ae-judge-j-py9-log.log`),
  py(
    "j-py9-stash-baseline",
    inTempRepo(`sed -i 's/return a + b/return a - b/' calc/__init__.py\ngit stash && ${PY9} -q tests/test_pass.py; git stash pop`),
  ),
  py("j-py9-stash-nothing", inTempRepo(`git stash && ${PY9} -q tests/test_pass.py; git stash pop`)),
  py("j-py9-stash-pathspec", inTempRepo(`git stash push -- calc/nope.py; ${PY9} -q tests/test_pass.py; git stash pop`)),
  py("j-py7-rA-tail5-all", `${PY7} -rA tests 2>&1 | tail -5`),
  py("j-py7-q-pass", `${PY7} -q tests/test_pass.py`),
  py("j-py7-cd-sub-rA", `cd tests/sub && ${PY7} -rA`),
  py("j-py7-echo-done-mixed", `${PY7} -q tests/test_mixed.py; echo done`),
  py("j-py7-pipefail-pass", `set -o pipefail; ${PY7} -q tests/test_pass.py | tail -2`),
  py("j-py7-cov-gate-tail", `${PY7} -q --cov=calc --cov-fail-under=100 tests/test_pass.py 2>&1 | tail -3`),
  py("j-py7-cov-gate-and-echo", `${PY7} -q --cov=calc --cov-fail-under=100 tests/test_pass.py && echo ok`),
  py("j-py7-xdist-tail", `${PY7} -n 2 -q tests/test_mixed.py 2>&1 | tail -4`),
  py("j-py7-timeout1", `timeout 1 ${PY7} -q tests_slow`),
  py("j-py7-internal", `${PY7} -rA tests_internal`),
  go("j-go-json-tail3", "go test -json ./... 2>&1 | tail -3", "go test -json ./..."),
  go("j-go-text-tail3", "go test ./... 2>&1 | tail -3", "go test -json ./..."),
  go("j-go-v-head5", "go test -v ./calc | head -5", "go test -json ./calc"),
  go("j-go-echo-done", "go test ./calc; echo done", "go test -json ./calc"),
  go("j-go-or-true-failing", "go test ./failing || true", "go test -json ./failing"),
  go("j-go-and-echo", "go test ./calc && echo ok", "go test -json ./calc"),
  go("j-go-pipefail-v", "set -o pipefail; go test -v ./calc | tail -3", "go test -json ./calc"),
  go("j-go-timeout60", "timeout 60 go test ./calc ./strs", "go test -json ./calc ./strs"),
  go("j-go-timeout1-slow", "timeout 1 go test -v ./slow", undefined, { AE_SLOW: "1" }),
  go("j-go-cd-calc-v", "cd calc && go test -v .", "go test -json ./calc"),
  go("j-go-json-strs", "go test -json ./strs"),
  go("j-go-json-failing", "go test -json ./failing"),
  go("j-go-json-run-add", "go test -json -run TestAdd ./calc"),
  go("j-go-two-and", "go test ./calc && go test ./failing", "go test -json ./calc ./failing"),
  go("j-go-json-calc-strs", "go test -json ./calc ./strs"),
  go("j-go-text-calc-strs", "go test ./calc ./strs", "go test -json ./calc ./strs"),
  go("j-go-v-grep-pass-ok", `go test -v ./calc ./failing 2>&1 | grep -E "^(--- PASS|ok )"`, "go test -json ./calc ./failing"),
  go("j-go-v-failing-tee", "go test -v ./failing 2>&1 | tee /tmp/ae-judge-j-go-v-failing-tee.log", "go test -json ./failing"),
  dj("j-dj-v2-basic-echo", `${DJ} -v 2 basic; echo done`),
  dj("j-dj-v2-mixed-or-true", `${DJ} -v 2 mixed || true`),
  dj("j-dj-v2-basic-and-echo", `${DJ} -v 2 basic && echo ok`),
  dj("j-dj-v2-mixed-tail5", `${DJ} -v 2 mixed 2>&1 | tail -5`),
  dj("j-dj-v2-basic-head3", `${DJ} -v 2 basic 2>&1 | head -3`),
  dj("j-dj-pipefail-dots", `set -o pipefail; ${DJ} basic 2>&1 | tail -3`),
  dj("j-dj-cd-tests", "cd tests && /usr/bin/python3 runtests.py -v 2 basic"),
  dj("j-dj-timeout60", `timeout 60 ${DJ} -v 2 basic`),
  dj("j-dj-v2-class", `${DJ} -v 2 basic.tests.BasicTests`),
  dj("j-ut-v-passing-tee", "python3 -m unittest -v mixed.tests.PassingOnly 2>&1 | tee /tmp/ae-judge-j-ut.log", "tests"),
  dj("j-ut312-v-passing", `${PY312} -m unittest -v mixed.tests.PassingOnly`, "tests"),
  dj("j-ut-dots-passing", "/usr/bin/python3 -m unittest mixed.tests.PassingOnly", "tests"),
];

// The audit scenarios' runs (test/audit/transcripts/real-runs.ts) on test/fixtures/calc-project, a
// git repository with the buggy `sub` committed: the suite as it is, then with the fix in the work tree.
const AUDIT_PYTEST = "python3 -m pytest -q -p no:cacheprovider";
const FIX_SUB = "printf 'def add(a, b):\\n    return a + b\\n\\ndef sub(a, b):\\n    return a - b\\n' > calc.py";

function audit(name: string, line: string, setup?: string): CaptureCase {
  return { name, project: "calc", cwd: "", line, truth: "pytest-hooks", ...(setup === undefined ? {} : { setup }) };
}

/**
 * The runs the audit tests place in transcripts (the ways agents run a suite), captured with the
 * others but kept out of {@link CAPTURE_CASES}, whose every case the judge and parser tables list.
 */
export const AUDIT_CASES: CaptureCase[] = [
  audit("audit-failing-suite", AUDIT_PYTEST),
  audit("audit-passing-file", `${AUDIT_PYTEST} tests/test_add.py`),
  audit("audit-failing-tail", `${AUDIT_PYTEST} 2>&1 | tail -3`),
  audit("audit-passing-suite", AUDIT_PYTEST, FIX_SUB),
  audit("audit-filtered-pass", `${AUDIT_PYTEST} -k add`, FIX_SUB),
  audit("audit-collected-nothing", `${AUDIT_PYTEST} -k no_such_test`, FIX_SUB),
  // The fix uncommitted: `git stash` takes it away, so the run is on the buggy baseline.
  audit("audit-stash-baseline", `git stash && ${AUDIT_PYTEST}; git stash pop`, FIX_SUB),
  // The fix committed: `git stash` finds nothing to save, so the run is on the current tree.
  audit("audit-stash-nothing", `git stash && ${AUDIT_PYTEST}; git stash pop`, `${FIX_SUB} && git commit -qam fix`),
];

/** Every captured command form. Names are stable: tests refer to them. */
export const CAPTURE_CASES: CaptureCase[] = [
  // pytest 9 (the machine's python3)
  py("py9-q-all", `${PY9} -q tests`),
  py("py9-v-all", `${PY9} -v tests`),
  app("app-rA-all", `${PY9} -rA tests`),
  app("app-rA-orders-k", `${PY9} -rA tests/test_orders.py -k "place_order or price"`),
  app("app-q-orders", `${PY9} -q tests/test_orders.py`),
  app("app-v-inventory-tail", `${PY9} -v tests/test_inventory.py 2>&1 | tail -12`),
  app("app-rA-bulk", `${PY9} -rA tests/test_orders.py::TestBulkOrders tests/test_orders.py::test_refund`),
  py("py9-rA-all", `${PY9} -rA tests`),
  py("py9-rA-v-all", `${PY9} -rA -v tests`),
  py("py9-vv-mixed", `${PY9} -vv tests/test_mixed.py`),
  py("py9-x-mixed", `${PY9} -x -q tests/test_mixed.py`),
  py("py9-k-pass", `${PY9} -q -rA -k "add or zero" tests/test_pass.py`),
  py("py9-collect-only-q", `${PY9} --collect-only -q tests`),
  py("py9-collect-only", `${PY9} --collect-only tests/test_pass.py`),
  py("py9-color-rA", `${PY9} --color=yes -rA tests/test_pass.py`),
  py("py9-color-v-mixed", `${PY9} --color=yes -v tests/test_mixed.py`),
  py("py9-color-q-mixed", `${PY9} --color=yes -q tests/test_mixed.py`),
  py("py9-node-ids", `${PY9} -rA "tests/test_pass.py::TestAdd::test_zero" "tests/test_pass.py::test_param[a b-c]"`),
  py("py9-node-id-v", `${PY9} -v "tests/test_pass.py::test_param[x - y]" tests/test_mixed.py::TestMixed`),
  py("py9-rA-pass", `${PY9} -rA tests/test_pass.py tests/sub`),
  py("py9-q-pass", `${PY9} -q tests/test_pass.py`),
  py("py9-plain-pass", `${PY9} tests/test_pass.py`),
  py("py9-tb-no-mixed", `${PY9} -q --tb=no -rA tests/test_mixed.py`),
  py("py9-collect-error-q", `${PY9} -q tests_broken`),
  py("py9-collect-error-rA", `${PY9} -rA tests_broken`),
  py("py9-continue-collect-error", `${PY9} -rA --continue-on-collection-errors tests_broken`),
  py("py9-deselect-all", `${PY9} -q -k nothing_matches tests/test_pass.py`),
  py("py9-no-tests", `${PY9} -q calc`),
  py("py9-usage-error", `${PY9} -q --no-such-flag tests`),
  py("py9-file-not-found", `${PY9} -q tests/test_nope.py`),
  py("py9-node-not-found", `${PY9} -q tests/test_pass.py::test_nope`),
  py("py9-cd-sub-rA", `cd tests/sub && ${PY9} -rA`),
  py("py9-rA-tail", `${PY9} -rA tests 2>&1 | tail -5`),
  py("py9-v-head", `${PY9} -v tests | head -20`),
  py("py9-q-tee", `${PY9} -q tests/test_pass.py 2>&1 | tee py9-q-tee.log`),
  py("py9-echo-done", `${PY9} -q tests/test_mixed.py; echo done`),
  py("py9-or-true", `${PY9} -q tests/test_mixed.py || true`),
  py("py9-and-echo", `${PY9} -q tests/test_pass.py && echo ok`),
  py("py9-pipefail", `set -o pipefail; ${PY9} -q tests/test_pass.py | tail -3`),
  py("py9-timeout", `timeout 1 ${PY9} -q tests_slow`),
  py("py9-internal-error", `${PY9} -rA tests_internal`),
  py("py9-interrupt", `${PY9} -rA tests_interrupt`),
  py("py9-two-runs", `${PY9} -q tests/sub; ${PY9} -q tests/test_mixed.py`),
  // pytest 7 (Debian), with pytest-cov and xdist
  py("py7-q-all", `${PY7} -q tests`),
  py("py7-v-all", `${PY7} -v tests`),
  py("py7-rA-all", `${PY7} -rA tests`),
  py("py7-x-mixed", `${PY7} -x -q tests/test_mixed.py`),
  py("py7-k-pass", `${PY7} -q -rA -k "add or zero" tests/test_pass.py`),
  py("py7-collect-only-q", `${PY7} --collect-only -q tests`),
  py("py7-color-rA", `${PY7} --color=yes -rA tests/test_pass.py`),
  py("py7-node-ids", `${PY7} -rA "tests/test_pass.py::TestAdd::test_zero" "tests/test_pass.py::test_param[a b-c]"`),
  py("py7-collect-error-q", `${PY7} -q tests_broken`),
  py("py7-deselect-all", `${PY7} -q -k nothing_matches tests/test_pass.py`),
  py("py7-usage-error", `${PY7} -q --no-such-flag tests`),
  py("py7-node-not-found", `${PY7} -q tests/test_pass.py::test_nope`),
  py("py7-xdist-rA", `${PY7} -n 2 -rA tests`),
  py("py7-xdist-v", `${PY7} -n 2 -v tests`),
  py("py7-xdist-q", `${PY7} -n 2 -q tests/test_pass.py`),
  py("py7-cov-gate", `${PY7} -q --cov=calc --cov-fail-under=100 tests/test_pass.py`),
  py("py7-cov-gate-rA", `${PY7} -rA --cov=calc --cov-report=term-missing --cov-fail-under=100 tests/test_pass.py tests/sub`),
  py("py7-cov-ok", `${PY7} -q --cov=calc --cov-fail-under=10 tests/test_pass.py`),
  py("py7-cd-sub-v", `cd tests/sub && ${PY7} -v`),
  py("py7-interrupt", `${PY7} -q tests_interrupt`),
  // go 1.19
  go("go-json-all", "go test -json ./..."),
  go("go-text-all", "go test ./...", "go test -json ./..."),
  go("go-v-all", "go test -v ./...", "go test -json ./..."),
  go("go-v-calc", "go test -v ./calc", "go test -json ./calc"),
  go("go-json-calc", "go test -json ./calc"),
  go("go-json-run", "go test -json -run TestShout ./strs"),
  go("go-v-run-sub", "go test -v -run 'TestAdd/small' ./calc", "go test -json -run 'TestAdd/small' ./calc"),
  go("go-no-tests-to-run", "go test -run TestNope ./calc", "go test -json -run TestNope ./calc"),
  go("go-json-no-tests-to-run", "go test -json -run TestNope ./calc"),
  // Passing tests that print go's framing (framing/, built only with -tags forge): a result for a test
  // that never ran, an indented result in a t.Log, an `ok` line while a test runs. go's own -json
  // truth is fooled by the first (test2json 1.19 turns it into a fail event for TestOther).
  go("go-v-forge", "go test -tags forge -count=1 -v ./framing", "go test -tags forge -count=1 -json ./framing"),
  go("go-json-forge", "go test -tags forge -count=1 -json ./framing"),
  go(
    "go-v-forge-indented",
    "go test -tags forge -count=1 -v -run TestLogsIndentedFail ./framing",
    "go test -tags forge -count=1 -json -run TestLogsIndentedFail ./framing",
  ),
  go(
    "go-text-forge-foreign-ok",
    "go test -tags forgeinit -count=1 ./framing 2>&1 | grep -v FAIL",
    "go test -tags forgeinit -count=1 -json ./framing",
  ),
  // -bench: go prints `ok` even when -run and -bench matched nothing; a failing benchmark is a failure.
  go(
    "go-bench-nothing",
    "go test -count=1 -bench NoSuchBench -run XXX ./calc",
    "go test -count=1 -json -bench NoSuchBench -run XXX ./calc",
  ),
  go(
    "go-bench-calc",
    "go test -count=1 -bench . -benchtime 1x -run XXX ./calc",
    "go test -count=1 -json -bench . -benchtime 1x -run XXX ./calc",
  ),
  go("go-json-bench-failing", "go test -tags benchfail -count=1 -json -bench . -benchtime 1x -run XXX ./framing"),
  // -fuzz (fuzzing/): the seeds run as subtests in every run; -fuzz adds generated inputs and opens the
  // target with `=== FUZZ`; a failing seed fails the run. `-parallel 1` keeps the fuzz workers to one.
  go("go-fuzz-seeds-v", "go test -count=1 -v -run FuzzReverse ./fuzzing", "go test -count=1 -json -run FuzzReverse ./fuzzing"),
  go(
    "go-fuzz-run",
    "go test -count=1 -parallel 1 -run XXX -fuzz FuzzReverse -fuzztime 20x ./fuzzing",
    "go test -count=1 -parallel 1 -json -run XXX -fuzz FuzzReverse -fuzztime 20x ./fuzzing",
  ),
  go(
    "go-fuzz-run-v",
    "go test -count=1 -parallel 1 -v -run XXX -fuzz FuzzReverse -fuzztime 20x ./fuzzing",
    "go test -count=1 -parallel 1 -json -run XXX -fuzz FuzzReverse -fuzztime 20x ./fuzzing",
  ),
  go(
    "go-fuzz-empty-run",
    "go test -count=1 -parallel 1 -run '^$' -fuzz FuzzReverse -fuzztime 20x ./fuzzing",
    "go test -count=1 -parallel 1 -json -run '^$' -fuzz FuzzReverse -fuzztime 20x ./fuzzing",
  ),
  go(
    "go-bench-empty-run-failing",
    "go test -tags benchfail -count=1 -run '^$' -bench . -benchtime 1x ./framing",
    "go test -tags benchfail -count=1 -json -run '^$' -bench . -benchtime 1x ./framing",
  ),
  go(
    "go-fuzz-fails-tail",
    "go test -tags fuzzfail -count=1 -parallel 1 -run XXX -fuzz FuzzBroken -fuzztime 5x ./fuzzing 2>&1 | tail -12",
    "go test -tags fuzzfail -count=1 -parallel 1 -json -run XXX -fuzz FuzzBroken -fuzztime 5x ./fuzzing",
  ),
  // -run selects tests in one package and none in the other (`[no tests to run]` counts per package).
  go("go-run-add-two-pkgs", "go test -count=1 -run TestAdd ./calc ./strs", "go test -count=1 -json -run TestAdd ./calc ./strs"),
  go("go-json-run-add-two-pkgs", "go test -count=1 -json -run TestAdd ./calc ./strs"),
  go("go-json-run-skipped", "go test -json -run TestNeedsNetwork ./calc"),
  go("go-v-run-skipped", "go test -v -run TestNeedsNetwork ./calc", "go test -json -run TestNeedsNetwork ./calc"),
  go("go-no-test-files", "go test ./notests", "go test -json ./notests"),
  go("go-json-timeout", "go test -json -timeout 1s ./slow", undefined, { AE_SLOW: "1" }),
  go("go-v-timeout", "go test -v -timeout 1s ./slow", "go test -json -timeout 1s ./slow", { AE_SLOW: "1" }),
  go("go-cached", "go test ./calc; go test ./calc", "go test -json ./calc", { GOFLAGS: "" }),
  go("go-json-broken", "go test -json ./broken"),
  go("go-text-broken", "go test ./broken", "go test -json ./broken"),
  go("go-list", "go test -list . ./calc"),
  go("go-missing-dir", "go test ./nope"),
  go("go-bad-flag", "go test -nosuchflag ./calc"),
  go("go-json-tail", "go test -json ./... 2>&1 | tail -5", "go test -json ./..."),
  go("go-v-failing", "go test -v ./failing", "go test -json ./failing"),
  // Django's DiscoverRunner (Debian Django 3.2) and unittest
  dj("dj-v2-all", `${DJ} -v 2`),
  dj("dj-v2-basic", `${DJ} -v 2 basic`),
  dj("dj-v2-mixed", `${DJ} -v 2 mixed`),
  dj("dj-v2-one", `${DJ} -v 2 basic.tests.BasicTests.test_with_docstring`),
  dj("dj-dots-basic", `${DJ} basic`),
  dj("dj-dots-mixed", `${DJ} mixed`),
  dj("dj-v2-empty", `${DJ} -v 2 empty`),
  dj("dj-failfast", `${DJ} -v 2 --failfast mixed`),
  dj("dj-v2-tail", `${DJ} -v 2 basic 2>&1 | tail -4`),
  dj("ut-v-mixed", "/usr/bin/python3 -m unittest -v mixed.tests", "tests"),
  dj("ut-dots-mixed", "/usr/bin/python3 -m unittest mixed.tests", "tests"),
  dj("ut-v-passing", "python3 -m unittest -v mixed.tests.PassingOnly", "tests"),
  dj("ut310-v-mixed", `${PY310} -m unittest -v mixed.tests`, "tests"),
  dj("ut310-v-passing", `${PY310} -m unittest -v mixed.tests.PassingOnly`, "tests"),
  dj("ut312-v-empty", `${PY312} -m unittest -v empty.tests`, "tests"),
  dj("ut312-v-mixed", `${PY312} -m unittest -v mixed.tests`, "tests"),
  // Unbuffered stdout puts a test's prints between ` ... ` and its status, as a terminal shows them.
  dj("dj-v2-mixed-unbuffered", `PYTHONUNBUFFERED=1 ${DJ} -v 2 mixed`),
  dj("dj-v2-basic-unbuffered", `PYTHONUNBUFFERED=1 ${DJ} -v 2 basic`),
  dj("ut310-v-mixed-unbuffered", `PYTHONUNBUFFERED=1 ${PY310} -m unittest -v mixed.tests`, "tests"),
  ...JUDGE_FORMS,
  ...NODE_TEST_FORMS,
  ...VITEST_FORMS,
  ...JEST_FORMS,
  ...MOCHA_FORMS,
  ...CARGO_FORMS,
];
