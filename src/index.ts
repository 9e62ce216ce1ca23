/**
 * agent-evidence: the public API. Everything exported here, by name, is public and stable;
 * nothing else is. Importing this module loads the bash grammar once (top-level await), so the
 * synchronous functions below never meet an uninitialised parser.
 */
export { EvidenceError, isEvidenceError } from "./errors.js";
export type { EvidenceErrorCode } from "./errors.js";
