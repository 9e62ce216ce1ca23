/**
 * agent-evidence/verdict: `agent-evidence run` as a function, the verdict file's shape (its JSON
 * Schema and exit status) and its verification, and the tool hosts' clipping notes.
 */
export { runVerdict } from "../verdict/run-verdict.js";
export type { RunVerdictOptions } from "../verdict/run-verdict.js";
export { verdictSchema, verdictJsonSchema, verdictExitCode, VERDICT_EXIT } from "../verdict/schema.js";
export type { Verdict } from "../verdict/schema.js";
export { verifyVerdictFile } from "../verdict/verify.js";
export type { VerifyVerdictResult } from "../verdict/verify.js";
export { CLIPPING_NOTES, containsClippingNote, isClippingNoteLine } from "../evidence/clipping.js";
export type { ClippingNote } from "../evidence/clipping.js";
