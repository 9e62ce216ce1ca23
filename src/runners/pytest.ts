// pytest: recognised as `pytest`, `py.test` or `python -m pytest`; results on stdout; one final
// summary per run; ids `path::name[param]`, relative to where pytest ran (or its rootdir).
import { posix } from "node:path";

import { createPytestParser } from "../observers/pytest.js";
import { pytestTargetCovers } from "../observers/target-match.js";
import { givenOptions, optionWords, readArgumentsWith } from "./arguments.js";
import { RUNNER_SPEC_VERSION, type RunnerArguments, type RunnerDefinition } from "./definition.js";
import { hasOption, type OptionTable, optionValues, type ScannedArgs } from "./option-scanner.js";
import { PYTHON_FAMILY } from "./target-families.js";

const PYTEST_NAMES = /^(pytest|py\.test)(-3)?$/;
const notOption = (next: string): boolean => !next.startsWith("-");

/** pytest (with the common plugins: xdist, cov, timeout, rerunfailures, reportlog, json-report, html, split). */
export const PYTEST_OPTIONS: OptionTable = {
  clusters: true,
  valued: optionWords(`
    -k -m -p -c -o -n -W -r
    --junitxml --junit-xml --junit-prefix --basetemp --tb --maxfail --color --code-highlight --capture --import-mode
    --deselect --ignore --ignore-glob --rootdir --confcutdir --override-ini --config-file --pythonwarnings --durations
    --durations-min --verbosity --log-level --log-format --log-date-format --log-cli-level --log-cli-format
    --log-cli-date-format --log-file --log-file-level --log-file-format --log-file-date-format --log-file-mode
    --log-disable --log-auto-indent --show-capture --assert --lfnf --last-failed-no-failures --doctest-glob
    --doctest-report --pdbcls --numprocesses --maxprocesses --dist --tx --rsyncdir --rsyncignore --max-worker-restart
    --timeout --timeout-method --timeout_method --cov-report --cov-config --cov-fail-under --cov-context --report-log
    --json-report-file --json-report-indent --html --css --reruns --reruns-delay --only-rerun --random-order-bucket
    --random-order-seed --count --repeat-scope --splits --group --splitting-algorithm --durations-path --asyncio-mode
    --pastebin --runpytest --confcutdir --junit-family
  `),
  optional: new Map([
    ["--cov", notOption],
    ["--debug", notOption],
    ["--cache-show", notOption],
  ]),
};

// `-o` settings that change how results look, not which tests run or how they end (`addopts=` empty
// drops the ini's options, which can only widen the run).
const PLAIN_INI_OVERRIDE = /^(?:addopts=$|cache_dir=|console_output_style=|log_cli(?:_\w+)?=|log_level=|junit_family=|junit_suite_name=)/;

function readPytest(scanned: ScannedArgs, result: RunnerArguments): void {
  // Besides the selection options: an ini override or another config file (`-o python_functions=...`,
  // `-c other.ini`) can change what is collected, a plugin (`-p NAME`, not `-p no:NAME`) can drop tests,
  // and an `@file` argument holds options the line does not show.
  result.selection = [
    ...givenOptions(scanned, [
      "-k",
      "-m",
      "--deselect",
      "--lf",
      "--last-failed",
      "--sw",
      "--stepwise",
      "--sw-skip",
      "--stepwise-skip",
      "--ignore",
      "--ignore-glob",
      "--splits",
      "--group",
      "-c",
      "--config-file",
    ]),
    ...optionValues(scanned, ["-o", "--override-ini"])
      .filter((setting) => !PLAIN_INI_OVERRIDE.test(setting))
      .map((setting) => `-o=${setting}`),
    ...optionValues(scanned, ["-p"])
      .filter((plugin) => !plugin.startsWith("no:"))
      .map((plugin) => `-p=${plugin}`),
    ...scanned.positionals.filter((arg) => arg.startsWith("@")),
  ];
  if (
    hasOption(scanned, [
      "--collect-only",
      "--co",
      "--help",
      "-h",
      "--version",
      "-V",
      "--fixtures",
      "--funcargs",
      "--fixtures-per-test",
      "--markers",
      "--setup-plan",
      "--setup-only",
      "--cache-show",
    ])
  ) {
    result.runsTests = false;
  }
  result.reportFiles = optionValues(scanned, ["--junitxml", "--junit-xml", "--report-log", "--json-report-file"]);
  if (hasOption(scanned, ["--json-report"]) && !hasOption(scanned, ["--json-report-file"])) result.reportFiles.push(".report.json");
  const verbosity = optionValues(scanned, ["--verbosity"]).some((v) => Number(v) > 0);
  const reportChars = optionValues(scanned, ["-r"]).some((chars) => /[AP]/.test(chars));
  result.verbose = verbosity || reportChars || hasOption(scanned, ["-v", "--verbose"]);
}

/**
 * The spellings of a pytest target as pytest prints ids: relative to the directory pytest ran in,
 * and relative to its `rootdir` when the run started below it.
 */
function pytestSpellings(target: string, workspace: string | null, rootdir: string | null): string[] {
  const spellings = [target];
  if (workspace === null || rootdir === null || !posix.isAbsolute(workspace) || !posix.isAbsolute(rootdir)) return spellings;
  const fromRoot = posix.relative(rootdir, workspace);
  if (fromRoot === "" || fromRoot.startsWith("..")) return spellings;
  const at = target.indexOf("::");
  const path = at === -1 ? target : target.slice(0, at);
  const selector = at === -1 ? "" : target.slice(at);
  spellings.push(posix.join(fromRoot, path === "" ? "." : path) + selector);
  return spellings;
}

/** pytest. */
export const pytestRunner: RunnerDefinition = {
  specVersion: RUNNER_SPEC_VERSION,
  kind: "pytest",
  recognize({ program, python }) {
    if (PYTEST_NAMES.test(program)) return { end: 1 };
    return python !== null && "module" in python && python.module === "pytest" ? { end: python.next } : null;
  },
  readArguments: (args) => readArgumentsWith(PYTEST_OPTIONS, args, readPytest),
  resultStream: "stdout",
  identityScope: "python",
  exitCodes: { 2: "interrupted", 3: "internal-error", 4: "usage-error", 5: "no-tests-ran" },
  startErrors: [{ needle: "No module named", pattern: /: No module named pytest$/ }],
  createParser: createPytestParser,
  split: { by: "summary" },
  family: PYTHON_FAMILY,
  covers: pytestTargetCovers,
  targetSpellings: (target, { workspace, rootdir }) => pytestSpellings(target, workspace, rootdir),
  reportsRootdir: true,
  report: { argument: (path) => `--junitxml=${path}`, configuredIn: "pytest-addopts" },
};
