/** Machine-readable error codes carried by {@link EvidenceError} (docs/errors.md says when each is thrown). */
export type EvidenceErrorCode =
  | "E_USAGE"
  | "E_INVALID_OPTION"
  | "E_INVALID_INPUT"
  | "E_UNKNOWN_TOOL"
  | "E_DUPLICATE_TOOL"
  | "E_GRAMMAR"
  | "E_IO"
  | "E_CANDIDATE_SOURCE"
  | "E_CANDIDATE_CAPTURE"
  | "E_CANDIDATE_TRACKING"
  | "E_CANDIDATE_ADOPT"
  | "E_CANDIDATE_RUN";

// The same symbol in every copy of the package (two versions in one node_modules, a bundle beside
// the package): `instanceof` fails across copies, this mark does not.
const BRAND = Symbol.for("agent-evidence.EvidenceError");

/** The one error class of agent-evidence: a string `code` plus one sentence naming the bad input. */
export class EvidenceError extends Error {
  /** Stable machine-readable code. */
  readonly code: EvidenceErrorCode;

  constructor(code: EvidenceErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EvidenceError";
    this.code = code;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/**
 * True when `value` is an {@link EvidenceError} (optionally with the given code), from this copy of
 * the package or any other: it checks the error's brand, not its class.
 * @example if (isEvidenceError(error, "E_GRAMMAR")) console.error(error.message);
 */
export function isEvidenceError(value: unknown, code?: EvidenceErrorCode): value is EvidenceError {
  if (typeof value !== "object" || value === null || (value as Record<symbol, unknown>)[BRAND] !== true) return false;
  return code === undefined || (value as { code?: unknown }).code === code;
}
