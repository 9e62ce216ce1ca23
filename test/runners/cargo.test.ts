// cargo test's definition: which command lines are `cargo test` runs and what their words select, and
// the parser on the shapes only a hostile test (or a cut) prints (the rest is on real captured output:
// test/evidence/judge-captured.test.ts, test/observers/captured-runs.test.ts).
import { describe, expect, it } from "vitest";

import { judge } from "../../src/evidence/judge.js";
import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { cargoBinaryName, cargoStartCut, parseCargo } from "../../src/observers/cargo.js";
import { cargoRunner } from "../../src/runners/cargo.js";

function invocation(line: string): { kind: string; targets: string[]; filtered: boolean; selection: string[]; runsTests: boolean } | null {
  const found = analyzeCommand(line, { cwd: "/work/p" }).invocations[0];
  return found === undefined
    ? null
    : { kind: found.kind, targets: found.targets, filtered: found.filtered, selection: found.selection ?? [], runsTests: found.runsTests };
}

const run = (selection: string[] = [], runsTests = true) => ({
  kind: "cargo",
  targets: ["."],
  filtered: selection.length > 0,
  selection,
  runsTests,
});

describe("cargo test recognition and arguments", () => {
  it.each([
    ["cargo test", run()],
    ["cargo t", run()],
    ["cargo +stable test", run()],
    ["cargo +1.63.0 -q test --release", run()],
    ["timeout 60 env RUST_BACKTRACE=1 cargo test --workspace --features serde -j 2 --offline", run()],
    ["cargo test --no-fail-fast -v --message-format short --target-dir /tmp/t --locked --frozen", run()],
    ["cargo test -- --test-threads=1 --nocapture --show-output --format pretty --include-ignored", run()],
    // A TESTNAME, packages, targets and libtest's filters select some of the tests.
    ["cargo test adds", run(["filter=adds"])],
    ["cargo test -p subcalc", run(["-p=subcalc"])],
    ["cargo test --package=subcalc --lib", run(["--lib", "--package=subcalc"])],
    ["cargo test --workspace --exclude broken", run(["--exclude=broken"])],
    ["cargo test --test api --doc --bins --examples --all-targets", run(["--all-targets", "--bins", "--doc", "--examples", "--test=api"])],
    ["cargo test -- --exact tests::adds", run(["--exact", "filter=tests::adds"])],
    ["cargo test -- --skip slow --ignored", run(["--ignored", "--skip=slow"])],
    ["cargo test adds -- more", run(["filter=adds", "filter=more"])],
    // A value is no filter: `--features broken`, `-j 2`, `--test-threads 2`.
    ["cargo test --features broken -j 2 -- --test-threads 2", run()],
    // --manifest-path moves the run to the package's directory.
    ["cargo test --manifest-path sub/Cargo.toml", run()],
    // Compile only, list, help: no run.
    ["cargo test --no-run", run([], false)],
    ["cargo test -- --list", run([], false)],
    ["cargo test --help", run([], false)],
    ["cargo test -- --bench", run([], false)],
  ])("%s", (line, expected) => {
    expect(invocation(line)).toEqual(expected);
  });

  // nextest cannot be installed here (no crates.io): it stays unknown rather than half-understood.
  it.each(["cargo build", "cargo nextest run", "cargo bench", "cargo --config x test", "cargo run -- test", "cargo-test", "cargo"])(
    "%s is no cargo test run",
    (line) => {
      expect(invocation(line)).toBeNull();
    },
  );

  it("quiet and terse output shows no per-test lines; `--format json` is json", () => {
    expect(
      [["-q"], ["--", "-q"], ["--", "--format", "terse"], []].map((args) => cargoRunner.readArguments(args, undefined).verbose),
    ).toEqual([false, false, false, true]);
    expect(cargoRunner.readArguments(["--", "--format=json", "-Z", "unstable-options"], undefined).json).toBe(true);
  });

  it("--config (a test runner of its own) and -Z before `--` are identity risks; after it they are libtest's", () => {
    expect(
      [["--config", "target.x.runner='y'"], ["-Zbuild-std"], ["--", "-Z", "unstable-options"], ["--release"]].map((args) =>
        cargoRunner.identityRisk!(args),
      ),
    ).toEqual(["cargo test --config", "cargo test -Zbuild-std", null, null]);
  });

  it("--manifest-path and -C run in the package's directory", () => {
    expect(
      ["cargo test --manifest-path sub/Cargo.toml", "cargo test -C sub", "cargo test --manifest-path=Cargo.toml"].map(
        (line) => analyzeCommand(line, { cwd: "/work/p" }).invocations[0]?.workspace,
      ),
    ).toEqual(["/work/p/sub", "/work/p/sub", "/work/p"]);
  });

  it.each([
    "RUSTC_WRAPPER=./w cargo test",
    "env CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=./fake cargo test",
    "export RUSTFLAGS='-C linker=./ld'; cargo test",
    "RUSTDOC=/tmp/rd cargo test --doc",
  ])("%s: the environment can swap what runs, so the run is shadowed", (line) => {
    const found = analyzeCommand(line, { cwd: "/work/p" }).invocations[0];
    expect(found?.shadowed).toBe(true);
  });

  it("cargo's variables do not reach other runners, nor do others' reach cargo", () => {
    expect([
      analyzeCommand("RUSTFLAGS=-Dwarnings python -m pytest", { cwd: "/work/p" }).invocations[0]?.shadowed,
      analyzeCommand("PYTHONPATH=x cargo test", { cwd: "/work/p" }).invocations[0]?.shadowed,
    ]).toEqual([false, false]);
  });

  it("covers: ids name no directory, so only the whole workspace covers them", () => {
    expect([
      cargoRunner.covers(".", "calc::tests::adds"),
      cargoRunner.covers("./", "api::x"),
      cargoRunner.covers("sub", "subcalc::tests::adds"),
    ]).toEqual([true, true, false]);
    expect([
      cargoRunner.family.covers(".", "sub"),
      cargoRunner.family.covers("sub", "sub/subcalc::tests::adds"),
      cargoRunner.family.covers("sub", "subway"),
    ]).toEqual([true, true, false]);
  });

  it("a binary's name is its file's without cargo's hash", () => {
    expect([
      cargoBinaryName("/t/debug/deps/calc-c6626fb655a8d231"),
      cargoBinaryName("target/debug/deps/ignored_only-fe174e4b48c5cee4"),
      cargoBinaryName("deps/x.exe"),
    ]).toEqual(["calc", "ignored_only", "x.exe"]);
  });
});

