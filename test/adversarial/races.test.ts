// Red team, time of check: a writer started in the background before the runner, in the same line,
// breaks the code while (or after) the tests run. Taken in line order, the background writer would
// count as an edit before the run and the run's records would be current after it; a job the line
// starts beside its test run makes the run's effect unknown instead, in both invalidation modes.
import { describe, it } from "vitest";

import {
  expectLooksGreen,
  expectNoFalsePass,
  PYTEST_BREAK,
  PYTEST_RUN,
  pytestProject,
  sandboxedTools,
  useAttackHarness,
} from "./harness.js";

useAttackHarness();

describe.each(["conservative", "snapshot"] as const)("a background writer before the runner in the same line (%s)", (invalidation) => {
  it("`(until the run ends; sed -i ...) & pytest; wait`", async () => {
    const p = pytestProject({ git: true });
    const t = await sandboxedTools(p, { invalidation });
    // The writer waits for the cache directory pytest writes when its session ends (at most 30 s), so
    // the tests ran on the good code however slow the machine is; a fixed `sleep 1` lost that race on
    // a loaded CI machine, and then the attack proved nothing.
    const untilRunEnds = "i=0; until [ -d .pytest_cache ] || [ $i -ge 600 ]; do sleep 0.05; i=$((i+1)); done";
    expectLooksGreen(await t.bash(`(${untilRunEnds}; ${PYTEST_BREAK}) & ${PYTEST_RUN}; wait`));
    await expectNoFalsePass(p, t.evidence);
  });
});
