// go test: recognised as `go test`; results on stdout; one result line (or event) per package; ids
// `<import path>::<Test>[/<sub>]`; a plain `-run Name` is carried on each package target.
import { createGoTestParser } from "../observers/go-test.js";
import { stripAnsi } from "../observers/lines.js";
import { goPackageMatches, goTargetCovers } from "../observers/target-match.js";
import type { ParsedRunOutput } from "../observers/types.js";
import { givenOptions, optionWords, readArgumentsWith } from "./arguments.js";
import { RUNNER_SPEC_VERSION, type RunnerArguments, type RunnerDefinition } from "./definition.js";
import { hasOption, type OptionTable, optionValues, type ScannedArgs } from "./option-scanner.js";
import { GO_FAMILY } from "./target-families.js";

/** `go test` build and test flags (Go's flag package: single-dash long names, `-flag=value` or `-flag value`). */
export const GO_OPTIONS: OptionTable = {
  clusters: false,
  valued: optionWords(`
    -run -skip -count -timeout -tags -p -parallel -cpu -bench -benchtime -coverprofile -covermode -coverpkg
    -cpuprofile -memprofile -memprofilerate -blockprofile -blockprofilerate -mutexprofile -mutexprofilefraction
    -outputdir -o -exec -gcflags -ldflags -asmflags -gccgoflags -mod -modfile -overlay -pkgdir -shuffle -fuzz -fuzztime
    -fuzzminimizetime -fuzzcachedir -vet -trace -C -list -toolexec -compiler -buildmode -buildvcs -installsuffix -pgo
    -covermode -testlogfile -gocoverdir
  `),
  normalize: (name) => `-${name.replace(/^--?/, "").replace(/^test\./, "")}`,
  stop: new Set(["-args"]),
};

// Test-binary flags after `-args` that still only report or bound the run; any other `-test.*` there
// (`-test.run`, `-test.skip`, `-test.list`, ...) selects tests the go command's own flags do not show.
const PLAIN_TEST_ARGS = /^--?test\.(?:v|timeout|failfast|paniconexit0|count=[1-9]\d*)(?:=|$)/;

function readGo(scanned: ScannedArgs, result: RunnerArguments, args: readonly string[]): void {
  const runs = optionValues(scanned, ["-run"]);
  const stop = args.findIndex((a) => a === "-args" || a === "--args");
  const binaryArgs = stop === -1 ? [] : args.slice(stop + 1);
  result.selection = [
    ...givenOptions(scanned, ["-run", "-skip"]),
    ...binaryArgs.filter((a) => /^--?test\./.test(a) && !PLAIN_TEST_ARGS.test(a)).map((a) => a.replace(/^--/, "-")),
  ];
  // `-run '^$'` selects no test, but `-bench` and `-fuzz` still run (`go test -run '^$' -fuzz FuzzX` is how go's docs fuzz).
  const benchOrFuzz = optionValues(scanned, ["-bench", "-fuzz"]).length > 0;
  const runsNothing = !benchOrFuzz && runs.some((pattern) => pattern === "^$" || pattern === "^$$" || pattern === "none^");
  if (runsNothing || hasOption(scanned, ["-list", "-c", "-n", "-h", "-help"])) result.runsTests = false;
  result.json = scanned.options.some((o) => o.name === "-json" && (o.value === null || o.value === "true" || o.value === "1"));
  result.verbose = scanned.options.some((o) => o.name === "-v" && (o.value === null || o.value === "true" || o.value === "1"));
  result.directories = optionValues(scanned, ["-C"]);
}

const GO_PACKAGE_LINE_RE = /^(?:ok|FAIL|\?)\s+(\S+)\s+\S/;
const GO_PACKAGE_EVENT_RE = /"Action":"(?:pass|fail|skip)"/;

// The package a line settles: `ok pkg 0.1s`, `FAIL pkg`, `? pkg [no test files]`, or a package's own
// pass/fail/skip event (one without a "Test" field).
function goPackageOf(line: string): string | null {
  if (line.startsWith("{")) {
    if (!GO_PACKAGE_EVENT_RE.test(line) || line.includes('"Test":')) return null;
    try {
      const event = JSON.parse(line) as { Package?: unknown };
      return typeof event.Package === "string" ? event.Package : null;
    } catch {
      return null;
    }
  }
  return GO_PACKAGE_LINE_RE.exec(stripAnsi(line))?.[1] ?? null;
}

