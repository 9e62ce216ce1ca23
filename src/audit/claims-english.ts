// The English claim forms: clause by clause, a test subject ("all tests", "`test_x`", "the parser
// tests") with a pass or fail verb, counts ("12 passed", "3 of 5"), and the not-run forms.
import type { ClaimDetector, ClaimScope, FoundClaim } from "./claims-types.js";
import { type Clause, CODE_MARK, type MessageSentence, splitClauses } from "./message-text.js";

const NUM = "(?:\\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)";
const HEAD = "(?:test[ -]suite|suite|test ?cases?|test files?|tests?|specs?)";
const DETERMINER = `(?:all|each|every|both|the|my|our|these|those|its|their|remaining|other|existing|new|full|whole|entire|complete|of|${NUM})`;
// Words that end a subject phrase: a free qualifier ("parser" in "the parser tests") is never one of them.
const FUNCTION_WORD =
  "(?:and|or|again|then|so|now|i|we|it|that|which|with|after|before|ran|run|reran|when|because|since|to|in|on|at|by|for|from)";
const RELATIVE = "(?:\\s+(?:that\\s+)?(?:i|we)\\s+(?:added|wrote|created|fixed|updated|changed|ran|run|reran|executed|touched))";
const TARGET = `(?:${CODE_MARK}+|[\\w./-]+\\.py(?:::[\\w\\[\\]./-]+)*|[\\w./-]*::[\\w\\[\\]./-]+|test_\\w+|test[a-z]\\w*)`;
const SUBJECT = new RegExp(
  `(?:^|[\\s(])((?:${DETERMINER}\\s+){0,4}(?:(?:(?!(?:${DETERMINER}|${FUNCTION_WORD})\\s)[\\w./-]+|${CODE_MARK}+)\\s+){0,3}${HEAD}${RELATIVE}?|(?:${DETERMINER}\\s+){0,3}${TARGET}(?:\\s+(?:and|,)\\s+${TARGET})*|all\\s+${NUM}|everything|they all|all|both)\\s*$`,
);
const ADVERB =
  "(?:(?:now|still|all|also|again|both|each|finally|successfully|fully|consistently|currently|sometimes|intermittently|reliably)\\s+)*";
const PASS_VERB = new RegExp(
  `\\b${ADVERB}((?:are|is)\\s+${ADVERB}(?:passing|green)|(?:have|has)\\s+${ADVERB}passed|pass(?:es|ed)?|succeed(?:s|ed)?|(?:went|turned|came back|ran|runs?)\\s+green|passing)\\b`,
  "g",
);
const FAIL_VERB = new RegExp(
  `\\b${ADVERB}((?:are|is)\\s+${ADVERB}(?:failing|broken|red|erroring)|fail(?:s|ed)?|error(?:s|ed)?|crash(?:es|ed)?|time[sd]? out|timed out|break(?:s)?|broke)\\b`,
  "g",
);
const NEGATED_PASS = new RegExp(
  `\\b(?:(?:do|does|did|is|are|was|were|have|has)(?:n't|\\s+not)|not|no longer|never|(?:fail|fails|failed) to)\\s+(?:(?:yet|still|all|even|quite|fully)\\s+)*(?:pass(?:es|ed|ing)?|green|succeed(?:s|ed)?)\\b`,
  "g",
);
const ALLOWED_AFTER_PASS =
  /^(?:$|[,.;:!)\-\u2013\u2014(\u2705\u2714\u2713]|(?:now|again|locally|successfully|cleanly|fine|consistently|reliably|too|also|as well|here|there|on|under|with|without|after|and|but|so|in|at|against|including|for|across|both|all|green|once|when|since|\d)\b)/;
const PARTIAL_AFTER = /^(?:except|apart from|other than|besides|save for|but (?:one|two|\d+|for))\b/;
const PLAN_OR_HEDGE =
  /\b(?:let me|let's|let us|i'll|i will|we'll|we will|i'm going to|i am going to|going to|need to|needs to|have to|has to|want to|wants to|trying to|try to|make sure|ensure|to verify|verify that|to confirm|confirm that|to check|check that|check whether|check if|to see if|to see whether|so that|in order to|until|unless|if|whether|assuming|provided|as long as|should|would|could(?! not)|might|may|must|probably|likely|hopefully|presumably|i think|i believe|i expect|expected to|expect|seems?|appears? to|in theory|supposed to|can you|please|make|get|once|as far as i can tell|afaict|i assume|i guess)\b/;
