// vitest output (4.x) -> ids `file > suite > test`, the final summary, markers and forgery signals.
// Per-test ids come from the verbose reporter's lines (` ✓ test/a.test.ts > suite > adds 1ms`) and, for
// failures, from the ` FAIL  file > test` lines of the `Failed Tests` section every text reporter
// prints. The default reporter without a terminal prints one line per file (` ✓ file (3 tests) 2ms`),
// the dot, minimal and agent reporters none: their runs prove through the summary alone.
import type { IdList, ParserOptions } from "./id-list.js";
import { createLineParser } from "./line-parser.js";
import { HeadLines, startsWithCutLiteral } from "./line-start.js";
import { FAIL, Findings, ownString, PASS, SKIP, stripAnsi } from "./lines.js";
import { createOutcomeTable } from "./outcome-table.js";
import type { FinalSummary, OutputParser, ParsedRunOutput } from "./types.js";

/** What joins a test's file, suites and name in its id, as vitest prints it (`test/a.test.ts > math > adds`). */
export const VITEST_ID_SEPARATOR = " > ";

// ` RUN  v4.1.12 /root` (`DEV` in watch mode on a terminal).
const HEADER_RE = /^ (RUN|DEV) {1,2}v\d+\.\d+\.\d+(?:-\S+)? /;
// The verbose reporter: ` ✓ [|project| ][TS ]file[:line:col] > names[ Nms][ (retry xN)][ (repeat xN)][ N MB heap used][ [note]]`.
const TEST_LINE_RE = /^ ([✓×↓□]) (?:\|[^|]+\| )?(?:TS )?(\S.*)$/;
// The default and tree reporters' line for a whole file: ` ✓ file (3 tests | 1 skipped) 4ms`.
const MODULE_LINE_RE =
  /^ ([✓×↓❯]) (?:\|[^|]+\| )?(?:TS )?(\S+) \(\d+ tests?(?: \| \d+ (?:failed|skipped|todo))*\)(?: \d+ms)?(?: \d+ MB heap used)?$/;
// The dot reporter's rows: one mark per test.
const DOT_ROW_RE = /^[·x\-*]+$/;
const SUFFIX_RES = [/ \[[^\]]*\]$/, / \d+ MB heap used$/, / \(repeat x\d+\)$/, / \(retry x\d+\)$/];
const LOCATION_RE = /:\d+:\d+$/;
const FAIL_LINE_RE = /^ FAIL {2}(?:\|[^|]+\| )?(.*)$/;
const BANNER_RE = /^⎯+ (Failed Tests|Failed Suites|Unhandled Errors|Startup Error|Async Leaks)(?: \d+)? ⎯+$/;
// The summary's lines: a title right-aligned in 11 columns, two spaces, the value.
const SUMMARY_LINE_RE = /^( {0,10}[A-Z][A-Za-z ]*) {2}(\S.*)$/;
// `1 failed | 10 passed | 1 skipped | 1 todo (13)`, `no tests`.
const STATE_RE =
  /^(?:(?:\d+ (?:failed|passed|expected fail|skipped|todo))(?: \| \d+ (?:failed|passed|expected fail|skipped|todo))* \(\d+\)|no tests)$/;
const STATE_PIECE_RE = /(\d+) (failed|passed|expected fail|skipped|todo)/g;
const USAGE_RES = [/^CACError: /, /^Error: No projects matched the filter /];
const NO_FILES_RE = /^No test files found, exiting with code \d+$/;
const WATCH_RES = [
  /^ (?:PASS|FAIL|CANCELLED) {1,2}(?:Waiting for file changes|Tests failed\. Watching for file changes|Test run cancelled\. Watching for file changes)/,
];
// The summary's lines in vitest's order (reportTestSummary): each title and the ones that may follow it.
const OPTIONAL_TITLES = ["Type Errors", "Errors", "Leaks"];
const NEXT_TITLES: Record<string, string[]> = {
  "Test Files": ["Tests"],
  Tests: ["Type Errors", "Errors", "Leaks", "Start at"],
  "Type Errors": ["Errors", "Leaks", "Start at"],
  Errors: ["Leaks", "Start at"],
  Leaks: ["Start at"],
  "Start at": ["Duration"],
};
const SUMMARY_TITLES = ["Test Files", "Tests", "Type Errors", "Errors", "Leaks", "Start at", "Duration"].map((title) => title.padStart(11));

