// The parsers against what the real runners printed on the fixture projects, each case checked
// against the independent truth (pytest hook records, go JSON events, the unittest result hook).
import { beforeAll, describe, expect, it } from "vitest";

import {
  type ForgeryKind,
  type MarkerKind,
  parseCargo,
  parseDjango,
  type ParsedRunOutput,
  parseGoTest,
  parseJest,
  parseMocha,
  parseNodeTest,
  parsePytest,
  parseVitest,
} from "../../src/observers/index.js";
import { type CapturedRun, ensureCaptured, loadCapture } from "../support/capture.js";
import type { Truth } from "../support/truth.js";

beforeAll(async () => {
  await ensureCaptured();
});

/** Which ids the output form prints. */
type IdsShown =
  /** every outcome, skips included (-v, -json, -v 2) */
  | "all"
  /** passes and failures, skips only as counts (-rA prints `SKIPPED [1] file:line`, not ids) */
  | "pass-fail"
  /** failures only (-q, plain go test, unittest dots) */
  | "failed"
  /** none */
  | "none"
  /** the truth's passes only: go's own -json truth counts a failure that a test printed, the parser does not */
  | "passes-only";

interface Expectation {
  ids: IdsShown;
  markers?: MarkerKind[];
  forgeries?: ForgeryKind[];
  summaries?: number;
  gates?: boolean[];
}

const FAKE_PRINTS: ForgeryKind[] = ["passed-in-captured-output", "summary-in-captured-output"];

