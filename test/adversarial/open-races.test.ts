// Open attacks on time of check: a writer started in the background before the runner, in the same
// line, breaks the code while (or after) the tests run. The ledger takes a line's commands in line
// order, so the background writer counts as an edit before the run, and the run's records are appended
// current after it. A false pass today in both invalidation modes; kept failing on purpose until the
// library closes it.
import { describe, it } from "vitest";
import { expectLooksGreen, expectNoFalsePass, PYTEST_BREAK, PYTEST_RUN, pytestProject, sandboxedTools, useAttackHarness } from "./harness.js";

useAttackHarness();

describe.each(["conservative", "snapshot"] as const)("open: a background writer before the runner in the same line (%s)", (invalidation) => {
  it("`(sleep 1; sed -i ...) & pytest; wait`", async () => {
    const p = pytestProject({ git: true });
    const t = await sandboxedTools(p, { invalidation });
    expectLooksGreen(await t.bash(`(sleep 1; ${PYTEST_BREAK}) & ${PYTEST_RUN}; wait`));
    await expectNoFalsePass(p, t.evidence);
  });
});
