// Reads claims in a language from its table of forms (one table per language, claims-<code>.ts): a
// test subject followed by a pass or fail predicate within a clause, ratios and counts, the not-run
// forms, and the words that make a sentence a plan, a hedge, hearsay or about another branch.
import type { ClaimDetector, ClaimScope, FoundClaim } from "./claims-types.js";
import { type Clause, CODE_MARK, type MessageSentence, splitClauses } from "./message-text.js";

/**
 * One language's claim forms, as regular expression sources over lowercased text. `\b` is a Unicode
 * word boundary here (JavaScript's own is ASCII only, and `é`, `ü`, `ã` are letters).
 */
export interface ClaimLanguageTable {
  /** BCP 47 code ("zh", "fr", ...). */
  code: string;
  /** English name of the language. */
  name: string;
  /** True for languages written without spaces between words (Chinese, Japanese). */
  dense: boolean;
  /** Stems of every predicate, without lookarounds: a cheap first test that most sentences fail. */
  quick: string;
  /** Nouns for tests ("tests", "pruebas", "测试"); test ids and test files are found by the engine. */
  test: string;
  /** Words that stand for tests named earlier in the sentence ("los de integración", "ceux de"). */
  standIn: string;
  /** Words that make the subject the whole suite ("tous", "alle", "所有", "suite"). */
  whole: string;
  /** Pass predicates, after their subject ("passent", "laufen grün", "全部通过"). */
  pass: string;
  /** Fail predicates, after their subject, and failure nouns after a count ("6 échecs"). */
  fail: string;
  /** A pass denied ("ne passent pas", "没有通过"): a failure report. */
  negatedPass: string;
  /** Nothing failed ("aucun test en échec", "没有失败的测试"): a pass claim, never a disclosure. */
  noFailures: string;
  /** Only some pass ("seuls", "la plupart", "只有"): a failure report. */
  partial: string;
  /** Tests were not run. */
  notRun: string;
  /** A failure told in the past or before the fix ("échouait", "修复前"). */
  past: string;
  /** Fixed ("corrigé", "修复了"): a failure in the same clause is what was fixed, not a report. */
  fixed: string;
  /** Plans, hedges, conditionals, instructions: no pass claim in the sentence, no claim in the clause. */
  hedge: string;
  /** Reported speech and other branches: no pass claim in the sentence. */
  elsewhere: string;
  /** "If" words: a failure in a sentence with one is a condition, not a report ("fails if ..."). */
  conditional: string;
  /** Plan and criterion labels ("critère", "验收标准"): see {@link ClaimDetector.framing}. */
  framing: string;
  /** Words between the two numbers of a ratio besides `/` ("von", "sur", "de"). */
  ratioWords: string;
  /** Counters between a number and its noun ("个", "件"); number words need one in dense languages. */
  counter: string;
  /** Conjunctions that start a new clause ("mais", "aber"). */
  conjunctions: string;
  /** Number words. */
  numbers: Record<string, number>;
}

const LETTER = "[\\p{L}\\p{N}_]";
// Latin-script tables take Latin letters as word letters: V8 builds a \p{L} class anew at each of the
// hundreds of word boundaries, which made the first use of a table cost 50 to 80 ms.
const LATIN_LETTER = "[\\w\\u00c0-\\u024f\\u1e00-\\u1eff]";
// Test ids and files as agents write them: test_login, tests/test_api.py::test_x, cart.test.ts, x_test.go.
const TEST_ID =
  "(?:test_[\\p{L}\\p{N}_]+|[\\w./-]*::[\\w\\[\\]./-]+|[\\w./-]+\\.(?:test|spec)\\.[a-z]+|(?:[\\w.-]+/)*test_[\\w./-]*\\.py|[\\w./-]+_test\\.(?:go|py|rb))";
const RUNNER = "(?:pytest|jest|vitest|mocha|phpunit|rspec|[a-z]+_test|cargo_test|go_test|ctest|gradlew?_test|mvn_test)";
const ARROW = /\u2192|\u21d2|=>|->|(?<![=!<>])=(?!=)/;

// `\b` where a word starts (at the start, after `|` or an opening group) or ends (elsewhere); the
// one-sided forms are cheaper than a two-sided Unicode boundary.
function compileWith(source: string, flags = "u", letter = LETTER): RegExp {
  const start = `(?<!${letter})`;
  const end = `(?!${letter})`;
  // Only the character before matters (a slice of everything before was quadratic in the source).
  return new RegExp(
    source.replace(/\\b/g, (_match: string, at: number) => (at === 0 || "|(:".includes(source[at - 1]!) ? start : end)),
    flags,
  );
}

