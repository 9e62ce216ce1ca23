// The demo is the README's first command: its scripted agent must reach the evidence it narrates.
import { describe, expect, it } from "vitest";

import { runDemo } from "../../src/demo/run-demo.js";

describe("the demo", () => {
  it("fails, fixes, goes stale after an edit, and ends with current verified evidence", async () => {
    const lines: string[] = [];
    const result = await runDemo((line) => lines.push(line));
    const summary = result.records.map((r) => ({ target: r.target, outcome: r.outcome, verified: r.verified, applicability: r.applicability }));
    expect(summary).toEqual([
      { target: "tests", outcome: "failed", verified: false, applicability: "unknown" },
      { target: "tests", outcome: "passed", verified: true, applicability: "unknown" },
      { target: "test_ops.py", outcome: "passed", verified: true, applicability: "current" },
    ]);
    expect(result.records[1]?.postTestEdits).toEqual(["calc/ops.py"]);
    expect(result.verifiedTargets).toEqual([
      "tests/test_ops.py",
      "tests/test_ops.py::test_add",
      "tests/test_ops.py::test_mean_of_integers",
      "tests/test_ops.py::test_mean_of_one",
    ]);
    expect(result.sandbox).toBe("bubblewrap");
    expect(lines.some((line) => line.startsWith("sandbox: bubblewrap"))).toBe(true);
  }, 180_000);
});
