// Red team, time of check: a writer started in the background before the runner, in the same line,
// breaks the code while (or after) the tests run. Taken in line order, the background writer would
// count as an edit before the run and the run's records would be current after it; a job the line
// starts beside its test run makes the run's effect unknown instead, in both invalidation modes.
import { describe, it } from "vitest";
import { expectLooksGreen, expectNoFalsePass, PYTEST_BREAK, PYTEST_RUN, pytestProject, sandboxedTools, useAttackHarness } from "./harness.js";

useAttackHarness();

describe.each(["conservative", "snapshot"] as const)("a background writer before the runner in the same line (%s)", (invalidation) => {
  it("`(sleep 1; sed -i ...) & pytest; wait`", async () => {
    const p = pytestProject({ git: true });
    const t = await sandboxedTools(p, { invalidation });
    expectLooksGreen(await t.bash(`(sleep 1; ${PYTEST_BREAK}) & ${PYTEST_RUN}; wait`));
    await expectNoFalsePass(p, t.evidence);
  });
});