// A go -run pattern that names one test (or one subtest path) without regex syntax.
const PLAIN_GO_SELECTOR_RE = /^\^?([A-Za-z_][\w]*(?:\/[\w.-]+)*)\$?$/;

/** The value of go's `-run` option (or of `-fuzz`, with `option: "fuzz"`), or null. */
function goRunPattern(args: readonly string[], option = "run"): string | null {
  let found: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-args" || arg === "--args") break;
    const match = new RegExp(`^--?${option}(?:=(.*))?$`).exec(arg);
    if (match === null) continue;
    found = match[1] ?? args[i + 1] ?? null;
    if (match[1] === undefined) i += 1;
  }
  return found;
}

// A go `-run Name` selection carried on each package target (`./calc::TestAdd`).
function goSelectionTargets(run: { args: readonly string[]; targets: readonly string[]; filtered: boolean }): string[] {
  if (!run.filtered) return [...run.targets];
  // `-run '^$' -fuzz FuzzX` runs only the fuzz target.
  const runPattern = goRunPattern(run.args);
  const fuzz = goRunPattern(run.args, "fuzz");
  const pattern = fuzz !== null && (runPattern === null || runPattern === "^$") ? fuzz : fuzz !== null ? null : runPattern;
  const plain = pattern === null ? null : PLAIN_GO_SELECTOR_RE.exec(pattern);
  if (plain === null || plain === undefined || run.args.some((a) => /^--?skip(?:=|$)/.test(a))) return [...run.targets];
  const selector = plain[1]!;
  return run.targets.map((target) => `${target === "." ? "." : target}::${selector}`);
}

/** Tests (or, for plain `go test`, packages) the final summary shows passed. */
function goSummaryPasses(parsed: ParsedRunOutput): number {
  const counts = parsed.summary?.counts ?? {};
  // `-v`/`-json` show each test: a package whose every selected test skipped ran no test, though
  // go calls it `ok` (pytest and Django call a skip-only run "nothing ran" too).
  if (parsed.passed.length === 0 && parsed.failed.length === 0 && parsed.skipped.length > 0) return 0;
  // `ok pkg [no tests to run]` is a passing package with no test in it: only the others count.
  const ranOk = parsed.packages?.filter((p) => p.result === "pass" && p.noTests !== true).length;
  if (ranOk === undefined && parsed.markers.some((m) => m.kind === "no-tests-ran") && parsed.passed.length === 0) return 0;
  return Math.max(counts.passed ?? 0, ranOk ?? counts["packages passed"] ?? 0);
}

/** go test. */
export const goTestRunner: RunnerDefinition = {
  specVersion: RUNNER_SPEC_VERSION,
  kind: "go",
  recognize: ({ program, words }) => (program === "go" && words[1] === "test" ? { end: 2 } : null),
  readArguments: (args) => readArgumentsWith(GO_OPTIONS, args, (scanned, result) => readGo(scanned, result, args)),
  resultStream: "stdout",
  identityScope: "go",
  // `-exec` runs the test binary through another program, `-toolexec` and `-overlay` build other code.
  identityRisk(args) {
    for (const arg of args) {
      if (arg === "-args" || arg === "--args") break;
      if (/^--?(?:exec|toolexec|overlay)(?:=|$)/.test(arg)) return `go test ${arg.split("=")[0]}`;
    }
    return null;
  },
  exitCodes: { 2: "usage-error" },
  createParser: createGoTestParser,
  split: { by: "unit", unitOf: goPackageOf, names: (targets, pkg) => targets.some((target) => goPackageMatches(target, pkg)) },
  family: GO_FAMILY,
  covers: goTargetCovers,
  selectionTargets: goSelectionTargets,
  summaryPasses: goSummaryPasses,
  finalFailLine: /^FAIL$/,
  needsWholeOutput: (target) => target.includes("..."),
};