const PYTEST: [string, Expectation][] = [
  ["py9-q-all", { ids: "failed", forgeries: FAKE_PRINTS }],
  ["py9-v-all", { ids: "all", forgeries: FAKE_PRINTS }],
  ["py9-rA-all", { ids: "pass-fail", forgeries: FAKE_PRINTS }],
  // The service suite: -rA prints the captured stdout, stderr and INFO logs of passing tests too.
  ["app-rA-all", { ids: "pass-fail" }],
  ["app-rA-orders-k", { ids: "pass-fail" }],
  ["app-rA-bulk", { ids: "pass-fail" }],
  ["app-q-orders", { ids: "failed" }],
  ["py9-rA-v-all", { ids: "all", forgeries: FAKE_PRINTS }],
  ["py9-vv-mixed", { ids: "all", forgeries: FAKE_PRINTS }],
  ["py9-x-mixed", { ids: "failed", markers: ["stopped-early"], forgeries: FAKE_PRINTS }],
  ["py9-k-pass", { ids: "all" }],
  ["py9-collect-only-q", { ids: "none", markers: ["collect-only"] }],
  ["py9-collect-only", { ids: "none", markers: ["collect-only"] }],
  ["py9-color-rA", { ids: "all", forgeries: ["passed-in-captured-output"] }],
  ["py9-color-v-mixed", { ids: "all", forgeries: FAKE_PRINTS }],
  ["py9-color-q-mixed", { ids: "failed", forgeries: FAKE_PRINTS }],
  ["py9-node-ids", { ids: "all" }],
  ["py9-node-id-v", { ids: "all" }],
  ["py9-rA-pass", { ids: "all", forgeries: ["passed-in-captured-output"] }],
  ["py9-q-pass", { ids: "failed" }],
  ["py9-plain-pass", { ids: "failed" }],
  ["py9-tb-no-mixed", { ids: "pass-fail" }],
  ["py9-collect-error-q", { ids: "all", markers: ["collection-error"] }],
  ["py9-collect-error-rA", { ids: "all", markers: ["collection-error"] }],
  ["py9-continue-collect-error", { ids: "all" }],
  ["py9-deselect-all", { ids: "none", markers: ["no-tests-ran"] }],
  ["py9-no-tests", { ids: "none", markers: ["no-tests-ran"] }],
  ["py9-usage-error", { ids: "none", markers: ["usage-error"], summaries: 0 }],
  ["py9-file-not-found", { ids: "none", markers: ["no-tests-ran", "usage-error"] }],
  ["py9-node-not-found", { ids: "none", markers: ["no-tests-ran", "usage-error"] }],
  ["py9-cd-sub-rA", { ids: "all" }],
  ["py9-echo-done", { ids: "failed", forgeries: FAKE_PRINTS }],
  ["py9-or-true", { ids: "failed", forgeries: FAKE_PRINTS }],
  ["py9-and-echo", { ids: "failed" }],
  ["py9-pipefail", { ids: "failed" }],
  ["py9-q-tee", { ids: "failed" }],
  ["py9-internal-error", { ids: "none", markers: ["internal-error"] }],
  ["py9-interrupt", { ids: "all", markers: ["interrupted"] }],
  ["py7-q-all", { ids: "failed", forgeries: FAKE_PRINTS }],
  ["py7-v-all", { ids: "all", forgeries: FAKE_PRINTS }],
  ["py7-rA-all", { ids: "pass-fail", forgeries: FAKE_PRINTS }],
  ["py7-x-mixed", { ids: "failed", markers: ["stopped-early"], forgeries: FAKE_PRINTS }],
  ["py7-k-pass", { ids: "all" }],
  ["py7-collect-only-q", { ids: "none", markers: ["collect-only"] }],
  ["py7-color-rA", { ids: "all", forgeries: ["passed-in-captured-output"] }],
  ["py7-node-ids", { ids: "all" }],
  ["py7-collect-error-q", { ids: "all", markers: ["collection-error"] }],
  ["py7-deselect-all", { ids: "none", markers: ["no-tests-ran"] }],
  ["py7-usage-error", { ids: "none", markers: ["usage-error"], summaries: 0 }],
  ["py7-node-not-found", { ids: "none", markers: ["no-tests-ran", "usage-error"] }],
  ["py7-xdist-rA", { ids: "pass-fail", forgeries: FAKE_PRINTS }],
  ["py7-xdist-v", { ids: "all", forgeries: FAKE_PRINTS }],
  ["py7-xdist-q", { ids: "failed" }],
  ["py7-cov-gate", { ids: "failed", gates: [false] }],
  ["py7-cov-gate-rA", { ids: "all", gates: [false], forgeries: ["passed-in-captured-output"] }],
  ["py7-cov-ok", { ids: "failed", gates: [true] }],
  ["py7-cd-sub-v", { ids: "all" }],
  ["py7-interrupt", { ids: "failed", markers: ["interrupted"] }],
];

const GO: [string, Expectation][] = [
  // strs prints `--- PASS: TestGhost`: test2json turns it into a pass event with no run. The package's
  // stream is in view from its first run, so that is a forgery, not a stream cut short (no `incomplete`).
  ["go-json-all", { ids: "all", markers: ["build-failure"], forgeries: ["result-without-run"] }],
  ["go-text-all", { ids: "failed", markers: ["build-failure", "no-test-files"] }],
  ["go-v-all", { ids: "all", markers: ["build-failure", "no-test-files"], forgeries: ["package-line-inside-test", "result-without-run"] }],
  ["go-v-calc", { ids: "all" }],
  ["go-json-calc", { ids: "all" }],
  ["go-json-run", { ids: "all" }],
  ["go-v-run-sub", { ids: "all" }],
  ["go-v-failing", { ids: "all" }],
  ["go-no-tests-to-run", { ids: "none", markers: ["no-tests-ran"] }],
  ["go-json-no-tests-to-run", { ids: "none", markers: ["no-tests-ran"] }],
  ["go-json-run-skipped", { ids: "all" }],
  // The forged `--- FAIL: TestOther` is no result (go's own truth counts it); the indented one in a t.Log is output.
  ["go-v-forge", { ids: "passes-only", forgeries: ["result-without-run", "package-line-inside-test"] }],
  ["go-json-forge", { ids: "passes-only", forgeries: ["result-without-run"] }],
  ["go-v-forge-indented", { ids: "all" }],
  ["go-v-run-skipped", { ids: "all" }],
  ["go-no-test-files", { ids: "none", markers: ["no-test-files"] }],
  ["go-json-timeout", { ids: "all", markers: ["timeout"] }],
  ["go-v-timeout", { ids: "all", markers: ["timeout"] }],
  ["go-json-broken", { ids: "none", markers: ["build-failure"] }],
  ["go-text-broken", { ids: "none", markers: ["build-failure"] }],
  ["go-missing-dir", { ids: "none", markers: ["usage-error"], summaries: 0 }],
  ["go-bad-flag", { ids: "none", markers: ["usage-error"], summaries: 0 }],
];

