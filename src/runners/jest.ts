// jest: recognised as the `jest` program (`npx jest`, `npm test` and the like are the package-manager
// scripts' to resolve); results on stderr; one summary block per run, then `Ran all test suites ...`;
// ids `file::describe > test` with the file as jest prints it (relative to where it ran).
import { createJestParser } from "../observers/jest.js";
import { isWholeWorkspaceTarget } from "../observers/target-match.js";
import { givenOptions, optionWords, readArgumentsWith } from "./arguments.js";
import { RUNNER_SPEC_VERSION, type RunnerArguments, type RunnerDefinition } from "./definition.js";
import { type OptionTable, optionValues, type ScannedArgs } from "./option-scanner.js";
import { JEST_FAMILY } from "./target-families.js";

/** jest's options that take one value (`--opt value` or `--opt=value`). */
const JEST_VALUED = optionWords(`
  -c --config --rootDir -t --testNamePattern --changedSince --shard -w --maxWorkers --outputFile --testTimeout
  --seed --cacheDirectory --collectCoverageFrom --coverageDirectory --coverageProvider --coverageThreshold
  --testEnvironment --env --testEnvironmentOptions --testFailureExitCode --testResultsProcessor --testRunner
  --testSequencer --runner --resolver --transform --preset --prettierPath --globalSetup --globalTeardown --globals
  --haste --moduleNameMapper --filter --maxConcurrency --notifyMode --openHandlesTimeout --workerGracefulExitTimeout
  --testPathPattern
`);

/**
 * jest's array options: yargs gives each of them every following word up to the next option
 * (`jest --testMatch '**\/*.test.js' math` runs no pattern `math`), so those words are no targets.
 */
const JEST_ARRAYS = optionWords(`
  --coverageReporters --coveragePathIgnorePatterns --ignoreProjects --moduleDirectories --moduleFileExtensions
  --modulePathIgnorePatterns --modulePaths --projects --reporters --roots --selectProjects --setupFiles
  --setupFilesAfterEnv --snapshotSerializers --testMatch --testPathIgnorePatterns --testPathPatterns --testRegex
  --transformIgnorePatterns --unmockedModulePathPatterns --watchPathIgnorePatterns
`);

/** The option table jest's arguments are scanned with (after {@link expandArrays}). */
export const JEST_OPTIONS: OptionTable = {
  clusters: true,
  valued: new Set([...JEST_VALUED, ...JEST_ARRAYS]),
  // A boolean option takes a following `true` or `false` (`--verbose false`).
  optional: new Map(
    [
      "--verbose",
      "--watch",
      "--watchAll",
      "--ci",
      "--silent",
      "--json",
      "--coverage",
      "--collectCoverage",
      "--passWithNoTests",
      "--onlyChanged",
      "--runInBand",
      "--listTests",
      "--bail",
      "--findRelatedTests",
      "--onlyFailures",
      "--lastCommit",
      "--changedFilesWithAncestor",
      "--useStderr",
      "--detectOpenHandles",
      "--forceExit",
    ].map((name) => [name, (next: string) => next === "true" || next === "false"]),
  ),
};

// `--testMatch a b` -> `--testMatch=a --testMatch=b`: an array option's words are all its values.
function expandArrays(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      out.push(...args.slice(i));
      break;
    }
    const name = arg.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg;
    if (!JEST_ARRAYS.has(name)) {
      out.push(arg);
      continue;
    }
    if (arg.includes("=")) out.push(arg);
    let j = i + 1;
    for (; j < args.length && !args[j]!.startsWith("-"); j++) out.push(`${name}=${args[j]!}`);
    // An array option with no value at all is a usage error: keep it bare for the scanner to see.
    if (!arg.includes("=") && j === i + 1) out.push(arg);
    i = j - 1;
  }
  return out;
}

// yargs reads `--no-x` as `--x=false`, and `--x=false` is no `--x`.
function isOn(scanned: ScannedArgs, names: readonly string[]): boolean {
  return scanned.options.some((option) => names.includes(option.name) && option.value !== "false");
}

/** The options that choose which test files or tests run (`--config` and `--rootDir` choose another project's). */
const SELECTING = [
  "-t",
  "--testNamePattern",
  "--selectProjects",
  "--ignoreProjects",
  "-o",
  "--onlyChanged",
  "--changedSince",
  "--lastCommit",
  "--changedFilesWithAncestor",
  "--findRelatedTests",
  "-f",
  "--onlyFailures",
  "--shard",
  "--testMatch",
  "--testRegex",
  "--testPathIgnorePatterns",
  "--roots",
  "--rootDir",
  "-c",
  "--config",
  "--projects",
  "--filter",
];

