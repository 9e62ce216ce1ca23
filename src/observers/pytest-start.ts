// pytest: is the first line shown a piece of one of pytest's lines, or does it show that pytest printed
// lines before it? See line-start.ts for why. Pure; called by pytest.ts at end().
import { isProperSuffix, type OutputStart, startsWithCutLiteral } from "./line-start.js";
import { stripAnsi } from "./lines.js";

/** What the pytest parser gathered for the start checks. */
export interface PytestStartFacts {
  /** The first and second lines as read (ANSI codes and line ends included). */
  first: string | null;
  second: string | null;
  /** The width of pytest's rules (`==== title ====`) after the first line, 0 when none showed it. */
  ruleWidth: number;
  /** The widest line ending in a progress mark (`[ 42%]`) after the first line, 0 when none. */
  progressWidth: number;
  /** Tests the final summary counts as run (passed, failed, errors, skipped, xfailed, xpassed), or null. */
  ran: number | null;
  /** The final summary was padded (`==== 3 passed in 0.1s ====`), as pytest pads it when not `-q`. */
  padded: boolean;
  sawSessionHeader: boolean;
}

const RULE_CHARS = new Set(["=", "-", "_"]);
const STATUS_WORDS = ["PASSED ", "FAILED ", "ERROR ", "SKIPPED ", "XFAIL ", "XPASS "];
const SHORT_RE = /^(?:PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) \S/;
const VERBOSE_RE = / (?:PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?: \(.*\))?$/;
const PROGRESS_MARK_RE = /\s*\[\s*\d+(?:%|\/\s*\d+)\]$/;
const FIRST_PROGRESS_RE = /^([.FEsxXR]+)\s*\[\s*(\d+)(%|\/\s*\d+)\]$/;
const SUMMARY_TAIL_RE = / in \d+(?:\.\d+)?s(?:econds)?(?: \([^)]*\))?$/;
const SUMMARY_RE = /^(?:\d+ [a-z]+(?: [a-z]+)?(?:, \d+ [a-z]+(?: [a-z]+)?)*|no tests ran) in /;
const XDIST_OPENERS = ["bringing up nodes..."];
// Lines of the session header, which come right after `=== test session starts ===`.
const HEADER_LINES: [string, RegExp][] = [
  ["platform ", /^\S+ -- Python /],
  ["rootdir: ", /^\S/],
  ["cachedir: ", /^\S/],
  ["configfile: ", /^\S/],
  ["plugins: ", /^\S/],
  ["collected ", /^\d+ items?/],
  ["collecting ... ", /^\S/],
];

/** Rule lines: `{fill} {title} {fill}` where the right fill is the left one or one longer; 0 when `line` is no rule. */
export function pytestRuleFill(line: string): number {
  const char = line[0];
  if (char === undefined || !RULE_CHARS.has(char) || line[line.length - 1] !== char) return 0;
  let left = 0;
  while (line[left] === char) left += 1;
  let right = 0;
  while (line[line.length - 1 - right] === char) right += 1;
  if (left === line.length || line[left] !== " " || line[line.length - 1 - right] !== " ") return 0;
  return right - left === 0 || right - left === 1 ? left : 0;
}

function ruleCut(line: string, width: number): string | null {
  const char = line[line.length - 1]!;
  if (!RULE_CHARS.has(char)) return null;
  let right = 0;
  while (line[line.length - 1 - right] === char) right += 1;
  if (right === line.length) return width > 0 && line.length >= width ? null : "a bare run of a rule's fill";
  if (line[line.length - 1 - right] !== " ") return null;
  const fill = pytestRuleFill(line);
  if (fill === 0) return "a rule cut inside its title or its left fill";
  // pytest fills every rule to the terminal width; a long title gets a fill of 1 and runs past it.
  if (width > 0 && fill >= 2 && line.length < width) return "a rule shorter than the run's other rules";
  return null;
}

