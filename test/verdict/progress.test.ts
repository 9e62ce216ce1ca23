// The progress line: only on a TTY and not under CI; counts the runner's own pass/fail lines.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createProgressCounter, renderProgress, shouldShowProgress } from "../../src/verdict/progress.js";
import { runVerdict } from "../../src/verdict/run-verdict.js";

describe("progress", () => {
  it.each([
    [true, {}, true],
    [true, { CI: "true" }, false],
    [true, { CI: "" }, true],
    [false, {}, false],
    [undefined, {}, false],
  ] as const)("isTTY %s, env %j -> %s", (isTTY, env, shown) => {
    expect(shouldShowProgress({ isTTY }, { ...env })).toEqual(shown);
  });

  it("counts pytest -v/-rA, go -v and unittest lines split across chunks", () => {
    const counter = createProgressCounter();
    const chunks = ["tests/a.py::t1 PAS", "SED\nPASSED tests/a.py::t2\nFAILED tests/a.py::t3 - x\n--- PASS: TestA (0.00s)\n", "--- FAIL: TestB (0.00s)\ntest_x (m.C) ... ok\n", "caf\u00e9\n"];
    for (const chunk of chunks) counter.push(chunk);
    expect({ passed: counter.passed, failed: counter.failed, bytes: counter.bytes }).toEqual({ passed: 4, failed: 2, bytes: 144 });
    expect(renderProgress(1500, 2048, 4, 2)).toEqual("agent-evidence run: 1.5s, 2.0 KiB, 4 passed, 2 failed");
  });

  it.each([
    ["a TTY", {}, true],
    ["a TTY under CI", { CI: "1" }, false],
  ])("runVerdict draws the line on %s: %s", async (_name, extraEnv, drawn) => {
    const dir = mkdtempSync(join(tmpdir(), "ae-verdict-progress-"));
    try {
      const writes: string[] = [];
      await runVerdict({ command: "printf 'x\\n'; sleep 0.4", cwd: dir, env: { ...process.env, CI: undefined, ...extraEnv }, progress: { isTTY: true, write: (t: string) => writes.push(t) } });
      expect(writes.some((w) => w.includes("agent-evidence run: "))).toEqual(drawn);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
