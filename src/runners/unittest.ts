// `python -m unittest` (and `discover`): results on stderr, `Ran N tests` then `OK` / `FAILED (...)`;
// ids are dotted labels.
import { createDjangoParser } from "../observers/django.js";
import { unittestTargetCovers } from "../observers/target-match.js";
import { givenOptions, optionWords, readArgumentsWith } from "./arguments.js";
import { RUNNER_SPEC_VERSION, type RunnerArguments, type RunnerDefinition } from "./definition.js";
import { hasOption, type OptionTable, optionValues, type ScannedArgs } from "./option-scanner.js";
import { DJANGO_FAMILY } from "./target-families.js";

/** unittest's verdict line after `Ran N tests`: where a run's share of the output ends. */
export const UNITTEST_VERDICT_RE = /^(?:OK(?: \(.*\))?|FAILED \(.*\)|NO TESTS RAN)$/;

/** `python -m unittest` (and its `discover` sub-command). */
export const UNITTEST_OPTIONS: OptionTable = {
  clusters: true,
  valued: optionWords(`-k -s -p -t --start-directory --pattern --top-level-directory --durations`),
};

function readUnittest(scanned: ScannedArgs, result: RunnerArguments): void {
  result.selection = givenOptions(scanned, ["-k", "-p", "--pattern"]);
  if (hasOption(scanned, ["-h", "--help"])) result.runsTests = false;
  result.verbose = hasOption(scanned, ["-v", "--verbose"]);
  if (result.targets[0] === "discover") {
    const start = optionValues(scanned, ["-s", "--start-directory"]);
    const positional = result.targets.slice(1);
    // `discover DIR PATTERN`: the second positional is the file pattern.
    if (positional.length > 1) result.selection.push(`pattern=${positional[1]}`);
    result.targets = start.length > 0 ? start : positional.slice(0, 1);
  }
}

/** python -m unittest. */
export const unittestRunner: RunnerDefinition = {
  specVersion: RUNNER_SPEC_VERSION,
  kind: "unittest",
  recognize: ({ python }) => (python !== null && "module" in python && python.module === "unittest" ? { end: python.next } : null),
  readArguments: (args) => readArgumentsWith(UNITTEST_OPTIONS, args, readUnittest),
  resultStream: "stderr",
  identityScope: "python",
  exitCodes: { 5: "no-tests-ran" },
  startErrors: [{ needle: "No module named", pattern: /: No module named unittest$/ }],
  createParser: () => createDjangoParser("unittest"),
  split: { by: "verdict-line", pattern: UNITTEST_VERDICT_RE },
  family: DJANGO_FAMILY,
  covers: unittestTargetCovers,
};