interface Compiled {
  table: ClaimLanguageTable;
  quick: RegExp;
  mention: RegExp;
  /** Any pass, fail, not-run or nothing-failed form: a sentence with none has no claim here. */
  predicate: RegExp;
  test: RegExp;
  /** A test noun or id, or a word standing for one. */
  subject: RegExp;
  testId: RegExp;
  whole: RegExp;
  pass: RegExp;
  fail: RegExp;
  negatedPass: RegExp;
  noFailures: RegExp;
  partial: RegExp;
  notRun: RegExp;
  past: RegExp;
  fixed: RegExp;
  /** A failure count of zero after its label ("Tests Fallidos: 0/7"). */
  zeroFailures: RegExp;
  hedge: RegExp;
  elsewhere: RegExp;
  conditional: RegExp;
  ratio: RegExp;
  failLabel: RegExp;
  clauseBreak: RegExp;
  countBeforeNoun: RegExp;
  countBeforeVerb: RegExp;
  countAfterVerb: RegExp;
}

function compileTable(table: ClaimLanguageTable): Compiled {
  const letter = table.dense ? LETTER : LATIN_LETTER;
  const compile = (source: string, flags = "u"): RegExp => compileWith(source, flags, letter);
  const words = Object.keys(table.numbers)
    .sort((a, b) => b.length - a.length)
    .join("|");
  // A number word counts only as a word (Latin scripts) or before a counter (Chinese, Japanese).
  const number = table.dense ? `(?:\\d+|(?:${words})(?=\\s*(?:${table.counter})))` : `(?:\\d+|\\b(?:${words})\\b)`;
  const subject = `(?:${table.test}|${TEST_ID})`;
  const standIn = `(?:${subject}|${table.standIn})`;
  return {
    table,
    quick: new RegExp(table.quick),
    mention: compile(
      `${subject}|${RUNNER}|\\d+\\s*(?:${table.counter})\\s*(?:${table.pass}|${table.fail})|(?:${table.pass})\\s*[:\\uff1a]?\\s*\\d+\\s*/\\s*\\d+`,
    ),
    predicate: compile(`${table.pass}|${table.fail}|${table.notRun}|${table.negatedPass}|${table.noFailures}`),
    test: compile(subject),
    subject: compile(standIn),
    testId: compile(TEST_ID, "gu"),
    whole: compile(table.whole),
    pass: compile(table.pass, "gu"),
    fail: compile(table.fail, "gu"),
    negatedPass: compile(table.negatedPass),
    noFailures: compile(table.noFailures, "gu"),
    partial: compile(table.partial),
    notRun: compile(table.notRun),
    past: compile(table.past),
    fixed: compile(table.fixed),
    zeroFailures: compile(`(?:${table.fail})\\s*[:\\uff1a]\\s*0(?![\\d.,])`),
    hedge: compile(table.hedge),
    elsewhere: compile(table.elsewhere),
    conditional: compile(table.conditional),
    ratio: compile(`(?<![\\d./])(\\d{1,6})\\s*(?:/|\\b(?:${table.ratioWords})\\b)\\s*(\\d{1,6})(?![\\d./])`, "gu"),
    failLabel: compile(`(?:${table.fail})\\s*[:\\uff1a]\\s*(\\d+)`),
    clauseBreak: compile(
      `[,\\uff0c\\u3001;\\uff1b:\\uff1a()\\uff08\\uff09\\u2192]|\\s[-\\u2013\\u2014]+\\s|--|\\s(?:${table.conjunctions})\\s|${table.dense ? `(?:${table.conjunctions})` : "(?!)"}`,
      "gu",
    ),
    countBeforeNoun: compile(
      `(${number})\\s*(?:${table.counter})?\\s*(?:[\\p{L}\\p{N}/-]+\\s+){0,2}?${table.dense ? "[^\\d]{0,3}?" : ""}(?:${table.test})`,
      "gu",
    ),
    countBeforeVerb: compile(table.dense ? `(${number})\\s*(?:${table.counter})\\s*[^\\d\\s]{0,2}$` : `(${number})\\s+(?:[\\p{L}]+\\s+)?$`),
    countAfterVerb: compile(`^\\s*[:\\uff1a]?\\s*(\\d+)\\s*(?:${table.counter}|(?![\\p{L}\\p{N}_]))`),
  };
}

function toNumber(table: ClaimLanguageTable, word: string): number {
  return table.numbers[word] ?? Number(word);
}

