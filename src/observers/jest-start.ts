// jest: is the first line shown a piece of one of jest's lines? See line-start.ts for why. Pure; called
// by jest.ts at end().
import { CONSOLE_RE, HEADER_RE, NO_TESTS_RE, RAN_ALL_RE, SEED_RE, SUMMARY_LABELS, TREE_LINE_RE } from "./jest-line-shapes.js";
import { isProperSuffix, startsWithCutLiteral } from "./line-start.js";
import { stripAnsi } from "./lines.js";

const CONSOLE_LINES = [
  "log",
  "info",
  "warn",
  "error",
  "debug",
  "trace",
  "dir",
  "dirxml",
  "table",
  "group",
  "groupCollapsed",
  "assert",
  "count",
  "time",
  "timeLog",
].map((method) => `  console.${method}`);
// What a cut leaves of a suite line's file (`math.test.js`, `.js`, `s`) or of its slow-suite time (`2 s)`).
const PATH_END_RE = /(?:(?:^|[^\s])(?:\.(?:[cm]?[jt]sx?)|[cm]?[jt]sx?|sx?|x)|(?:\d+(?:\.\d+)? )?m?s\)|\))$/;
// Lines jest may begin an output with (whole or in a `tail` window): anything else there is a piece of a line.
const FIRST_LINES = [
  HEADER_RE,
  CONSOLE_RE,
  /^Test Suites: \d/,
  SEED_RE,
  NO_TESTS_RE,
  /^● [A-Z]/,
  /^ {2}● /,
  /^Determining test suites to run/,
  /^ {2}Invalid testPattern /,
  /^Summary of all failing tests$/,
  /^Snapshot Summary$/,
  /^Usage: jest /,
  /^Error: /,
  /^Not enough arguments following: /,
  /^\(node:\d+\) /,
  RAN_ALL_RE,
  /^Test run was interrupted\.$/,
  /^Jest did not exit one second after the test run has completed\.$/,
  /^Force exiting Jest: /,
  /^Tests: {7}\d/,
  /^Snapshots: {3}\d/,
  /^Time: {8}\d/,
];

/**
 * Why the first line of a jest output is a piece of one of the runner's lines, or null: a suite line
 * cut inside `PASS `/`FAIL ` or down to a piece of its file's path, a console block's `  console.log`
 * line, a summary line cut inside its label, or a test line (a window that starts inside a suite's
 * tree: its indentation may be cut). Another command's line before jest's (`echo start; jest`) is none.
 */
export function jestStartCut(first: string | null): string | null {
  if (first === null) return null;
  // Cut inside the colour code that opens the line (`\x1b[1mPASS`).
  // eslint-disable-next-line no-control-regex
  if (/^(?:\[[\d;]*m|[\d;]+m|m(?=[ A-Z\u001b]))/.test(first)) return "the line starts inside a colour code";
  const line = stripAnsi(first).trimEnd();
  if (line.trim() === "") return null;
  if (FIRST_LINES.some((re) => re.test(line))) return null;
  // ` PASS  file` with colours, cut before its first space.
  if (/^(?:PASS|FAIL) {2}\S/.test(line) || startsWithCutLiteral(line, ["PASS ", "FAIL "], /^\S/)) return "a suite line cut at its start";
  if (PATH_END_RE.test(line) && (!line.includes(" ") || line.includes("/"))) return "the end of a suite line's path";
  if (isProperSuffix(line, CONSOLE_LINES)) return "a console block's first line cut at its start";
  if (startsWithCutLiteral(line, SUMMARY_LABELS, /^\d/)) return "a summary line cut at its start";
  if (TREE_LINE_RE.test(line) || /^\s*[✓✕○✎] /.test(line)) return "a line inside a suite's block (its indentation may be cut)";
  return null;
}
