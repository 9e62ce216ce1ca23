// go test: is the first line shown a piece of one of go's lines (text), or the end of an event
// (-json)? See line-start.ts for why. Pure.
import { PACKAGE_LINE_RE } from "./go-line-shapes.js";
import { isProperSuffix, startsWithCutLiteral } from "./line-start.js";
import { stripAnsi } from "./lines.js";

const FRAMING = ["=== RUN   ", "=== FUZZ  ", "=== PAUSE ", "=== CONT  ", "=== NAME  "];
const RESULTS = ["--- PASS: ", "--- FAIL: ", "--- SKIP: "];
const PACKAGES = ["ok  \t", "FAIL\t", "?   \t"];
const RESULT_RE = /^( *)--- (?:PASS|FAIL|SKIP): (\S+) \([\d.]+s\)$/;
const PACKAGE_TAIL_RE = /^\S*\t(?:\d+(?:\.\d+)?s|\(cached\)|\[(?:no test files|build failed|setup failed)\])/;
const TAILS = ["(cached)", "[no test files]", "[no tests to run]", "[build failed]", "[setup failed]", " of statements"];
// Lines go prints at the very start of a -v stream or right after a test's name.
const AFTER_NAME_RE = /^(?:=== |--- | {4}|PASS$|FAIL$|ok {2}\t|FAIL\t|fuzz: )/;
// `-fuzz`'s progress lines, with every number written 0: a first line that, numbers written 0 too, is
// a proper suffix of one of them is a piece of it.
const FUZZ_LINES = [
  "fuzz: elapsed: 0s, gathering baseline coverage: 0/0 completed",
  "fuzz: elapsed: 0s, gathering baseline coverage: 0/0 completed, now fuzzing with 0 workers",
  "fuzz: elapsed: 0s, execs: 0 (0/sec), new interesting: 0 (total: 0)",
];

/**
 * Why the first line of a go test output is a piece of one of go's lines, or null. `sawJson`: the
 * stream holds events, so a first line that ends like one (`ut","Package":"m","Output":"ok\n"}`) is
 * the tail of an event.
 */
export function goStartCut(first: string | null, second: string | null, sawJson: boolean): string | null {
  if (first === null || first.startsWith("{")) return null;
  const line = first.trimEnd();
  if (line.endsWith("}") && (sawJson || /"(?:Action|Package|Test|Output|Elapsed|Time)"\s*:/.test(line)))
    return "the stream starts inside a JSON event";
  return goTextStartCut(first, second);
}

/** Why the first line of a go test text output is a piece of one of go's lines, or null. */
export function goTextStartCut(first: string | null, second: string | null): string | null {
  if (first === null) return null;
  const line = stripAnsi(first).trimEnd();
  if (line === "") return null;
  if (startsWithCutLiteral(line, FRAMING, /^\S+$/)) return "a `=== RUN` line cut at its start";
  const result = RESULT_RE.exec(line);
  if (result !== null) {
    const indent = result[1]!.length;
    // go indents a result four spaces per subtest level: a cut inside the indentation shows.
    return indent === 4 * (result[2]!.split("/").length - 1) ? null : "a result line cut inside its indentation";
  }
  if (startsWithCutLiteral(line, RESULTS, /^\S+ \([\d.]+s\)$/)) return "a result line cut at its start";
  if (/\(\d+(?:\.\d+)?s\)$/.test(line) || /^[\d.]*s?\)$/.test(line)) return "the end of a result line";
  if (PACKAGE_LINE_RE.test(line)) return null;
  if (startsWithCutLiteral(line, PACKAGES, /^\S+(?:\t|$)/) || PACKAGE_TAIL_RE.test(line)) return "a package line cut at its start";
  if (/^\t?[\d.]*s$/.test(line) || isProperSuffix(line, TAILS) || TAILS.includes(line)) return "the end of a package line";
  if (line.endsWith(" of statements") && !line.startsWith("coverage: ")) return "the end of a coverage line";
  if (isProperSuffix(line.replace(/\d+/g, "0"), FUZZ_LINES)) return "a fuzz progress line cut at its start";
  // The end of a test's name (`=== RUN   TestAdd` cut to `Add`) or of `PASS`, right before a line go prints after one.
  const next = second === null ? "" : stripAnsi(second).trimEnd();
  if (/^[\w/#.+-]+$/.test(line) && line !== "PASS" && line !== "FAIL" && AFTER_NAME_RE.test(next))
    return "the end of a test name or status word";
  return null;
}
