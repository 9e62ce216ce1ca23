// The line shapes of jest's output, shared by the parser (jest.ts) and its start check (jest-start.ts):
// suite lines, a suite's tree, failure and console blocks, the summary block, and the markers.

// `PASS test/a.test.js`, `FAIL test/a.test.js (5.2 s)`; with colours ` PASS  file` once ANSI is stripped.
export const HEADER_RE = /^(?: (PASS|FAIL) {2}|(PASS|FAIL) )(\S.*?)(?: \((?:\d+(?:\.\d+)? m?s|\d+ MB heap size)(?:, [^)]*)?\))?$/;
export const TREE_RESULT_RE = /^((?: {2})+)([✓✕○✎]) (.*)$/;
export const TREE_MARKS = new Set(["✓", "✕", "○", "✎"]);
export const TREE_LINE_RE = /^((?: {2})+)(\S.*)$/;
export const DURATION_RE = / \(\d+ ms\)$/;
export const FAILURE_TITLE_RE = /^ {2}● (.*)$/;
// The summary block, in jest's order (`Seed:` only with --showSeed); `Ran all test suites ...` follows unless --silent.
export const SUITES_RE = /^Test Suites: (?:(\d+) failed, )?(?:(\d+) skipped, )?(?:(\d+) passed, )?(?:(\d+) of )?(\d+) total$/;
export const TESTS_RE = /^Tests: {7}(?:(\d+) failed, )?(?:(\d+) skipped, )?(?:(\d+) todo, )?(?:(\d+) passed, )?(\d+) total$/;
export const SNAPSHOTS_RE = /^Snapshots: {3}((?:\d+ [a-z ]+, )*)(\d+) total$/;
export const TIME_RE = /^Time: {8}\d+(?:\.\d+)? m?s(?:, estimated \d+(?:\.\d+)? m?s)?$/;
export const SEED_RE = /^Seed: {8}-?\d+$/;
export const RAN_ALL_RE = /^Ran all test suites\b.*\.$/;
export const INTERRUPTED_LINE = "Test run was interrupted.";
export const SUMMARY_LABELS = ["Test Suites: ", "Tests:       ", "Snapshots:   ", "Time:        ", "Seed:        "];
export const NO_TESTS_RE = /^No tests found(?:, exiting with code \d+| related to files changed since (?:last commit|"[^"]*")\.?)/;
export const USAGE_RES = [
  /^● (?:Unrecognized CLI Parameter|Validation Error|Multiple configurations found):?$/,
  /^Not enough arguments following: /,
  /^Error: (?:Can't find a root directory while resolving a config file path|Could not find a config file based on provided values|Jest: Got error running globalSetup)/,
  /^Error: --watch is not supported without git\/hg/,
];
export const CONSOLE_RE = /^ {2}console\.[a-z]+$/;
export const PROCESS_EXIT_RE = /^ {2}● {2}process\.exit called with /;
export const FAILING_SUMMARY_HEADER = "Summary of all failing tests";
