// Issue 16 acceptance, the pytest project: see cross-check-suite.ts.
import { expect, it } from "vitest";

import { CANDIDATE_COUNT, crossCheck } from "./cross-check-suite.js";

crossCheck("pytest");

it("the two projects cover at least 20 candidates", () => {
  expect(CANDIDATE_COUNT).toBeGreaterThanOrEqual(20);
});
