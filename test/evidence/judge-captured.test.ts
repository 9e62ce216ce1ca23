// The judge on what the real runners printed, in every captured command form (test/support/
// capture-cases.ts), each checked against independent truth: pytest's hook records, go's JSON events,
// the unittest result hook. Plus clipped copies of every output, and streaming in odd chunk sizes.
import { isAbsolute, posix, relative } from "node:path";
import { StringDecoder } from "node:string_decoder";

import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

import { createJudgeStream, judge } from "../../src/evidence/judge.js";
import type { JudgeResult } from "../../src/evidence/judge-types.js";
import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { builtinRunners } from "../../src/runners/registry.js";
import type { Outcome, RunEvidence } from "../../src/types.js";
import { type CapturedRun, ensureCaptured, loadCapture } from "../support/capture.js";
import { CAPTURE_CASES } from "../support/capture-cases.js";

beforeAll(async () => {
  await ensureCaptured();
});

/**
 * How the ids the judge reports relate to the truth: `all` (passed, failed and skipped equal it),
 * `pass-fail` (passed and failed equal it; -rA prints skips as counts), `failed` (failed equals it;
 * -q prints failures only), `some` (subsets: `| tail` cut some lines), `none` (no ids at all).
 */
type IdRelation = "all" | "pass-fail" | "failed" | "some" | "none";

/**
 * [case, verdict, ids]: the verdict each form must get, reasoned from the form and the truth. A list
 * of verdicts names the outputs a form can really print, depending on timing (never `passed`).
 */