interface Block {
  counts: Record<string, number>;
  line: number;
  text: string;
  /** The title of the last line read. */
  last: string;
}

function readState(value: string, prefix: string, counts: Record<string, number>): boolean {
  if (!STATE_RE.test(value)) return false;
  for (const match of value.matchAll(STATE_PIECE_RE)) counts[`${prefix}${match[2]!}`] = Number(match[1]);
  const total = /\((\d+)\)$/.exec(value);
  counts[prefix === "" ? "tests" : `${prefix}total`] = total === null ? 0 : Number(total[1]);
  return true;
}

/** A test line's id: the text after the mark without vitest's suffixes and the file's `:line:col`. */
function testLineId(body: string, mark: string): string | null {
  let text = body;
  // The suffixes end in `]`, `)` or `used`; most lines end in their duration and skip the scan.
  const last = text.charCodeAt(text.length - 1);
  if (last === 93 || last === 41 || text.endsWith(" used")) for (const re of SUFFIX_RES) text = text.replace(re, "");
  if (mark === "✓" || mark === "×") {
    // A test that ran shows its duration (` 12ms`); a pass line without one is cut off (or not vitest's).
    const cut = durationStart(text);
    if (cut === -1) {
      if (mark === "✓") return null;
    } else text = text.slice(0, cut);
  }
  const at = text.indexOf(VITEST_ID_SEPARATOR);
  if (at <= 0) return null;
  if (text.lastIndexOf(":", at) === -1) return text;
  return `${text.slice(0, at).replace(LOCATION_RE, "")}${text.slice(at)}`;
}

// Where ` 12ms` begins at the end of `text`, or -1.
function durationStart(text: string): number {
  if (!text.endsWith("ms")) return -1;
  let at = text.length - 3;
  while (at >= 0 && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57) at -= 1;
  return at < text.length - 3 && at >= 0 && text.charCodeAt(at) === 32 ? at : -1;
}

const TEST_MARKS = "✓×↓□";

