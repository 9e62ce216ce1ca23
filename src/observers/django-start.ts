// unittest and Django: is the first line shown a piece of one of their lines, or does it show that the
// runner printed lines before it? See line-start.ts for why. Pure; called by django.ts at end().
import { type OutputStart, startsWithCutLiteral } from "./line-start.js";
import { stripAnsi } from "./lines.js";

const SEP = " ... ";
const STATUS_RE = /^(?:ok|FAIL|ERROR|unexpected success|expected failure|skipped (['"]).*\1)$/;
const ID_HEAD_RE = /^(\w+) \(([A-Za-z_][\w.]*)\)(?: \(.*\))?$/;
// What Django prints first, before the tests (runtests.py opens with `Testing against Django installed in '...'`).
const DJANGO_OPENERS: [string, RegExp][] = [
  ["Testing against Django installed in '", /^[^']*'(?: with up to \d+ processes)?$/],
  ["Found ", /^\d+ tests?(?:\(s\))?\.$/],
  ["System check identified ", /^(?:no issues|some issues)/],
  ["Skipping setup of unused database(s): ", /^\w/],
  ["Creating test database for alias ", /^'/],
  ["Importing application ", /^\w+$/],
  ["Ran ", /^\d+ tests? in [\d.]+s$/],
];
const DJANGO_START_RE =
  /^(?:Skipping setup of unused database|System check identified|Found \d+ test|Creating test database|Importing application |Operations to perform:|Synchronizing apps|Using existing test database)/;
// unittest's rules are exactly 70 characters (`-` * 70 and `=` * 70).
const RULE_WIDTH = 70;

/** The start of a unittest or Django output (see {@link OutputStart}). */
export function unittestStart(first: string | null, second: string | null, ran: number | null): OutputStart {
  const none: OutputStart = { cut: null, headMissing: null, summaryMismatch: null };
  if (first === null) return none;
  const line = stripAnsi(first).trimEnd();
  if (line === "") return none;
  const next = second === null ? "" : stripAnsi(second).trimEnd();
  for (const [literal, rest] of DJANGO_OPENERS)
    if (startsWithCutLiteral(line, [literal], rest)) return { ...none, cut: "a line cut at its start" };
  if (/^[^']*'(?: with up to \d+ processes)?$/.test(line) && !line.startsWith("Testing against ") && DJANGO_START_RE.test(next))
    return { ...none, cut: "the end of Django's `Testing against` line" };
  if (/^(?:-+|=+)$/.test(line) && line.length < RULE_WIDTH) return { ...none, cut: "a rule shorter than unittest's" };
  // Dots, one per test, on one line: fewer than ran means the line lost its start.
  if (/^[.sFExu]+$/.test(line) && ran !== null && line.length < ran)
    return { ...none, cut: `${line.length} progress marks for ${ran} tests` };
  const at = line.lastIndexOf(SEP);
  if (at !== -1 && STATUS_RE.test(line.slice(at + SEP.length))) {
    const head = line.slice(0, at);
    const id = ID_HEAD_RE.exec(head);
    if (id !== null) {
      const [, method, parent] = id as unknown as [string, string, string];
      const last = parent.slice(parent.lastIndexOf(".") + 1);
      // unittest runs methods named test*; from Python 3.11 the parent ends with the method's own name.
      if (!method.startsWith("test") || (last.startsWith("test") && last !== method))
        return { ...none, cut: "a result line cut inside the test's name" };
      return none;
    }
    if (head === "" || head.startsWith("(")) return { ...none, cut: "a result line cut before its status" };
    // A docstring line (`Beta has a docstring. ... ok`) comes right after its test's id line.
    return { ...none, headMissing: "a docstring result line without its test's id line" };
  }
  if (/^\.{0,3} ?(?:ok|FAIL|ERROR)$/.test(line) || line === "k") {
    return line === "ok" || line === "FAIL" || line === "ERROR"
      ? { ...none, headMissing: `a bare \`${line}\` without its test's id line` }
      : { ...none, cut: "a result line cut before its status" };
  }
  return none;
}
