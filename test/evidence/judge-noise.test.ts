// The package managers' own lines, dropped before a runner's parser reads a script run's output.
import { describe, expect, it } from "vitest";

import { createNoiseFilter } from "../../src/evidence/judge-noise.js";
import type { PackageScriptRun } from "../../src/shell/package-scripts.js";

const RUN = {
  expanded: true,
  packageId: "pkg@1.0.0",
  problem: null,
  lines: [{ event: "test", script: "vitest run" }],
} as unknown as PackageScriptRun;

function filter(onDropped?: (line: string) => void) {
  const created = createNoiseFilter([RUN], onDropped);
  if (created === null) throw new Error("a followed script run gets a filter");
  return created;
}

describe("createNoiseFilter", () => {
  it("drops the banner, the script's command line and npm's error lines, and hands each dropped line on", () => {
    const dropped: string[] = [];
    const noise = filter((line) => dropped.push(line));
    const out = noise.push("> pkg@1.0.0 test\n> vitest run\n\n ✓ a.test.ts (1 test) 2ms\nnpm error code 1\n") + noise.end();
    expect(out).toBe("\n ✓ a.test.ts (1 test) 2ms\n");
    expect(dropped).toEqual(["> pkg@1.0.0 test", "> vitest run", "npm error code 1"]);
    expect(noise.mismatch).toBe(false);
  });

  it("a banner naming another command is a mismatch", () => {
    const noise = filter();
    noise.push("> pkg@1.0.0 test\n> jest\n");
    expect(noise.mismatch).toBe(true);
  });

  it("an endless line is handed on as it comes, not held whole (memory stays flat)", () => {
    const noise = filter();
    const piece = "x".repeat(64 * 1024);
    let out = noise.push("> pkg@1.0.0 test\n> vitest run\n");
    for (let i = 0; i < 64; i += 1) {
      out += noise.push(piece);
      // What is held back is never more than one piece past the cap.
      expect((i + 1) * piece.length - out.length).toBeLessThanOrEqual(2 * piece.length);
    }
    out += noise.push("\nnpm error code 1\n ✓ done\n") + noise.end();
    expect(out === `${piece.repeat(64)}\n ✓ done\n`).toBe(true);
  });

  it("a line over the cap is never a manager's: even one that starts like npm's error line passes, however it is chunked", () => {
    const long = `npm error ${"y".repeat(70 * 1024)}`;
    const text = `${long}\nnpm error code 1\n`;
    for (const size of [text.length, 64 * 1024, 1000, 7]) {
      const noise = filter();
      let out = "";
      for (let at = 0; at < text.length; at += size) out += noise.push(text.slice(at, at + size));
      out += noise.end();
      expect(out === `${long}\n`).toBe(true);
    }
  });
});
