// pytest 7 to 9 terminal output -> ids, the final summary, markers, coverage gate and forgery signals.
import type { GateFinding } from "../types.js";
import { IdTable } from "./id-table.js";
import { HeadLines } from "./line-start.js";
import { createRangeSplitter, FAIL, Findings, lineAt, MAX_LINE_LENGTH, PASS, SKIP, stripAnsi } from "./lines.js";
import { headerIgnores, idEndBeforeMessage, isJsWhitespace, isUnderscoreRule, mayAct, mayBeVerbose } from "./pytest-line-shapes.js";
import { pytestRuleFill, pytestStart } from "./pytest-start.js";
import type { FinalSummary, OutputParser, ParsedRunOutput } from "./types.js";

type Section = "header" | "progress" | "short-summary" | "other";

const STATUS_FLAGS: Record<string, number> = { PASSED: PASS, FAILED: FAIL, ERROR: FAIL, SKIPPED: SKIP, XFAIL: SKIP, XPASS: SKIP };
const DECORATED_RE = /^=+ (.*?) =+$/;
const SUMMARY_ITEMS_RE = /^(\d+ [a-z]+(?: [a-z]+)?(?:, \d+ [a-z]+(?: [a-z]+)?)*) in \d+(?:\.\d+)?s(?:econds)?(?: \([^)]*\))?$/;
const NO_TESTS_RE = /^no tests ran in \d+(?:\.\d+)?s(?:econds)?(?: \([^)]*\))?$/;
const VERBOSE_RE = / (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?: \(.*\))?$/;
const PERCENT_RE = /\s+\[\s*\d+%\]$/;
const XDIST_RE = /^\[gw\d+\] \[\s*\d+%\] (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (.+)$/;
const SHORT_RE = /^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (.+)$/;
const CAPTURED_RE = /^-+ Captured (?:stdout|stderr|log) .* -+$/;
const DASHED_RE = /^-{3,} .* -{3,}$/;
const TEST_HEADER_RE = /^_{3,} .* _{3,}$/;
const BANG_RE = /^!+ (.*?) !+$/;
const GATE_FAIL_RE = /^FAIL Required test coverage of ([\d.]+)% not reached\. Total coverage: ([\d.]+)%/;
const GATE_PASS_RE = /^Required test coverage of ([\d.]+)% reached\. Total coverage: ([\d.]+)%/;
const ROOTDIR_RE = /^rootdir: (.+?)(?:, (?:configfile|inifile|testpaths|plugins): .*)?$/;
const COLLECTED_RE = /^collect(?:ing \.\.\. collect)?ed (\d+) items?/;
const USAGE_RES = [
  /^ERROR: usage: /,
  /: error: unrecognized arguments: /,
  /^ERROR: file or directory not found: /,
  /^ERROR: not found: /,
  /^ERROR: found no collectors for /,
  /^ERROR: module or package not found: /,
];

const WORD_ALIASES: Record<string, string> = {
  error: "errors",
  warning: "warnings",
  "test collected": "collected",
  "tests collected": "collected",
  reruns: "rerun",
};

/** Reads the body of a final summary (`1 failed, 2 passed in 0.1s`, `no tests ran in 0.01s`) into counts. */
export function parsePytestSummaryBody(body: string): Record<string, number> | null {
  if (NO_TESTS_RE.test(body)) return {};
  const match = SUMMARY_ITEMS_RE.exec(body);
  if (match === null) return null;
  const counts: Record<string, number> = {};
  for (const item of match[1]!.split(", ")) {
    const space = item.indexOf(" ");
    const word = item.slice(space + 1);
    const key = WORD_ALIASES[word] ?? word;
    counts[key] = (counts[key] ?? 0) + Number(item.slice(0, space));
  }
  return counts;
}

/**
 * Cuts `id - message` at the ` - ` that ends the id: ids may hold ` - ` inside their brackets
 * (`test_x[a - b]`), so a cut is accepted only where the prefix has no `[` or ends with `]`.
 */
export function splitPytestIdMessage(text: string): string {
  let from = 0;
  for (;;) {
    const at = text.indexOf(" - ", from);
    if (at === -1) return text;
    const prefix = text.slice(0, at);
    if (!prefix.includes("[") || prefix.endsWith("]")) return prefix;
    from = at + 1;
  }
}

// XPASS lines of pytest 7 put the reason after a space (`XPASS id reason`): cut at the first space after `::name[...]`.
function idBeforeReason(text: string): string {
  const cut = splitPytestIdMessage(text);
  if (cut !== text) return cut;
  const lastColons = text.lastIndexOf("::");
  const bracket = text.indexOf("[", lastColons);
  const end = bracket === -1 ? text.indexOf(" ", lastColons) : text.indexOf("] ", bracket) + 1;
  return end <= 0 ? text : text.slice(0, end);
}

const ESC = "\u001b";
// The progress marks (`..F.s`) that open `text.slice(start, end)`, after its file under default
// verbosity (`tests/a.py ..F`); read in place, no regex (it runs on every progress-section line).
function leadingMarks(text: string, start: number, end: number): number {
  let at = start;
  if (!isMark(text.charCodeAt(at))) {
    const space = text.indexOf(" ", start);
    if (space === -1 || space >= end || space - start < 4 || !text.startsWith(".py", space - 3)) return 0;
    at = space + 1;
  }
  const from = at;
  while (at < end && isMark(text.charCodeAt(at))) at += 1;
  return at - from;
}

// . s F E x X R
function isMark(code: number): boolean {
  return code === 46 || code === 115 || code === 70 || code === 69 || code === 120 || code === 88 || code === 82;
}

/** Creates an incremental pytest output parser. */
export function createPytestParser(): OutputParser {
  const findings = new Findings();
  const ids = new IdTable();
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

  const onMarkerLine = (line: string): boolean => {
    // Each marker starts with its own character, except `...: error: unrecognized arguments: ...`.
    const first = line.charCodeAt(0);
    if (
      first !== 73 &&
      first !== 69 &&
      first !== 33 &&
      first !== 43 &&
      first !== 70 &&
      first !== 82 &&
      !line.includes("unrecognized arguments")
    )
      return false;
    if (line.startsWith("INTERNALERROR>")) {
      findings.mark("internal-error", lineNo, line);
      return true;
    }
    for (const re of USAGE_RES) {
      if (re.test(line)) {
        findings.mark("usage-error", lineNo, line);
        return true;
      }
    }
    const bang = BANG_RE.exec(line);
    if (bang !== null) {
      const text = bang[1]!;
      if (/^Interrupted: \d+ errors? during collection$/.test(text)) findings.mark("collection-error", lineNo, text);
      else if (/^stopping after \d+ failures?$/.test(text)) findings.mark("stopped-early", lineNo, text);
      else if (text.includes("KeyboardInterrupt") || text.startsWith("Interrupted") || text.includes("Exit"))
        findings.mark("interrupted", lineNo, text);
      return true;
    }
    if (/^\+{3,} Timeout \+{3,}$/.test(line)) {
      findings.mark("timeout", lineNo, line);
      return true;
    }
    const gateFail = GATE_FAIL_RE.exec(line);
    const gatePass = gateFail === null ? GATE_PASS_RE.exec(line) : null;
    if (gateFail !== null || gatePass !== null) {
      gates.push({ kind: "coverage", passed: gateFail === null, detail: line });
      return true;
    }
    return false;
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
    if (onMarkerLine(line)) return;
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
    end(): ParsedRunOutput {
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