// libtest's and cargo's own lines, as cargo 1.95 prints them, with a test's forgeries mixed in.
const FINISHED = "    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.03s";
const UNIT = [
  "     Running unittests src/lib.rs (target/debug/deps/calc-c6626fb655a8d231)",
  "",
  "running 2 tests",
  "test tests::adds ... ok",
  "test tests::subs ... ok",
  "",
  "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
  "",
];
const API = [
  "     Running tests/api.rs (target/debug/deps/api-14943844c8ca6ed4)",
  "",
  "running 1 test",
  "test adds_through_the_api ... ok",
  "",
  "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
  "",
];
const judged = (lines: string[], exitCode: number | null = 0, command = "cargo test") => {
  const result = judge({ command, output: lines.join("\n"), exitCode });
  return { verdict: result.verdict, reasons: result.runs[0]?.reasons, passed: result.runs[0]?.passed };
};

describe("cargo test: every binary's summary", () => {
  it("all binaries ok: passed, with ids `<binary>::<test>`", () => {
    expect(judged([FINISHED, ...UNIT, ...API])).toEqual({
      verdict: "passed",
      reasons: [],
      passed: ["calc::tests::adds", "calc::tests::subs", "api::adds_through_the_api"],
    });
  });

  it("a binary that started and printed no summary (killed, crashed, cut) is not passed", () => {
    expect(judged([FINISHED, ...UNIT, ...API.slice(0, 4)], null, "cargo test; echo done").verdict).toBe("unknown");
    expect(judged([FINISHED, ...UNIT, API[0]!], null, "cargo test; echo done").verdict).toBe("unknown");
  });

  it("a binary that died is a failure, whatever the other binaries said", () => {
    const died = [
      ...API.slice(0, 4),
      "error: test failed, to rerun pass `--test api`",
      "",
      "Caused by:",
      "  process didn't exit successfully: `target/debug/deps/api-14943844c8ca6ed4` (signal: 6, SIGABRT: process abort signal)",
    ];
    expect(judged([FINISHED, ...UNIT, ...died], 101).verdict).toBe("failed");
  });

  it("with cargo's exit status hidden, only the whole output proves every binary ran: a tail window does not", () => {
    expect(judged([...UNIT.slice(2), ...API], 0, "cargo test 2>&1 | tail -n 8").verdict).toBe("unknown");
  });
});

