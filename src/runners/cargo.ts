// cargo test: recognised as `cargo [+toolchain] test|t`; cargo's options up to `--`, libtest's after
// it; results on stdout, cargo's own status lines on stderr; one `test result:` line per test binary,
// all of which must be there and ok; ids `<binary>::<test path>`. `cargo nextest run` is not known.
import { createCargoParser } from "../observers/cargo.js";
import { isWholeWorkspaceTarget } from "../observers/target-match.js";
import { givenOptions, optionWords, readArgumentsWith } from "./arguments.js";
import { RUNNER_SPEC_VERSION, type RunnerArguments, type RunnerDefinition } from "./definition.js";
import { hasOption, type OptionTable, optionValues, scanArgs, type ScannedArgs } from "./option-scanner.js";
import { CARGO_FAMILY } from "./target-families.js";

/** `cargo test`'s options that take a value (clap: `--opt value`, `--opt=value`, `-pNAME`). */
export const CARGO_OPTIONS: OptionTable = {
  clusters: true,
  valued: optionWords(`
    -p --package --exclude --bin --test --example --bench -F --features --target --target-dir --manifest-path
    -j --jobs --message-format --color --config -Z --profile --lockfile-path -C --artifact-dir --out-dir
  `),
};

/** libtest's options after `--` that take a value. */
export const LIBTEST_OPTIONS: OptionTable = {
  clusters: false,
  valued: optionWords(`--skip --test-threads --format --logfile --color -Z --shuffle-seed --report-time`),
};

// cargo's global options that may come before `test` (with a value: `--color auto`).
const GLOBAL_FLAGS = new Set(["-q", "--quiet", "-v", "-vv", "--verbose", "--offline", "--frozen", "--locked"]);
const GLOBAL_VALUED = new Set(["--color"]);

// Options that pick some of the tests (the packages, targets or names): the run proves only what it printed.
const CARGO_SELECTORS = [
  "-p",
  "--package",
  "--exclude",
  "--lib",
  "--bin",
  "--bins",
  "--test",
  "--tests",
  "--doc",
  "--example",
  "--examples",
  "--bench",
  "--benches",
  "--all-targets",
];
const LIBTEST_SELECTORS = ["--skip", "--exact", "--ignored"];

/** Splits `cargo test` arguments at the first `--`: cargo's, then the test binaries'. */
function splitArgs(args: readonly string[]): { cargo: string[]; libtest: string[] } {
  const at = args.indexOf("--");
  return at === -1 ? { cargo: [...args], libtest: [] } : { cargo: args.slice(0, at), libtest: args.slice(at + 1) };
}

function readCargo(cargo: ScannedArgs, libtest: ScannedArgs, result: RunnerArguments): void {
  // cargo takes one TESTNAME, libtest any number of filters: each selects tests by name.
  const filters = [...cargo.positionals, ...libtest.positionals].map((name) => `filter=${name}`);
  result.selection = [...givenOptions(cargo, CARGO_SELECTORS), ...givenOptions(libtest, LIBTEST_SELECTORS), ...filters];
  result.targets = [];
  if (hasOption(cargo, ["--no-run", "-h", "--help"]) || hasOption(libtest, ["--list", "-h", "--help", "--bench"]) || libtest.missingValue)
    result.runsTests = false;
  const formats = optionValues(libtest, ["--format"]);
  result.json = formats.includes("json");
  const quiet = hasOption(cargo, ["-q", "--quiet"]) || hasOption(libtest, ["-q", "--quiet"]) || formats.some((f) => f !== "pretty");
  result.verbose = !quiet;
  // `-C DIR` and `--manifest-path DIR/Cargo.toml` move the run to that package's directory.
  const manifests = optionValues(cargo, ["--manifest-path"]).map((manifest) =>
    manifest.includes("/") ? manifest.slice(0, manifest.lastIndexOf("/")) || "/" : ".",
  );
  result.directories = [...optionValues(cargo, ["-C"]), ...manifests];
}

/** Where `test` is among the words after `cargo`: past a `+toolchain` and the global flags, or -1. */
function subcommandIndex(words: readonly string[]): number {
  let i = 1;
  if (words[i]?.startsWith("+") === true) i += 1;
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (GLOBAL_FLAGS.has(word) || /^--color=/.test(word)) continue;
    if (GLOBAL_VALUED.has(word)) {
      i += 1;
      continue;
    }
    return word === "test" || word === "t" ? i : -1;
  }
  return -1;
}

/** True when a target covers an id: ids name no directory, so only the whole workspace (`.`) covers them. */
function cargoCovers(target: string, _id: string): boolean {
  return isWholeWorkspaceTarget(target);
}

/** cargo test. */
export const cargoRunner: RunnerDefinition = {
  specVersion: RUNNER_SPEC_VERSION,
  kind: "cargo",
  recognize({ program, words }) {
    if (program !== "cargo") return null;
    const at = subcommandIndex(words);
    return at === -1 ? null : { end: at + 1 };
  },
  readArguments(args) {
    const { cargo, libtest } = splitArgs(args);
    const libtestScan = scanArgs(libtest, LIBTEST_OPTIONS);
    return readArgumentsWith(CARGO_OPTIONS, cargo, (scanned, result) => readCargo(scanned, libtestScan, result));
  },
  resultStream: "stdout",
  // RUSTC_WRAPPER, RUSTFLAGS, CARGO_TARGET_<TRIPLE>_RUNNER and the like (src/shell/runner-identity.ts).
  identityScope: "cargo",
  // `--config` can set `target.<triple>.runner` (the test binaries run through another program) and
  // `-Z` unstable behaviour: the output is then not plainly the test binaries'.
  identityRisk(args) {
    for (const arg of splitArgs(args).cargo) {
      if (/^--config(?:=|$)/.test(arg) || /^-Z/.test(arg)) return `cargo test ${arg.split("=")[0]}`;
    }
    return null;
  },
  // 101: a test or the build failed; cargo's own usage errors exit 1.
  exitCodes: { 101: "failed" },
  startErrors: [
    { needle: "no such command", pattern: /^error: no such command: `/ },
    { needle: "could not find `Cargo.toml`", pattern: /^error: could not find `Cargo\.toml` in / },
  ],
  createParser: createCargoParser,
  // Each cargo invocation prints `Finished` before its first binary (on stderr): after a binary's
  // summary, one begins the next run's share.
  split: { by: "verdict-line", pattern: /^Finished (?:`[^`]+` profile|[\w-]+) \[/ },
  family: CARGO_FAMILY,
  covers: cargoCovers,
  // Binaries print no total: which binaries ran shows only in the whole output or in cargo's exit 0.
  needsWholeOutput: () => true,
};
