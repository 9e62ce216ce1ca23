// jest 30 output (its default, verbose and agent reporters, on stderr) -> ids `file::describe > test`,
// the final summary block, markers and forgery signals. Jest prints a `PASS file` / `FAIL file` line
// per suite; with --verbose (or one test file) the suite's tests follow as a tree (`✓ name (3 ms)`,
// two spaces per level); a failure is a `  ● describe › test` block. This file is the state machine;
// the line shapes are in jest-line-shapes.ts, where the output starts in jest-start.ts.
import type { IdList, ParserOptions } from "./id-list.js";
import {
  CONSOLE_RE,
  DURATION_RE,
  FAILING_SUMMARY_HEADER,
  FAILURE_TITLE_RE,
  HEADER_RE,
  INTERRUPTED_LINE,
  NO_TESTS_RE,
  PROCESS_EXIT_RE,
  SEED_RE,
  SNAPSHOTS_RE,
  SUITES_RE,
  SUMMARY_LABELS,
  TESTS_RE,
  TIME_RE,
  TREE_LINE_RE,
  TREE_MARKS,
  TREE_RESULT_RE,
  USAGE_RES,
} from "./jest-line-shapes.js";
import { jestStartCut } from "./jest-start.js";
import { createLineParser } from "./line-parser.js";
import { HeadLines } from "./line-start.js";
import { FAIL, Findings, ownString, PASS, SKIP, stripAnsi } from "./lines.js";
import { createOutcomeTable } from "./outcome-table.js";
import type { FinalSummary, OutputParser, ParsedRunOutput } from "./types.js";

/** What joins a test's file and its names (`test/a.test.js::math > adds`). */
export const JEST_FILE_SEPARATOR = "::";
/** What joins the describe blocks and the test in an id, for jest's own ` › `. */
export const JEST_NAME_SEPARATOR = " > ";

function count(value: string | undefined): number {
  return value === undefined ? 0 : Number(value);
}

// The counts of a `Snapshots:` line: `1 obsolete, 2 passed, 3 total` -> snapshots obsolete, passed, total.
function snapshotCounts(parts: string, total: string): Record<string, number> {
  const counts: Record<string, number> = { "snapshots total": Number(total) };
  for (const part of parts.split(", ")) {
    const match = /^(\d+) (files? )?([a-z]+)$/.exec(part.trim());
    if (match !== null) counts[`snapshot${match[2] === undefined ? "s" : " files"} ${match[3]!}`] = Number(match[1]);
  }
  return counts;
}

/** The suite a line belongs to: its file, and what its tree showed so far. */
interface Suite {
  file: string;
  /** The tree is being read (right after the header, up to its blank line or its first failure block). */
  inTree: boolean;
  /** Tree result lines shown for it. */
  treeResults: number;
  pass: boolean;
  /** Shown before the summary and outside the failures it repeats: its line and tree count against the summary. */
  counted: boolean;
}

