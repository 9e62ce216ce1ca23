// The rule table of issue 3: one run's outcome from its invocation, its exit attribution, what its
// parser read and the line's signals. The first rule that applies decides.
import { mergeOutcomeIds } from "../observers/id-table.js";
import { stripAnsi } from "../observers/lines.js";
import { goPackageMatches } from "../observers/target-match.js";
import type { MarkerKind, ParsedRunOutput } from "../observers/types.js";
import type { RunReasonCode } from "../reasons.js";
import type { ExitMeaning, RunnerDefinition } from "../runners/definition.js";
import type { ExitAttribution, TestInvocation } from "../shell/types.js";
import type { GateFinding, IdList, RunEvidence } from "../types.js";
import type { RunSignals } from "./judge-host-notes.js";
import type { ReportFacts } from "./judge-reports.js";
import { selectionTargets, uncoveredTargets } from "./judge-targets.js";

/** Everything known about one run when it is judged. */
export interface RunFacts {
  invocation: TestInvocation;
  attribution: ExitAttribution;
  /** The runner's definition (undefined: a kind the registry does not know; it proves nothing). */
  definition: RunnerDefinition | undefined;
  /** What the run's parser read (for a loop: one iteration's share; see judge.ts). */
  parsed: ParsedRunOutput<IdList>;
  /** The last non-blank line of the run's share of the output. */
  lastLine: string;
  signals: RunSignals;
  /** The output was clipped by the tool host. */
  clipped: boolean;
  baseline: boolean;
  reports: ReportFacts;
  /** The run's share of the output could not be told apart from another run's. */
  notAttributable: boolean;
  /**
   * The share is everything the runner printed: its results reach the output directly or through a
   * file, with no `tail`/`head` window, or through one the output did not fill.
   */
  whole: boolean;
}

/** Is a run's share all it printed? (see {@link RunFacts.whole}) */
export function showsWhole(invocation: TestInvocation, parsed: ParsedRunOutput<IdList>): boolean {
  if (invocation.output !== "direct" && invocation.output !== "from-file") return false;
  const window = invocation.window;
  return window === null || (window.lines !== null && parsed.lines < window.lines);
}

const TIMEOUT_WRAPPER_RE = /(?:^|\s|\/)timeout\s/;

// The shared exit statuses first (a `timeout` wrapper's 124, the shell's 126/127, signals), then the runner's own.
function exitMeaning(invocation: TestInvocation, definition: RunnerDefinition | undefined, code: number): ExitMeaning {
  const wrappedInTimeout = TIMEOUT_WRAPPER_RE.test(invocation.text);
  if (code === 0) return "ok";
  if (code === 1) return "failed";
  if (code === 124 && wrappedInTimeout) return "timeout";
  if (code === 126 || code === 127) return "usage-error";
  if (code === 130) return "interrupted";
  if (code === 137 || code === 143) return wrappedInTimeout ? "timeout" : "interrupted";
  return definition?.exitCodes?.[code] ?? "other";
}

/** What a parser of `kind` reads from output that shows none of its lines (`lines` lines counted). */
export function emptyParse(kind: ParsedRunOutput["kind"], lines = 0): ParsedRunOutput {
  return {
    kind,
    passed: [],
    failed: [],
    skipped: [],
    summary: null,
    summaryCount: 0,
    markers: [],
    forgeries: [],
    gates: [],
    rootdir: null,
    lines,
  };
}

function hasMarker(parsed: ParsedRunOutput<IdList>, kind: MarkerKind): boolean {
  return parsed.markers.some((m) => m.kind === kind);
}

/** Failures and errors the final summary counts, whatever the runner calls them. */
function summaryFailures(parsed: ParsedRunOutput<IdList>): number {
  const counts = parsed.summary?.counts ?? {};
  const keys = ["failed", "errors", "failures", "unexpected successes", "packages failed", "cancelled"];
  // jest: a suite that failed to run, and snapshots it counts as a failed run (obsolete ones exit 1 too).
  keys.push("suites failed", "snapshots failed", "snapshots obsolete", "snapshot files obsolete");
  return keys.reduce((sum, key) => sum + (counts[key] ?? 0), 0);
}

