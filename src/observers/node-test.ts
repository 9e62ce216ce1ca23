// `node --test` output (Node 20+) -> ids `suite > test`, the final summary, markers and forgery
// signals, for its TAP reporter (the default when stdout is not a terminal) and its spec reporter.
// Node prints no file for a passing test, so ids name the test by its path of names only.
import type { IdList, ParserOptions } from "./id-list.js";
import { createLineParser } from "./line-parser.js";
import { HeadLines, isProperSuffix, startsWithCutLiteral } from "./line-start.js";
import { FAIL, Findings, ownString, PASS, SKIP, stripAnsi } from "./lines.js";
import { createOutcomeTable } from "./outcome-table.js";
import type { FinalSummary, OutputParser, ParsedRunOutput } from "./types.js";

/** What joins the names of a nested test's suites and parent tests in its id (`math > by zero > gives zero`). */
export const NODE_TEST_ID_SEPARATOR = " > ";

// TAP: `ok 3 - name # SKIP reason`, indented four spaces per level. Names escape `#` as `\#`, so the
// first ` # ` starts the directive.
const TAP_RESULT_RE = /^( *)(not ok|ok) \d+ - (.*)$/;
const TAP_SUBTEST_RE = /^( *)# Subtest: (.*)$/;
const TAP_PLAN_RE = /^( *)1\.\.\d+$/;
const TAP_SUMMARY_RE = /^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)$/;
// spec: `✔ name (1.2ms)`, `✖ name (1.2ms)`, `﹣ name (0.1ms) # reason`, `✔ name (0.1ms) # TODO`,
// two spaces per level; `▶ name` opens a suite or a test with subtests.
const SPEC_RESULT_RE = /^( *)([✔✖﹣]) (.*) \(\d+(?:\.\d+)?m?s\)(?: # (.*))?$/;
const SPEC_OPEN_RE = /^( *)▶ (.*)$/;
const SPEC_SUMMARY_RE = /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)$/;
const SPEC_FAILING_HEADER = "✖ failing tests:";
const USAGE_RES = [
  /^(?:\S*\/)?node(?:js)?: bad option: /,
  /^Could not find '.*'$/,
  /^TypeError \[ERR_INVALID_ARG_VALUE\]: The argument '--test-/,
];
const SUMMARY_ORDER = ["tests", "suites", "pass", "fail", "cancelled", "skipped", "todo", "duration_ms"];
const SUMMARY_WORDS: Record<string, string> = {
  tests: "tests",
  suites: "suites",
  pass: "passed",
  fail: "failed",
  cancelled: "cancelled",
  skipped: "skipped",
  todo: "todo",
};
const SUMMARY_PIECES = Object.keys(SUMMARY_WORDS).flatMap((word) => [`# ${word} `, `ℹ ${word} `]);

// Undoes the TAP reporter's escaping (`\#`, `\\`) so that TAP and spec ids of a test are one.
function unescapeTap(text: string): string {
  return text.includes("\\") ? text.replace(/\\(.)/g, "$1") : text;
}

/** One open level of nesting: the test or suite announced there and what its children did. */
interface Level {
  name: string | null;
  /** A `▶` line opened it (spec): its closing line is the container's, not a test's. */
  opened: boolean;
  childSeen: boolean;
  childFailed: boolean;
}