/** The start of a pytest output (see {@link OutputStart}). */
export function pytestStart(facts: PytestStartFacts): OutputStart {
  const none: OutputStart = { cut: null, headMissing: null, summaryMismatch: null };
  if (facts.first === null) return none;
  const raw = facts.first;
  // Cut inside the colour code that opens the line (`\x1b[1m==== test session starts`).
  // eslint-disable-next-line no-control-regex
  if (/^(?:\[[\d;]*m|[\d;]+m|m(?=[=_\-.FEsxX\u001b]))/.test(raw)) return { ...none, cut: "the line starts inside a colour code" };
  const line = stripAnsi(raw).trimEnd();
  if (line === "") return none;
  const second = facts.second === null ? "" : stripAnsi(facts.second).trimEnd();
  const cut = lineCut(line, second, facts);
  if (cut !== null) return { ...none, cut };
  // pytest prints the session header exactly when it pads the final summary.
  const summaryMismatch = facts.padded && !facts.sawSessionHeader ? "a padded final summary without the session header" : null;
  return { ...none, headMissing: headMissing(line, facts), summaryMismatch };
}

function lineCut(line: string, second: string, facts: PytestStartFacts): string | null {
  const rule = ruleCut(line, facts.ruleWidth);
  if (rule !== null) return rule;
  // The progress mark that ends a progress line, or what is left of it: `[100%]`, `0%]`, `]`, `[ 3/10]`.
  if (/^\s*\[?\s*\d*(?:%|\/\s*\d*)?\]$/.test(line)) return "the end of a progress mark";
  // pytest right-aligns the progress mark at the terminal width (one column short of a rule).
  const progressWidth = facts.ruleWidth > 0 ? facts.ruleWidth - 1 : facts.progressWidth;
  if (PROGRESS_MARK_RE.test(line) && progressWidth > 0 && line.length < progressWidth)
    return "a progress line shorter than the run's others";
  if (startsWithCutLiteral(line, STATUS_WORDS, /^(?:\S*::\S|\[\d+\] \S+:\d+)/)) return "a result line cut inside its status word";
  if (/^\s*\[\d+\] \S+:\d+: /.test(line)) return "a `SKIPPED [N] path:line:` line without its status word";
  // A node id with no status after it (pytest prints bare ids only under `--collect-only -q`).
  const firstToken = line.split(" ", 1)[0]!;
  if (firstToken.includes("::") && !VERBOSE_RE.test(line.replace(PROGRESS_MARK_RE, ""))) return "the end of a node id";
  // Only a rule or another result line comes right before a short-summary result line.
  if (SHORT_RE.test(second) && !SHORT_RE.test(line) && pytestRuleFill(line) === 0) return "a line cut before a short-summary result line";
  // What is left of a final summary (`assed in 0.02s`, ` in 0.02s`, `0.02s`).
  if (SUMMARY_TAIL_RE.test(line) && !SUMMARY_RE.test(line)) return "the end of a final summary";
  if (/^(?:i?n )?\d*\.?\d+s$/.test(line)) return "the end of a final summary";
  // xdist's opening lines; a cut down to `...` looks like progress, which never comes before them.
  if ((/[a-z]/.test(line) && isProperSuffix(line, XDIST_OPENERS)) || startsWithCutLiteral(line, ["created: "], /^\d+\/\d+ workers?$/))
    return "an xdist line cut at its start";
  if (/^[.FEsxXR]+$/.test(line) && (XDIST_OPENERS.includes(second) || HEADER_LINES.some(([literal]) => second.startsWith(literal))))
    return "an opening line cut down to dots";
  for (const [literal, rest] of HEADER_LINES)
    if (startsWithCutLiteral(line, [literal], rest)) return "a session header line cut at its start";
  return null;
}

function headMissing(line: string, facts: PytestStartFacts): string | null {
  // Under -q the first line is the first progress line: its mark counts the tests it shows.
  const progress = FIRST_PROGRESS_RE.exec(line);
  if (progress !== null && facts.ran !== null && facts.ran > 0) {
    const shown = progress[1]!.length;
    const mark = Number(progress[2]);
    const expected = progress[3] === "%" ? Math.floor((shown * 100) / facts.ran) : shown;
    if (mark !== expected)
      return `the first progress line shows ${shown} of ${facts.ran} tests but marks ${mark}${progress[3] === "%" ? "%" : ""}`;
  }
  if (HEADER_LINES.some(([literal]) => line.startsWith(literal))) return "session header lines without the session header";
  return null;
}