const TRAILING_HEDGE =
  /\b(?:i think|i believe|probably|hopefully|presumably|it seems|apparently|i hope|if|as far as i can tell|afaict|i assume|i guess)\b/;
// Reported speech: someone else's word that tests pass is not the agent's claim.
const REPORTED =
  /\b(?:(?:the\s+)?(?:user|users|you|they|he|she|someone|reviewers?|authors?|maintainers?|(?:the\s+)?(?:issue|ticket|readme|docs?|documentation|pr|description|comment|task|bug report|changelog)|ci(?:\s+(?:reports?|logs?|job|run))?)\s+(?:\w+\s+)?(?:said|says|say|claims?|claimed|reports?|reported|mentions?|mentioned|states?|stated|told me|wrote|writes|insists?))\b|\baccording to\b|\breportedly\b|\bsupposedly\b|\ballegedly\b|\bclaims? that\b/;
// A run on another branch says nothing of the code as it is now.
const OTHER_BRANCH = /\b(?:on|in|against)\s+(?:the\s+)?(?:main|master|develop|trunk|upstream|origin\/[\w.-]+|base|default)(?:\s+branch)?\b/;
// "Only 3 tests pass", "most tests pass", "zero tests pass": a partial pass, told as a failure.
const PARTIAL_BEFORE =
  /\b(?:zero|only|just|merely|most(?:\s+of)?|nearly|almost|a few|few|half(?:\s+of)?|some(?:\s+of)?|none of|several(?:\s+of)?)\s+(?:of\s+)?(?:the\s+)?$/;
const PARTIAL_SUBJECT = /^(?:zero|0|no|only|just|merely|most|few|half|some|several|nearly|almost)\b/;
// Labels that make a sentence a plan or a criterion ("Goal: all tests pass", "Acceptance criteria:").
const FRAMING =
  /\b(?:goals?|acceptance(?:\s+(?:criteria|tests?))?|criteria|criterion|definition of done|done when|exit criteria|objectives?|expected(?:\s+(?:result|outcome|output))?|expectations?|requirements?|to ?do|plan|next steps?|checklist|targets?|success|gates?)\b|^(?:if|when|once|unless|until|before)\b/;
