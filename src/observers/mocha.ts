// mocha output (mocha 12) -> ids `suite > test`, the epilogue (`N passing (Nms)`, `N pending`,
// `N failing`), markers and forgery signals. Ids come from the spec reporter (mocha's default): suite
// titles, then `✔ title`, `N) title` and `- title` two spaces deeper per level. mocha prints no file,
// so ids name a test by its path of titles only. The dot reporter's marks are counted, not named.
import type { IdList, ParserOptions } from "./id-list.js";
import { createLineParser } from "./line-parser.js";
import { HeadLines, isProperSuffix, startsWithCutLiteral } from "./line-start.js";
import { FAIL, Findings, ownString, PASS, SKIP, stripAnsi } from "./lines.js";
import { createOutcomeTable } from "./outcome-table.js";
import type { FinalSummary, OutputParser, ParsedRunOutput } from "./types.js";

/** What joins the titles of a test's suites and its own in its id (`math > by zero > gives zero`). */
export const MOCHA_ID_SEPARATOR = " > ";

// The epilogue every Base reporter prints (spec, dot, list, min, progress, ...), each line indented two.
const PASSING_RE = /^ {2}(\d+) passing \((\d+(?:ms|s|m|h|d))\)$/;
const PENDING_RE = /^ {2}(\d+) pending$/;
const FAILING_RE = /^ {2}(\d+) failing$/;
// spec: `✔ title`, `✔ title (80ms)` (a slow test), `N) title` (failure number N), `- title` (pending).
const SPEC_RESULT_RE = /^( +)(✔ |\d+\) |- )(.*)$/;
const SLOW_RE = / \(\d+ms\)$/;
// dot: two spaces, then a mark per test (`.` pass, `,` pending, `!` failure), wrapped by terminal width.
const DOT_LINE_RE = /^ {2}([.,!]+)/;
// Lines that say mocha never ran a test (stderr): a spec pattern that matched nothing, a bad option value.
const USAGE_RES = [
  /^Error: No test files found/,
  /^Warning: Cannot find any files matching pattern /,
  /^✖ ERROR: /,
  /^Error: Not enough arguments following: /,
];
// A spec file that failed to load (syntax error, `.only` under --forbid-only): mocha stops before any test.
const LOAD_ERROR = " Exception during run: ";
const EPILOGUE_PIECES = [" passing (", " pending", " failing"];

