// pytest 7 to 9 terminal output -> ids, the final summary, markers, coverage gate and forgery signals.
// This file is the state machine: sections, captured output, and the in-place reading of a big log's
// lines. What a summary line says is in pytest-summary.ts, the markers and the gate in
// pytest-markers.ts, the in-place line tests in pytest-line-shapes.ts, where the output starts in
// pytest-start.ts.
import type { GateFinding } from "../types.js";
import type { IdList, ParserOptions } from "./id-list.js";
import { HeadLines } from "./line-start.js";
import { createRangeSplitter, FAIL, Findings, lineAt, MAX_LINE_LENGTH, PASS, SKIP, stripAnsi } from "./lines.js";
import { createOutcomeTable } from "./outcome-table.js";
import {
  headerIgnores,
  idEndBeforeMessage,
  isJsWhitespace,
  isUnderscoreRule,
  leadingMarks,
  mayAct,
  mayBeVerbose,
} from "./pytest-line-shapes.js";
import { readPytestMarkerLine } from "./pytest-markers.js";
import { pytestRuleFill, pytestStart } from "./pytest-start.js";
import { idBeforeReason, parsePytestSummaryBody, splitPytestIdMessage } from "./pytest-summary.js";
import type { FinalSummary, OutputParser, ParsedRunOutput } from "./types.js";

export { parsePytestSummaryBody, splitPytestIdMessage } from "./pytest-summary.js";

type Section = "header" | "progress" | "short-summary" | "other";