/** Tests the final summary shows passed (the runner's own count, e.g. go's packages without -v). */
function summaryPasses(parsed: ParsedRunOutput<IdList>, definition: RunnerDefinition | undefined): number {
  return definition?.summaryPasses?.(parsed) ?? parsed.summary?.counts.passed ?? 0;
}

function isCollectOnly(invocation: TestInvocation, parsed: ParsedRunOutput<IdList>): boolean {
  return invocation.args.some((a) => a === "--collect-only" || a === "--co") || hasMarker(parsed, "collect-only");
}

/**
 * Judges one run: the first rule of the table that applies decides its outcome. Through a harness
 * that changed since the session began (TestInvocation.harnessChanged), while a link takes the code
 * elsewhere (linksOutside), or while a cache may answer for old content (statResets), a failure still
 * counts and nothing else does: each can make a failing test report a pass, and the agent gains
 * nothing the other way round.
 */
// A run as this table decides it: every reason one of the library's own codes.
type DecidedRun = Omit<RunEvidence<IdList>, "reasons"> & { reasons: RunReasonCode[] };

export function decideRun(facts: RunFacts): DecidedRun {
  const decided = decideFromOutput(facts);
  const { harnessChanged = [], linksOutside = [], statResets = [] } = facts.invocation;
  const doubts: RunReasonCode[] = [
    ...(harnessChanged.length > 0 ? (["harness-changed"] as const) : []),
    ...(linksOutside.length > 0 ? (["link-outside-workspace"] as const) : []),
    ...(statResets.length > 0 ? (["mtime-reset"] as const) : []),
    ...(facts.invocation.scriptProblem === undefined ? [] : [facts.invocation.scriptProblem]),
  ];
  if (doubts.length === 0 || decided.outcome === "failed") return decided;
  return {
    ...decided,
    outcome: "unknown",
    passed: [],
    reasons: unique([...doubts, ...decided.reasons.filter((r) => r !== "target-not-proven")]),
  };
}

