// A deterministic marker extractor for pytest logs, defined in Python terms (see docs/audit.md).
// It is triage, not a verdict: it reports marker lines, never whether the run passed.
import { isPythonWhitespace, splitPythonLines, stripPython } from "./python-text.js";

/** The marker lines found in a pytest log, bucketed by the first rule that matched. */
export interface PytestLogTriageResult {
  /** Stripped lines that begin with `FAILED`, whole. */
  failed: string[];
  /** Stripped lines matching `^E\s+`, with the `E` and the one whitespace character after it removed. */
  errors: string[];
  /** Other stripped lines that contain `AssertionError`, whole. */
  assertions: string[];
  /** The size of the first non-empty list in the order failed, assertions, errors; 0 when all are empty. */
  failureCount: number;
}

/**
 * Extracts `FAILED`, `E ...` and `AssertionError` lines from a pytest log with exactly the semantics
 * of the Python reference: `str.splitlines()`, `str.strip()`, `re.match(r"^E\s+", line)`, first rule
 * wins, duplicates kept. Not a verdict: zero matches prove nothing.
 *
 * @example
 * triagePytestLog("FAILED t.py::test_a - assert 1 == 2\nE   assert 1 == 2")
 * // { failed: ["FAILED t.py::test_a - assert 1 == 2"], errors: ["  assert 1 == 2"], assertions: [], failureCount: 1 }
 */
export function triagePytestLog(log: string): PytestLogTriageResult {
  const failed: string[] = [];
  const errors: string[] = [];
  const assertions: string[] = [];
  for (const raw of splitPythonLines(log)) {
    const line = stripPython(raw);
    if (line.startsWith("FAILED")) failed.push(line);
    else if (line.length >= 2 && line[0] === "E" && isPythonWhitespace(line[1]!)) errors.push(line.slice(2));
    else if (line.includes("AssertionError")) assertions.push(line);
  }
  const failureCount = failed.length || assertions.length || errors.length;
  return { failed, errors, assertions, failureCount };
}

/** @deprecated Renamed `triagePytestLog` (it triages, it proves nothing); this alias goes in the next minor version. */
export const parsePytestLog = triagePytestLog;
