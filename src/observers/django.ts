// unittest text output (Django's runtests.py / manage.py test and `python -m unittest`) -> dotted ids
// `app.tests.Case.test_x`, `Ran N tests`, `OK` / `FAILED (...)` / `NO TESTS RAN`.
import type { RunnerKind } from "../types.js";
import { unittestStart } from "./django-start.js";
import { HeadLines } from "./line-start.js";
import { classifyIds, createLineSplitter, FAIL, Findings, PASS, SKIP, stripAnsi } from "./lines.js";
import type { FinalSummary, OutputParser, ParsedRunOutput } from "./types.js";

// `test_x (app.tests.Case)` before Python 3.11, `test_x (app.tests.Case.test_x)` after; an optional
// subTest suffix `(i=1)`. Group 1: method, 2: parent, 3: subtest params, 4: the rest of the line.
const ID_RE = /^(\w+) \(([A-Za-z_][\w.]*)\)(?: \((.*?)\))?( \.\.\. .*)?$/;
const ID_DOTS_RE = /^(\w+) \(([A-Za-z_][\w.]*)\)(?: \((.*?)\))? \.\.\. /;
const RAN_RE = /^Ran (\d+) tests? in [\d.]+s$/;
const OK_RE = /^OK(?: \((.*)\))?$/;
const FAILED_RE = /^FAILED \((.*)\)$/;
const ERROR_HEADER_RE = /^(FAIL|ERROR|UNEXPECTED SUCCESS): (\w+) \(([A-Za-z_][\w.]*)\)/;
const SEP = " ... ";

