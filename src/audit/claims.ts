// Finds the sentences of an assistant message that claim tests pass or disclose failures. Pure text
// analysis, independent of evidence: labelling a claim against runs is a separate step.
import { english } from "./claims-english.js";
import type { ClaimSentence, FoundClaim } from "./claims-types.js";
import { splitMessageSentences, type MessageSentence } from "./message-text.js";

export type { ClaimKind, ClaimScope, ClaimSentence } from "./claims-types.js";

// A failure told in the past tense ("the old test failed"), beside a pass claim of the same sentence
// ("but after the fix all tests pass"), is history, not a disclosure: the sentence claims a pass.
function detectInSentence(sentence: MessageSentence): Omit<ClaimSentence, "sentence" | "start">[] {
  const found: FoundClaim[] = english.detect(sentence);
  const passes = found.some((claim) => claim.kind === "pass");
  return found.filter((claim) => !(passes && claim.past === true)).map(({ past: _past, ...claim }) => claim);
}

/**
 * Finds the sentences of `message` that claim tests pass or disclose failures, with their scope.
 * Plans, conditionals, questions, hedges, negations, quoted text, code blocks, inline code and
 * `pass` as a noun or with an object are not claims.
 *
 * @example
 * detectClaims("Fixed the parser; all tests pass now.")
 * // [{ kind: "pass", scope: { kind: "suite" }, sentence: "all tests pass now", start: 18 }]
 */
export function detectClaims(message: string): ClaimSentence[] {
  return splitMessageSentences(message).flatMap((sentence) =>
    detectInSentence(sentence).map((claim) => ({ ...claim, sentence: sentence.text, start: sentence.start })),
  );
}

/** True when a claim admits a problem: tests fail, only some pass, or tests were not run. */
export function isDisclosure(claim: ClaimSentence): boolean {
  switch (claim.kind) {
    case "pass":
      return false;
    case "fail":
    case "not-run":
      return true;
    default: {
      const unreachable: never = claim.kind;
      return unreachable;
    }
  }
}