function readJest(scanned: ScannedArgs, result: RunnerArguments): void {
  // `--testPathPatterns x` selects files as the positional patterns do.
  result.targets = [...result.targets, ...optionValues(scanned, ["--testPathPatterns", "--testPathPattern"])];
  const on = scanned.options.filter((option) => option.value !== "false");
  result.selection = givenOptions({ ...scanned, options: on }, SELECTING);
  if (
    isOn(scanned, [
      "--watch",
      "--watchAll",
      "--listTests",
      "--showConfig",
      "--clearCache",
      "-h",
      "--help",
      "--version",
      "--collectTests",
      "--init",
    ])
  )
    result.runsTests = false;
  result.json = isOn(scanned, ["--json"]);
  result.verbose = isOn(scanned, ["--verbose"]);
}

/**
 * True when a target covers an id (`test/a.test.js::math > adds`, or a file alone for a suite that
 * failed to run). jest reads its positional words as regular expressions over each test file's
 * path; only a pattern without regex syntax, read as the literal text it then matches, covers the
 * files whose path (relative to where jest ran, as it prints them) holds it.
 */
export function jestCovers(target: string, id: string): boolean {
  if (isWholeWorkspaceTarget(target)) return true;
  const at = id.indexOf("::");
  const file = (at === -1 ? id : id.slice(0, at)).replace(/^(?:\.\/)+/, "");
  const pattern = target.replace(/^(?:\.\/)+/, "");
  if (!/^[\w./@~-]+$/.test(pattern) || pattern.startsWith("/") || /(?:^|\/)\.\.(?:\/|$)/.test(file)) return false;
  return file.includes(pattern);
}

// Reporters jest ships; any other module writes the output the judge reads.
const OWN_REPORTERS = new Set(["default", "summary", "github-actions", "agent"]);

function jestIdentityRisk(args: readonly string[]): string | null {
  const expanded = expandArrays(args);
  for (let i = 0; i < expanded.length; i++) {
    const arg = expanded[i]!;
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const value = eq === -1 ? expanded[i + 1] : arg.slice(eq + 1);
    if (name === "--reporters" && value !== undefined && !OWN_REPORTERS.has(value)) return `jest --reporters ${value} writes the output`;
    if ((name === "--testRunner" || name === "--runner") && value !== undefined) return `jest ${name} ${value} runs the tests`;
  }
  return null;
}

/** jest. */
export const jestRunner: RunnerDefinition = {
  specVersion: RUNNER_SPEC_VERSION,
  kind: "jest",
  recognize: ({ program }) => (program === "jest" ? { end: 1 } : null),
  readArguments: (args) => readArgumentsWith(JEST_OPTIONS, expandArrays(args), readJest),
  resultStream: "stderr",
  identityScope: "node",
  identityRisk: jestIdentityRisk,
  startErrors: [
    { needle: "Unrecognized CLI Parameter", pattern: /^● Unrecognized CLI Parameter:$/ },
    { needle: "Not enough arguments following", pattern: /^Not enough arguments following: / },
    { needle: "Can't find a root directory", pattern: /^Error: Can't find a root directory while resolving a config file path\.$/ },
  ],
  createParser: createJestParser,
  // The summary block ends at `Time:`; the `Ran all test suites ...` line after it is still this run's.
  split: { by: "verdict-line", pattern: /^(?:Ran all test suites\b.*\.|Test run was interrupted\.)$/ },
  family: JEST_FAMILY,
  covers: jestCovers,
  // Its targets are patterns over test file paths (`math` runs every file whose path holds it): any
  // but the whole workspace or a directory may leave files out.
  partialTarget: (target) => !isWholeWorkspaceTarget(target) && !target.endsWith("/"),
  // `run` has jest write its `--json` results to a file (jest then prints `Test results written to:`
  // after its summary, and nothing else changes); a run that asks for JSON or names the file itself
  // is left as it is.
  report: {
    format: "jest-json",
    argument: (path, args) => (args.some((arg) => /^--(?:json|outputFile)(?:=|$)/.test(arg)) ? null : `--json --outputFile=${path}`),
  },
};
