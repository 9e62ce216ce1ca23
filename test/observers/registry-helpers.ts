// Small helpers for registry.test.ts.
export { createObserverRegistry, createPytestParser } from "../../src/observers/index.js";
export type { RunnerObserver } from "../../src/observers/index.js";
import { isEvidenceError } from "../../src/errors.js";

/** Runs `fn` and returns the EvidenceError code it threw, or "no error". */
export function isEvidenceErrorLike(fn: () => void): string {
  try {
    fn();
  } catch (error) {
    return isEvidenceError(error) ? error.code : "other error";
  }
  return "no error";
}
