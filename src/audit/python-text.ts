// Python's text primitives, reproduced exactly: the triage tool is specified in Python terms, and
// JavaScript's `trim()`, `\s` and line splitting use different character sets.

/**
 * Python's whitespace set (`str.isspace()`, also what `str.strip()` removes and what `re`'s `\s`
 * matches for str patterns). Unlike JavaScript's `\s` it includes U+001C..U+001F and U+0085, and
 * excludes U+FEFF.
 */
export const PYTHON_WHITESPACE =
  "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";

const WHITESPACE = new Set(PYTHON_WHITESPACE);
// `\r\n` first so it counts as one break, as in `str.splitlines()`. The control characters are the
// point: Python breaks lines at the file, group and record separators.
// eslint-disable-next-line no-control-regex
const LINE_BREAK = /\r\n|[\n\v\f\r\x1c\x1d\x1e\x85\u2028\u2029]/g;

/** True when `char` (one UTF-16 unit) is whitespace for Python's `str.isspace()`. */
export function isPythonWhitespace(char: string): boolean {
  return WHITESPACE.has(char);
}

/** Splits `text` into lines exactly as Python's `str.splitlines()` does (no trailing empty line). */
export function splitPythonLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (const match of text.matchAll(LINE_BREAK)) {
    lines.push(text.slice(start, match.index));
    start = match.index + match[0].length;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/** Removes leading and trailing Python whitespace, exactly as Python's `str.strip()` does. */
export function stripPython(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && WHITESPACE.has(text[start]!)) start += 1;
  while (end > start && WHITESPACE.has(text[end - 1]!)) end -= 1;
  return text.slice(start, end);
}
