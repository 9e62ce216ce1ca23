// mocha: recognised as `mocha [options] [spec files, directories, globs]`; results on stdout (the
// spec reporter by default); one epilogue per run (`N passing (Nms)`, `N pending`, `N failing`); ids
// `suite > test` (mocha prints no file). mocha adds the spec files of its config (`.mocharc.*`,
// package.json `mocha`) to the ones the line names, so a file target never narrows the run.
import { createMochaParser } from "../observers/mocha.js";
import { isWholeWorkspaceTarget } from "../observers/target-match.js";
import { givenOptions, optionWords, readArgumentsWith } from "./arguments.js";
import { type ExitMeaning, RUNNER_SPEC_VERSION, type RunnerArguments, type RunnerDefinition } from "./definition.js";
import { hasOption, type OptionTable, optionValues, scanArgs, type ScannedArgs } from "./option-scanner.js";
import { MOCHA_FAMILY, mochaFileCovers } from "./target-families.js";

/** mocha's options that take a value (yargs: `--opt value`, `--opt=value`, `-Rdot`, `-bR dot`), and node's that it passes on. */
export const MOCHA_OPTIONS: OptionTable = {
  clusters: true,
  valued: optionWords(`
    --extension --file --global --globals --ignore --exclude -n --node-option -O --reporter-option --reporter-options
    -r --require --watch-files --watch-ignore --retries -j --jobs --config --package -f --fgrep -g --grep -R --reporter
    -u --ui -s --slow -t --timeout --timeouts --spec
    --import --loader --experimental-loader --env-file --env-file-if-exists --conditions --input-type --title
  `),
};

// What mocha ships (`--reporter`, `--ui`): any other name is a module it loads.
const OWN_REPORTERS = new Set([
  "spec",
  "dot",
  "tap",
  "json",
  "list",
  "min",
  "nyan",
  "xunit",
  "markdown",
  "progress",
  "landing",
  "json-stream",
  "doc",
  "html",
  "github-actions",
  "base",
]);
const OWN_UIS = new Set(["bdd", "tdd", "qunit", "exports"]);
// Options that load a module of anyone's choosing before the tests (mocha's own, and node's it passes on).
const LOADS_CODE = new Set(["-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file", "--env-file-if-exists"]);
const NODE_OPTION_LOADS = /^-{0,2}(?:r|require|import|loader|experimental-loader|env-file|env-file-if-exists)(?:=|$)/;

function readMocha(scanned: ScannedArgs, result: RunnerArguments): void {
  // `--spec X` names spec files as the positionals do.
  result.targets = [...scanned.positionals, ...optionValues(scanned, ["--spec"])];
  // Title patterns and ignored files run some of the tests.
  result.selection = givenOptions(scanned, ["-g", "--grep", "-f", "--fgrep", "-i", "--invert", "--ignore", "--exclude"]);
  // `--dry-run` reports every test as passed without running it; watch mode, help, version and the lists run none.
  if (hasOption(scanned, ["--dry-run", "-w", "--watch", "-h", "--help", "-V", "--version", "--list-interfaces", "--list-reporters"]))
    result.runsTests = false;
  // `mocha init DIR` writes a browser setup.
  if (scanned.positionals[0] === "init") result.runsTests = false;
  const reporters = optionValues(scanned, ["-R", "--reporter"]);
  result.verbose = reporters.length === 0 || reporters.at(-1) === "spec";
}

function mochaIdentityRisk(args: readonly string[]): string | null {
  const scanned = scanArgs(args, MOCHA_OPTIONS);
  for (const option of scanned.options) {
    if (LOADS_CODE.has(option.name)) return `mocha ${option.name} loads code before the tests`;
    const value = option.value ?? "";
    if ((option.name === "-n" || option.name === "--node-option") && NODE_OPTION_LOADS.test(value))
      return `mocha ${option.name} ${value} loads code before the tests`;
    if ((option.name === "-R" || option.name === "--reporter") && !OWN_REPORTERS.has(value.toLowerCase()))
      return `mocha ${option.name} ${value} writes the output`;
    if ((option.name === "-u" || option.name === "--ui") && !OWN_UIS.has(value))
      return `mocha ${option.name} ${value} loads code before the tests`;
  }
  return null;
}

// mocha exits with its failure count, capped at 255 (the shared statuses 124, 126, 127, 130, 137 and 143 are read first).
const FAILURE_COUNTS: Partial<Record<number, ExitMeaning>> = Object.fromEntries(
  Array.from({ length: 254 }, (_, i) => [i + 2, "failed" as const]),
);

/** mocha. */
export const mochaRunner: RunnerDefinition = {
  specVersion: RUNNER_SPEC_VERSION,
  kind: "mocha",
  recognize({ program }) {
    return program === "mocha" || program === "_mocha" ? { end: 1 } : null;
  },
  readArguments(args) {
    return readArgumentsWith(MOCHA_OPTIONS, args, readMocha);
  },
  resultStream: "stdout",
  identityScope: "node",
  identityRisk: mochaIdentityRisk,
  exitCodes: FAILURE_COUNTS,
  startErrors: [
    { needle: "No test files found", pattern: /^Error: No test files found/ },
    { needle: "Cannot find any files matching pattern", pattern: /^Warning: Cannot find any files matching pattern / },
    { needle: "ERROR:", pattern: /^✖ ERROR: / },
    { needle: "Not enough arguments following", pattern: /^Error: Not enough arguments following: / },
  ],
  createParser: createMochaParser,
  split: { by: "summary" },
  family: MOCHA_FAMILY,
  covers(target, id) {
    return isWholeWorkspaceTarget(target) || mochaFileCovers(target, id);
  },
};