/** Creates an incremental `node --test` output parser (TAP and spec reporters). */
export function createNodeTestParser(): OutputParser;
/** Creates an incremental `node --test` output parser (TAP and spec reporters). */
export function createNodeTestParser(options: ParserOptions): OutputParser<IdList>;
export function createNodeTestParser(options: ParserOptions = {}): OutputParser<IdList> {
  const findings = new Findings();
  const ids = createOutcomeTable(options.ids);
  const head = new HeadLines();
  // The output holds spec lines: its first line then begins with a spec mark, `ℹ` or indentation.
  let sawSpec = false;
  const levels: Level[] = [];
  let lineNo = 0;
  let summary: FinalSummary | null = null;
  let summaryCount = 0;
  // The summary block being read (`tests` opens it, `duration_ms` ends it; any other line breaks it).
  let block: { counts: Record<string, number>; line: number; text: string; next: number } | null = null;
  let sawTapHeader = false;
  // TAP: a top-level plan was the last runner line, so summary lines may follow.
  let afterTopPlan = false;
  // TAP: the `---` that may open the last result's YAML block, and the `...` that ends it.
  let yamlStart: string | null = null;
  let yamlEnd = "";
  let inYaml = false;
  // TAP: the result just read, kept until its YAML block says whether it was a suite.
  let pending: { id: string | null; bits: number } | null = null;
  // spec: the body of a failure (indented deeper than its `✖` line) is message text, not results.
  let failureBodyIndent = -1;
  let inFailingSection = false;
  let shownResults = 0;
  let shownPasses = 0;
  let headMissing: string | null = null;

  const level = (depth: number): Level => {
    while (levels.length <= depth) levels.push({ name: null, opened: false, childSeen: false, childFailed: false });
    return levels[depth]!;
  };

  // The id of a test at `depth`, or null when an enclosing name is not in view (a `| tail` window).
  const idAt = (depth: number, name: string): string | null => {
    if (depth === 0) return name;
    const names: string[] = [];
    for (let d = 0; d < depth; d++) {
      const known = levels[d]?.name ?? null;
      if (known === null) return null;
      names.push(known);
    }
    names.push(name);
    return names.join(NODE_TEST_ID_SEPARATOR);
  };

  const flushPending = (): void => {
    if (pending !== null && pending.id !== null) ids.add(pending.id, pending.bits);
    pending = null;
  };

  // A summary is node's only whole: its eight lines in node's order. Anything else a test printed.
  const closeBlock = (complete: boolean): void => {
    if (block === null) return;
    const broken = block;
    block = null;
    if (!complete) {
      findings.forge("summary-shape-mismatch", broken.line, broken.text);
      return;
    }
    summaryCount += 1;
    if (summaryCount > 1) findings.forge("multiple-summaries", broken.line, broken.text);
    summary = { counts: broken.counts, line: broken.line, text: broken.text };
    if ((broken.counts.tests ?? 0) === 0) findings.mark("no-tests-ran", broken.line, broken.text);
  };

  const onSummaryLine = (word: string, value: string, line: string): void => {
    if (word === "tests") {
      closeBlock(false);
      block = { counts: {}, line: lineNo, text: line, next: 0 };
    }
    if (block === null) return;
    if (SUMMARY_ORDER[block.next] !== word) {
      closeBlock(false);
      return;
    }
    block.next += 1;
    if (word === "duration_ms") closeBlock(true);
    else block.counts[SUMMARY_WORDS[word]!] = Number(value);
  };

  /**
   * One result at `depth`. A test whose subtests were shown is a container: its pass is theirs, and
   * its failure counts as its own only when none of theirs explains it.
   */
  const onResult = (depth: number, name: string, bits: number, container: boolean): string | null => {
    shownResults += 1;
    if (bits === PASS) shownPasses += 1;
    if (summary !== null && depth === 0) findings.forge("result-after-summary", lineNo, name);
    const here = level(depth);
    const id = idAt(depth, name);
    const failedChild = here.childFailed;
    here.childSeen = false;
    here.childFailed = false;
    here.name = null;
    here.opened = false;
    if (depth > 0) {
      const parent = level(depth - 1);
      parent.childSeen = true;
      if (bits === FAIL) parent.childFailed = true;
    }
    if (container) return bits === FAIL && !failedChild ? id : null;
    return id;
  };

  const onTapResult = (indent: number, status: string, rest: string): void => {
    const depth = indent / 4;
    const directive = rest.indexOf(" # ");
    const name = unescapeTap(directive === -1 ? rest : rest.slice(0, directive));
    const word =
      directive === -1
        ? ""
        : rest
            .slice(directive + 3)
            .split(" ", 1)[0]!
            .toUpperCase();
    const bits = word === "TODO" ? SKIP : status === "not ok" ? FAIL : word === "SKIP" ? SKIP : PASS;
    if (!sawTapHeader) headMissing ??= `\`${status} ... - ${name}\` before the \`TAP version 13\` header`;
    // The TAP reporter announces every test (`# Subtest: name`) before its result; a result with
    // another name or none announced was not printed by the reporter (test output is `# `-prefixed).
    const announced = levels[depth]?.name ?? null;
    if (announced !== name && sawTapHeader) {
      if (bits === PASS) findings.forge("result-without-run", lineNo, `${status} - ${name}`);
    }
    const container = levels[depth]?.childSeen === true;
    const id = onResult(depth, ownString(name), bits, container);
    pending = { id: bits === PASS && announced !== name && sawTapHeader ? null : id, bits };
  };

  const onTapLine = (line: string): boolean => {
    if (line === "TAP version 13") {
      sawTapHeader = true;
      return true;
    }
    const result = TAP_RESULT_RE.exec(line);
    if (result !== null && result[1]!.length % 4 === 0) {
      afterTopPlan = false;
      onTapResult(result[1]!.length, result[2]!, result[3]!);
      yamlStart = `${result[1]!}  ---`;
      yamlEnd = `${result[1]!}  ...`;
      return true;
    }
    const subtest = TAP_SUBTEST_RE.exec(line);
    if (subtest !== null && subtest[1]!.length % 4 === 0) {
      afterTopPlan = false;
      const here = level(subtest[1]!.length / 4);
      here.name = ownString(unescapeTap(subtest[2]!));
      here.childSeen = false;
      here.childFailed = false;
      return true;
    }
    const plan = TAP_PLAN_RE.exec(line);
    if (plan !== null) {
      afterTopPlan = plan[1] === "";
      if (plan[1]!.length % 4 === 0 && plan[1]!.length > 0) level(plan[1]!.length / 4 - 1).childSeen = true;
      return true;
    }
    const counted = afterTopPlan ? TAP_SUMMARY_RE.exec(line) : null;
    if (counted !== null) {
      onSummaryLine(counted[1]!, counted[2]!, line);
      return true;
    }
    return false;
  };

  const onSpecLine = (line: string, indent: number): boolean => {
    if (failureBodyIndent >= 0) {
      if (indent > failureBodyIndent || line.trim() === "") return true;
      failureBodyIndent = -1;
    }
    const counted = SPEC_SUMMARY_RE.exec(line);
    if (counted !== null || SPEC_OPEN_RE.test(line) || SPEC_RESULT_RE.test(line)) sawSpec = true;
    if (counted !== null) {
      onSummaryLine(counted[1]!, counted[2]!, line);
      return true;
    }
    if (line === SPEC_FAILING_HEADER && summary !== null) {
      // The failures again, after the summary, without their suites: already counted above.
      inFailingSection = true;
      return true;
    }
    if (inFailingSection) return true;
    const open = SPEC_OPEN_RE.exec(line);
    if (open !== null && indent % 2 === 0) {
      const here = level(indent / 2);
      here.name = ownString(open[2]!);
      here.opened = true;
      here.childSeen = false;
      here.childFailed = false;
      return true;
    }
    const result = SPEC_RESULT_RE.exec(line);
    if (result === null || indent % 2 !== 0) return false;
    const depth = indent / 2;
    const [, , mark, name, directive] = result as unknown as [string, string, string, string, string | undefined];
    // A `# reason` after the duration: a skip (`﹣`) or a todo (`✔`/`✖`), whose failure fails nothing.
    const bits = mark === "﹣" || directive !== undefined ? SKIP : mark === "✖" ? FAIL : PASS;
    const here = levels[depth];
    const container = here !== undefined && here.opened && here.name === name;
    if (depth > 0 && levels[depth - 1]?.name == null) headMissing ??= `\`${line.trim()}\` without the line that opens its suite`;
    const id = onResult(depth, ownString(name), bits, container);
    if (id !== null) ids.add(id, bits);
    if (mark === "✖") failureBodyIndent = indent;
    return true;
  };

  const onLine = (raw: string): void => {
    lineNo += 1;
    const line = stripAnsi(raw).trimEnd();
    if (yamlStart !== null) {
      // Node prints a YAML block right after each result; a suite's says so (`type: 'suite'`).
      const opens = line === yamlStart;
      yamlStart = null;
      if (opens) {
        inYaml = true;
        return;
      }
      flushPending();
    }
    if (inYaml) {
      if (line === yamlEnd) {
        inYaml = false;
        flushPending();
      } else if (pending !== null && line.trim() === "type: 'suite'") pending.id = null;
      return;
    }
    if (line === "") return;
    if (block !== null && !TAP_SUMMARY_RE.test(line) && !SPEC_SUMMARY_RE.test(line)) closeBlock(false);
    const first = line.charCodeAt(0);
    for (const re of first === 110 || first === 47 || first === 67 || first === 84 ? USAGE_RES : []) {
      if (re.test(line)) {
        findings.mark("usage-error", lineNo, line);
        return;
      }
    }
    if (onTapLine(line)) return;
    const indent = line.length - line.trimStart().length;
    onSpecLine(line, indent);
  };

  return createLineParser({
    head,
    ids,
    onLine,
    end(): ParsedRunOutput<IdList> {
      // Node prints a YAML block right after each result: a pass on the very last line may be the
      // head of a longer line cut off there (`ok 4 - sub add` of `ok 4 - sub adds`).
      if (yamlStart !== null && pending !== null && pending.bits === PASS) pending = null;
      flushPending();
      // A summary cut off by the end of the output is no summary (a clipped copy), and no forgery either.
      block = null;
      const lists = ids.drain();
      const final: FinalSummary | null = summary;
      // Node counts every test that passed, and every suite is shown as a result line too: more pass
      // lines than the two together were not all printed by the reporter.
      if (final !== null && shownPasses > (final.counts.passed ?? 0) + (final.counts.suites ?? 0)) {
        findings.forge(
          "ids-exceed-summary",
          final.line,
          `${shownPasses} passes shown, the summary counts ${final.counts.passed ?? 0} tests and ${final.counts.suites ?? 0} suites`,
        );
      }
      return {
        kind: "node-test",
        ...lists,
        summary: final,
        summaryCount,
        ...findings.runFields(lineNo),
        shownResults,
        start: { cut: nodeTestStartCut(head.first, sawSpec), headMissing, summaryMismatch: null },
      };
    },
    summaryCount: () => summaryCount,
    lineCount: () => lineNo,
  });
}