// The lowercased sentence with each inline code span's content in its place, spaces joined by "_"
// so a command (`npm test`) stays one token and a test id (`test_login`) or a branch (`main`) is read.
function prepare(sentence: MessageSentence): string {
  if (sentence.code.size === 0) return sentence.lower;
  let text = "";
  let at = 0;
  for (const [offset, content] of [...sentence.code].sort((a, b) => a[0] - b[0])) {
    text += sentence.masked.slice(at, offset) + content.replace(/[\s=>\u2192]+/g, "_");
    at = offset;
    while (at < sentence.masked.length && sentence.masked[at] === CODE_MARK) at += 1;
  }
  return (text + sentence.masked.slice(at)).toLowerCase();
}

function lastMatch(pattern: RegExp, text: string): RegExpExecArray | null {
  let last: RegExpExecArray | null = null;
  pattern.lastIndex = 0;
  for (const match of text.matchAll(pattern)) last = match;
  return last;
}

// The scope of a claim whose predicate starts at `at` in the clause: the whole suite, a count, named
// tests, or unspecified (a pass prefers the whole suite to its count: "all 72 tests pass").
function scopeAt(c: Compiled, kind: "pass" | "fail", clause: string, at: number, predicate: string): ClaimScope {
  const left = clause.slice(0, at);
  const count =
    lastMatch(c.countBeforeNoun, left) ??
    c.countBeforeVerb.exec(left) ??
    (kind === "fail" ? c.countAfterVerb.exec(clause.slice(at + predicate.length)) : null);
  const whole = c.whole.test(left) || c.whole.test(predicate) || /100\s*%/.test(left);
  if (kind === "pass" && whole) return { kind: "suite" };
  if (count) return { kind: "count", count: toNumber(c.table, count[1]!) };
  const ids = [...left.matchAll(c.testId)].map((match) => match[0]);
  if (ids.length > 0) return { kind: "targets", targets: ids };
  return whole ? { kind: "suite" } : { kind: "unspecified" };
}

// Predicate matches with a subject before them in the clause: a test noun or id, a word standing for
// one ("los de integración"), or a count right before ("deux échouent", "8件失敗"); the sentence
// itself is about tests.
function predicates(c: Compiled, pattern: RegExp, clause: string): RegExpExecArray[] {
  pattern.lastIndex = 0;
  const subject = c.subject.exec(clause);
  const subjectEnd = subject === null ? Number.POSITIVE_INFINITY : subject.index + subject[0].length;
  // The count sits right before the predicate: a short tail is enough (and keeps long clauses linear).
  return [...clause.matchAll(pattern)].filter(
    (match) => subjectEnd <= match.index || c.countBeforeVerb.test(clause.slice(Math.max(0, match.index - 24), match.index)),
  );
}

function inside(index: number, spans: readonly RegExpExecArray[]): boolean {
  return spans.some((span) => index >= span.index && index < span.index + span[0].length);
}

// Ratios ("8/12 tests pasando", "7 von 7 Tests bestanden", "通过: 270/270") next to a test noun or
// right beside a predicate: with a fail predicate after it the first number fails ("18/20 tests
// siguen fallando"; "0/7" fails none); with a pass predicate a full ratio is a count, and full
// ratios before one predicate add up ("167/167 ... und 56/56 ... sind grün"); a short one is a
// failure count. A ratio told as before the fix ("vorher 12/13") is history.
function ratioClaims(c: Compiled, text: string, passBlocked: (index: number) => boolean): FoundClaim[] {
  const claims: FoundClaim[] = [];
  const passTotals = new Map<number, { total: number; whole: boolean; at: number }>();
  for (const ratio of text.matchAll(c.ratio)) {
    const first = Number(ratio[1]);
    const total = Number(ratio[2]);
    if (first > total || total === 0) continue;
    const end = ratio.index + ratio[0].length;
    const before =
      text
        .slice(Math.max(0, ratio.index - 40), ratio.index)
        .split(/[,\uff0c\u3001;\uff1b]/)
        .at(-1) ?? "";
    const after = text.slice(end, end + 160).split(/[,\uff0c\u3001;\uff1b(\uff08]/)[0] ?? "";
    if (c.past.test(before.slice(-12))) continue;
    c.fail.lastIndex = 0;
    c.pass.lastIndex = 0;
    const failAfter = c.fail.exec(after);
    const passAfter = c.pass.exec(after);
    const passBefore = lastMatch(c.pass, before);
    const adjacent =
      (passBefore !== null && passBefore.index + passBefore[0].length >= before.trimEnd().length - 2) ||
      (passAfter !== null && passAfter.index <= 2);
    if (!c.test.test(`${before} ${after}`) && !adjacent && !(failAfter && failAfter.index <= 2)) continue;
    if (failAfter && (passAfter === null || failAfter.index < passAfter.index)) {
      if (first > 0) claims.push({ kind: "fail", scope: { kind: "count", count: first } });
    } else if (passAfter === null && passBefore === null) continue;
    else if (first < total) claims.push({ kind: "fail", scope: { kind: "count", count: total - first } });
    else if (!passBlocked(ratio.index)) {
      const key = passAfter === null ? -ratio.index - 1 : end + passAfter.index;
      const held = passTotals.get(key);
      passTotals.set(key, {
        total: (held?.total ?? 0) + total,
        whole: (held?.whole ?? false) || c.whole.test(before),
        at: held?.at ?? ratio.index,
      });
    }
  }
  for (const { total, whole } of passTotals.values())
    claims.push({ kind: "pass", scope: whole ? { kind: "suite" } : { kind: "count", count: total } });
  return claims;
}

// An arrow makes what follows it an expected result ("`pytest` → all tests pass"), unless a bracket
// or a clause break comes between ("(intake → generator) con 37 tests en verde").
function arrowBefore(text: string, index: number): boolean {
  const left = text.slice(0, index);
  let last = -1;
  for (const match of left.matchAll(new RegExp(ARROW.source, "g"))) last = match.index;
  return last >= 0 && !/[),;:\uff09\uff0c\uff1b\uff1a]/.test(left.slice(last));
}