const EXPECTED: [string, Outcome | readonly Outcome[], IdRelation][] = [
  ["dj-dots-basic", "passed", "none"],
  ["dj-dots-mixed", "failed", "failed"],
  ["dj-failfast", "failed", "all"],
  ["dj-v2-all", "failed", "all"],
  ["dj-v2-basic", "passed", "all"],
  ["dj-v2-basic-unbuffered", "passed", "all"],
  ["dj-v2-empty", "unknown", "none"],
  ["dj-v2-mixed", "failed", "all"],
  ["dj-v2-mixed-unbuffered", "failed", "all"],
  ["dj-v2-one", "passed", "all"],
  ["dj-v2-tail", "unknown", "none"],
  ["go-bad-flag", "unknown", "none"],
  ["go-cached", "passed", "none"],
  ["go-json-all", "failed", "all"],
  ["go-json-broken", "failed", "none"],
  ["go-json-calc", "passed", "all"],
  ["go-json-no-tests-to-run", "unknown", "none"],
  ["go-json-run-skipped", "unknown", "all"],
  ["go-run-add-two-pkgs", "passed", "none"], // was unknown (no-tests-ran); ./strs::TestAdd is listed unproven
  ["go-json-run-add-two-pkgs", "passed", "all"], // the same: ./strs::TestAdd is listed unproven
  ["go-bench-nothing", "unknown", "none"],
  ["go-bench-calc", "unknown", "none"], // benchmarks ran, no test did
  ["go-json-bench-failing", "failed", "failed"],
  ["go-fuzz-seeds-v", "passed", "all"],
  ["go-fuzz-run", "passed", "none"],
  ["go-fuzz-run-v", "passed", "all"],
  ["go-fuzz-fails-tail", "failed", "failed"],
  ["go-fuzz-empty-run", "passed", "none"],
  ["go-bench-empty-run-failing", "failed", "failed"],
  ["go-v-forge", "unknown", "some"],
  ["go-text-forge-foreign-ok", "unknown", "none"],
  ["go-json-forge", "unknown", "some"],
  ["go-v-forge-indented", "passed", "all"],
  ["go-v-run-skipped", "unknown", "all"],
  ["go-json-run", "passed", "all"],
  ["go-json-tail", "unknown", "none"],
  ["go-json-timeout", "failed", "all"],
  ["go-list", "unknown", "none"],
  ["go-missing-dir", "unknown", "none"],
  ["go-no-test-files", "unknown", "none"],
  ["go-no-tests-to-run", "unknown", "none"],
  ["go-text-all", "failed", "failed"],
  ["go-text-broken", "failed", "none"],
  ["go-v-all", "failed", "all"],
  ["go-v-calc", "passed", "all"],
  ["go-v-failing", "failed", "all"],
  ["go-v-run-sub", "passed", "all"],
  ["go-v-timeout", "failed", "all"],
  ["j-dj-cd-tests", "passed", "all"],
  ["j-dj-pipefail-dots", "unknown", "none"],
  ["j-dj-timeout60", "passed", "all"],
  ["j-dj-v2-basic-and-echo", "passed", "all"],
  ["j-dj-v2-basic-echo", "passed", "all"],
  ["j-dj-v2-basic-head3", "unknown", "none"],
  ["j-dj-v2-class", "passed", "all"],
  ["j-dj-v2-mixed-or-true", "failed", "all"],
  ["j-dj-v2-mixed-tail5", "failed", "none"],
  ["j-go-and-echo", "passed", "none"],
  ["j-go-cd-calc-v", "passed", "all"],
  ["j-go-echo-done", "passed", "none"],
  ["j-go-json-calc-strs", "unknown", "all"],
  ["j-go-json-failing", "failed", "all"],
  ["j-go-json-run-add", "passed", "all"],
  ["j-go-v-grep-pass-ok", "unknown", "none"],
  ["j-py9-teardown-grep-passed", "unknown", "none"],
  ["j-py9-q-two-targets-pass", "passed", "none"], // was unknown: target-not-proven
  ["j-py9-q-two-targets-tail", "unknown", "none"], // tail's exit 0 is not pytest's
  ["j-py9-status-echo-mixed", "failed", "none"],
  ["j-py9-status-echo-pass", "unknown", "none"],
  ["j-py9-forged-summary-s", "unknown", "none"],
  ["j-py9-forged-summary-q-s", "unknown", "none"],
  ["j-py9-forged-summary-q-s-tail", "unknown", "none"],
  ["j-py9-forged-late-q-s", "unknown", "none"],
  ["j-py9-mixed-grep-v-fail", "failed", "some"],
  ["j-py9-pass-grep-summary", "passed", "none"],
  ["j-go-json-strs", "unknown", "all"],
  ["j-go-json-tail3", "unknown", "none"],
  ["j-go-or-true-failing", "failed", "failed"],
  ["j-go-pipefail-v", "passed", "none"],
  ["j-go-text-calc-strs", "passed", "none"], // each package's own ok line proves its target (was unknown: target-not-proven)
  ["j-go-text-tail3", "failed", "none"],
  ["j-go-timeout1-slow", "unknown", "none"],
  ["j-go-timeout60", "passed", "none"], // the same through timeout 60 (was unknown)
  ["j-go-two-and", "failed", "failed"],
  ["j-go-v-failing-tee", "failed", "all"],
  ["j-go-v-head5", "unknown", "none"],
  ["j-py7-cd-sub-rA", "passed", "all"],
  ["j-py7-cov-gate-and-echo", "passed", "none"],
  ["j-py7-cov-gate-tail", "passed", "none"],
  ["j-py7-echo-done-mixed", "failed", "failed"],
  ["j-py7-internal", "unknown", "none"],
  ["j-py7-pipefail-pass", "passed", "none"],
  ["j-py7-q-pass", "passed", "none"],
  ["j-py7-rA-tail5-all", "failed", "some"],
  ["j-py7-timeout1", "unknown", "none"],
  ["j-py7-xdist-tail", "failed", "some"],
  ["j-py9-and-echo-mixed", "failed", "failed"],
  ["j-py9-and-or-mixed", "failed", "failed"],
  ["j-py9-and-or-pass", "passed", "none"],
  ["j-py9-bash-c", "passed", "none"],
  ["j-py9-bash-c-or-true", "failed", "failed"],
  ["j-py9-cd-sub-q", "passed", "none"],
  ["j-py9-cd-sub-rA-tail", "passed", "all"],
  ["j-py9-cd-tests-rA-file", "passed", "all"],
  ["j-py9-co-tail", "unknown", "none"],
  ["j-py9-color-tail-mixed", "failed", "some"],
  ["j-py9-cwd-sub-rA", "passed", "all"],
  ["j-py9-deselect", "passed", "all"],
  ["j-py9-echo-done-pass", "passed", "none"],
  ["j-py9-env", "passed", "none"],
  ["j-py9-euo-pipefail-pass", "passed", "failed"],
  ["j-py9-k-mixed", "passed", "all"],
  ["j-py9-log-then-tail", "passed", "none"],
  ["j-py9-loop", "unknown", "none"],
  ["j-py9-maxfail", "failed", "failed"],
  ["j-py9-node-id-class-v", "passed", "all"],
  ["j-py9-node-id-fail", "failed", "all"],
  ["j-py9-or-true-pass", "passed", "none"],
  ["j-py9-pipefail-mixed", "failed", "some"],
  ["j-py9-q-head5-mixed", "unknown", "none"],
  ["j-py9-q-tail1-pass", "passed", "none"],
  ["j-py9-q-tail3-mixed", "failed", "some"],
  ["j-py9-rA-tail5-pass", "passed", "failed"],
  ["j-py9-rA-tee-mixed", "failed", "pass-fail"],
  ["j-py9-rN-pass", "passed", "none"],
  ["j-py9-ra-mixed", "failed", "failed"],
  ["j-py9-s-rA-pass", "unknown", "none"],
  ["j-py9-skip-only", "unknown", "none"],
  ["j-py9-stash-baseline", "passed", "none"],
  ["j-py9-stash-nothing", "passed", "none"],
  ["j-py9-stash-pathspec", "passed", "none"],
  ["j-py9-teardown-error", "failed", "all"],
  ["j-py9-time", "passed", "none"],
  ["j-py9-timeout1-tail", "unknown", "none"],
  ["j-py9-timeout60-pass", "passed", "none"],
  ["j-py9-two-and-rA", "failed", "pass-fail"],
  ["j-py9-two-pass", "passed", "none"],
  // head kills the runner with SIGPIPE at a racy moment: the truth may hold more tests than were shown.
  ["j-py9-v-head8-pass", "unknown", "some"],
  ["j-py9-version", "unknown", "none"],
  ["j-py9-x-v-mixed", "failed", "all"],
  ["j-py9-xfail-only", "unknown", "none"],
  ["j-py9-xpass-strict", "failed", "all"],
  ["j-ut-dots-passing", "passed", "none"],
  ["j-ut-v-passing-tee", "passed", "all"],
  ["j-ut312-v-passing", "passed", "all"],
  ["py7-cd-sub-v", "passed", "all"],
  ["py7-collect-error-q", "failed", "all"],
  ["py7-collect-only-q", "unknown", "none"],
  ["py7-color-rA", "passed", "all"],
  ["py7-cov-gate", "passed", "none"],
  ["py7-cov-gate-rA", "passed", "all"],
  ["py7-cov-ok", "passed", "none"],
  ["py7-deselect-all", "unknown", "none"],
  ["py7-interrupt", "unknown", "none"],
  ["py7-k-pass", "passed", "all"],
  ["py7-node-ids", "passed", "all"],
  ["py7-node-not-found", "unknown", "none"],
  ["py7-q-all", "failed", "failed"],
  ["py7-rA-all", "failed", "pass-fail"],
  ["py7-usage-error", "unknown", "none"],
  ["py7-v-all", "failed", "all"],
  ["py7-x-mixed", "failed", "failed"],
  ["py7-xdist-q", "passed", "none"],
  ["py7-xdist-rA", "failed", "pass-fail"],
  ["py7-xdist-v", "failed", "all"],
  ["py9-and-echo", "passed", "none"],
  ["py9-cd-sub-rA", "passed", "all"],
  ["py9-collect-error-q", "failed", "all"],
  ["py9-collect-error-rA", "failed", "all"],
  ["py9-collect-only", "unknown", "none"],
  ["py9-collect-only-q", "unknown", "none"],
  ["py9-color-q-mixed", "failed", "failed"],
  ["py9-color-rA", "passed", "all"],
  ["py9-color-v-mixed", "failed", "all"],
  ["py9-continue-collect-error", "failed", "all"],
  ["py9-deselect-all", "unknown", "none"],
  ["py9-echo-done", "failed", "failed"],
  ["py9-file-not-found", "unknown", "none"],
  ["py9-internal-error", "unknown", "none"],
  ["py9-interrupt", "unknown", "all"],
  ["py9-k-pass", "passed", "all"],
  ["py9-no-tests", "unknown", "none"],
  ["py9-node-id-v", "failed", "all"],
  ["py9-node-ids", "passed", "all"],
  ["py9-node-not-found", "unknown", "none"],
  ["py9-or-true", "failed", "failed"],
  ["py9-pipefail", "passed", "none"],
  ["py9-plain-pass", "passed", "none"],
  ["py9-q-all", "failed", "failed"],
  ["py9-q-pass", "passed", "none"],
  ["py9-q-tee", "passed", "none"],
  ["py9-rA-all", "failed", "pass-fail"],
  ["app-rA-all", "failed", "pass-fail"],
  ["app-rA-orders-k", "passed", "pass-fail"],
  ["app-rA-bulk", "passed", "pass-fail"],
  ["app-q-orders", "failed", "failed"],
  ["app-v-inventory-tail", "failed", "some"],
  ["py9-rA-pass", "passed", "all"],
  ["py9-rA-tail", "failed", "some"],
  ["py9-rA-v-all", "failed", "all"],
  ["py9-tb-no-mixed", "failed", "pass-fail"],
  ["py9-timeout", "unknown", "none"],
  ["py9-two-runs", "failed", "failed"],
  ["py9-usage-error", "unknown", "none"],
  ["py9-v-all", "failed", "all"],
  ["py9-v-head", "failed", "some"],
  ["py9-vv-mixed", "failed", "all"],
  ["py9-x-mixed", "failed", "failed"],
  ["ut-dots-mixed", "failed", "failed"],
  ["ut-v-mixed", "failed", "all"],
  ["ut-v-passing", "passed", "all"],
  ["ut310-v-mixed", "failed", "all"],
  ["ut310-v-mixed-unbuffered", "failed", "all"],
  ["ut310-v-passing", "passed", "all"],
  ["ut312-v-empty", "unknown", "none"],
  ["ut312-v-mixed", "failed", "all"],
  ["nt-tap-all", "passed", "all"],
  ["nt-tap-explicit-dir", "passed", "all"],
  ["nt-spec-all", "passed", "all"],
  ["nt-dot-all", "unknown", "none"], // the dot reporter prints no summary
  ["nt-tap-fail", "failed", "all"],
  ["nt-spec-fail", "failed", "all"],
  ["nt-dot-fail", "failed", "failed"],
  ["nt-name-pattern", "passed", "all"],
  ["nt-name-pattern-spec-space", "passed", "all"],
  ["nt-name-pattern-nothing", "unknown", "all"],
  ["nt-test-only", "unknown", "all"],
  ["nt-skip-only", "unknown", "all"],
  ["nt-tail5", "unknown", "none"], // the window cuts the summary's `# tests` and `# pass` lines
  ["nt-tail-n20", "passed", "some"],
  ["nt-spec-tail-n12", "passed", "some"],
  ["nt-echo-done", "passed", "all"],
  ["nt-or-true-fail", "failed", "all"],
  ["nt-and-echo", "passed", "all"],
  ["nt-and-echo-fail", "failed", "all"],
  ["nt-pipefail-spec-tail", "passed", "all"],
  ["nt-cd-sub", "passed", "all"],
  ["nt-cwd-sub-spec", "passed", "all"],
  ["nt-two-runs", "passed", "all"],
  ["nt-two-files", "passed", "all"], // neither file is named by an id: both listed unproven
  ["nt-env-concurrency", "passed", "all"],
  ["nt-syntax-error", "failed", "all"],
  ["nt-missing-file", "unknown", "none"],
  ["nt-bad-option", "unknown", "none"],
  ["nt-reporter-mismatch", "unknown", "none"],
  // `timeout 1` SIGTERMs node --test's group: mostly the runner dies before its summary (unknown);
  // on a busy machine it may first report the killed file as failed, with a summary (failed).
  ["nt-timeout1-slow", ["unknown", "failed"], "all"],
  ["nt-forged-print-tap", "passed", "all"],
  ["nt-forged-print-spec", "unknown", "none"],
  ["nt-forged-parent", "unknown", "none"],
  ["nt-forged-parent-tee", "unknown", "none"],
  ["nt-shadowed-function", "unknown", "none"],
  ["vt-run", "passed", "none"], // without a terminal the default reporter prints one line per file
  ["vt-run-verbose", "passed", "all"],
  ["vt-bare-verbose", "passed", "all"],
  ["vt-dot", "passed", "none"],
  ["vt-agent-env", "passed", "none"],
  ["vt-tree-sub", "passed", "none"], // the tree names tests without their file
  ["vt-fail", "failed", "failed"],
  ["vt-fail-verbose", "failed", "all"],
  ["vt-fail-dot", "failed", "failed"],
  ["vt-name-filter", "passed", "all"],
  ["vt-name-filter-file", "passed", "none"],
  ["vt-name-nothing", "unknown", "none"],
  ["vt-file-substring", "passed", "all"],
  ["vt-shard", "passed", "all"],
  ["vt-skip-only", "unknown", "none"],
  ["vt-no-files", "unknown", "none"],
  ["vt-pass-with-no-tests", "unknown", "none"],
  ["vt-tail5", "passed", "none"], // the window holds the whole summary and no test line
  ["vt-tail-n20", "passed", "some"],
  ["vt-echo-done", "passed", "none"],
  ["vt-or-true-fail", "failed", "failed"],
  ["vt-and-echo", "passed", "none"],
  ["vt-and-echo-fail", "failed", "failed"],
  ["vt-pipefail-tail", "passed", "all"],
  ["vt-cd-sub", "passed", "all"],
  ["vt-cwd-sub", "passed", "none"],
  ["vt-two-runs", "passed", "some"], // the first run prints no test line
  ["vt-two-files", "passed", "all"],
  ["vt-bail", "failed", "all"],
  ["vt-syntax-error", "failed", "none"],
  ["vt-unhandled-error", "failed", "all"], // both tests passed; the error outside them fails the run
  ["vt-type-error", "passed", "all"],
  ["vt-bad-option", "unknown", "none"],
  ["vt-bad-project", "unknown", "none"],
  ["vt-list", "unknown", "none"],
  ["vt-timeout1-slow", "unknown", "none"],
  ["vt-forged-print", "unknown", "none"],
  ["vt-forged-print-verbose", "unknown", "none"],
  ["vt-forged-print-silent", "passed", "all"],
  ["vt-forged-parent", "unknown", "none"],
  ["vt-shadowed-function", "unknown", "none"],
  ["jt-plain", "passed", "none"], // no --verbose, several files: suite lines and the summary only
  ["jt-verbose", "passed", "all"],
  ["jt-one-file", "passed", "all"], // one file: jest is verbose by itself
  ["jt-colors", "passed", "all"],
  ["jt-fail", "failed", "failed"],
  ["jt-fail-verbose", "failed", "all"],
  ["jt-agent", "passed", "none"], // AI_AGENT: jest's agent reporter prints the summary alone
  ["jt-agent-fail", "failed", "failed"],
  ["jt-name-filter", "passed", "none"],
  ["jt-name-filter-file", "passed", "all"],
  ["jt-name-filter-nothing", "unknown", "none"],
  ["jt-no-tests-found", "unknown", "none"],
  ["jt-pass-with-no-tests", "unknown", "none"], // exit 0, and still nothing ran
  ["jt-skip-only", "unknown", "all"],
  ["jt-shard", "passed", "none"],
  ["jt-tail5", "passed", "none"],
  ["jt-one-file-tail-n8", "unknown", "none"], // the window starts inside the suite's test list: its first line may be cut
  ["jt-one-file-tail-n12", "passed", "all"],
  ["jt-echo-done", "passed", "all"],
  ["jt-or-true-fail", "failed", "all"],
  ["jt-and-echo", "passed", "all"],
  ["jt-and-echo-fail", "failed", "failed"],
  ["jt-pipefail-tail", "passed", "all"],
  ["jt-cd-sub", "passed", "all"], // jest finds the project's config above and runs all of it
  ["jt-two-runs", "passed", "all"],
  ["jt-two-targets-verbose", "passed", "all"],
  ["jt-json-stdout", "passed", "all"],
  ["jt-list-tests", "unknown", "none"],
  ["jt-usage-error", "unknown", "none"],
  ["jt-missing-config", "unknown", "none"],
  ["jt-bail-ci", "passed", "none"],
  ["jt-syntax-error", "failed", "all"],
  ["jt-timeout1-slow", "unknown", "none"],
  ["jt-obsolete-snapshot", "failed", "all"], // every test passed; jest fails the run for its obsolete snapshot
  ["jt-open-handle", "passed", "all"],
  ["jt-force-exit", "passed", "all"],
  ["jt-silent-console", "passed", "none"], // --silent: no tree even for one file
  ["jt-forged-console", "passed", "all"],
  ["jt-forged-raw", "unknown", "none"],
  ["jt-forged-two-files", "unknown", "none"],
  ["jt-forged-exit", "unknown", "none"],
  ["jt-shadowed-function", "unknown", "none"],
  ["mo-all", "passed", "all"],
  ["mo-fail", "failed", "all"],
  ["mo-dot", "passed", "none"], // the epilogue proves the run; dots name no test
  ["mo-dot-fail", "failed", "failed"], // the failure list names the failures
  ["mo-tap", "unknown", "none"], // mocha's TAP has no epilogue: no-summary
  ["mo-list", "passed", "none"], // full titles cannot be split into suites: counted, not named
  ["mo-color", "failed", "all"], // --color, and --forbid-pending makes the pending tests failures
  ["mo-grep", "passed", "all"],
  ["mo-fgrep-invert", "passed", "all"],
  ["mo-grep-nothing", "unknown", "all"],
  ["mo-skip-only", "unknown", "all"],
  ["mo-tail5", "passed", "none"],
  ["mo-tail-n20", "passed", "some"],
  ["mo-echo-done", "passed", "all"],
  ["mo-or-true-fail", "failed", "all"],
  ["mo-and-echo", "passed", "all"],
  ["mo-and-echo-fail", "failed", "all"],
  ["mo-pipefail-tail", "passed", "some"],
  ["mo-cd-sub", "passed", "all"],
  ["mo-cwd-sub", "passed", "all"],
  ["mo-two-runs", "passed", "all"],
  ["mo-file-target", "passed", "all"], // the config's spec files run too
  ["mo-glob-target", "passed", "all"],
  ["mo-parallel", "passed", "all"],
  ["mo-bail", "failed", "all"],
  ["mo-hook-fail", "failed", "all"],
  ["mo-syntax-error", "failed", "none"],
  ["mo-missing-file", "unknown", "all"], // the named file matched nothing: usage-error
  ["mo-no-test-files", "unknown", "none"],
  ["mo-bad-option", "unknown", "none"],
  ["mo-forbid-only", "failed", "none"],
  ["mo-dry-run", "unknown", "none"],
  ["mo-timeout2-slow", "unknown", "some"],
  ["mo-late-throw", "unknown", "all"], // exit 7 after a clean epilogue: spoof-suspect
  ["mo-uncaught-outside", "failed", "all"],
  ["mo-only", "passed", "all"], // `.only` ran one test; the target holds it
  ["mo-require", "unknown", "none"],
  ["mo-forged-print", "unknown", "failed"], // passes dropped: more shown than counted; the two skips stay
  ["mo-forged-exit", "unknown", "some"], // the forged epilogue counts more than the output shows
  ["mo-shadowed-function", "unknown", "none"],
  ["cg-plain", "passed", "all"],
  ["cg-quiet", "passed", "none"], // -q: cargo prints no headers, so no test is named by its binary
  ["cg-libtest-quiet", "passed", "none"], // libtest's terse dots name no test
  ["cg-fail", "failed", "all"],
  ["cg-fail-no-fail-fast", "failed", "all"],
  ["cg-fail-quiet", "failed", "none"],
  ["cg-filter", "passed", "all"],
  ["cg-filter-exact", "passed", "all"],
  ["cg-skip", "passed", "all"],
  ["cg-nothing-matched", "unknown", "none"],
  ["cg-skip-only", "unknown", "all"],
  ["cg-ignored", "passed", "all"],
  ["cg-include-ignored", "passed", "all"],
  ["cg-tail-n20", "unknown", "some"], // the window filled, tail's exit 0 is not cargo's
  ["cg-tail5", "unknown", "none"],
  ["cg-tail-n100", "passed", "all"], // the window did not fill: the whole output
  ["cg-stderr-null", "passed", "none"], // cargo's exit 0; no headers name the binaries
  ["cg-echo-done", "passed", "all"],
  ["cg-or-true-fail", "failed", "all"],
  ["cg-and-echo", "passed", "all"],
  ["cg-pipefail-tail", "passed", "all"],
  ["cg-cd-sub", "passed", "all"],
  ["cg-cwd-sub-quiet", "passed", "none"],
  ["cg-package", "passed", "all"],
  ["cg-manifest-path", "passed", "all"],
  ["cg-workspace", "passed", "all"],
  ["cg-doc", "passed", "all"],
  ["cg-alias-t", "passed", "all"],
  ["cg-two-runs", "passed", "all"],
  ["cg-threads1", "passed", "all"],
  ["cg-compile-error-feature", "failed", "none"],
  ["cg-compile-error-package", "failed", "none"],
  ["cg-usage-error", "unknown", "none"],
  ["cg-libtest-usage-error", "unknown", "none"],
  ["cg-no-run", "unknown", "none"],
  ["cg-list", "unknown", "none"],
  ["cg-timeout1-slow", "unknown", "some"], // the slow test's binary printed no summary
  ["cg-forge-nocapture", "unknown", "none"],
  ["cg-forge-show-output", "unknown", "none"],
  ["cg-forge-raw", "unknown", "none"],
  ["cg-forge-raw-tail", "unknown", "none"],
  ["cg-shadowed-function", "unknown", "none"],
];