const STATUS_FLAGS: Record<string, number> = { PASSED: PASS, FAILED: FAIL, ERROR: FAIL, SKIPPED: SKIP, XFAIL: SKIP, XPASS: SKIP };
const DECORATED_RE = /^=+ (.*?) =+$/;
const VERBOSE_RE = / (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?: \(.*\))?$/;
const PERCENT_RE = /\s+\[\s*\d+%\]$/;
const XDIST_RE = /^\[gw\d+\] \[\s*\d+%\] (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (.+)$/;
const SHORT_RE = /^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (.+)$/;
const CAPTURED_RE = /^-+ Captured (?:stdout|stderr|log) .* -+$/;
const DASHED_RE = /^-{3,} .* -{3,}$/;
const TEST_HEADER_RE = /^_{3,} .* _{3,}$/;
const ROOTDIR_RE = /^rootdir: (.+?)(?:, (?:configfile|inifile|testpaths|plugins): .*)?$/;
const COLLECTED_RE = /^collect(?:ing \.\.\. collect)?ed (\d+) items?/;

const ESC = "\u001b";

/** Creates an incremental pytest output parser. */
export function createPytestParser(): OutputParser;
/** Creates an incremental pytest output parser. */
export function createPytestParser(options: ParserOptions): OutputParser<IdList>;
export function createPytestParser(options: ParserOptions = {}): OutputParser<IdList> {
  const findings = new Findings();
  const ids = createOutcomeTable(options.ids);
  const gates: GateFinding[] = [];
  let section: Section = "header";
  let inCapture = false;
  let rootdir: string | null = null;
  let summary: FinalSummary | null = null;
  let summaryCount = 0;
  let lineNo = 0;
  // Output whose head was cut (`| tail -5`) can start inside the short summary: its result lines count
  // only if no section header follows them (a header would mean they sat in an earlier section).
  let sawSectionHeader = false;
  // pytest's `test session starts` header: printed only at the verbosities that pad the summary.
  let sawSessionHeader = false;
  // Short-summary result lines seen before any section header (a head-cut log): counted at the end unless a header follows.
  const unsectionedResults = new Map<string, number>();
  // For the start checks: the first two lines, the width of the rules and progress lines after them.
  const head = new HeadLines();
  let ruleWidth = 0;
  let progressWidth = 0;
  let summaryPadded = false;
  let summaryRan: number | null = null;
  // Results shown before the final summary: progress marks (`..F.s`) and `-v` result lines.
  let shownResults = 0;
  const countMarks = (text: string, start: number, end: number): void => {
    if (summary === null && !inCapture) shownResults += leadingMarks(text, start, end);
  };
  // The widths matter only when the first line is a rule or ends in a progress mark; one rule shows
  // the width of all (pytest fills every rule to the terminal's), so the first found is kept.
  let widthsWanted: boolean | undefined;
  const wantWidths = (): boolean => {
    if (widthsWanted === undefined && head.first !== null) widthsWanted = /[=_\-\]]\s*$/.test(head.first);
    return widthsWanted === true;
  };
  const noteRule = (line: string): void => {
    if (ruleWidth === 0 && lineNo > 1 && wantWidths() && pytestRuleFill(line) >= 2) ruleWidth = line.length;
  };

  const addId = (id: string, bits: number): void => {
    ids.add(id, bits);
  };

  const takeSummary = (counts: Record<string, number>, text: string, padded: boolean): void => {
    // Never the runner's own: a test printed it (with `-q -rN` this also hides pytest's summary: fail closed).
    if (inCapture) {
      findings.forge("summary-in-captured-output", lineNo, text);
      return;
    }
    // The session header comes only with a padded summary; a bare one after it is not pytest's.
    if (!padded && sawSessionHeader) {
      findings.forge("summary-shape-mismatch", lineNo, text);
      return;
    }
    const found: FinalSummary = { counts, line: lineNo, text };
    summaryCount += 1;
    if (summaryCount > 1) findings.forge("multiple-summaries", lineNo, text);
    summary = found;
    summaryPadded = padded;
    if (counts.collected !== undefined && counts.passed === undefined && counts.failed === undefined)
      findings.mark("collect-only", lineNo, text);
    const ran =
      (counts.passed ?? 0) +
      (counts.failed ?? 0) +
      (counts.errors ?? 0) +
      (counts.skipped ?? 0) +
      (counts.xfailed ?? 0) +
      (counts.xpassed ?? 0);
    summaryRan = ran;
    if (ran === 0 && counts.collected === undefined) findings.mark("no-tests-ran", lineNo, text);
  };

  const onVerboseLine = (line: string): boolean => {
    const xdist = XDIST_RE.exec(line);
    if (xdist !== null) {
      if (inCapture) findings.forge("passed-in-captured-output", lineNo, line);
      else {
        addId(xdist[2]!.trimEnd(), STATUS_FLAGS[xdist[1]!]!);
        if (summary === null) shownResults += 1;
      }
      return true;
    }
    if (!PERCENT_RE.test(line)) return false;
    const body = line.replace(PERCENT_RE, "");
    const match = VERBOSE_RE.exec(body);
    if (match === null || match.index === 0) return false;
    if (inCapture) findings.forge("passed-in-captured-output", lineNo, line);
    else {
      addId(body.slice(0, match.index), STATUS_FLAGS[match[1]!]!);
      if (summary === null) shownResults += 1;
    }
    return true;
  };

  const onShortSummaryLine = (line: string, into?: Map<string, number>): void => {
    const match = SHORT_RE.exec(line);
    if (match === null) return;
    const status = match[1]!;
    // `SKIPPED [N] path:line: reason` is a count of skips, not a test id.
    if (status === "SKIPPED" && match[2]!.startsWith("[")) return;
    const id =
      status === "PASSED"
        ? match[2]!
        : status === "XPASS" || status === "XFAIL"
          ? idBeforeReason(match[2]!)
          : splitPytestIdMessage(match[2]!);
    if (into === undefined) addId(id, STATUS_FLAGS[status]!);
    else into.set(id, (into.get(id) ?? 0) | STATUS_FLAGS[status]!);
  };

  const onLine = (raw: string): void => {
    lineNo += 1;
    const line = stripAnsi(raw).trimEnd();
    if (line === "") return;
    if (lineNo > 1 && ruleWidth === 0) {
      const last = line.charCodeAt(line.length - 1);
      if (last === 61 || last === 45 || last === 95) noteRule(line);
      else if (last === 93 && line.charCodeAt(line.length - 2) === 37 && line.length > progressWidth) progressWidth = line.length;
    }
    // Hot path of a big -rA log: a result line inside the short summary needs none of the checks below.
    if (section === "short-summary" && !inCapture && line.charCodeAt(0) >= 65 && line.charCodeAt(0) <= 90 && SHORT_RE.test(line)) {
      onShortSummaryLine(line);
      return;
    }
    const first = line[0];
    const decorated = first === "=" ? DECORATED_RE.exec(line) : null;
    if (decorated !== null) {
      const title = decorated[1]!;
      const counts = parsePytestSummaryBody(title);
      inCapture = false;
      if (counts === null) {
        sawSectionHeader = true;
        unsectionedResults.clear();
      }
      if (counts !== null) {
        takeSummary(counts, title, true);
        section = "other";
      } else if (title === "test session starts") {
        section = "header";
        sawSessionHeader = true;
      } else section = title === "short test summary info" ? "short-summary" : "other";
      return;
    }
    if (first === "-" && CAPTURED_RE.test(line)) {
      inCapture = true;
      return;
    }
    if ((first === "_" && TEST_HEADER_RE.test(line)) || (first === "-" && DASHED_RE.test(line))) {
      inCapture = false;
      return;
    }
    const counts = (first !== undefined && first >= "0" && first <= "9") || first === "n" ? parsePytestSummaryBody(line) : null;
    if (counts !== null) {
      takeSummary(counts, line, false);
      return;
    }
    if (readPytestMarkerLine(line, lineNo, findings, gates)) return;
    if (section === "header" && !sawSectionHeader && SHORT_RE.test(line)) {
      onShortSummaryLine(line, unsectionedResults);
      return;
    }
    if (section === "header" || section === "progress") countMarks(line, 0, line.length);
    if (section === "header") {
      const root = ROOTDIR_RE.exec(line.trimStart());
      if (root !== null && rootdir === null) rootdir = root[1]!;
      if (COLLECTED_RE.test(line) || line.startsWith("collected ")) section = "progress";
      else if (/^(?:gw\d+ \[\d+\]|\[gw\d+\] \[)/.test(line)) section = "progress";
      if (section === "header") return;
    }
    if (section === "short-summary" && !inCapture) {
      onShortSummaryLine(line);
      return;
    }
    if (line.startsWith("PASSED ") && inCapture) {
      findings.forge("passed-in-captured-output", lineNo, line);
      return;
    }
    if (section === "progress" || inCapture) onVerboseLine(line);
  };

  // Per chunk: may a line of it be judged by its first and last characters alone (no ANSI codes, no
  // usage error text), and may a `PASSED id` line of it skip SHORT_RE (no character `.` does not match)?
  let chunk = "";
  let plain = false;
  let cleanBreaks = false;
  // The hot path of a big log: most lines are skipped or read in place, without building a line string.
  const onRange = (text: string, start: number, end: number): void => {
    head.note(text, start, end);
    if (text !== chunk || !plain || end - start > MAX_LINE_LENGTH) {
      onLine(lineAt(text, start, end));
      return;
    }
    if (end > start && text.charCodeAt(end - 1) === 13) end -= 1;
    if (end === start) {
      lineNo += 1;
      return;
    }
    const first = text.charCodeAt(start);
    const last = text.charCodeAt(end - 1);
    if (section === "short-summary" && !inCapture) {
      // `PASSED <id>`, `FAILED <id> - <message>`, `ERROR <id> - <message>`: what SHORT_RE and
      // onShortSummaryLine make of them, without the regex.
      const skip =
        !cleanBreaks || isJsWhitespace(last)
          ? 0
          : first === 80 && text.startsWith("PASSED ", start)
            ? 7
            : first === 70 && text.startsWith("FAILED ", start)
              ? 7
              : first === 69 && text.startsWith("ERROR ", start)
                ? 6
                : 0;
      if (skip !== 0 && end - start > skip) {
        lineNo += 1;
        if (skip === 7 && first === 80) ids.addRange(text, start + skip, end, PASS);
        else ids.addRange(text, start + skip, idEndBeforeMessage(text, start + skip, end), FAIL);
        return;
      }
      if (first >= 65 && first <= 90) {
        onLine(text.slice(start, end));
        return;
      }
    }
    // `____ test_name ____` (a test's section in ERRORS, FAILURES, PASSES): what onLine does with it.
    if (first === 95 && last === 95 && cleanBreaks && section !== "header" && isUnderscoreRule(text, start, end)) {
      lineNo += 1;
      if (ruleWidth === 0) noteRule(text.slice(start, end));
      inCapture = false;
      return;
    }
    if (
      (section === "header" && !headerIgnores(first, last)) ||
      mayAct(text, start, first, last, inCapture) ||
      ((section === "progress" || inCapture) && (last === 93 ? mayBeVerbose(text, start, end) : isJsWhitespace(last)))
    ) {
      onLine(text.slice(start, end));
      return;
    }
    lineNo += 1;
    if (section === "progress" || section === "header") countMarks(text, start, end);
    // A progress line (`tests/test_x.py ..F.   [ 42%]`), skipped here: only its width is kept.
    if (
      last === 93 &&
      lineNo > 1 &&
      end - start > progressWidth &&
      text.charCodeAt(end - 2) === 37 &&
      !isJsWhitespace(text.charCodeAt(end - 1))
    )
      progressWidth = end - start;
  };

  const splitter = createRangeSplitter(onRange);
  return {
    push(text: string): void {
      chunk = text;
      // `zed arguments` (a part of `unrecognized arguments`) starts with a rare letter: V8 finds it about 3x as fast.
      plain = !text.includes(ESC) && !text.includes("zed arguments");
      cleanBreaks = !text.includes("\r") && !text.includes("\u2028") && !text.includes("\u2029");
      splitter.push(text);
      ids.endChunk(text.length);
    },
    end(): ParsedRunOutput<IdList> {
      splitter.end();
      for (const [id, bits] of unsectionedResults) addId(id, bits);
      unsectionedResults.clear();
      const lists = ids.drain();
      const finalSummary: FinalSummary | null = summary;
      if (finalSummary !== null && lists.passed.length > (finalSummary.counts.passed ?? 0)) {
        findings.forge(
          "ids-exceed-summary",
          finalSummary.line,
          `${lists.passed.length} passed ids, summary says ${finalSummary.counts.passed ?? 0}`,
        );
      }
      return {
        kind: "pytest",
        ...lists,
        summary: finalSummary,
        summaryCount,
        markers: findings.markers,
        forgeries: findings.forgeries,
        gates,
        rootdir,
        lines: lineNo,
        distinctIds: true,
        shownResults,
        start: pytestStart({
          first: head.first,
          second: head.second,
          ruleWidth,
          progressWidth,
          ran: summaryRan,
          padded: summaryPadded,
          sawSessionHeader,
        }),
      };
    },
    get summaryCount() {
      return summaryCount;
    },
    get lineCount() {
      return lineNo;
    },
  };
}

/** Parses a whole pytest output at once (see {@link createPytestParser}). */
export function parsePytest(text: string): ParsedRunOutput {
  const parser = createPytestParser();
  parser.push(text);
  return parser.end();
}