function decideFromOutput(facts: RunFacts): DecidedRun {
  const { invocation, attribution, signals, reports } = facts;
  // Output the runner's results never reached proves nothing: only its report files speak for it.
  const notTheRunners = invocation.output === "transformed" || invocation.output === "hidden";
  const parsed = notTheRunners ? emptyParse(facts.parsed.kind) : facts.parsed;
  const lastLine = notTheRunners ? "" : facts.lastLine;
  const base: DecidedRun = {
    kind: invocation.kind,
    runner: invocation.runner,
    targets: selectionTargets(invocation, facts.definition),
    workspace: invocation.workspace,
    filtered: invocation.filtered,
    baseline: facts.baseline,
    outcome: "unknown",
    passed: [],
    failed: [],
    skipped: [],
    reasons: [],
    gates: [],
  };
  if (facts.definition?.reportsRootdir === true) base.rootdir = parsed.rootdir;
  const unknown = (...reasons: RunReasonCode[]): DecidedRun => ({ ...base, outcome: "unknown", reasons });

  // 1. The word is not the real runner: nothing it printed is evidence.
  if (invocation.shadowed) return unknown("shadowed-runner");
  // 1b. What the output shows is not what the runner printed (a report file can still speak for it).
  // The runner's own status can still show a failure (`pytest > log; echo EXIT=$?` printing EXIT=1).
  const hiddenExit = attribution.status === "trusted" && attribution.reason === "status-printed" ? attribution.runnerExit : null;
  if (notTheRunners && hiddenExit !== null && invocation.runsTests && exitMeaning(invocation, facts.definition, hiddenExit) === "failed")
    return { ...base, outcome: "failed", reasons: ["runner-exit-nonzero", ...(facts.clipped ? (["truncated"] as const) : [])] };
  if (notTheRunners && !reports.provesPass && !reports.failedTests) {
    return unknown(invocation.output === "transformed" ? "output-transformed" : "output-not-shown");
  }
  // 2. A mode that runs no test.
  if (!invocation.runsTests || isCollectOnly(invocation, parsed))
    return unknown(isCollectOnly(invocation, parsed) ? "collect-only" : "not-a-run");

  // An id failed in any source is failed; a skip is never a pass. A big -rA log has millions of ids:
  // a parser's own distinct lists are taken as they are, and only lists from several sources merged.
  const noReportIds = reports.passed.length === 0 && reports.failed.length === 0 && reports.skipped.length === 0;
  const ids = noReportIds && parsed.distinctIds === true ? parsed : mergeOutcomeIds([parsed, reports]);
  // Through a line filter (`| grep PASSED`) any line may be missing, the `ERROR at teardown` of a test
  // it shows as PASSED included: no id it shows proves that its test passed (failures still count).
  const throughFilter = invocation.output === "filtered";
  const { failed: failedIds, skipped: skippedIds } = ids;
  const passedIds = throughFilter ? [] : ids.passed;
  const gates: GateFinding[] = [...parsed.gates];
  const judged = { ...base, passed: passedIds, failed: failedIds, skipped: skippedIds, gates };
  const withReasons = (outcome: RunEvidence["outcome"], reasons: RunReasonCode[]): DecidedRun => ({
    ...judged,
    outcome,
    reasons: unique(reasons),
  });

  const trustedExit = attribution.status === "trusted" ? attribution.runnerExit : null;
  const meaning = trustedExit === null ? null : exitMeaning(invocation, facts.definition, trustedExit);
  const exitSaysFailed = (trustedExit !== null && trustedExit !== 0) || attribution.status === "failure-implied";
  const noSummary = parsed.summary === null && !reports.provesPass && !reports.failedTests;
  // `go test` ends with a bare `FAIL` line when any package failed, even when `| tail` cut the package lines.
  const finalFailLine = facts.definition?.finalFailLine?.test(stripAnsi(lastLine).trim()) === true;
  const outputFailure =
    failedIds.length > 0 ||
    summaryFailures(parsed) > 0 ||
    hasMarker(parsed, "collection-error") ||
    hasMarker(parsed, "build-failure") ||
    reports.failedTests ||
    finalFailLine;

  // 3. The runner never got to run tests (a usage error it printed, or one the shell printed).
  // A start error (`pytest: command not found`) counts only while the runner shows no sign of having
  // run: a test's own stderr (`cat: x: No such file or directory`) can hold the same words.
  const neverStarted = signals.startError !== null && noSummary && parsed.passed.length === 0 && parsed.failed.length === 0;
  const usage = hasMarker(parsed, "usage-error") || neverStarted || (meaning === "usage-error" && noSummary);
  if (usage && !outputFailure) return withReasons("unknown", ["usage-error"]);

  // 4. The runner's own failures; with no output at all, a failing exit of the runner itself.
  const nothingExplains = ["no-tests-ran", "no-test-files", "interrupted", "timeout", "internal-error", "incomplete"].every(
    (k) => !hasMarker(parsed, k as MarkerKind),
  );
  const exitOnlyFailure =
    noSummary &&
    parsed.passed.length === 0 &&
    nothingExplains &&
    !signals.hostTimeout &&
    (meaning === "failed" || attribution.status === "failure-implied");
  if (outputFailure || exitOnlyFailure) {
    const reasons: RunReasonCode[] = [outputFailure ? failureReason(parsed, reports) : "runner-exit-nonzero"];
    if (facts.clipped) reasons.push("truncated");
    return withReasons("failed", reasons);
  }

  // 5. Clipped output (a clipped go stream ends with packages still open), an output whose first line
  // is a piece of one of the runner's lines, or a whole output that shows the runner printed lines before it.
  const start = parsed.start;
  const headLost = start !== undefined && (start.cut !== null || (facts.whole && start.headMissing !== null));
  if (facts.clipped || hasMarker(parsed, "incomplete") || headLost) return withReasons("unknown", ["truncated"]);

  // 6. The run did not finish.
  if (hasMarker(parsed, "timeout") || signals.hostTimeout || meaning === "timeout") return withReasons("unknown", ["timeout"]);
  if (hasMarker(parsed, "interrupted") || (meaning === "interrupted" && noSummary)) return withReasons("unknown", ["interrupted"]);
  if (hasMarker(parsed, "internal-error") || (meaning === "internal-error" && noSummary)) return withReasons("unknown", ["internal-error"]);

  // 7. Nothing ran.
  const passes = summaryPasses(parsed, facts.definition);
  // `go test -bench . -run XXX` prints `ok` when -run selected no test (go warns `no tests to run` only
  // without -bench): benchmarks may have run, tests did not. A failing benchmark stays a failure (4).
  const benchOnlyEmpty =
    invocation.args.some((a) => /^--?bench(?:=|$)/.test(a)) &&
    invocation.args.some((a) => /^--?run(?:=|$)/.test(a)) &&
    parsed.passed.length + parsed.failed.length + parsed.skipped.length === 0 &&
    !outputFailure;
  // Per package where the runner reports per package (go): one `[no tests to run]` package among
  // packages that ran tests does not make the whole run "nothing ran".
  const someRan = (parsed.packages ?? []).some((p) => p.result !== "skip" && p.noTests !== true);
  const nothingRan =
    (hasMarker(parsed, "no-tests-ran") && !(someRan && passes > 0)) ||
    (meaning === "no-tests-ran" && noSummary) ||
    (parsed.summary !== null && passes === 0 && !reports.provesPass) ||
    (hasMarker(parsed, "no-test-files") && passes === 0) ||
    benchOnlyEmpty;
  if (nothingRan) return withReasons("unknown", ["no-tests-ran"]);

  // 8. The runner's own status says it failed although no failure is shown (a coverage gate excepted).
  const gateExplains =
    gates.some((g) => g.kind === "coverage" && !g.passed) && (trustedExit === 1 || attribution.status === "failure-implied");
  if (exitSaysFailed && !gateExplains) return withReasons("unknown", ["spoof-suspect"]);
  // A go result for a test that never ran, in a stream seen from its start: a test printed it (test2json
  // turns a printed `--- PASS: X` into an event). The real events may be fine, but the output imitates the runner.
  if (parsed.forgeries.some((f) => f.kind === "result-without-run")) return withReasons("unknown", ["spoof-suspect"]);
  // A bare summary after pytest's session header was printed by a test (`-s`), not by pytest; so was a
  // padded one in an output shown whole without the header (`-q -s`, or a fake runner).
  if (parsed.forgeries.some((f) => f.kind === "summary-shape-mismatch") && parsed.summary === null)
    return withReasons("unknown", ["spoof-suspect"]);
  if (facts.whole && (start?.summaryMismatch ?? null) !== null) return withReasons("unknown", ["spoof-suspect"]);
  // A lone summary: shown whole, the output has fewer results before its summary than the summary
  // counts tests (`-s`, a test writes `2 passed in 0.01s` and exits; the second test never ran).
  const counted =
    parsed.summary === null
      ? 0
      : ["passed", "skipped", "xfailed", "xpassed"].reduce((sum, key) => sum + (parsed.summary!.counts[key] ?? 0), 0);
  if (facts.whole && parsed.shownResults !== undefined && parsed.summary !== null && parsed.shownResults < counted)
    return withReasons("unknown", ["spoof-suspect"]);

  // 9 and 10. Exactly one summary of the runner's own, a pass in it, every target covered.
  if (noSummary) return withReasons("unknown", [attribution.status === "masked" ? "masked-exit-no-summary" : "no-summary"]);
  // More passes than the summary counts: some were printed by tests, so none of them is proof.
  const passesExceed = parsed.forgeries.some((f) => f.kind === "ids-exceed-summary");
  if (parsed.summaryCount > 1) return { ...withReasons("unknown", ["multiple-summaries"]), ...(passesExceed ? { passed: [] } : {}) };
  if (passesExceed) return { ...withReasons("unknown", ["spoof-suspect"]), passed: [] };
  const blockers: RunReasonCode[] = [...reports.blockers, ...(facts.notAttributable ? (["output-not-attributable"] as const) : [])];
  if (blockers.length > 0) return withReasons("unknown", blockers);
  const summaryProves = (parsed.summary !== null && passes > 0) || reports.provesPass;
  // A runner that reports per package (go): an `ok` for a package no target names was not printed by
  // this run's packages but by a test or an init; it proves nothing, and the output imitates the runner.
  const packageResults = parsed.packages ?? [];
  const targetPackages = judged.targets.map((target) => target.split("::")[0] ?? target);
  if (packageResults.some((p) => p.result === "pass" && !targetPackages.some((pattern) => goPackageMatches(pattern, p.path))))
    return withReasons("unknown", ["spoof-suspect"]);
  // Each package's own `ok` proves the target that names it (`go test ./calc ./strs`, no -v).
  const provenByPackage = (target: string): boolean =>
    !target.includes("::") &&
    !target.includes("...") &&
    packageResults.some((p) => p.result === "pass" && p.noTests !== true && goPackageMatches(target, p.path));
  const uncovered = uncoveredTargets({
    targets: judged.targets,
    passed: passedIds,
    definition: facts.definition,
    workspace: invocation.workspace,
    rootdir: parsed.rootdir,
    summaryProves,
  }).filter((target) => !provenByPackage(target));
  if (!summaryProves) return withReasons("unknown", ["target-not-proven"]);
  // go prints one line per package and no total: a `./...` pattern is proven only when the runner's exit
  // 0 is known or the whole output is shown (every package's line is then in view).
  const exitZeroKnown = trustedExit === 0 || attribution.status === "success-implied";
  if (uncovered.length > 0) {
    // Several targets, a clean summary and the runner's own exit 0 (`pytest a.py sub/b.py` printing
    // `8 passed, 1 skipped`): every selected test passed, so the run did. A target no visible id
    // covers may have held no test at all: it is listed, and its record is not verified.
    const everySelectedPassed =
      exitZeroKnown &&
      exitMeaning(invocation, facts.definition, 0) === "ok" &&
      parsed.summary !== null &&
      passes > 0 &&
      !reports.failedTests;
    if (!everySelectedPassed || judged.targets.length < 2) return withReasons("unknown", ["target-not-proven"]);
    return { ...withReasons("passed", []), unprovenTargets: uncovered };
  }
  const definition = facts.definition;
  if (
    definition?.needsWholeOutput !== undefined &&
    judged.targets.some((t) => definition.needsWholeOutput?.(t) === true) &&
    !exitZeroKnown &&
    !facts.whole
  )
    return withReasons("unknown", ["target-not-proven"]);
  return withReasons("passed", []);
}

function failureReason(parsed: ParsedRunOutput<IdList>, reports: ReportFacts): RunReasonCode {
  if (hasMarker(parsed, "build-failure")) return "build-failure";
  if (hasMarker(parsed, "collection-error")) return "collection-error";
  if (parsed.failed.length > 0 || summaryFailures(parsed) > 0) return "tests-failed";
  return reports.failedTests ? "report-failed" : "tests-failed";
}

function unique<T extends string>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