function judgeCapture(run: CapturedRun): JudgeResult {
  return judge({ command: run.line, output: run.output, exitCode: run.exitCode, cwd: run.cwd });
}

// pytest prints ids relative to the directory it ran in; the truth is relative to the rootdir.
function truthSpelling(run: CapturedRun, evidence: RunEvidence, text: string): string {
  if ((evidence.kind !== "pytest" && evidence.kind !== "jest") || evidence.workspace === null || !isAbsolute(evidence.workspace))
    return text;
  const prefix = relative(run.projectRoot, evidence.workspace);
  if (prefix === "" || prefix.startsWith("..")) return text;
  // jest prints files relative to where it ran (`../test/a.test.js::x` from sub/).
  if (evidence.kind === "jest") {
    const at = text.indexOf("::");
    return posix.normalize(`${prefix}/${at === -1 ? text : text.slice(0, at)}`) + (at === -1 ? "" : text.slice(at));
  }
  return text === "." ? prefix : `${prefix}/${text}`;
}

function reported(run: CapturedRun, result: JudgeResult): { passed: string[]; failed: string[]; skipped: string[] } {
  const pick = (key: "passed" | "failed" | "skipped"): string[] =>
    [...new Set(result.runs.flatMap((r) => r[key].map((id) => truthSpelling(run, r, id))))].sort();
  return { passed: pick("passed"), failed: pick("failed"), skipped: pick("skipped") };
}