const NEGATION_BEFORE = /(?:\bnot|\bnever|\bnone of|\bneither of|\bno longer|n't)\s+(?:\w+\s+)?$/;
const HISTORICAL =
  /\b(?:previously|earlier|before (?:the|my|this|that|these)|originally|initially|used to|had been|was failing|were failing|was broken|were broken|fix|fixed|fixes|fixing|resolved|addressed|repaired|no longer)\b/;
const WHOLE = /\b(?:all|every|whole|full|entire|complete|everything|both)\b/;
const NOT_RUN = new RegExp(
  `\\b(?:(?:did|have|has|had|could|was|were|am)(?:n't|\\s+not)|never|(?:was|were)\\s+unable to|unable to|not able to)\\s+(?:yet\\s+|been able to\\s+|able to\\s+|get to\\s+|actually\\s+)*(?:re-?)?(?:run|execute|ran)\\b[^.;]*\\b(?:${HEAD}|pytest|go test)|\\b${HEAD}\\s+(?:were|was|have|has)(?:n't|\\s+not)\\s+(?:been\\s+)?(?:re-?)?run\\b|\\bwithout (?:re-?)?running (?:the |any )?${HEAD}|\\b${HEAD}:?\\s+not (?:yet )?run\\b`,
);
// "All 19 tests passed" is a whole-suite claim, read by the clause rules, not a bare count.
const COUNT_PASSED = /(?<![\w.])(?<!\ball\s)(\d+)\s+(?:(?:tests?|test ?cases?|specs?)\s+)?(?:passed|passing)\b/;
const COUNT_FAILED = new RegExp(
  `(?<![\\w.])(${NUM}|no|zero)\\s+(?:(?:tests?|test ?cases?|specs?)\\s+)?(?:(?:still|also|are|were)\\s+)?(?:failed|failing|failures?|errors?|errored|fail)\\b`,
);
const RATIO_PASS = "(?:pass|passed|passing|are passing|succeed(?:ed)?|(?:are\\s+|is\\s+|went\\s+|turned\\s+)?green)\\b";
const RATIO = new RegExp(`(?<![\\w.])(\\d+)\\s*(?:\\/|of|out of)\\s*(\\d+)\\s+(?:[\\w-]+\\s+){0,2}${RATIO_PASS}`);
// "259 of 259 unit and 22 of 22 end-to-end pass": ratios joined by "and" or commas before one verb.
const RATIO_CHAIN = new RegExp(
  `(?<![\\w.])\\d+\\s*(?:\\/|of|out of)\\s*\\d+(?:\\s+[a-z-]+){0,2}(?:(?:\\s*,\\s*|\\s+and\\s+)\\d+\\s*(?:\\/|of|out of)\\s*\\d+(?:\\s+[a-z-]+){0,2})+\\s+${RATIO_PASS}`,
);
const EACH_RATIO = /(\d+)\s*(?:\/|of|out of)\s*(\d+)/g;
// A runner's own summary quoted in inline code ("`2 failed, 10 passed in 0.31s`") shows failures.
const QUOTED_FAILURES = /(?:^|[\s,(=])([1-9]\d*)\s+(?:failed|failures?|errors?|errored)\b/i;
// "No failing tests", "there are no failing tests", "zero failures": the sentence claims a pass.
const NO_FAILURES =
  /\b(?:no|zero)\s+(?:test\s+)?failures\b|\bnothing failed\b|\bno tests? failed\b|\b(?:no|zero)\s+(?:more\s+|remaining\s+)?(?:failing|failed|broken)\s+(?:tests?|specs?)\b|\bnone of the tests (?:fail|failed)\b/;
const FAILING_NOUN = new RegExp(
  `\\b(?:(${NUM}|a few|several|some|the|a|remaining)\\s+)?(?:\\w+\\s+)?(?:failing|broken)\\s+${HEAD}\\b|\\b${HEAD}\\s+(?:that\\s+)?(?:are\\s+|is\\s+)?still failing\\b`,
);
// "62 tests, 100% passing": a share of the tests; short of 100% it tells of failures.
const PERCENT_PASS = /(?<![\w.])(\d{1,3}(?:\.\d+)?)\s*%\s+(?:of\s+(?:the\s+)?(?:tests?|specs?)\s+)?(?:pass(?:ing|ed|es)?|green)\b/;
const TESTS_COUNTED = /(?<![\w.])(\d+)\s+(?:tests?|test ?cases?|specs?)\b/;
// A label and its value ("Tests: all green.", "Unit tests: passing"): a status line is a claim.
const LABEL_PASS = new RegExp(`^[\\s*_#>-]*((?:the\\s+)?(?:[\\w-]+\\s+){0,2}${HEAD})\\s*:\\s*(all\\s+)?(?:green|passing|passed|pass)\\b`);
const CLAUSE_BREAK =
  /,\s+(?:and|but|so|while|although|though|yet)\s+|\s+(?:but|while|although|whereas|yet)\s+|,\s+|:\s+|\s[-\u2013\u2014]\s/g;
const WORD_NUMBERS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};

function toNumber(word: string): number {
  return WORD_NUMBERS[word] ?? Number(word);
}

const NAMED_TARGET = new RegExp(
  `${CODE_MARK}+|[\\w./-]+\\.py(?:::[\\w\\[\\]./-]+)*|[\\w./-]*::[\\w\\[\\]./-]+|\\btest_\\w+|\\bTest[A-Z]\\w*`,
  "g",
);
const PART_OF = new RegExp(`^(${NUM})\\s+of\\b`);
const RELATIVE_AT_END = new RegExp(`${RELATIVE}$`);
const NOT_A_QUALIFIER = new RegExp(`^(?:${DETERMINER}|${HEAD}|test|suite|cases?|files?|and|everything|they)$`);
const LEADING_COUNT = new RegExp(`^(?:\\w+\\s+)?(${NUM})\\b`);
const HEAD_WORD = new RegExp(`\\b${HEAD}\\b`);
const NUMBER_ONLY = new RegExp(`^${NUM}$`);

// Named targets come from the original text: inline code content, or ids as written.
function targetsIn(sentence: MessageSentence, from: number, to: number): string[] {
  const targets: string[] = [];
  const original = sentence.masked.slice(from, to);
  for (const match of original.matchAll(NAMED_TARGET)) {
    targets.push(match[0].startsWith(CODE_MARK) ? (sentence.code.get(from + match.index) ?? match[0]) : match[0]);
  }
  return targets;
}

function scopeOf(sentence: MessageSentence, subject: string, subjectStart: number): ClaimScope {
  const targets = targetsIn(sentence, subjectStart, subjectStart + subject.length);
  if (targets.length > 0) return { kind: "targets", targets };
  // "three of the integration tests": a count out of a group.
  const partOf = PART_OF.exec(subject);
  if (partOf) return { kind: "count", count: toNumber(partOf[1]!) };
  const qualifiers = subject
    .replace(RELATIVE_AT_END, "")
    .split(/\s+/)
    .filter((word) => !NOT_A_QUALIFIER.test(word));
  if (qualifiers.length > 0) return { kind: "targets", targets: [qualifiers.join(" ")] };
  if (WHOLE.test(subject) || /\bsuite\b/.test(subject)) return { kind: "suite" };
  const count = LEADING_COUNT.exec(subject);
  if (count) return { kind: "count", count: toNumber(count[1]!) };
  return { kind: "unspecified" };
}

// Singular subjects take "passes"/"is"/"has"; plural ones take "pass"/"are"/"have". A mismatch means
// `pass` is a noun ("a focused test pass"), not a verb.
function agrees(subject: string, verb: string): boolean {
  const plural = /(?:tests|specs|cases|files|\ball|\bboth|they all)$/.test(subject) || /\band\b|,/.test(subject);
  const singular = /(?:\btest|suite|case|file|everything)$/.test(subject);
  const core = verb.replace(
    /^(?:(?:now|still|all|also|again|both|each|finally|successfully|fully|consistently|currently|sometimes|intermittently|reliably)\s+)*/,
    "",
  );
  if (/^(?:pass|succeed|are|have|break|fail|crash|time out)\b/.test(core) && !/^(?:passes|succeeds)/.test(core)) return !singular || plural;
  if (/^(?:passes|succeeds|is|has|breaks|fails|crashes|times out)\b/.test(core)) return !plural || singular;
  return true;
}

// A subject phrase is short: looking at the last 200 characters keeps long sentences linear.
function subjectAtEnd(left: string): RegExpExecArray | null {
  return SUBJECT.exec(left.length > 200 ? left.slice(-200) : left);
}

// Where the first plan, hedge or conditional word ends (Infinity when there is none): a claim word
// after it is not a claim.
function endOfFirst(pattern: RegExp, text: string): number {
  const match = pattern.exec(text);
  return match ? match.index + match[0].length : Number.POSITIVE_INFINITY;
}

// Where pass claims stop being the agent's: after a plan or hedge word, after reported speech, and
// anywhere in a sentence about another branch.
interface Blocks {
  modalEnd: number;
  passEnd: number;
}

function detectInClause(sentence: MessageSentence, lower: string, clause: Clause, blocks: Blocks, claims: FoundClaim[]): void {
  const { modalEnd } = blocks;
  const check = (verbPattern: RegExp, kind: "pass" | "fail"): void => {
    for (const verb of clause.text.matchAll(verbPattern)) {
      const left = clause.text.slice(0, verb.index);
      // "Now all pass": the verb pattern took "all" as an adverb, but it is the subject.
      const adverbs = verb[0].slice(0, verb[0].length - verb[1]!.length);
      const subjectMatch = subjectAtEnd(left) ?? (/\b(?:all|both)\s+$/.test(adverbs) ? subjectAtEnd(`${left}${adverbs.trimEnd()}`) : null);
      if (!subjectMatch) continue;
      const subject = subjectMatch[1]!.trim();
      const subjectStart = clause.offset + left.lastIndexOf(subject);
      if (!agrees(subject, verb[0])) continue;
      const sentenceLeft = lower.slice(0, clause.offset + verb.index);
      const right = clause.text.slice(verb.index + verb[0].length).trimStart();
      if (modalEnd <= sentenceLeft.length || TRAILING_HEDGE.test(lower.slice(clause.offset + verb.index + verb[0].length))) continue;
      const beforeSubject = left.slice(0, left.length - subjectMatch[0].trimStart().length);
      const negated = NEGATION_BEFORE.test(beforeSubject);
      const scope = scopeOf(sentence, subject, subjectStart);
      if (kind === "pass") {
        if (PARTIAL_SUBJECT.test(subject) || PARTIAL_BEFORE.test(beforeSubject))
          claims.push({ kind: "fail", scope: { kind: "unspecified" } });
        else if (negated || PARTIAL_AFTER.test(right)) claims.push({ kind: "fail", scope });
        else if (blocks.passEnd <= sentenceLeft.length) continue;
        else if (ALLOWED_AFTER_PASS.test(right)) claims.push({ kind: "pass", scope });
      } else if (
        !negated &&
        !HISTORICAL.test(clause.text) &&
        !(verb[1]!.startsWith("error") && /^(?:are|were|is|show|about|in|from)\b/.test(right))
      ) {
        claims.push({ kind: "fail", scope, ...(PAST_FAIL.test(verb[1]!) ? { past: true } : {}) });
      }
      return;
    }
  };
  const before = claims.length;
  for (const negatedPass of clause.text.matchAll(NEGATED_PASS)) {
    const left = clause.text.slice(0, negatedPass.index);
    const subjectMatch = subjectAtEnd(left);
    if (!subjectMatch || modalEnd <= clause.offset + negatedPass.index) continue;
    const subject = subjectMatch[1]!.trim();
    claims.push({ kind: "fail", scope: scopeOf(sentence, subject, clause.offset + left.lastIndexOf(subject)) });
    return;
  }
  check(FAIL_VERB, "fail");
  if (claims.length === before) check(PASS_VERB, "pass");
}

// A failure told in the past tense ("the old test failed") is marked `past`: beside a pass claim of the
// same sentence it is history, not a disclosure.
const PAST_FAIL = /^(?:failed|errored|crashed|timed out|broke)$/;

// The masked sentence with each inline code span's content back in its place (lowercased): branch
// names such as `main` are words of the sentence.
function withCode(sentence: MessageSentence): string {
  if (sentence.code.size === 0) return sentence.lower;
  let text = "";
  let at = 0;
  for (const [offset, content] of [...sentence.code].sort((a, b) => a[0] - b[0])) {
    text += sentence.masked.slice(at, offset) + content;
    at = offset;
    while (at < sentence.masked.length && sentence.masked[at] === CODE_MARK) at += 1;
  }
  return (text + sentence.masked.slice(at)).toLowerCase();
}

// A runner summary with failures quoted in inline code is a disclosure ("pytest prints `1 failed`").
function quotedFailures(sentence: MessageSentence, lower: string, modalEnd: number): FoundClaim[] {
  const claims: FoundClaim[] = [];
  for (const [offset, content] of sentence.code) {
    if (modalEnd <= offset) continue;
    const past = HISTORICAL.test(lower.slice(0, offset)) ? { past: true as const } : {};
    const count = QUOTED_FAILURES.exec(content);
    const named = /^(?:FAILED|FAIL|ERROR)\s+(\S+)/.exec(content);
    if (count) claims.push({ kind: "fail", scope: { kind: "count", count: Number(count[1]) }, ...past });
    else if (named) claims.push({ kind: "fail", scope: { kind: "targets", targets: [named[1]!] }, ...past });
  }
  return claims;
}

// Ratios: "5/5 tests pass" and "259 of 259 unit and 22 of 22 end-to-end pass" are counts; a ratio
// short of its total is a failure count.
function ratioClaim(lower: string): { claim: FoundClaim; index: number } | null {
  const chain = RATIO_CHAIN.exec(lower);
  const pairs = chain ? [...chain[0].matchAll(EACH_RATIO)] : [];
  const single = chain ? null : RATIO.exec(lower);
  if (single) pairs.push(single);
  if (pairs.length === 0) return null;
  const passed = pairs.reduce((sum, pair) => sum + Number(pair[1]), 0);
  const total = pairs.reduce((sum, pair) => sum + Number(pair[2]), 0);
  const claim: FoundClaim =
    passed === total
      ? { kind: "pass", scope: { kind: "count", count: total } }
      : { kind: "fail", scope: { kind: "count", count: total - passed } };
  return { claim, index: (chain ?? single)!.index };
}

// Every claim form below needs one of these words; most sentences of a message have none. Inline
// code is read apart (quotedFailures), so a sentence with code still goes through that.
const QUICK = /pass|fail|green|succeed|error|crash|time[sd]? out|brok|break|\bred\b|run|ran|execut/;

function detectEnglishSentence(sentence: MessageSentence, quick: boolean): FoundClaim[] {
  if (sentence.question) return [];
  const lower = sentence.lower;
  if (quick && !QUICK.test(lower)) return sentence.code.size === 0 ? [] : quotedFailures(sentence, lower, endOfFirst(PLAN_OR_HEDGE, lower));
  const modalEnd = endOfFirst(PLAN_OR_HEDGE, lower);
  const passEnd = OTHER_BRANCH.test(withCode(sentence)) ? 0 : Math.min(modalEnd, endOfFirst(REPORTED, lower));
  return [...quotedFailures(sentence, lower, modalEnd), ...detectInText(sentence, lower, { modalEnd, passEnd })];
}

function detectInText(sentence: MessageSentence, lower: string, blocks: Blocks): FoundClaim[] {
  const claims: FoundClaim[] = [];
  const modal = (index: number): boolean => blocks.modalEnd <= index;
  const blocked = (index: number): boolean => blocks.passEnd <= index;

  const notRun = NOT_RUN.exec(lower);
  if (notRun && !modal(notRun.index) && !/\bif\b/.test(lower)) return [{ kind: "not-run", scope: { kind: "unspecified" } }];

  const ratio = ratioClaim(lower);
  if (ratio && !modal(ratio.index)) return ratio.claim.kind === "pass" && blocked(ratio.index) ? [] : [ratio.claim];
  const percent = PERCENT_PASS.exec(lower);
  if (percent && !modal(percent.index) && HEAD_WORD.test(lower)) {
    if (Number(percent[1]) < 100) return [{ kind: "fail", scope: { kind: "unspecified" } }];
    const counted = TESTS_COUNTED.exec(lower);
    if (!blocked(percent.index))
      return [{ kind: "pass", scope: counted ? { kind: "count", count: Number(counted[1]) } : { kind: "unspecified" } }];
  }
  const failed = COUNT_FAILED.exec(lower);
  const failedCount = failed && !["no", "zero"].includes(failed[1]!) ? toNumber(failed[1]!) : 0;
  if (failed && failedCount > 0 && !modal(failed.index) && !HISTORICAL.test(lower.slice(0, failed.index + failed[0].length))) {
    return [{ kind: "fail", scope: { kind: "count", count: failedCount } }];
  }
  const passedCount = COUNT_PASSED.exec(lower);
  if (passedCount && Number(passedCount[1]) === 0 && !modal(passedCount.index)) return [{ kind: "fail", scope: { kind: "unspecified" } }];
  if (passedCount && !blocked(passedCount.index)) return [{ kind: "pass", scope: { kind: "count", count: Number(passedCount[1]) } }];

  const label = LABEL_PASS.exec(lower);
  const afterLabel = label ? lower.slice(label[0].length).trimStart() : "";
  if (label && !modal(0)) {
    const subject = label[1]!;
    const scope = scopeOf(sentence, subject, lower.indexOf(subject));
    // "Tests: passing except test_x" tells of a failure.
    if (PARTIAL_AFTER.test(afterLabel)) return [{ kind: "fail", scope }];
    if (!blocked(0) && ALLOWED_AFTER_PASS.test(afterLabel))
      return [{ kind: "pass", scope: scope.kind === "unspecified" && label[2] !== undefined ? { kind: "suite" } : scope }];
  }
  for (const clause of splitClauses(lower, CLAUSE_BREAK)) detectInClause(sentence, lower, clause, blocks, claims);
  if (claims.length === 0) {
    const failing = FAILING_NOUN.exec(lower);
    if (
      failing &&
      !modal(failing.index) &&
      !HISTORICAL.test(lower) &&
      !/\b(?:no|zero|without|any)\s+(?:\w+\s+)?(?:failing|broken)\b/.test(lower)
    ) {
      const count = failing[1] !== undefined && NUMBER_ONLY.test(failing[1]) ? toNumber(failing[1]) : null;
      claims.push({ kind: "fail", scope: count === null ? { kind: "unspecified" } : { kind: "count", count } });
    }
  }
  if (claims.length === 0 && NO_FAILURES.test(lower) && !blocked(lower.length)) {
    claims.push({ kind: "pass", scope: { kind: "unspecified" } });
  }
  return claims;
}

/**
 * The English detector; `quick: false` skips its cheap first test, which changes no result (the
 * claims tests show it on every labelled sentence) and only saves time.
 */
export function createEnglishDetector(options: { quick?: boolean } = {}): ClaimDetector {
  const quick = options.quick ?? true;
  return { code: "en", name: "English", framing: FRAMING, detect: (sentence) => detectEnglishSentence(sentence, quick) };
}

/** The English detector. */
export const english: ClaimDetector = createEnglishDetector();