/** Why the first line of a `node --test` output is a piece of one of the runner's lines, or null. */
export function nodeTestStartCut(first: string | null, spec = false): string | null {
  if (first === null) return null;
  const line = stripAnsi(first).trimEnd();
  // The end of the `  ...` that closes a result's YAML block.
  if (/^ ?\.{1,3}$/.test(line) && line !== "  ...") return "the end of a YAML block";
  if (line === "" || line.startsWith(" ")) {
    // spec indents nested results by two: a line indented otherwise, or not a spec line, lost its start.
    const body = line.trimStart();
    if (spec && body !== "" && !/^[✔✖﹣▶ℹ]/.test(body)) return "a spec line cut at its start";
    return null;
  }
  if (spec && !/^[✔✖﹣▶ℹ]/.test(line)) return "a spec line cut at its start";
  if (isProperSuffix(line, ["TAP version 13", SPEC_FAILING_HEADER])) return "the end of a header line";
  if (startsWithCutLiteral(line, SUMMARY_PIECES, /^\d+(?:\.\d+)?$/)) return "a summary line cut at its start";
  if (startsWithCutLiteral(line, ["# Subtest: "], /^\S/) || /^(?:o?t ok|k) \d+ - /.test(line)) return "a result line cut at its start";
  return null;
}

/** Parses a whole `node --test` output at once (see {@link createNodeTestParser}). */
export function parseNodeTest(text: string): ParsedRunOutput {
  const parser = createNodeTestParser();
  parser.push(text);
  return parser.end();
}
