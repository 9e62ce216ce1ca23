// Per-runner option tables and what the options mean: targets, selection, modes that run no test, reports.
import { hasOption, optionValues, scanArgs, type OptionTable, type ScannedArgs } from "./option-scanner.js";

/** Which runner's command-line syntax to read. */
export type ArgumentSyntax = "pytest" | "go" | "django-runtests" | "django-manage" | "unittest";

/** What a runner's arguments say about the run. */
export interface RunnerArguments {
  targets: string[];
  filtered: boolean;
  /**
   * The options that decide which tests run, each as `name=value` (or `name`), sorted: what a
   * filtered run selected (`-k=not slow`, `--deselect=t.py::x`, go `-run=TestAdd`, `-test.run=X` after
   * `-args`). Empty exactly when `filtered` is false. Options that change only the output (`-q`, `-v`,
   * `-rA`, `--tb`, `--color`, `-json`) are never here.
   */
  selection: string[];
  runsTests: boolean;
  reportFiles: string[];
  json: boolean;
  verbose: boolean;
  /** Directory changes made by options (go `-C DIR`). */
  directories: string[];
}

const words = (text: string): Set<string> => new Set(text.split(/\s+/).filter((w) => w !== ""));
const notOption = (next: string): boolean => !next.startsWith("-");
const integer = (next: string): boolean => /^\d+$/.test(next);