/** The status words unittest prints after ` ... `. */
export function readUnittestStatus(text: string): number | null {
  if (text === "ok") return PASS;
  if (text === "FAIL" || text === "ERROR" || text === "unexpected success") return FAIL;
  if (text === "expected failure" || /^skipped (['"]).*\1$/.test(text)) return SKIP;
  return null;
}

/** Builds the dotted id from `method (parent)`: the parent already ends with `.method` from Python 3.11. */
export function unittestId(method: string, parent: string): string {
  return parent.endsWith(`.${method}`) ? parent : `${parent}.${method}`;
}

function readCounts(text: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const part of text.split(", ")) {
    const match = /^([a-z ]+)=(\d+)$/.exec(part);
    if (match !== null) counts[match[1]!] = Number(match[2]);
  }
  return counts;
}

/** Creates an incremental unittest/Django output parser; `kind` labels the result. */
export function createDjangoParser(kind: Extract<RunnerKind, "django" | "unittest"> = "django"): OutputParser {
  const findings = new Findings();
  const flags = new Map<string, number>();
  /** The test whose ` ... ` was printed and whose status has not come yet. */
  let open: string | null = null;
  /** An id line without ` ... `: its first docstring line follows, then ` ... status`. */
  let awaitingDoc: string | null = null;
  /** The last time an open test was displaced by another id line (a real next test, or a test's own output). */
  let displaced: { prev: string; by: string; byBits: number | null } | null = null;
  let ran: { count: number; line: number; text: string } | null = null;
  let summary: FinalSummary | null = null;
  let summaryCount = 0;
  let lineNo = 0;
  const head = new HeadLines();

  const setStatus = (id: string, bits: number): void => {
    flags.set(id, (flags.get(id) ?? 0) | bits);
    if (displaced !== null && displaced.by === id) displaced.byBits = bits;
  };

  // Handles what follows ` ... ` for the open test: a status, nothing yet, another id, or output.
  const onRemainder = (rest: string): void => {
    if (open === null) return;
    const bits = readUnittestStatus(rest);
    if (bits !== null) {
      setStatus(open, bits);
      open = null;
      return;
    }
    if (rest === "") return;
    const next = ID_DOTS_RE.exec(rest);
    if (next !== null && next[3] === undefined) {
      const id = unittestId(next[1]!, next[2]!);
      displaced = { prev: open, by: id, byBits: null };
      open = id;
      onRemainder(rest.slice(next[0].length));
    }
  };

  const onStatusOnly = (bits: number, line: string): void => {
    if (open !== null) {
      setStatus(open, bits);
      open = null;
      return;
    }
    // A status with no test waiting: the id line that took it was printed by the displaced test itself.
    findings.forge("orphan-status", lineNo, line);
    if (displaced !== null && displaced.byBits !== null) {
      flags.delete(displaced.by);
      setStatus(displaced.prev, bits);
      displaced = null;
    }
  };

  const onIdLine = (match: RegExpExecArray): void => {
    const id = unittestId(match[1]!, match[2]!);
    if (match[3] !== undefined) {
      // Python 3.11+: `  test_x (...) (i=1) ... FAIL` for a failing subTest; the test stays open.
      const rest = (match[4] ?? "").slice(SEP.length);
      const bits = readUnittestStatus(rest);
      if (bits === FAIL) flags.set(id, (flags.get(id) ?? 0) | FAIL);
      return;
    }
    if (open !== null) displaced = { prev: open, by: id, byBits: null };
    if (match[4] === undefined) {
      open = null;
      awaitingDoc = id;
      return;
    }
    open = id;
    onRemainder(match[4].slice(SEP.length));
  };

  const onSummaryLine = (line: string): boolean => {
    const ranMatch = RAN_RE.exec(line);
    if (ranMatch !== null) {
      summaryCount += 1;
      if (summaryCount > 1) findings.forge("multiple-summaries", lineNo, line);
      ran = { count: Number(ranMatch[1]), line: lineNo, text: line };
      if (ran.count === 0) findings.mark("no-tests-ran", lineNo, line);
      open = null;
      awaitingDoc = null;
      return true;
    }
    if (ran === null) return false;
    const ok = OK_RE.exec(line);
    const failed = ok === null ? FAILED_RE.exec(line) : null;
    if (ok === null && failed === null && line !== "NO TESTS RAN") return false;
    const counts = readCounts(ok?.[1] ?? failed?.[1] ?? "");
    counts.ran = ran.count;
    const notPassed =
      (counts.failures ?? 0) +
      (counts.errors ?? 0) +
      (counts.skipped ?? 0) +
      (counts["expected failures"] ?? 0) +
      (counts["unexpected successes"] ?? 0);
    counts.passed = Math.max(0, ran.count - notPassed);
    if (line === "NO TESTS RAN") findings.mark("no-tests-ran", lineNo, line);
    summary = { counts, line: ran.line, text: `${ran.text} / ${line}` };
    return true;
  };

  const onLine = (raw: string): void => {
    lineNo += 1;
    head.note(raw, 0, raw.length);
    const trimmed = stripAnsi(raw).trimEnd();
    if (trimmed === "") return;
    // Keep the space of a trailing ` ... ` (the status or the test's output comes later).
    const line = trimmed.endsWith(" ...") ? `${trimmed} ` : trimmed;
    if (onSummaryLine(trimmed)) return;
    const header = ERROR_HEADER_RE.exec(line);
    if (header !== null) {
      flags.set(unittestId(header[2]!, header[3]!), (flags.get(unittestId(header[2]!, header[3]!)) ?? 0) | FAIL);
      open = null;
      return;
    }
    const id = ID_RE.exec(line.startsWith("  ") ? line.trimStart() : line);
    if (id !== null && ran !== null) {
      // unittest prints every result before `Ran N tests`; later id lines are a test's buffered stdout.
      findings.forge("result-after-summary", lineNo, line);
      return;
    }
    if (id !== null && (id[3] !== undefined || !line.startsWith(" "))) {
      if (awaitingDoc !== null && id[4] === undefined) awaitingDoc = null;
      if (awaitingDoc === null) {
        onIdLine(id);
        return;
      }
    }
    if (awaitingDoc !== null) {
      // The first docstring line, then ` ... ` and the status (or output, then the status later).
      const at = line.indexOf(SEP);
      const doc = awaitingDoc;
      awaitingDoc = null;
      if (at === -1 && line.endsWith(" ...")) {
        open = doc;
        return;
      }
      if (at === -1) return;
      open = doc;
      onRemainder(line.slice(at + SEP.length));
      return;
    }
    const bits = readUnittestStatus(line);
    if (bits !== null) {
      onStatusOnly(bits, line);
      return;
    }
  };

  const splitter = createLineSplitter(onLine);
  return {
    push: (chunk) => splitter.push(chunk),
    end(): ParsedRunOutput {
      splitter.end();
      if (open !== null || awaitingDoc !== null) findings.mark("incomplete", lineNo, `no status for ${open ?? awaitingDoc ?? ""}`);
      const ids = classifyIds(flags);
      const finalSummary: FinalSummary | null = summary;
      if (finalSummary === null && ran !== null) findings.mark("incomplete", lineNo, "Ran N tests without OK or FAILED");
      // Python 3.12 stopped counting skipped tests in `Ran N`, so only more passes than tests run is a sure sign.
      if (finalSummary !== null && ids.passed.length > (finalSummary.counts.ran ?? 0)) {
        findings.forge("ids-exceed-summary", finalSummary.line, `${ids.passed.length} passed ids, Ran ${finalSummary.counts.ran ?? 0}`);
      }
      return {
        kind,
        ...ids,
        summary: finalSummary,
        summaryCount,
        ...findings.runFields(lineNo),
        start: unittestStart(head.first, head.second, ran?.count ?? null),
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

/** Parses a whole unittest/Django output at once (see {@link createDjangoParser}). */
export function parseDjango(text: string, kind: Extract<RunnerKind, "django" | "unittest"> = "django"): ParsedRunOutput {
  const parser = createDjangoParser(kind);
  parser.push(text);
  return parser.end();
}
