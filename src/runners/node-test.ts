// node:test: recognised as `node --test [options] [files, directories, globs]`; results on stdout
// (TAP when stdout is not a terminal, as under an agent's bash; spec on a terminal); one summary
// block per run; ids `suite > test` (node prints no file for a passing test).
import { createNodeTestParser } from "../observers/node-test.js";
import { isWholeWorkspaceTarget } from "../observers/target-match.js";
import { givenOptions, optionWords, readArgumentsWith } from "./arguments.js";
import { RUNNER_SPEC_VERSION, type RunnerArguments, type RunnerDefinition } from "./definition.js";
import { hasOption, type OptionTable, optionValues, type ScannedArgs } from "./option-scanner.js";
import { NODE_FAMILY, pathGlob } from "./target-families.js";

/** node's options that take a value (`--opt value` or `--opt=value`), the test runner's and the common others. */
export const NODE_TEST_OPTIONS: OptionTable = {
  clusters: false,
  valued: optionWords(`
    --test-name-pattern --test-skip-pattern --test-reporter --test-reporter-destination --test-concurrency
    --test-timeout --test-shard --test-coverage-include --test-coverage-exclude --test-coverage-lines
    --test-coverage-branches --test-coverage-functions --test-isolation --test-global-setup
    -r --require --import --loader --experimental-loader -C --conditions --env-file --env-file-if-exists
    --input-type --title --watch-path --inspect-port --debug-port --max-http-header-size --stack-trace-limit
    --diagnostic-dir --report-dir --report-directory --report-filename --redirect-warnings --unhandled-rejections
    --disable-warning --dns-result-order --icu-data-dir --openssl-config --tls-cipher-list --secure-heap
    --secure-heap-min --heapsnapshot-signal --heapsnapshot-near-heap-limit --cpu-prof-dir --cpu-prof-name
    --cpu-prof-interval --heap-prof-dir --heap-prof-name --heap-prof-interval --experimental-default-type
  `),
};

// Where a runner option ends and the files begin: node reads its options up to the first word that
// is none (`node --test a.js --test-only` looks for a file named `--test-only`).
function splitAtFirstFile(args: readonly string[]): { options: string[]; files: string[] } {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") return { options: args.slice(0, i), files: args.slice(i + 1) };
    if (!arg.startsWith("-") || arg === "-") return { options: args.slice(0, i), files: args.slice(i) };
    if (!arg.includes("=") && NODE_TEST_OPTIONS.valued.has(arg)) i += 1;
  }
  return { options: [...args], files: [] };
}

function readNodeTest(scanned: ScannedArgs, result: RunnerArguments): void {
  // Name patterns, `only` marks and shards run some of the tests.
  result.selection = givenOptions(scanned, ["--test-name-pattern", "--test-skip-pattern", "--test-only", "--test-shard"]);
  if (hasOption(scanned, ["--watch", "--watch-path", "-h", "--help", "-v", "--version", "-c", "--check", "--test-list"]))
    result.runsTests = false;
  // The reporter that writes to stdout decides what the output shows: TAP and spec show every test.
  const reporters = optionValues(scanned, ["--test-reporter"]);
  result.verbose = reporters.length === 0 || reporters.some((reporter) => reporter === "tap" || reporter === "spec");
}

/** True when a target covers an id: ids that name their file (`test/a.test.js::suite > test`) by path, bare names only by the whole workspace. */
function nodeTestCovers(target: string, id: string): boolean {
  if (isWholeWorkspaceTarget(target)) return true;
  const at = id.indexOf("::");
  if (at === -1) return false;
  const file = id.slice(0, at).replace(/^(?:\.\/)+/, "");
  const path = target.replace(/^(?:\.\/)+/, "").replace(/\/+$/, "");
  if (/[*?[{]/.test(path)) return pathGlob(path).test(file);
  return file === path || file.startsWith(`${path}/`);
}

// node's options that load code before the tests (a module of the agent's can print any result), and a
// reporter that is not one of node's own (it writes the output the judge reads).
const LOADS_CODE = new Set([
  "-r",
  "--require",
  "--import",
  "--loader",
  "--experimental-loader",
  "--env-file",
  "--env-file-if-exists",
  "--test-global-setup",
]);
const OWN_REPORTERS = new Set(["spec", "tap", "dot", "junit", "lcov"]);

function nodeIdentityRisk(args: readonly string[]): string | null {
  const { options } = splitAtFirstFile(args);
  for (let i = 0; i < options.length; i++) {
    const arg = options[i]!;
    const [name = arg, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = inline ?? options[i + 1];
    if (LOADS_CODE.has(name)) return `node ${name} loads code before the tests`;
    if (name === "--test-reporter" && value !== undefined && !OWN_REPORTERS.has(value))
      return `node --test-reporter ${value} writes the output`;
  }
  return null;
}

/** node --test. */
export const nodeTestRunner: RunnerDefinition = {
  specVersion: RUNNER_SPEC_VERSION,
  kind: "node-test",
  recognize({ program, words }) {
    if (program !== "node" && program !== "nodejs") return null;
    const { options } = splitAtFirstFile(words.slice(1));
    return options.includes("--test") ? { end: 1 } : null;
  },
  readArguments(args) {
    const { options, files } = splitAtFirstFile(args);
    return readArgumentsWith(NODE_TEST_OPTIONS, [...options.filter((o) => o !== "--test"), "--", ...files], readNodeTest);
  },
  resultStream: "stdout",
  identityScope: "node",
  identityRisk: nodeIdentityRisk,
  // 9: node rejected an option (`node: bad option: --x`).
  exitCodes: { 9: "usage-error" },
  startErrors: [
    { needle: "Could not find '", pattern: /^Could not find '.*'$/ },
    { needle: "bad option", pattern: /^(?:\S*\/)?node(?:js)?: bad option: / },
    { needle: "ERR_INVALID_ARG_VALUE", pattern: /^TypeError \[ERR_INVALID_ARG_VALUE\]: The argument '--test-/ },
  ],
  createParser: createNodeTestParser,
  split: { by: "summary" },
  family: NODE_FAMILY,
  covers: nodeTestCovers,
  // `run` adds node's junit reporter beside the one the run prints with. Naming any reporter drops
  // node's default one, so both are named: spec on stdout (what a terminal shows) and junit to the
  // file. A run that names its own reporters or destinations is left as it is.
  report: {
    argument: (path, args) =>
      args.some((arg) => /^--test-reporter(?:-destination)?(?:=|$)/.test(arg))
        ? null
        : `--test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=${path}`,
    at: "after-runner",
  },
};
