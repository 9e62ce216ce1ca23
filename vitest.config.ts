import { availableParallelism } from "node:os";

import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/setup/require-runners.ts", "test/setup/state-home.ts", "test/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    pool: "forks",
    // Most of the suite waits on real runners, git and bubblewrap in child processes: three workers
    // even on two cores (vitest's default there is one), more where there are more cores.
    maxWorkers: Math.max(3, availableParallelism() - 1),
  },
});
