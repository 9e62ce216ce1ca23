// Finds the sentences of an assistant message that claim tests pass or disclose failures. Pure text
// analysis, independent of evidence: labelling a claim against runs is a separate step.
import { english } from "./claims-english.js";
import { CLAIM_LANGUAGES } from "./claims-languages.js";
import type { ClaimDetector, ClaimScope, ClaimSentence, FoundClaim } from "./claims-types.js";
import { type MessageSentence, splitMessageSentences } from "./message-text.js";

export type { ClaimKind, ClaimScope, ClaimSentence } from "./claims-types.js";

const DETECTORS: readonly ClaimDetector[] = [english, ...CLAIM_LANGUAGES];

// An open checkbox ("- [ ] Tests pass"), a plan or criterion label before the sentence's first colon
// ("Goal: all tests pass"), or a list under such a line ("Acceptance criteria:") is no report.
function isFramed(sentence: MessageSentence): boolean {
  if (sentence.task === "open") return true;
  const label = /^([^:\uff1a]{1,60})[:\uff1a]/.exec(sentence.masked)?.[1]?.trim().toLowerCase();
  const lead = sentence.lead?.toLowerCase();
  return DETECTORS.some(
    (detector) => (label !== undefined && detector.framing.test(label)) || (lead !== undefined && detector.framing.test(lead)),
  );
}

const SPECIFICITY: Record<ClaimScope["kind"], number> = { count: 3, targets: 2, suite: 1, unspecified: 0 };

// One claim per kind and sentence. A failure told in the past ("the old test failed"), beside a pass
// claim of the same sentence ("but after the fix all tests pass"), is history; any other failure or
// not-run makes the sentence a disclosure ("the unit tests pass but the integration tests fail"),
// never also a pass claim.
function settle(found: readonly FoundClaim[]): Omit<ClaimSentence, "sentence" | "start">[] {
  const passes = found.some((claim) => claim.kind === "pass");
  const current = found.filter((claim) => !(passes && claim.past === true));
  const discloses = current.some((claim) => claim.kind !== "pass");
  const byKind = new Map<FoundClaim["kind"], Omit<ClaimSentence, "sentence" | "start">>();
  for (const { past: _past, ...claim } of current) {
    if (discloses && claim.kind === "pass") continue;
    const held = byKind.get(claim.kind);
    if (held === undefined || SPECIFICITY[claim.scope.kind] > SPECIFICITY[held.scope.kind]) byKind.set(claim.kind, claim);
  }
  return [...byKind.values()];
}

function detectInSentence(sentence: MessageSentence): Omit<ClaimSentence, "sentence" | "start">[] {
  if (sentence.question || isFramed(sentence)) return [];
  return settle(DETECTORS.flatMap((detector) => detector.detect(sentence)));
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