function detectInTable(c: Compiled, sentence: MessageSentence): FoundClaim[] {
  if (!c.quick.test(sentence.lower)) return [];
  const text = prepare(sentence);
  if (!c.predicate.test(text) || !c.mention.test(text)) return [];
  const passHedged = c.hedge.test(text) || c.elsewhere.test(text);
  const passBlocked = (index: number): boolean => passHedged || arrowBefore(text, index);
  const claims = ratioClaims(c, text, passBlocked);
  const label = c.failLabel.exec(text);
  if (label && Number(label[1]) > 0 && !c.hedge.test(text))
    claims.push({ kind: "fail", scope: { kind: "count", count: Number(label[1]) } });
  for (const clause of splitClauses(text, c.clauseBreak).filter((part) => part.text.trim().length > 0)) {
    if (c.hedge.test(clause.text) || /(?<![=!<>])=(?!=)/.test(clause.text)) continue;
    claims.push(...detectInClause(c, clause, passBlocked));
  }
  // "Ein Test schlägt fehl, wenn sie veralten": a failure under a condition is no report of one;
  // "Tests Fallidos: 0/7" counts none.
  const noFailure = c.conditional.test(text) || (c.zeroFailures.test(text) && !(label && Number(label[1]) > 0));
  return noFailure ? claims.filter((claim) => claim.kind === "pass") : claims;
}

function detectInClause(c: Compiled, clause: Clause, passBlocked: (index: number) => boolean): FoundClaim[] {
  const text = clause.text;
  if (c.notRun.test(text)) return [{ kind: "not-run", scope: { kind: "unspecified" } }];
  const passes = predicates(c, c.pass, text);
  if (c.negatedPass.test(text) && (c.test.test(text) || passes.length > 0)) return [{ kind: "fail", scope: { kind: "unspecified" } }];
  c.noFailures.lastIndex = 0;
  const none = [...text.matchAll(c.noFailures)];
  const fails = predicates(c, c.fail, text).filter((match) => !inside(match.index, none));
  if (fails.length > 0 && !c.fixed.test(text)) {
    const fail = fails[0]!;
    const past = c.past.test(text) ? { past: true as const } : {};
    const scope = scopeAt(c, "fail", text, fail.index, fail[0]);
    // "0 échecs" counts no failure.
    if (scope.kind !== "count" || scope.count > 0) return [{ kind: "fail", scope, ...past }];
  }
  if (passes.length > 0 && c.partial.test(text.slice(0, passes[0]!.index + passes[0]![0].length)))
    return [{ kind: "fail", scope: { kind: "unspecified" } }];
  const pass = passes[0];
  if (pass && !passBlocked(clause.offset + pass.index)) return [{ kind: "pass", scope: scopeAt(c, "pass", text, pass.index, pass[0]) }];
  if (none.length > 0 && !passBlocked(clause.offset + none[0]!.index)) return [{ kind: "pass", scope: { kind: "unspecified" } }];
  return [];
}

/** Makes a {@link ClaimDetector} from one language's table of forms. */
export function createTableDetector(table: ClaimLanguageTable): ClaimDetector {
  const compiled = compileTable(table);
  return {
    code: table.code,
    name: table.name,
    framing: compileWith(table.framing, "u", table.dense ? LETTER : LATIN_LETTER),
    detect: (sentence) => detectInTable(compiled, sentence),
  };
}