const UNITTEST: [string, Expectation][] = [
  ["dj-v2-all", { ids: "all", forgeries: ["result-after-summary"] }],
  ["dj-v2-basic", { ids: "all" }],
  ["dj-v2-mixed", { ids: "all", forgeries: ["result-after-summary"] }],
  ["dj-v2-one", { ids: "all" }],
  ["dj-dots-basic", { ids: "failed" }],
  ["dj-dots-mixed", { ids: "failed", forgeries: ["result-after-summary"] }],
  ["dj-v2-empty", { ids: "none", markers: ["no-tests-ran"] }],
  ["dj-failfast", { ids: "all" }],
  ["dj-v2-mixed-unbuffered", { ids: "all", forgeries: ["orphan-status"] }],
  ["dj-v2-basic-unbuffered", { ids: "all" }],
  ["ut-v-mixed", { ids: "all", forgeries: ["result-after-summary"] }],
  ["ut-dots-mixed", { ids: "failed", forgeries: ["result-after-summary"] }],
  ["ut-v-passing", { ids: "all" }],
  ["ut310-v-mixed", { ids: "all", forgeries: ["result-after-summary"] }],
  ["ut310-v-passing", { ids: "all" }],
  ["ut310-v-mixed-unbuffered", { ids: "all", forgeries: ["orphan-status"] }],
  ["ut312-v-empty", { ids: "none", markers: ["no-tests-ran"] }],
  ["ut312-v-mixed", { ids: "all", forgeries: ["result-after-summary"] }],
];

const NODE_TEST: [string, Expectation][] = [
  ["nt-tap-all", { ids: "all" }],
  ["nt-tap-explicit-dir", { ids: "all" }],
  ["nt-spec-all", { ids: "all" }],
  ["nt-dot-all", { ids: "none", summaries: 0 }],
  ["nt-tap-fail", { ids: "all" }],
  ["nt-spec-fail", { ids: "all" }],
  ["nt-dot-fail", { ids: "failed", summaries: 0 }],
  ["nt-name-pattern", { ids: "all" }],
  ["nt-name-pattern-spec-space", { ids: "all" }],
  ["nt-name-pattern-nothing", { ids: "all" }],
  ["nt-test-only", { ids: "all" }],
  ["nt-skip-only", { ids: "all" }],
  ["nt-echo-done", { ids: "all" }],
  ["nt-and-echo", { ids: "all" }],
  ["nt-syntax-error", { ids: "all" }],
  ["nt-missing-file", { ids: "none", markers: ["usage-error"], summaries: 0 }],
  ["nt-bad-option", { ids: "none", markers: ["usage-error"], summaries: 0 }],
  ["nt-reporter-mismatch", { ids: "none", markers: ["usage-error"], summaries: 0 }],
  // TAP turns a test's prints into `# ` comments: nothing forged is left.
  ["nt-forged-print-tap", { ids: "all" }],
];

