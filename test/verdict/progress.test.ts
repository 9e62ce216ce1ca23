// The progress line: only on a TTY and not under CI; counts the runner's own pass/fail lines.
import { rmSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { CLEAR_LINE, createProgressCounter, renderProgress, shouldShowProgress } from "../../src/verdict/progress.js";
import { runVerdict } from "../../src/verdict/run-verdict.js";
import { tempDirPath } from "../support/temp-dir.js";

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
    const chunks = [
      "tests/a.py::t1 PAS",
      "SED\nPASSED tests/a.py::t2\nFAILED tests/a.py::t3 - x\n--- PASS: TestA (0.00s)\n",
      "--- FAIL: TestB (0.00s)\ntest_x (m.C) ... ok\n",
      "caf\u00e9\n",
    ];
    for (const chunk of chunks) counter.push(chunk);
    expect({ passed: counter.passed, failed: counter.failed, bytes: counter.bytes }).toEqual({ passed: 4, failed: 2, bytes: 144 });
    expect(renderProgress(1500, 2048, 4, 2)).toEqual("agent-evidence run: 1.5s, 2.0 KiB, 4 passed, 2 failed");
  });

  it.each([
    ["a TTY", {}, true],
    ["a TTY under CI", { CI: "1" }, false],
  ])("runVerdict draws the line on %s: %s", async (_name, extraEnv, drawn) => {
    const dir = tempDirPath("ae-verdict-progress-");
    try {
      const writes: string[] = [];
      await runVerdict({
        command: "printf 'x\\n'; sleep 0.4",
        cwd: dir,
        outDir: dir,
        env: { ...process.env, CI: undefined, ...extraEnv },
        progress: { isTTY: true, write: (t: string) => writes.push(t) },
      });
      expect(writes.some((w) => w.includes("agent-evidence run: "))).toEqual(drawn);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // What a terminal shows after the writes, in order: CLEAR_LINE erases the line the cursor is on.
  const screen = (writes: string[]): string[] => {
    const lines = [""];
    for (const write of writes) {
      for (const [index, part] of write.split(CLEAR_LINE).entries()) {
        if (index > 0) lines[lines.length - 1] = "";
        const [first = "", ...rest] = part.split("\n");
        lines[lines.length - 1] = `${lines.at(-1) ?? ""}${first}`;
        for (const next of rest) lines.push(next);
      }
    }
    return lines;
  };

  it("the screen reader erases what CLEAR_LINE erases (a test that can fail)", () => {
    expect(screen(["a\nb", `${CLEAR_LINE}progress`, "c\n"])).toEqual(["a", "progressc", ""]);
  });

  it("never erases a partial line the runner is still printing (pytest -v's `id ` before `PASSED`)", async () => {
    const dir = tempDirPath("ae-verdict-partial-");
    try {
      const writes: string[] = [];
      const decoder = new TextDecoder();
      await runVerdict({
        command: "printf 'tests/a.py::test_x '; sleep 0.8; printf 'PASSED\\n'; sleep 0.4",
        cwd: dir,
        outDir: dir,
        env: { ...process.env, CI: undefined },
        progress: { isTTY: true, write: (t: string) => writes.push(t) },
        echoBytes: (chunk) => writes.push(decoder.decode(chunk)),
      });
      const shown = screen(writes);
      expect(shown).toContain("tests/a.py::test_x PASSED");
      // The progress line was drawn (before the output, and after its newline) and is gone at the end.
      expect(writes.some((w) => w.includes("agent-evidence run: "))).toBe(true);
      expect(shown.at(-1)).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