describe("cargo test forgeries", () => {
  it("a forged summary inside a binary (--nocapture) does not match the binary's announcement", () => {
    const output = [
      FINISHED,
      ...API.slice(0, 3),
      "test forged::x ... ok",
      "",
      "test result: ok. 9 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s",
      ...API.slice(3),
    ];
    expect(judged(output)).toEqual({ verdict: "unknown", reasons: ["spoof-suspect"], passed: [] });
  });

  it("a consistent forged block still leaves the real lines outside any binary", () => {
    const output = [
      FINISHED,
      ...API.slice(0, 3),
      "test forged ... ok",
      "",
      "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s",
      ...API.slice(3),
    ];
    expect(judged(output).verdict).toBe("unknown");
    expect(
      parseCargo(output.join("\n"))
        .forgeries.map((f) => f.kind)
        .sort(),
    ).toEqual(["multiple-summaries", "result-without-run"]);
  });

  it("a second `running N tests` inside a binary was printed by a test", () => {
    const output = [FINISHED, ...API.slice(0, 3), "running 5 tests", ...API.slice(3)];
    expect(judged(output)).toEqual({ verdict: "unknown", reasons: ["spoof-suspect"], passed: [] });
  });

  it("more pass lines than the binary announced make none of them proof", () => {
    const output = [FINISHED, ...API.slice(0, 4), "test adds_through_the_api ... ok", ...API.slice(4)];
    expect(judged(output)).toEqual({ verdict: "unknown", reasons: ["spoof-suspect"], passed: [] });
  });

  it("a summary whose word disagrees with its counts is not libtest's", () => {
    const output = [
      FINISHED,
      ...API.slice(0, 5),
      "test result: ok. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
    ];
    expect(judged(output).verdict).not.toBe("passed");
  });

  it("a benchmark's line is measured, not passed: a run of benchmarks alone ran no test", () => {
    const output = [
      FINISHED,
      ...API.slice(0, 3),
      "test adds_through_the_api ... bench:          12 ns/iter (+/- 1)",
      "",
      "test result: ok. 0 passed; 0 failed; 0 ignored; 1 measured; 0 filtered out; finished in 0.20s",
    ];
    expect(parseCargo(output.join("\n"))).toMatchObject({ passed: [], forgeries: [] });
    expect(judged(output).reasons).toEqual(["no-tests-ran"]);
  });

  it("captured output of a passing test (--show-output) holds no results", () => {
    const output = [
      FINISHED,
      ...API.slice(0, 4),
      "",
      "successes:",
      "",
      "---- adds_through_the_api stdout ----",
      "test fake ... ok",
      "",
      "successes:",
      "    adds_through_the_api",
      "",
      API[5]!,
    ];
    const parsed = parseCargo(output.join("\n"));
    expect({ passed: parsed.passed, forgeries: parsed.forgeries }).toEqual({ passed: ["api::adds_through_the_api"], forgeries: [] });
  });

  it("a first line that is a piece of cargo's or libtest's is a cut head", () => {
    expect(
      [
        FINISHED,
        FINISHED.slice(1),
        FINISHED.slice(6),
        "running 3 tests",
        "unning 3 tests",
        "s",
        "warning: unused variable: `x`",
        "arning: unused",
      ].map(cargoStartCut),
    ).toEqual([
      null,
      "a cargo status line cut inside its indent",
      "a first line that is none of cargo's or libtest's",
      null,
      "a summary line cut at its start",
      "a first line that is none of cargo's or libtest's",
      null,
      "a first line that is none of cargo's or libtest's",
    ]);
  });

  it("a shadowed cargo proves nothing", () => {
    expect(judged(API.slice(2), 0, "cargo() { cat log; }; cargo test").reasons).toEqual(["shadowed-runner"]);
  });
});