const VITEST: [string, Expectation][] = [
  ["vt-run", { ids: "none" }],
  ["vt-run-verbose", { ids: "all" }],
  ["vt-bare-verbose", { ids: "all" }],
  ["vt-dot", { ids: "none" }],
  ["vt-agent-env", { ids: "none" }],
  ["vt-fail", { ids: "failed" }],
  ["vt-fail-verbose", { ids: "all" }],
  ["vt-fail-dot", { ids: "failed" }],
  ["vt-name-filter", { ids: "all" }],
  ["vt-file-substring", { ids: "all" }],
  ["vt-shard", { ids: "all" }],
  ["vt-cd-sub", { ids: "all" }],
  ["vt-two-files", { ids: "all" }],
  ["vt-bail", { ids: "all" }],
  ["vt-syntax-error", { ids: "none", markers: ["collection-error"] }],
  ["vt-unhandled-error", { ids: "all" }],
  ["vt-type-error", { ids: "all" }],
  ["vt-no-files", { ids: "none", markers: ["no-tests-ran"], summaries: 0 }],
  ["vt-bad-option", { ids: "none", markers: ["usage-error"], summaries: 0 }],
  ["vt-bad-project", { ids: "none", markers: ["usage-error"], summaries: 0 }],
  // A test's prints: a second summary, and test lines beside file lines (default) or beyond the summary's passes (verbose).
  ["vt-forged-print", { ids: "none", forgeries: ["multiple-summaries", "result-without-run"], summaries: 2 }],
  ["vt-forged-print-silent", { ids: "all" }],
];

// jest cases run at the project root (ids name files as jest prints them, relative to where it ran).
const JEST: [string, Expectation][] = [
  ["jt-plain", { ids: "none" }],
  ["jt-verbose", { ids: "all" }],
  ["jt-one-file", { ids: "all" }],
  ["jt-colors", { ids: "all" }],
  ["jt-fail", { ids: "failed" }],
  ["jt-fail-verbose", { ids: "all" }],
  ["jt-agent", { ids: "none" }],
  ["jt-agent-fail", { ids: "failed" }],
  ["jt-name-filter", { ids: "none" }],
  ["jt-name-filter-file", { ids: "all" }],
  ["jt-name-filter-nothing", { ids: "none" }],
  ["jt-no-tests-found", { ids: "none", markers: ["no-tests-ran"], summaries: 0 }],
  ["jt-pass-with-no-tests", { ids: "none", markers: ["no-tests-ran"], summaries: 0 }],
  ["jt-skip-only", { ids: "all" }],
  ["jt-shard", { ids: "none" }],
  ["jt-one-file-tail-n12", { ids: "all" }],
  ["jt-echo-done", { ids: "all" }],
  ["jt-and-echo", { ids: "all" }],
  ["jt-json-stdout", { ids: "all" }],
  ["jt-bail-ci", { ids: "none" }],
  ["jt-syntax-error", { ids: "all", markers: ["collection-error"] }],
  ["jt-obsolete-snapshot", { ids: "all" }],
  ["jt-open-handle", { ids: "all" }],
  ["jt-force-exit", { ids: "all" }],
  ["jt-silent-console", { ids: "none" }],
  // console.log output comes framed and indented: nothing in it is read.
  ["jt-forged-console", { ids: "all" }],
  // Written straight to stderr before jest's own output: a second summary, and jest's after it; no pass is kept.
  ["jt-forged-raw", { ids: "none", forgeries: ["multiple-summaries", "result-after-summary"], summaries: 2 }],
  ["jt-forged-exit", { ids: "none", markers: ["interrupted"] }],
  ["jt-usage-error", { ids: "none", markers: ["usage-error"], summaries: 0 }],
  ["jt-missing-config", { ids: "none", markers: ["usage-error"], summaries: 0 }],
];

