import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/setup/require-runners.ts", "test/setup/state-home.ts", "test/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    pool: "forks",
  },
});
