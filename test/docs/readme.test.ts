// The README's example must stay true: its judge line is run here as written.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

import { describe, expect, it } from "vitest";

import { judge } from "../../src/index.js";

const readme = readFileSync(resolve(import.meta.dirname, "../../README.md"), "utf8");

describe("README", () => {
  it("shows both commands", () => {
    expect(readme).toContain("npm run demo");
    expect(readme).toContain("npm test");
  });

  it("its judge example gives the verdict it claims", () => {
    expect(readme).toContain(
      'judge({ command: "pytest -q 2>&1 | tail -3", output: "1 failed, 4 passed in 0.50s\\n", exitCode: 0 }).verdict; // "failed"',
    );
    expect(judge({ command: "pytest -q 2>&1 | tail -3", output: "1 failed, 4 passed in 0.50s\n", exitCode: 0 }).verdict).toBe("failed");
  });
});