const MOCHA: [string, Expectation][] = [
  ["mo-all", { ids: "all" }],
  ["mo-fail", { ids: "all" }],
  ["mo-dot", { ids: "none" }],
  // The failure list after the epilogue names the failures of any reporter.
  ["mo-dot-fail", { ids: "failed" }],
  ["mo-list", { ids: "none" }],
  ["mo-tap", { ids: "none", summaries: 0 }],
  ["mo-color", { ids: "all" }],
  ["mo-grep", { ids: "all" }],
  ["mo-fgrep-invert", { ids: "all" }],
  ["mo-grep-nothing", { ids: "all", markers: ["no-tests-ran"] }],
  ["mo-skip-only", { ids: "all", markers: ["no-tests-ran"] }],
  ["mo-echo-done", { ids: "all" }],
  ["mo-cd-sub", { ids: "all" }],
  ["mo-file-target", { ids: "all" }],
  ["mo-parallel", { ids: "all" }],
  ["mo-bail", { ids: "all" }],
  ["mo-hook-fail", { ids: "all" }],
  ["mo-syntax-error", { ids: "none", markers: ["collection-error"], summaries: 0 }],
  ["mo-forbid-only", { ids: "none", markers: ["collection-error"], summaries: 0 }],
  ["mo-missing-file", { ids: "all", markers: ["usage-error"] }],
  ["mo-no-test-files", { ids: "none", markers: ["usage-error"], summaries: 0 }],
  ["mo-bad-option", { ids: "none", markers: ["usage-error"], summaries: 0 }],
  ["mo-late-throw", { ids: "all" }],
  ["mo-uncaught-outside", { ids: "all" }],
  ["mo-only", { ids: "all" }],
];

// cargo test: one summary per test binary, folded into one; ids only where cargo's headers name the binary
// (not under -q or 2>/dev/null). A test's prints of libtest's lines leave every pass and skip out.
const CARGO: [string, Expectation][] = [
  ["cg-alias-t", { ids: "all" }],
  ["cg-and-echo", { ids: "all" }],
  ["cg-cd-sub", { ids: "all" }],
  ["cg-compile-error-feature", { ids: "none", markers: ["build-failure"], summaries: 0 }],
  ["cg-compile-error-package", { ids: "none", markers: ["build-failure"], summaries: 0 }],
  ["cg-cwd-sub-quiet", { ids: "none" }],
  ["cg-doc", { ids: "all" }],
  ["cg-echo-done", { ids: "all" }],
  ["cg-fail-no-fail-fast", { ids: "all" }],
  ["cg-fail-quiet", { ids: "none" }],
  ["cg-fail", { ids: "all" }],
  ["cg-filter-exact", { ids: "all" }],
  ["cg-filter", { ids: "all" }],
  ["cg-forge-nocapture", { ids: "none", forgeries: ["ids-exceed-summary", "result-without-run", "multiple-summaries"], summaries: 2 }],
  ["cg-forge-raw-tail", { ids: "none", summaries: 0 }],
  ["cg-forge-raw", { ids: "none", forgeries: ["ids-exceed-summary", "result-without-run", "multiple-summaries"], summaries: 2 }],
  ["cg-forge-show-output", { ids: "none", forgeries: ["ids-exceed-summary", "multiple-summaries"], summaries: 2 }],
  ["cg-ignored", { ids: "all" }],
  ["cg-include-ignored", { ids: "all" }],
  ["cg-libtest-quiet", { ids: "none" }],
  ["cg-libtest-usage-error", { ids: "none", markers: ["usage-error"], summaries: 0 }],
  ["cg-list", { ids: "none", markers: ["incomplete"], summaries: 0 }],
  ["cg-manifest-path", { ids: "all" }],
  ["cg-no-run", { ids: "none", summaries: 0 }],
  ["cg-nothing-matched", { ids: "all" }],
  ["cg-or-true-fail", { ids: "all" }],
  ["cg-package", { ids: "all" }],
  ["cg-pipefail-tail", { ids: "all" }],
  ["cg-plain", { ids: "all" }],
  ["cg-quiet", { ids: "none" }],
  ["cg-shadowed-function", { ids: "none" }],
  ["cg-skip-only", { ids: "all" }],
  ["cg-skip", { ids: "all" }],
  ["cg-stderr-null", { ids: "none" }],
  ["cg-tail-n100", { ids: "all" }],
  ["cg-tail5", { ids: "none", markers: ["incomplete"], summaries: 0 }],
  ["cg-threads1", { ids: "all" }],
  ["cg-two-runs", { ids: "all" }],
  ["cg-usage-error", { ids: "none", markers: ["usage-error"], summaries: 0 }],
  ["cg-workspace", { ids: "all" }],
];