const subset = (items: string[], of: string[]): string[] => items.filter((id) => !of.includes(id));

describe("judge on real captured runs", () => {
  it("every captured command form has an expectation", () => {
    expect(EXPECTED.map(([name]) => name).sort()).toEqual(CAPTURE_CASES.map((c) => c.name).sort());
  });

  it.each(EXPECTED)("%s -> %s (ids: %s)", (name, verdict, relation) => {
    const run = loadCapture(name);
    const result = judgeCapture(run);
    const ids = reported(run, result);
    const truth = run.truth ?? { passed: [], failed: [], skipped: [] };
    // The capture, when the verdict is not the expected one: a load-dependent case then shows what ran.
    expect([verdict].flat(), `exit ${run.exitCode}, output:\n${run.output.slice(0, 2000)}`).toContain(result.verdict);
    expect(result.runs.length).toBe(analyzeCommand(run.line, { cwd: run.cwd }).invocations.length);
    switch (relation) {
      case "all":
        expect(ids).toEqual({ passed: [...truth.passed].sort(), failed: [...truth.failed].sort(), skipped: [...truth.skipped].sort() });
        break;
      case "pass-fail":
        expect({ passed: ids.passed, failed: ids.failed, extraSkips: subset(ids.skipped, truth.skipped) }).toEqual({
          passed: [...truth.passed].sort(),
          failed: [...truth.failed].sort(),
          extraSkips: [],
        });
        break;
      case "failed":
        expect({
          failed: ids.failed,
          extraPasses: subset(ids.passed, truth.passed),
          extraSkips: subset(ids.skipped, truth.skipped),
        }).toEqual({ failed: [...truth.failed].sort(), extraPasses: [], extraSkips: [] });
        break;
      case "some": {
        // At least one of the tests that ran is reported; when the run's own truth says none ran
        // (`timeout 1` killed cargo before a test binary started, on a busy machine) there is none to report.
        const noneRan = run.truth !== undefined && truth.passed.length + truth.failed.length === 0;
        expect({
          extra: [...subset(ids.passed, truth.passed), ...subset(ids.failed, truth.failed), ...subset(ids.skipped, truth.skipped)],
          any: noneRan || ids.failed.length + ids.passed.length > 0,
        }).toEqual({ extra: [], any: true });
        break;
      }
      case "none":
        expect(ids).toEqual({ passed: [], failed: [], skipped: [] });
        break;
      default: {
        const never: never = relation;
        throw new Error(`unknown relation ${String(never)}`);
      }
    }
  });

  // The acceptance property: `passed` only when the truth is that every requested test ran and passed.
  it.each(CAPTURE_CASES.map((c) => c.name))("%s: passed only if the truth shows every requested target ran and passed", (name) => {
    const run = loadCapture(name);
    const result = judgeCapture(run);
    const truth = run.truth;
    for (const evidence of result.runs.filter((r) => r.outcome === "passed")) {
      const observer = builtinRunners.get(evidence.kind)!;
      // A target the run lists as unproven (every selected test passed, none shown for it) claims nothing.
      // node:test prints no file for a passing test: its truth's ids with their files say which target holds them.
      const located = truth?.located ?? truth;
      const uncovered = evidence.targets.filter(
        (target) =>
          !evidence.unprovenTargets?.includes(target) &&
          !located?.passed.some((id) => observer.covers(truthSpelling(run, evidence, target), id)),
      );
      const failedInside = evidence.targets.flatMap(
        (target) => located?.failed.filter((id) => observer.covers(truthSpelling(run, evidence, target), id)) ?? [],
      );
      expect({ truth: truth !== null, uncovered, failedInside }).toEqual({ truth: true, uncovered: [], failedInside: [] });
    }
    if (result.verdict === "passed")
      expect({ failed: truth?.failed ?? null, packages: Object.values(truth?.packages ?? {}).filter((p) => p === "fail") }).toEqual({
        failed: [],
        packages: [],
      });
  });
});