/** Creates an incremental vitest output parser (default, verbose, dot, minimal and agent reporters). */
export function createVitestParser(): OutputParser;
/** Creates an incremental vitest output parser (default, verbose, dot, minimal and agent reporters). */
export function createVitestParser(options: ParserOptions): OutputParser<IdList>;
export function createVitestParser(options: ParserOptions = {}): OutputParser<IdList> {
  const findings = new Findings();
  const ids = createOutcomeTable(options.ids);
  const head = new HeadLines();
  let lineNo = 0;
  let summary: FinalSummary | null = null;
  let summaryCount = 0;
  let block: Block | null = null;
  let sawHeader = false;
  let headMissing: string | null = null;
  let section: string | null = null;
  let moduleLines = 0;
  let dotRows = 0;
  let testLines = 0;
  let passLines = 0;
  let firstTestLine = 0;

  const closeBlock = (complete: boolean): void => {
    if (block === null) return;
    const read = block;
    block = null;
    if (!complete) {
      findings.forge("summary-shape-mismatch", read.line, read.text);
      return;
    }
    summaryCount += 1;
    section = null;
    if (summaryCount > 1) findings.forge("multiple-summaries", read.line, read.text);
    summary = { counts: read.counts, line: read.line, text: read.text };
    const counts = read.counts;
    // A file that failed while no test did: it could not be loaded (a syntax error, a failing import).
    if ((counts["files failed"] ?? 0) > 0 && (counts.failed ?? 0) === 0) findings.mark("collection-error", read.line, read.text);
  };

  // One line of the summary block; false when the line is not one.
  const onSummaryLine = (title: string, value: string, line: string): boolean => {
    const name = title.trimStart();
    if (!SUMMARY_TITLES.includes(title)) return false;
    if (name === "Test Files") {
      closeBlock(false);
      const counts: Record<string, number> = {};
      if (!readState(value, "files ", counts)) return false;
      block = { counts, line: lineNo, text: line, last: name };
      return true;
    }
    if (block === null) return true;
    if (!(NEXT_TITLES[block.last] ?? []).includes(name)) {
      closeBlock(false);
      return true;
    }
    block.last = name;
    if (name === "Tests") {
      if (!readState(value, "", block.counts)) closeBlock(false);
    } else if (OPTIONAL_TITLES.includes(name)) {
      const count = /^(\d+) (?:errors?|failed|leaks?)$/.exec(value);
      if (count !== null) block.counts[name.toLowerCase()] = Number(count[1]);
      else if (value !== "no errors") closeBlock(false);
    } else if (name === "Duration") closeBlock(true);
    return true;
  };

  const noteRunnerLine = (what: string): void => {
    if (!sawHeader) headMissing ??= `${what} before vitest's \` RUN  v...\` line`;
  };

  const onLine = (raw: string): void => {
    lineNo += 1;
    const line = stripAnsi(raw).trimEnd();
    if (line === "") return;
    // The hot path: a verbose test line (` ✓ file > name 1ms`), told by its first three characters.
    if (line.charCodeAt(0) === 32 && line.charCodeAt(2) === 32 && TEST_MARKS.includes(line[1]!)) {
      const body = line.slice(3);
      const first = body.charCodeAt(0);
      // A project label (`|unit| `) or `TS `, or a file's line (`(3 tests)`), takes the general path below.
      if (
        first !== 124 &&
        !body.startsWith("TS ") &&
        body.includes(VITEST_ID_SEPARATOR) &&
        !(body.includes(" (") && MODULE_LINE_RE.test(line))
      ) {
        if (block !== null) closeBlock(false);
        onTestLine(line, line[1]!, body);
        return;
      }
    }
    const summaryLine = SUMMARY_LINE_RE.exec(line);
    if (summaryLine !== null && onSummaryLine(summaryLine[1]!, summaryLine[2]!, line)) {
      noteRunnerLine("a summary line");
      return;
    }
    if (block !== null) closeBlock(false);
    const header = HEADER_RE.exec(line);
    if (header !== null) {
      sawHeader = true;
      // A terminal's watch mode: the process keeps running and reruns; its summaries are no finished run.
      if (header[1] === "DEV") findings.mark("interrupted", lineNo, line);
      return;
    }
    if (WATCH_RES.some((re) => re.test(line))) {
      findings.mark("interrupted", lineNo, line);
      return;
    }
    const banner = BANNER_RE.exec(line);
    if (banner !== null) {
      section = banner[1]!;
      if (section === "Failed Suites") findings.mark("collection-error", lineNo, line);
      if (section === "Startup Error") findings.mark("usage-error", lineNo, line);
      return;
    }
    if (line.startsWith("⎯")) return;
    if (NO_FILES_RE.test(line)) {
      findings.mark("no-tests-ran", lineNo, line);
      return;
    }
    if (USAGE_RES.some((re) => re.test(line))) {
      findings.mark("usage-error", lineNo, line);
      return;
    }
    const failLine = FAIL_LINE_RE.exec(line);
    if (failLine !== null) {
      // The failures again after the results, one ` FAIL  file > test` per failed test (suites and
      // files that failed to load are in `Failed Suites`, with their file in brackets).
      if (section === "Failed Tests") {
        const id = testLineId(`${failLine[1]!.replace(/ \[ [^\]]* \]$/, "")} 0ms`, "×");
        if (id !== null) ids.add(ownString(id), FAIL);
      }
      return;
    }
    if (MODULE_LINE_RE.test(line)) {
      noteRunnerLine("a file's result line");
      moduleLines += 1;
      return;
    }
    if (DOT_ROW_RE.test(line) && line.includes("·")) {
      dotRows += 1;
      return;
    }
    const test = TEST_LINE_RE.exec(line);
    if (test !== null) onTestLine(line, test[1]!, test[2]!);
  };

  const onTestLine = (line: string, mark: string, body: string): void => {
    const id = testLineId(body, mark);
    if (id === null) return;
    noteRunnerLine("a test's result line");
    testLines += 1;
    if (firstTestLine === 0) firstTestLine = lineNo;
    if (summary !== null) findings.forge("result-after-summary", lineNo, line);
    const bits = mark === "✓" ? PASS : mark === "×" ? FAIL : SKIP;
    if (bits === PASS) passLines += 1;
    ids.add(ownString(id), bits);
  };

  return createLineParser({
    head,
    ids,
    onLine,
    end(): ParsedRunOutput<IdList> {
      // A summary cut off by the end of the output is no summary (a clipped copy), and no forgery either.
      block = null;
      let lists = ids.drain();
      const final: FinalSummary | null = summary;
      // The verbose reporter prints every test and no file lines; the default and dot reporters never
      // print a test's `file > name` line. Both kinds in one output: a test printed the test lines.
      if (testLines > 0 && (moduleLines > 0 || dotRows > 0)) {
        findings.forge(
          "result-without-run",
          firstTestLine,
          `${testLines} test result lines beside ${moduleLines > 0 ? "file result lines" : "dot rows"}`,
        );
        lists = { ...lists, passed: [] };
      }
      if (final !== null) {
        const passes = (final.counts.passed ?? 0) + (final.counts["expected fail"] ?? 0);
        if (passLines > passes)
          findings.forge("ids-exceed-summary", final.line, `${passLines} pass lines shown, the summary counts ${passes}`);
        // vitest counts skipped and todo tests apart; the judge reads them together.
        final.counts.skipped = (final.counts.skipped ?? 0) + (final.counts.todo ?? 0);
      }
      return {
        kind: "vitest",
        ...lists,
        summary: final,
        summaryCount,
        ...findings.runFields(lineNo),
        ...(testLines > 0 ? { shownResults: testLines } : {}),
        start: { cut: vitestStartCut(head.first), headMissing, summaryMismatch: null },
      };
    },
    summaryCount: () => summaryCount,
    lineCount: () => lineNo,
  });
}