/** pytest (with the common plugins: xdist, cov, timeout, rerunfailures, reportlog, json-report, html, split). */
export const PYTEST_OPTIONS: OptionTable = {
  clusters: true,
  valued: words(`
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

/** `go test` build and test flags (Go's flag package: single-dash long names, `-flag=value` or `-flag value`). */
export const GO_OPTIONS: OptionTable = {
  clusters: false,
  valued: words(`
    -run -skip -count -timeout -tags -p -parallel -cpu -bench -benchtime -coverprofile -covermode -coverpkg
    -cpuprofile -memprofile -memprofilerate -blockprofile -blockprofilerate -mutexprofile -mutexprofilefraction
    -outputdir -o -exec -gcflags -ldflags -asmflags -gccgoflags -mod -modfile -overlay -pkgdir -shuffle -fuzz -fuzztime
    -fuzzminimizetime -fuzzcachedir -vet -trace -C -list -toolexec -compiler -buildmode -buildvcs -installsuffix -pgo
    -covermode -testlogfile -gocoverdir
  `),
  normalize: (name) => `-${name.replace(/^--?/, "").replace(/^test\./, "")}`,
  stop: new Set(["-args"]),
};

/** Django's own `tests/runtests.py`. */
export const DJANGO_RUNTESTS_OPTIONS: OptionTable = {
  clusters: true,
  valued: words(`
    -v -k --verbosity --settings --tag --exclude-tag --start-after --start-at --selenium --selenium-hub
    --external-host --bisect --pair --durations --screenshots-dir
  `),
  optional: new Map([
    ["--parallel", (next) => integer(next) || next === "auto"],
    ["--shuffle", integer],
  ]),
};

/** `manage.py test` / `django-admin test` / `python -m django test`. */
export const DJANGO_MANAGE_OPTIONS: OptionTable = {
  clusters: true,
  valued: words(`
    -v -k -t -p --verbosity --settings --pythonpath --tag --exclude-tag --top-level-directory --pattern --testrunner
    --durations
  `),
  optional: new Map([
    ["--parallel", (next) => integer(next) || next === "auto"],
    ["--shuffle", integer],
  ]),
};

/** `python -m unittest` (and its `discover` sub-command). */
export const UNITTEST_OPTIONS: OptionTable = {
  clusters: true,
  valued: words(`-k -s -p -t --start-directory --pattern --top-level-directory --durations`),
};

const TABLES: Record<ArgumentSyntax, OptionTable> = {
  pytest: PYTEST_OPTIONS,
  go: GO_OPTIONS,
  "django-runtests": DJANGO_RUNTESTS_OPTIONS,
  "django-manage": DJANGO_MANAGE_OPTIONS,
  unittest: UNITTEST_OPTIONS,
};

/** Reads a runner's arguments (the words after the runner text). */
export function readRunnerArguments(syntax: ArgumentSyntax, args: readonly string[]): RunnerArguments {
  const scanned = scanArgs(args, TABLES[syntax]);
  const result: RunnerArguments = { targets: scanned.positionals, filtered: false, selection: [], runsTests: !scanned.missingValue, reportFiles: [], json: false, verbose: false, directories: [] };
  switch (syntax) {
    case "pytest":
      readPytest(scanned, result);
      break;
    case "go":
      readGo(scanned, result, args);
      break;
    case "django-runtests":
    case "django-manage":
      readDjango(scanned, result);
      break;
    case "unittest":
      readUnittest(scanned, result);
      break;
    default: {
      const never: never = syntax;
      throw new Error(`unknown argument syntax ${String(never)}`);
    }
  }
  if (result.targets.length === 0) result.targets = ["."];
  result.selection = [...new Set(result.selection)].sort();
  result.filtered = result.selection.length > 0;
  return result;
}

// `name=value` for each given option of `names` (`name` for one without a value).
function given(scanned: ScannedArgs, names: readonly string[]): string[] {
  return scanned.options.filter((option) => names.includes(option.name)).map((option) => (option.value === null ? option.name : `${option.name}=${option.value}`));
}

// `-o` settings that change how results look, not which tests run or how they end (`addopts=` empty
// drops the ini's options, which can only widen the run).
const PLAIN_INI_OVERRIDE = /^(?:addopts=$|cache_dir=|console_output_style=|log_cli(?:_\w+)?=|log_level=|junit_family=|junit_suite_name=)/;

function readPytest(scanned: ScannedArgs, result: RunnerArguments): void {
  // Besides the selection options: an ini override or another config file (`-o python_functions=...`,
  // `-c other.ini`) can change what is collected, a plugin (`-p NAME`, not `-p no:NAME`) can drop tests,
  // and an `@file` argument holds options the line does not show.
  result.selection = [
    ...given(scanned, ["-k", "-m", "--deselect", "--lf", "--last-failed", "--sw", "--stepwise", "--sw-skip", "--stepwise-skip", "--ignore", "--ignore-glob", "--splits", "--group", "-c", "--config-file"]),
    ...optionValues(scanned, ["-o", "--override-ini"]).filter((setting) => !PLAIN_INI_OVERRIDE.test(setting)).map((setting) => `-o=${setting}`),
    ...optionValues(scanned, ["-p"]).filter((plugin) => !plugin.startsWith("no:")).map((plugin) => `-p=${plugin}`),
    ...scanned.positionals.filter((arg) => arg.startsWith("@")),
  ];
  if (hasOption(scanned, ["--collect-only", "--co", "--help", "-h", "--version", "-V", "--fixtures", "--funcargs", "--fixtures-per-test", "--markers", "--setup-plan", "--setup-only", "--cache-show"])) {
    result.runsTests = false;
  }
  result.reportFiles = optionValues(scanned, ["--junitxml", "--junit-xml", "--report-log", "--json-report-file"]);
  if (hasOption(scanned, ["--json-report"]) && !hasOption(scanned, ["--json-report-file"])) result.reportFiles.push(".report.json");
  const verbosity = optionValues(scanned, ["--verbosity"]).some((v) => Number(v) > 0);
  const reportChars = optionValues(scanned, ["-r"]).some((chars) => /[AP]/.test(chars));
  result.verbose = verbosity || reportChars || hasOption(scanned, ["-v", "--verbose"]);
}

// Test-binary flags after `-args` that still only report or bound the run; any other `-test.*` there
// (`-test.run`, `-test.skip`, `-test.list`, ...) selects tests the go command's own flags do not show.
const PLAIN_TEST_ARGS = /^--?test\.(?:v|timeout|failfast|paniconexit0|count=[1-9]\d*)(?:=|$)/;

function readGo(scanned: ScannedArgs, result: RunnerArguments, args: readonly string[]): void {
  const runs = optionValues(scanned, ["-run"]);
  const stop = args.findIndex((a) => a === "-args" || a === "--args");
  const binaryArgs = stop === -1 ? [] : args.slice(stop + 1);
  result.selection = [...given(scanned, ["-run", "-skip"]), ...binaryArgs.filter((a) => /^--?test\./.test(a) && !PLAIN_TEST_ARGS.test(a)).map((a) => a.replace(/^--/, "-"))];
  // `-run '^$'` selects no test, but `-bench` and `-fuzz` still run (`go test -run '^$' -fuzz FuzzX` is how go's docs fuzz).
  const benchOrFuzz = optionValues(scanned, ["-bench", "-fuzz"]).length > 0;
  const runsNothing = !benchOrFuzz && runs.some((pattern) => pattern === "^$" || pattern === "^$$" || pattern === "none^");
  if (runsNothing || hasOption(scanned, ["-list", "-c", "-n", "-h", "-help"])) result.runsTests = false;
  result.json = scanned.options.some((o) => o.name === "-json" && (o.value === null || o.value === "true" || o.value === "1"));
  result.verbose = scanned.options.some((o) => o.name === "-v" && (o.value === null || o.value === "true" || o.value === "1"));
  result.directories = optionValues(scanned, ["-C"]);
}

function readDjango(scanned: ScannedArgs, result: RunnerArguments): void {
  result.selection = given(scanned, ["--tag", "--exclude-tag", "-k", "--start-after", "--start-at", "--bisect", "--pair", "-p", "--pattern"]);
  if (hasOption(scanned, ["-h", "--help", "--version"])) result.runsTests = false;
  result.verbose = optionValues(scanned, ["-v", "--verbosity"]).some((v) => Number(v) >= 2);
}

function readUnittest(scanned: ScannedArgs, result: RunnerArguments): void {
  result.selection = given(scanned, ["-k", "-p", "--pattern"]);
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