// Per-test ids of the JavaScript and Rust runners against their own structured truth. Precision over
// every form; recall over the forms whose output shows every test (TAP and spec, verbose, spec, the
// headers and result lines: each case marked "all").
describe.each([
  ["node:test", "nt-", "its own events"],
  ["vitest", "vt-", "its own task tree"],
  ["jest", "jt-", "its own results"],
  ["mocha", "mo-", "its own events"],
  ["cargo test", "cg-", "libtest's own JSON events"],
] as const)("%s ids against the runner's truth", (_runner, prefix, truthName) => {
  it(`precision 1.000 and recall >= 0.95 (truth: ${truthName})`, () => {
    let reportedCount = 0;
    let correct = 0;
    let shown = 0;
    let found = 0;
    for (const [name, , relation] of EXPECTED.filter(([name]) => name.startsWith(prefix))) {
      const run = loadCapture(name);
      const ids = reported(run, judgeCapture(run));
      const truth = run.truth ?? { passed: [], failed: [], skipped: [] };
      for (const key of ["passed", "failed", "skipped"] as const) {
        reportedCount += ids[key].length;
        correct += ids[key].filter((id) => truth[key].includes(id)).length;
        if (relation !== "all") continue;
        shown += truth[key].length;
        found += truth[key].filter((id) => ids[key].includes(id)).length;
      }
    }
    expect({ precision: correct / reportedCount, recallAtLeast95: found / shown >= 0.95, shown: shown > 100 }).toEqual({
      precision: 1,
      recallAtLeast95: true,
      shown: true,
    });
  });
});

