// The in-place reading of pytest lines: predicates on `text.slice(start, end)` that let the parser
// skip or read a line without the regexes (and without making a line string), and the count of a
// progress line's marks. Each predicate answers exactly what the regex path of pytest.ts would;
// test/observers/pytest-fast-path.test.ts checks it.

/** Where splitPytestIdMessage (pytest-summary.ts) would cut `text.slice(start, end)`, as an index into `text`. */
export function idEndBeforeMessage(text: string, start: number, end: number): number {
  let from = start;
  for (;;) {
    const at = text.indexOf(" - ", from);
    if (at === -1 || at + 3 > end) return end;
    const bracket = text.indexOf("[", start);
    if (bracket === -1 || bracket >= at || text.charCodeAt(at - 1) === 93) return at;
    from = at + 1;
  }
}

// Outside the header and the short summary, onLine acts only on lines that (after ANSI removal and
// trimEnd) start with one of these: section rules, summaries, markers, gates, xdist results, `PASSED `
// in captured output; or that end with `%]` (`-v` results); or that hold ANSI codes or an
// `unrecognized arguments` error, which the chunk checks in push() send to onLine whole.
export function mayAct(text: string, start: number, first: number, last: number, inCapture: boolean): boolean {
  switch (first) {
    case 61: // =
    case 45: // -
    case 95: // _
    case 110: // n
    case 33: // !
    case 43: // +
    case 91: // [
      return true;
    case 73: // I
      return text.startsWith("INTERNALERROR>", start);
    case 69: // E
      return text.startsWith("ERROR: ", start);
    case 70: // F
      return text.startsWith("FAIL Required", start);
    case 82: // R
      return text.startsWith("Required test coverage", start);
    case 80: // P
      return inCapture && text.startsWith("PASSED ", start);
    default:
      // A digit starts a final summary (`3 passed in 0.12s`, `... in 65.00s (0:01:05)`), which ends
      // with `s` or `)`; a test's log line such as `2024-05-01 12:00:00 INFO ...` does not.
      return first >= 48 && first <= 57 && (last === 115 || last === 41 || isJsWhitespace(last));
  }
}
// Before `collected N items` (all of a `-q` run's output, whose header pytest does not print), onLine acts
// on rules, summaries, markers, result lines, `rootdir:`, `collect...`, xdist's `gw0 [..]`, and keeps
// rule and progress widths. A line that starts with a digit or a lowercase letter none of those start
// with, and ends in no character they end in, only has its progress marks counted (`01_test.py ..F`):
// a test's log line such as `2024-05-01 12:00:00 INFO ...`.
export function headerIgnores(first: number, last: number): boolean {
  const digit = first >= 48 && first <= 57;
  // Not c (collected), g (gw0), n (no tests ran), r (rootdir).
  const lower = first >= 97 && first <= 122 && first !== 99 && first !== 103 && first !== 110 && first !== 114;
  if (!digit && !lower) return false;
  // Not s or ) (a summary), = - _ (a rule), ] (a progress line), whitespace (trimmed away).
  return last !== 115 && last !== 41 && last !== 61 && last !== 45 && last !== 95 && last !== 93 && !isJsWhitespace(last);
}

// TEST_HEADER_RE (`^_{3,} .* _{3,}$`) on `text.slice(start, end)`, without the regex.
export function isUnderscoreRule(text: string, start: number, end: number): boolean {
  let head = start;
  while (head < end && text.charCodeAt(head) === 95) head += 1;
  let tail = end;
  while (tail > head && text.charCodeAt(tail - 1) === 95) tail -= 1;
  // At least 3 underscores on each side, each run next to a space, and two distinct spaces.
  return head - start >= 3 && end - tail >= 3 && tail - head >= 2 && text.charCodeAt(head) === 32 && text.charCodeAt(tail - 1) === 32;
}

// May a line ending in `]` be a `-v` result (`path::id PASSED [ 42%]`)? False only when it certainly is
// not: it ends with ` [ NN%]` (ASCII) and what comes before that is not a status word or `(reason)`,
// as in the progress lines of a run without `-v` (`tests/test_x.py ..F.s   [ 10%]`).
export function mayBeVerbose(text: string, start: number, end: number): boolean {
  let at = end - 2;
  if (at <= start || text.charCodeAt(at) !== 37) return true; // %
  at -= 1;
  const digitsEnd = at;
  while (at > start && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57) at -= 1;
  if (at === digitsEnd) return true;
  while (at > start && text.charCodeAt(at) === 32) at -= 1;
  if (text.charCodeAt(at) !== 91) return true; // [
  at -= 1;
  const spacesEnd = at;
  while (at > start && text.charCodeAt(at) === 32) at -= 1;
  if (at === spacesEnd) return true;
  const before = text.charCodeAt(at);
  // PASSED, FAILED, SKIPPED end with D; ERROR with R; XFAIL with L; XPASS with S; a reason with `)`.
  // Any other whitespace or non-ASCII character: let the regexes decide.
  return before === 68 || before === 82 || before === 76 || before === 83 || before === 41 || before <= 32 || before > 126;
}

// What String.prototype.trimEnd removes.
export function isJsWhitespace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return (
    code === 160 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

// The progress marks (`..F.s`) that open `text.slice(start, end)`, after its file under default
// verbosity (`tests/a.py ..F`); read in place, no regex (it runs on every progress-section line).
export function leadingMarks(text: string, start: number, end: number): number {
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