// The summary's titles cut inside their text (a cut inside the leading spaces leaves a line vitest prints).
const SUMMARY_PIECES = SUMMARY_TITLES.map((title) => `${title.trimStart()}  `);

/** Why the first line of a vitest output is a piece of one of the runner's lines, or null. */
export function vitestStartCut(first: string | null): string | null {
  if (first === null) return null;
  const line = stripAnsi(first).trimEnd();
  // Every result line begins with one space before its mark, and a test's names follow its file after ` > `.
  if (/^[✓×↓□❯] /.test(line)) return "a result line cut at its start";
  if (/^ [^ ✓×↓□❯]/.test(line) && line.includes(VITEST_ID_SEPARATOR) && !/^ (?:FAIL|RUN|DEV|PASS) /.test(line))
    return "a result line cut after its mark";
  // Only a test's line ends in its duration: one that does after anything but a mark lost its start.
  const marked = /^ [✓×↓□❯] /.test(line) || /^ {3,}[✓×] /.test(line);
  if (!marked && !/^(?:stdout|stderr) \| /.test(line) && (/^\S.* > /.test(line) || /(?:\d+ms|^ ?m?s)$/.test(line)))
    return "a result line cut inside its text";
  if (/^(?:FAIL|RUN) {1,2}/.test(line)) return "a runner line cut at its start";
  if (SUMMARY_PIECES.some((title) => startsWithCutLiteral(line, [title.trimEnd()], /^ {2}\S/) || line.startsWith(title)))
    return "a summary line cut at its start";
  return null;
}

/** Parses a whole vitest output at once (see {@link createVitestParser}). */
export function parseVitest(text: string): ParsedRunOutput {
  const parser = createVitestParser();
  parser.push(text);
  return parser.end();
}