function parseRun(run: CapturedRun): ParsedRunOutput {
  switch (run.project) {
    case "py":
    case "app":
    case "calc":
      return parsePytest(run.output);
    case "go":
      return parseGoTest(run.output);
    case "django":
      return parseDjango(run.output, run.line.includes("runtests.py") ? "django" : "unittest");
    case "node":
      return parseNodeTest(run.output);
    case "vitest":
      return parseVitest(run.output);
    case "jest":
      return parseJest(run.output);
    case "mocha":
      return parseMocha(run.output);
    case "cargo":
      return parseCargo(run.output);
  }
}

// pytest prints ids relative to the directory it was started in, while hooks record rootdir-relative node ids.
function truthAsPrinted(run: CapturedRun): Truth {
  const truth = run.truth ?? { passed: [], failed: [], skipped: [] };
  const cd = /^cd (\S+) && /.exec(run.line);
  const prefix = run.project === "py" && cd !== null ? `${cd[1]!}/` : "";
  const rebase = (ids: string[]): string[] => ids.map((id) => (id.startsWith(prefix) ? id.slice(prefix.length) : id)).sort();
  return { passed: rebase(truth.passed), failed: rebase(truth.failed), skipped: rebase(truth.skipped) };
}

function expectedIds(truth: Truth, shown: IdsShown, parsed: ParsedRunOutput): { passed: string[]; failed: string[]; skipped: string[] } {
  switch (shown) {
    case "all":
      return truth;
    case "pass-fail":
      // -rA lists XFAIL/XPASS ids but plain skips only as counts: whatever skips it names must be true ones.
      return { passed: truth.passed, failed: truth.failed, skipped: parsed.skipped.filter((id) => truth.skipped.includes(id)) };
    case "failed":
      return { passed: [], failed: truth.failed, skipped: [] };
    case "none":
      return { passed: [], failed: [], skipped: [] };
    case "passes-only":
      return { passed: truth.passed, failed: [], skipped: [] };
  }
}

function sortedIds(parsed: ParsedRunOutput): { passed: string[]; failed: string[]; skipped: string[] } {
  return { passed: [...parsed.passed].sort(), failed: [...parsed.failed].sort(), skipped: [...parsed.skipped].sort() };
}

describe.each([
  ["pytest", PYTEST],
  ["go test", GO],
  ["unittest and Django", UNITTEST],
  ["node --test", NODE_TEST],
  ["vitest", VITEST],
  ["jest", JEST],
  ["mocha", MOCHA],
  ["cargo test", CARGO],
] as const)("%s on real captured output", (_label, table) => {
  it.each(table)("%s: ids match the independent truth", (name, expectation) => {
    const run = loadCapture(name);
    const parsed = parseRun(run);
    expect(sortedIds(parsed)).toEqual(expectedIds(truthAsPrinted(run), expectation.ids, parsed));
  });

  it.each(table)("%s: markers, forgery signals, summaries and gates", (name, expectation) => {
    const parsed = parseRun(loadCapture(name));
    expect({
      markers: parsed.markers.map((m) => m.kind).sort(),
      forgeries: parsed.forgeries.map((f) => f.kind).sort(),
      summaries: parsed.summaryCount,
      gates: parsed.gates.map((g) => g.passed),
    }).toEqual({
      markers: [...(expectation.markers ?? [])].sort(),
      forgeries: [...(expectation.forgeries ?? [])].sort(),
      summaries: expectation.summaries ?? 1,
      gates: expectation.gates ?? [],
    });
  });
});