describe("clipped copies of every captured output", () => {
  const withOutput = CAPTURE_CASES.map((c) => c.name);

  it.each(withOutput)("%s: flagged as truncated, never passed; a failure stays a failure", (name) => {
    const run = loadCapture(name);
    const original = judgeCapture(run);
    const clipped = judge({ command: run.line, output: run.output, exitCode: run.exitCode, cwd: run.cwd, outputTruncated: true });
    const want = original.runs.map((r) =>
      r.outcome === "passed"
        ? { outcome: "unknown", reasons: ["truncated"] }
        : {
            outcome: r.outcome,
            reasons: r.outcome === "failed" ? [...r.reasons, "truncated"] : clipped.runs[original.runs.indexOf(r)]!.reasons,
          },
    );
    expect({ verdict: clipped.verdict, runs: clipped.runs.map((r) => ({ outcome: r.outcome, reasons: r.reasons })) }).toEqual({
      verdict: original.verdict === "failed" ? "failed" : "unknown",
      runs: want,
    });
  });

  it.each(withOutput)("%s: cut in the middle by the tool host, never passed", (name) => {
    const run = loadCapture(name);
    const lines = run.output.split("\n");
    const half = Math.floor(lines.length / 2);
    const output = [...lines.slice(0, half), `... [${run.output.length} characters truncated] ...`, ...lines.slice(half + 1)].join("\n");
    const result = judge({ command: run.line, output, exitCode: run.exitCode, cwd: run.cwd });
    expect(result.verdict).not.toBe("passed");
  });
});