/** Creates an incremental jest output parser. */
export function createJestParser(): OutputParser;
/** Creates an incremental jest output parser. */
export function createJestParser(options: ParserOptions): OutputParser<IdList>;
export function createJestParser(options: ParserOptions = {}): OutputParser<IdList> {
  const findings = new Findings();
  const ids = createOutcomeTable(options.ids);
  const head = new HeadLines();
  let lineNo = 0;
  let summary: FinalSummary | null = null;
  let summaryCount = 0;
  // The summary block being read: the counts of its lines so far and the label it expects next.
  let block: { counts: Record<string, number>; line: number; text: string; next: number } | null = null;
  let suite: Suite | null = null;
  // The describe titles open at each depth of the current suite's tree.
  const describes: string[] = [];
  // Inside a failure or console block: its body (indented four or more) is message text.
  let inBody = false;
  let inFailingSummary = false;
  let headers = 0;
  let shownPasses = 0;
  let passHeadersWithTree = 0;
  let passHeadersWithoutTree = 0;
  let headMissing: string | null = null;
  // A test called process.exit: jest's report never came, so no pass shown before is jest's.
  let exited = false;

  const closeSuite = (): void => {
    if (suite !== null && suite.pass && suite.counted) {
      if (suite.treeResults > 0) passHeadersWithTree += 1;
      else passHeadersWithoutTree += 1;
    }
    suite = null;
    describes.length = 0;
  };

  const closeBlock = (complete: boolean): void => {
    if (block === null) return;
    const done = block;
    block = null;
    if (!complete) {
      findings.forge("summary-shape-mismatch", done.line, done.text);
      return;
    }
    summaryCount += 1;
    if (summaryCount > 1) findings.forge("multiple-summaries", done.line, done.text);
    summary = { counts: done.counts, line: done.line, text: done.text };
  };

  // A summary line: `Test Suites:` opens the block (after an optional `Seed:`), `Time:` completes it.
  const onSummaryLine = (line: string): boolean => {
    if (SEED_RE.test(line)) {
      closeBlock(false);
      block = { counts: {}, line: lineNo, text: line, next: 0 };
      return true;
    }
    const suites = SUITES_RE.exec(line);
    if (suites !== null) {
      if (block === null || block.next !== 0) {
        closeBlock(false);
        block = { counts: {}, line: lineNo, text: line, next: 0 };
      }
      const [failed, skipped, passed, run, total] = [suites[1], suites[2], suites[3], suites[4], suites[5]].map(count) as [
        number,
        number,
        number,
        number,
        number,
      ];
      Object.assign(block.counts, {
        "suites failed": failed,
        "suites skipped": skipped,
        "suites passed": passed,
        "suites total": total,
        "suites run": suites[4] === undefined ? total : run,
      });
      block.next = 1;
      return true;
    }
    const tests = TESTS_RE.exec(line);
    if (tests !== null) {
      if (block === null || block.next !== 1) {
        closeBlock(false);
        findings.forge("summary-shape-mismatch", lineNo, line);
        return true;
      }
      Object.assign(block.counts, {
        failed: count(tests[1]),
        skipped: count(tests[2]),
        todo: count(tests[3]),
        passed: count(tests[4]),
        total: count(tests[5]),
      });
      block.next = 2;
      return true;
    }
    const snapshots = SNAPSHOTS_RE.exec(line);
    if (snapshots !== null) {
      if (block === null || block.next !== 2) {
        closeBlock(false);
        findings.forge("summary-shape-mismatch", lineNo, line);
        return true;
      }
      Object.assign(block.counts, snapshotCounts(snapshots[1]!, snapshots[2]!));
      block.next = 3;
      return true;
    }
    if (TIME_RE.test(line)) {
      if (block === null || block.next !== 3) {
        closeBlock(false);
        if (block === null && summary === null) findings.forge("summary-shape-mismatch", lineNo, line);
        return true;
      }
      closeBlock(true);
      return true;
    }
    return false;
  };

  const idOf = (names: string): string => ownString(`${suite!.file}${JEST_FILE_SEPARATOR}${names}`);

  const onHeader = (status: string, file: string): void => {
    closeSuite();
    inBody = false;
    const late = summary !== null && !inFailingSummary;
    if (late) findings.forge("result-after-summary", lineNo, `${status} ${file}`);
    // Counted against the summary: the suite lines before it, outside the failures it repeats.
    const counted = !inFailingSummary && !late;
    if (counted) headers += 1;
    // jest prints a file in the directory it runs in as `./a.test.js`, one elsewhere as `test/a.test.js`.
    suite = {
      file: ownString(file.replace(/^(?:\.\/)+/, "")),
      inTree: !inFailingSummary,
      treeResults: 0,
      pass: status === "PASS",
      counted,
    };
  };

  const onTreeLine = (indent: number, text: string): void => {
    const current = suite!;
    const depth = indent / 2 - 1;
    const mark = text[0]!;
    if (!TREE_MARKS.has(mark) || text[1] !== " ") {
      // A describe block's title: the tests under it are indented one level deeper.
      describes.length = depth;
      describes[depth] = ownString(text);
      return;
    }
    let name = text.slice(2);
    let bits = mark === "✕" ? FAIL : PASS;
    if (mark === "✓" || mark === "✕") name = name.replace(DURATION_RE, "");
    else {
      const word = mark === "○" ? "skipped " : "todo ";
      if (!name.startsWith(word)) return;
      name = name.slice(word.length);
      bits = SKIP;
    }
    current.treeResults += 1;
    if (bits === PASS) shownPasses += 1;
    if (describes.length < depth) return;
    ids.add(idOf([...describes.slice(0, depth), name].join(JEST_NAME_SEPARATOR)), bits);
  };

  const onFailureTitle = (title: string): void => {
    inBody = true;
    if (suite !== null) suite.inTree = false;
    if (title === "Console" || title.startsWith(" ")) return;
    if (suite === null) {
      headMissing ??= `\`● ${title}\` without its suite's FAIL line`;
      return;
    }
    if (summary !== null && !inFailingSummary) findings.forge("result-after-summary", lineNo, title);
    if (title === "Test suite failed to run") {
      findings.mark("collection-error", lineNo, `${suite.file}: Test suite failed to run`);
      ids.add(suite.file, FAIL);
      return;
    }
    ids.add(idOf(title.split(" › ").join(JEST_NAME_SEPARATOR)), FAIL);
  };

  const onLine = (raw: string): void => {
    lineNo += 1;
    const line = stripAnsi(raw).trimEnd();
    if (line === "") {
      if (suite !== null) suite.inTree = false;
      return;
    }
    const indent = line.length - line.trimStart().length;
    if (block !== null && indent === 0 && !SUMMARY_LABELS.some((label) => line.startsWith(label))) closeBlock(false);
    if (indent === 0 && onSummaryLine(line)) {
      closeSuite();
      return;
    }
    if (indent === 0) {
      inBody = false;
      const header = HEADER_RE.exec(line);
      if (header !== null) {
        onHeader(header[1] ?? header[2]!, header[3]!);
        return;
      }
      closeSuite();
      if (line === FAILING_SUMMARY_HEADER) inFailingSummary = true;
      else if (line === INTERRUPTED_LINE && summary !== null) findings.mark("interrupted", lineNo, line);
      else if (NO_TESTS_RE.test(line)) findings.mark("no-tests-ran", lineNo, line);
      else if (USAGE_RES.some((re) => re.test(line))) findings.mark("usage-error", lineNo, line);
      return;
    }
    if (line.startsWith(" ")) {
      const colored = HEADER_RE.exec(line);
      if (colored !== null && indent === 1) {
        inBody = false;
        onHeader(colored[1] ?? colored[2]!, colored[3]!);
        return;
      }
    }
    if (PROCESS_EXIT_RE.test(line)) {
      // A test ended jest's process: what follows (or came before) is not jest's report of the run.
      findings.mark("interrupted", lineNo, line.trim());
      exited = true;
      inBody = true;
      return;
    }
    if (indent === 2 && CONSOLE_RE.test(line)) {
      // A test's console call, framed by jest: its message lines (indented four or more) are the test's text.
      if (suite !== null) suite.inTree = false;
      inBody = true;
      return;
    }
    const failure = indent === 2 ? FAILURE_TITLE_RE.exec(line) : null;
    if (failure !== null) {
      onFailureTitle(failure[1]!);
      return;
    }
    if (inBody && indent >= 4) return;
    inBody = false;
    const tree = TREE_LINE_RE.exec(line);
    if (tree === null || tree[1]!.length !== indent) return;
    if (suite === null || !suite.inTree) {
      if (suite === null && TREE_RESULT_RE.test(line) && summary === null)
        headMissing ??= `\`${line.trim()}\` without its suite's PASS/FAIL line`;
      return;
    }
    if (summary !== null) {
      findings.forge("result-after-summary", lineNo, line.trim());
      return;
    }
    onTreeLine(indent, tree[2]!);
  };

  return createLineParser({
    head,
    ids,
    onLine,
    end(): ParsedRunOutput<IdList> {
      closeSuite();
      // A summary cut off by the end of the output is no summary (a clipped copy), and no forgery either.
      block = null;
      const lists = ids.drain();
      const final: FinalSummary | null = summary;
      if (final !== null) {
        const counts = final.counts;
        if (shownPasses > (counts.passed ?? 0))
          findings.forge("ids-exceed-summary", final.line, `${shownPasses} passes shown, the summary counts ${counts.passed ?? 0}`);
        else if (headers > (counts["suites run"] ?? 0))
          findings.forge(
            "ids-exceed-summary",
            final.line,
            `${headers} suite lines shown, the summary counts ${counts["suites run"] ?? 0} suites run`,
          );
      }
      // jest prints every passing suite's tests (verbose) or none's: a tree under some of them was printed by a test.
      if (passHeadersWithTree > 0 && passHeadersWithoutTree > 0)
        findings.forge(
          "result-without-run",
          final?.line ?? lineNo,
          `${passHeadersWithTree} passing suites show their tests, ${passHeadersWithoutTree} do not`,
        );
      return {
        kind: "jest",
        ...lists,
        // Passes shown beyond jest's counts, under a run that shows none, or beside a second summary were (some of
        // them) printed by a test: none is proof.
        ...(exited || summaryCount > 1 || findings.forgeries.some((f) => f.kind === "ids-exceed-summary" || f.kind === "result-without-run")
          ? { passed: [] }
          : {}),
        summary: final,
        summaryCount,
        ...findings.runFields(lineNo),
        // Verbose output shows every test that passed (a skipped one only when its suite ran): a whole
        // output with fewer passes than its summary counts ends with a summary a test printed.
        ...(final !== null && passHeadersWithTree > 0 ? { shownResults: shownPasses + (final.counts.skipped ?? 0) } : {}),
        start: { cut: jestStartCut(head.first), headMissing, summaryMismatch: null },
      };
    },
    summaryCount: () => summaryCount,
    lineCount: () => lineNo,
  });
}

/** Parses a whole jest output at once (see {@link createJestParser}). */
export function parseJest(text: string): ParsedRunOutput {
  const parser = createJestParser();
  parser.push(text);
  return parser.end();
}