/** Creates an incremental mocha output parser (spec ids, any Base reporter's epilogue). */
export function createMochaParser(): OutputParser;
/** Creates an incremental mocha output parser (spec ids, any Base reporter's epilogue). */
export function createMochaParser(options: ParserOptions): OutputParser<IdList>;
export function createMochaParser(options: ParserOptions = {}): OutputParser<IdList> {
  const findings = new Findings();
  const ids = createOutcomeTable(options.ids);
  const head = new HeadLines();
  // Suite titles by indent (a suite nested k deep is printed at 2k spaces; its tests at 2k + 2).
  const suites = new Map<number, string>();
  // The last line taken as mocha's own: a suite title opens a level two spaces deeper; after a result,
  // a suite title comes at its indent or above. Other lines are a test's output.
  let last: { suite: boolean; indent: number } | null = null;
  let lineNo = 0;
  let summary: FinalSummary | null = null;
  let summaryCount = 0;
  // The epilogue being read: `passing` opens it, `pending` and `failing` may follow in that order.
  let epilogue: { counts: Record<string, number>; line: number; text: string; next: "pending" | "failing" | null } | null = null;
  // After an epilogue that counts failures: the failure list (titles, messages, stacks) holds no results.
  let inFailureList = false;
  // The list reporter (`    title: \r  ✔ full title: 0ms`) names tests by their full titles, which
  // cannot be split into suites: its results are counted, and only its failure list names ids.
  let listReporter = false;
  const listFailures: string[] = [];
  let shownResults = 0;
  let shownPasses = 0;
  let shownFailures = 0;
  let sawResult = false;
  let headMissing: string | null = null;
  // mocha's own output begins with a blank line: a first line with text is where a window or a cut began.
  let startsBlank = false;
  let firstText = true;
  let onFirstText = false;
  // A window's first line, when it is a result or a suite title, and whether the next result fits under it:
  // one that does not shows spaces cut from the first line's indent.
  let firstMocha: { suite: boolean; indent: number } | null = null;
  let checkedFirst = false;
  let indentCut: string | null = null;

  const closeEpilogue = (): void => {
    if (epilogue === null) return;
    summaryCount += 1;
    if (summaryCount > 1) findings.forge("multiple-summaries", epilogue.line, epilogue.text);
    summary = { counts: epilogue.counts, line: epilogue.line, text: epilogue.text };
    epilogue = null;
  };

  const idOf = (indent: number, title: string): string | null => {
    const names: string[] = [];
    for (let at = 2; at < indent; at += 2) {
      const name = suites.get(at);
      if (name === undefined) return null;
      names.push(name);
    }
    names.push(title);
    return names.join(MOCHA_ID_SEPARATOR);
  };

  const onResult = (indent: number, mark: string, rest: string, line: string): void => {
    shownResults += 1;
    if (summaryCount > 0) findings.forge("result-after-summary", lineNo, line);
    sawResult = true;
    const bits = mark === "✔ " ? PASS : mark === "- " ? SKIP : FAIL;
    if (bits === PASS) shownPasses += 1;
    if (bits === FAIL) shownFailures += 1;
    const title = bits === PASS ? rest.replace(SLOW_RE, "") : rest;
    if (onFirstText && !startsBlank) firstMocha = { suite: false, indent };
    else if (firstMocha !== null && !checkedFirst) {
      checkedFirst = true;
      const fits = firstMocha.suite ? indent === firstMocha.indent + 2 : indent <= firstMocha.indent;
      if (!fits)
        indentCut = `\`${line.trim()}\` at ${indent} spaces cannot follow the first line at ${firstMocha.indent}: its indent was cut`;
    }
    for (const at of [...suites.keys()]) if (at >= indent) suites.delete(at);
    last = { suite: false, indent };
    // A result on the first line of a window may have lost spaces before it (a cut), and so its suites.
    const id = onFirstText && !startsBlank ? null : idOf(indent, title);
    if (id === null) {
      headMissing ??= `\`${line.trim()}\` without the line of its suite`;
      return;
    }
    ids.add(ownString(id), bits);
  };

  // The failure list after the epilogue: `  N) first title`, then each deeper title on a line of its own
  // (five spaces and two more per level), the last ending with `:`; the message and stack follow.
  let nextItem = 1;
  let item: string[] | null = null;
  const onFailureListLine = (line: string): void => {
    const indent = line.length - line.trimStart().length;
    if (item !== null) {
      if (indent === 5 + 2 * item.length && line.length > indent) {
        item.push(line.slice(indent));
        if (line.endsWith(":")) finishItem();
        return;
      }
      item = null;
    }
    const start = /^ {2}(\d+)\) (.*)$/.exec(line);
    if (start === null || Number(start[1]) !== nextItem) return;
    nextItem += 1;
    item = [start[2]!];
    if (line.endsWith(":")) finishItem();
  };
  const finishItem = (): void => {
    if (item === null) return;
    const titles = item;
    item = null;
    titles[titles.length - 1] = titles[titles.length - 1]!.slice(0, -1);
    const id = ownString(titles.join(MOCHA_ID_SEPARATOR));
    ids.add(id, FAIL);
    listFailures.push(id);
  };

  // A line the list reporter rewrote in place: what a terminal shows is the text after the last `\r`.
  const onListLine = (shown: string): void => {
    const result = /^ {2}(✔ |\d+\) )/.exec(shown);
    if (result === null) return;
    listReporter = true;
    shownResults += 1;
    if (result[1] === "✔ ") shownPasses += 1;
    else shownFailures += 1;
  };

  const onSuiteCandidate = (indent: number, title: string): void => {
    // A suite title sits right under its parent (two deeper) or, after a result, at that result's level or above.
    const fits =
      last === null ? indent === 2 || (onFirstText && !startsBlank) : last.suite ? indent === last.indent + 2 : indent <= last.indent;
    if (!fits) return;
    if (onFirstText && !startsBlank) firstMocha = { suite: true, indent };
    for (const at of [...suites.keys()]) if (at >= indent) suites.delete(at);
    suites.set(indent, ownString(title));
    last = { suite: true, indent };
  };

  const onLine = (raw: string): void => {
    lineNo += 1;
    const line = stripAnsi(raw).trimEnd();
    if (line === "") {
      if (lineNo === 1) startsBlank = true;
      // mocha ends its epilogue with a blank line: one cut off before it may have lost its `failing` line.
      closeEpilogue();
      return;
    }
    onFirstText = firstText;
    firstText = false;
    if (epilogue !== null) {
      const pending = epilogue.next === "pending" ? PENDING_RE.exec(line) : null;
      if (pending !== null) {
        epilogue.counts.skipped = Number(pending[1]);
        epilogue.next = "failing";
        return;
      }
      const failing = FAILING_RE.exec(line);
      if (failing !== null) {
        epilogue.counts.failed = Number(failing[1]);
        closeEpilogue();
        inFailureList = Number(failing[1]) > 0;
        return;
      }
      closeEpilogue();
    }
    const passing = PASSING_RE.exec(line);
    if (passing !== null) {
      if (summaryCount > 0) findings.forge("multiple-summaries", lineNo, line);
      epilogue = { counts: { passed: Number(passing[1]), skipped: 0, failed: 0 }, line: lineNo, text: line, next: "pending" };
      inFailureList = false;
      if (Number(passing[1]) === 0) findings.mark("no-tests-ran", lineNo, line);
      return;
    }
    if (inFailureList) {
      onFailureListLine(line);
      return;
    }
    const cr = line.lastIndexOf("\r");
    if (cr !== -1) {
      onListLine(line.slice(cr + 1));
      return;
    }
    const first = line.charCodeAt(0);
    if (first === 69 || first === 87 || first === 10006) {
      for (const re of USAGE_RES) {
        if (re.test(line)) {
          findings.mark("usage-error", lineNo, line);
          return;
        }
      }
    }
    if (line.startsWith(LOAD_ERROR) && !sawResult) {
      findings.mark("collection-error", lineNo, line);
      return;
    }
    const indent = line.length - line.trimStart().length;
    const result = indent >= 2 && indent % 2 === 0 ? SPEC_RESULT_RE.exec(line) : null;
    if (result !== null) {
      onResult(indent, result[2]!, result[3]!, line);
      return;
    }
    // A pass mark anywhere else (a test's own print) still counts against the epilogue's passes.
    if (line.trimStart().startsWith("✔ ")) shownPasses += 1;
    const dots = DOT_LINE_RE.exec(line);
    if (dots !== null) {
      for (const mark of dots[1]!) {
        shownResults += 1;
        if (mark === ".") shownPasses += 1;
        if (mark === "!") shownFailures += 1;
      }
      return;
    }
    if (indent >= 2 && indent % 2 === 0) onSuiteCandidate(indent, line.slice(indent));
  };

  return createLineParser({
    head,
    ids,
    onLine,
    end(): ParsedRunOutput<IdList> {
      // An epilogue without its closing blank line (a host that trims the end of an output, or a cut) may
      // have lost its `failing` line. It stands only in an output seen from mocha's first line that shows a
      // result for every test it counts and no failure among them (mocha reports each failure inline first).
      if (epilogue !== null) {
        const open: { counts: Record<string, number> } = epilogue;
        const counted = (open.counts.passed ?? 0) + (open.counts.skipped ?? 0);
        if (startsBlank && shownFailures === 0 && shownResults >= counted) closeEpilogue();
        epilogue = null;
      }
      const lists = listReporter ? { passed: [], failed: [...new Set(listFailures)], skipped: [] } : ids.drain();
      const final: FinalSummary | null = summary;
      if (final !== null && shownPasses > (final.counts.passed ?? 0)) {
        findings.forge("ids-exceed-summary", final.line, `${shownPasses} passes shown, the epilogue counts ${final.counts.passed ?? 0}`);
      }
      return {
        kind: "mocha",
        ...lists,
        summary: final,
        summaryCount,
        ...findings.runFields(lineNo),
        shownResults,
        start: { cut: startsBlank ? null : (mochaStartCut(head.first) ?? indentCut), headMissing, summaryMismatch: null },
      };
    },
    summaryCount: () => summaryCount,
    lineCount: () => lineNo,
  });
}

/**
 * Why the first line of a mocha output that does not begin with mocha's blank line is a piece of one
 * of the runner's lines, or null. mocha indents every line of its own by an even number of spaces:
 * a first line at the margin or at an odd indent lost its start.
 */
export function mochaStartCut(first: string | null): string | null {
  if (first === null) return null;
  const line = stripAnsi(first).trimEnd();
  const indent = line.length - line.trimStart().length;
  // The tap reporter's lines sit at the margin (its output holds no epilogue).
  if (indent === 0 && /^(?:(?:not )?ok \d+ |1\.\.\d+$|# )/.test(line)) return null;
  if (indent === 0)
    return startsWithCutLiteral(line, EPILOGUE_PIECES, /^/) || isProperSuffix(line, EPILOGUE_PIECES)
      ? "an epilogue line cut at its start"
      : "a line at the margin, where mocha prints none of its own";
  if (indent % 2 === 1) return "a line cut inside its indent";
  return null;
}

/** Parses a whole mocha output at once (see {@link createMochaParser}). */
export function parseMocha(text: string): ParsedRunOutput {
  const parser = createMochaParser();
  parser.push(text);
  return parser.end();
}
