// vitest (4.x): recognised as `vitest [run|watch|dev|related|list|bench|init] [filters] [options]`;
// results on stdout (failures in detail on stderr); one summary block per run; ids
// `file > suite > test` relative to vitest's root, printed per test by the verbose reporter.
import { isWholeWorkspaceTarget } from "../observers/target-match.js";
import type { ParsedRunOutput } from "../observers/types.js";
import { createVitestParser, VITEST_ID_SEPARATOR } from "../observers/vitest.js";
import { givenOptions, optionWords, readArgumentsWith } from "./arguments.js";
import { RUNNER_SPEC_VERSION, type RunnerArguments, type RunnerDefinition } from "./definition.js";
import { hasOption, type OptionTable, optionValues, scanArgs, type ScannedArgs } from "./option-scanner.js";
import { VITEST_FAMILY } from "./target-families.js";

/** vitest's options that take a value (`--opt value` or `--opt=value`); cac also reads them kebab-cased. */
export const VITEST_OPTIONS: OptionTable = {
  clusters: false,
  valued: optionWords(`
    -r --root -c --config -t --testNamePattern --test-name-pattern --dir --reporter --outputFile --output-file
    --mode --browser --pool --execArgv --exec-argv --vmMemoryLimit --maxWorkers --max-workers --environment
    --shard --sequence --testTimeout --test-timeout --hookTimeout --hook-timeout --bail --retry --diff --exclude
    --project --slowTestThreshold --teardownTimeout --maxConcurrency --attachmentsDir --configLoader
    --tagsFilter --tags-filter --experimental
  `),
  // Options whose value is optional: cac takes the next word unless it is an option.
  optional: new Map(
    [
      "-u",
      "--update",
      "--api",
      "--silent",
      "--changed",
      "--inspect",
      "--inspectBrk",
      "--mergeReports",
      "--merge-reports",
      "--listTags",
    ].map((name) => [name, (next: string) => isOptionalValue(name, next)]),
  ),
  // `--outputFile.json=x`, `--coverage.enabled`: cac's dotted options are the option of their first part.
  normalize: (name) => (name.startsWith("--") && name.includes(".") ? name.slice(0, name.indexOf(".")) : name),
};

// The words an optional value may be: `--silent passed-only`, `-u all`, `--changed HEAD~1`.
function isOptionalValue(name: string, next: string): boolean {
  if (next.startsWith("-")) return false;
  if (name === "--silent") return next === "true" || next === "false" || next === "passed-only";
  if (name === "-u" || name === "--update") return ["true", "false", "new", "all", "none"].includes(next);
  if (name === "--api" || name === "--inspect" || name === "--inspectBrk")
    return /^(?:[\w.-]+:)?\d+$/.test(next) || next === "true" || next === "false";
  // `--changed main`, `--mergeReports dir`: any word (vitest reads it so).
  return true;
}

/** vitest's subcommands: which of them run tests once. */
const COMMANDS: Record<string, "run" | "related" | "none"> = {
  run: "run",
  related: "related",
  watch: "none",
  dev: "none",
  list: "none",
  bench: "none",
  init: "none",
};

// Reporters vitest ships; any other name is a module that writes the output the judge reads.
const OWN_REPORTERS = new Set([
  "default",
  "agent",
  "minimal",
  "blob",
  "verbose",
  "dot",
  "json",
  "tap",
  "tap-flat",
  "junit",
  "tree",
  "hanging-process",
  "github-actions",
  "basic",
]);
const MACHINE_REPORTERS = new Set(["json", "junit", "tap", "tap-flat", "blob"]);

