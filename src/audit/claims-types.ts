// The shapes the claim detectors share: what a claim is, and what one language's detector returns.
import type { MessageSentence } from "./message-text.js";

/** What a sentence says: tests pass, tests fail (or only some pass), or tests were not run. */
export type ClaimKind = "pass" | "fail" | "not-run";

/** What a claim is about. */
export type ClaimScope =
  { kind: "suite" } | { kind: "targets"; targets: string[] } | { kind: "count"; count: number } | { kind: "unspecified" };

/** One claim sentence found in a message. */
export interface ClaimSentence {
  kind: ClaimKind;
  scope: ClaimScope;
  /** The sentence as written. */
  sentence: string;
  /** Offset of the sentence in the message. */
  start: number;
}

/** A claim one detector found in a sentence; `past` marks a failure told in the past tense. */
export interface FoundClaim {
  kind: ClaimKind;
  scope: ClaimScope;
  past?: true;
}

/** One language's claim detector: its forms of framing (plans, criteria) and its sentence reader. */
export interface ClaimDetector {
  /** BCP 47 code of the language ("en", "zh", ...). */
  code: string;
  /** The language's English name. */
  name: string;
  /**
   * A label that makes what follows a plan or criterion, not a report: tested on the text before a
   * sentence's first colon ("Goal:", "验收标准：") and on the line that introduces a list.
   */
  framing: RegExp;
  /** The claims of one sentence (the caller drops plans, checklists and quotations first). */
  detect(sentence: MessageSentence): FoundClaim[];
}