describe("streaming", () => {
  it.each(CAPTURE_CASES.map((c) => c.name))("%s: chunks of 7 and 4096 characters judge as the whole text does", (name) => {
    const run = loadCapture(name);
    const whole = judgeCapture(run);
    const chunked = [7, 4096].map((size) => {
      const stream = createJudgeStream(analyzeCommand(run.line, { cwd: run.cwd }), { cwd: run.cwd });
      for (let at = 0; at < run.output.length; at += size) stream.push(run.output.slice(at, at + size));
      return stream.end(run.exitCode);
    });
    expect(chunked).toEqual([whole, whole]);
  });

  // The CLI's path: the output's bytes cut anywhere (inside a UTF-8 character too), decoded as they
  // come, pushed to the stream; against the one-shot judge of the whole text. Every field compared.
  it.each(CAPTURE_CASES.map((c) => c.name))("%s: bytes cut at random places judge as the whole text does", (name) => {
    const run = loadCapture(name);
    const whole = judgeCapture(run);
    const bytes = Buffer.from(run.output, "utf8");
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 24 }), (cuts) => {
        const stream = createJudgeStream(analyzeCommand(run.line, { cwd: run.cwd }), { cwd: run.cwd });
        const decoder = new StringDecoder("utf8");
        let from = 0;
        for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
          stream.push(decoder.write(bytes.subarray(from, cut)));
          from = cut;
        }
        stream.push(decoder.write(bytes.subarray(from)));
        stream.push(decoder.end());
        expect(stream.end(run.exitCode)).toEqual(whole);
      }),
      { numRuns: 6 },
    );
  });
});