function readVitest(scanned: ScannedArgs, result: RunnerArguments): void {
  const [first] = scanned.positionals;
  const command = first !== undefined ? COMMANDS[first] : undefined;
  if (command !== undefined) result.targets = scanned.positionals.slice(1);
  // `related` runs the tests that import the files it names: those are no test targets.
  if (command === "related") result.targets = [];
  if (command === "none") result.runsTests = false;
  // `file:line` runs the one test there.
  const lines = result.targets.filter((target) => /:\d+$/.test(target));
  result.targets = result.targets.map((target) => target.replace(/:\d+$/, ""));
  result.selection = [
    ...givenOptions(scanned, [
      "-t",
      "--testNamePattern",
      "--test-name-pattern",
      "--shard",
      "--changed",
      "--project",
      "--exclude",
      "--tagsFilter",
      "--tags-filter",
      "--allowOnly",
      "--allow-only",
    ]),
    ...(command === "related" ? scanned.positionals.slice(1).map((file) => `related=${file}`) : []),
    ...lines.map((target) => `line=${target}`),
  ];
  // Watch mode, a listing, help, reports merged from earlier runs, a server without a run: no run here.
  // `-u` rewrites every failing snapshot to pass: what its run shows passing proves nothing.
  if (
    hasOption(scanned, [
      "-w",
      "--watch",
      "--standalone",
      "-h",
      "--help",
      "-v",
      "--version",
      "--mergeReports",
      "--merge-reports",
      "--listTags",
      "--clearCache",
      "--clear-cache",
      "-u",
      "--update",
      "--ui",
    ])
  )
    result.runsTests = false;
  const reporters = optionValues(scanned, ["--reporter"]);
  result.verbose = reporters.includes("verbose");
  result.json = reporters.length > 0 && reporters.every((reporter) => MACHINE_REPORTERS.has(reporter));
}

// What makes the word `vitest` something else than vitest on the workspace's tests: a reporter module
// of the workspace's (it writes the output), node options for the workers, a module for the diff.
function vitestIdentityRisk(args: readonly string[]): string | null {
  const scanned = scanArgs(args, VITEST_OPTIONS);
  for (const reporter of optionValues(scanned, ["--reporter"])) {
    if (!OWN_REPORTERS.has(reporter)) return `vitest --reporter ${reporter} writes the output`;
  }
  if (hasOption(scanned, ["--execArgv", "--exec-argv"])) return "vitest --execArgv passes node options to the workers";
  const diff = optionValues(scanned, ["--diff"]).find((value) => /[./]/.test(value));
  if (diff !== undefined) return `vitest --diff ${diff} loads a module`;
  return null;
}

/** True when a target covers an id: vitest reads a file filter as a piece of the test file's path. */
function vitestCovers(target: string, id: string): boolean {
  if (isWholeWorkspaceTarget(target)) return true;
  const at = id.indexOf(VITEST_ID_SEPARATOR);
  if (at <= 0) return false;
  const file = id.slice(0, at).replace(/^(?:\.\/)+/, "");
  const filter = target.replace(/^(?:\.\/)+/, "").replace(/:\d+$/, "");
  if (filter === "") return true;
  // A filter ending in `/` names a directory; any other is a substring of the path (`math` runs test/math.test.ts).
  return file.includes(filter) || `${file}/`.includes(filter);
}

/** vitest's passes: tests that passed and the `.fails` tests that failed as expected. */
function vitestSummaryPasses(parsed: ParsedRunOutput): number {
  const counts = parsed.summary?.counts ?? {};
  return (counts.passed ?? 0) + (counts["expected fail"] ?? 0);
}

/** vitest. */
export const vitestRunner: RunnerDefinition = {
  specVersion: RUNNER_SPEC_VERSION,
  kind: "vitest",
  recognize({ program }) {
    return program === "vitest" ? { end: 1 } : null;
  },
  readArguments(args) {
    return readArgumentsWith(VITEST_OPTIONS, args, readVitest);
  },
  resultStream: "stdout",
  identityScope: "node",
  identityRisk: vitestIdentityRisk,
  startErrors: [
    { needle: "CACError", pattern: /^CACError: / },
    { needle: "No projects matched", pattern: /^Error: No projects matched the filter / },
  ],
  createParser: createVitestParser,
  split: { by: "summary" },
  family: VITEST_FAMILY,
  covers: vitestCovers,
  // Its targets are patterns over test file paths (`math` runs every file whose path holds it): any
  // but the whole workspace or a directory may leave files out.
  partialTarget: (target) => !isWholeWorkspaceTarget(target) && !target.endsWith("/"),
  summaryPasses: vitestSummaryPasses,
  // `run` adds vitest's junit reporter beside the default one (naming a reporter drops the default,
  // so both are named; vitest then also prints `JUNIT report written to PATH`). A run that chose its
  // reporters or output files is left as it is.
  report: {
    argument: (path, args) =>
      args.some((arg) => /^--(?:reporter|outputFile)(?:[.=]|$)/.test(arg))
        ? null
        : `--reporter=default --reporter=junit --outputFile.junit=${path}`,
  },
};
