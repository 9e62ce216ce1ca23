/** Machine-readable error codes carried by {@link EvidenceError}. */
export type EvidenceErrorCode =
  | "E_USAGE"
  | "E_INVALID_OPTION"
  | "E_UNKNOWN_TOOL"
  | "E_DUPLICATE_TOOL"
  | "E_INPUT_TOO_LARGE"
  | "E_GRAMMAR"
  | "E_IO"
  | "E_INTERNAL"
  | "E_CANDIDATE_SOURCE"
  | "E_CANDIDATE_CAPTURE"
  | "E_CANDIDATE_TRACKING"
  | "E_CANDIDATE_ADOPT"
  | "E_CANDIDATE_RUN";

/** The one error class of agent-evidence: a string `code` plus one sentence naming the bad input. */
export class EvidenceError extends Error {
  /** Stable machine-readable code. */
  readonly code: EvidenceErrorCode;

  constructor(code: EvidenceErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EvidenceError";
    this.code = code;
  }
}

/** True when `value` is an {@link EvidenceError} (optionally with the given code). */
export function isEvidenceError(value: unknown, code?: EvidenceErrorCode): value is EvidenceError {
  return value instanceof EvidenceError && (code === undefined || value.code === code);
}
