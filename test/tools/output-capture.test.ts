import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { renderBashText, renderStream } from "../../src/tools/bash-render.js";
import { OutputCapture } from "../../src/tools/output-capture.js";
import { makeTempDir } from "../support/temp-dir.js";

let tmp: { dir: string; cleanup: () => void };
beforeAll(() => {
  tmp = makeTempDir("ae-capture-");
});
afterAll(() => tmp.cleanup());

async function capture(chunks: Buffer[], cap: number, window: number, file = "log"): Promise<OutputCapture> {
  const sink = new OutputCapture(join(tmp.dir, file), cap, window);
  await sink.openLog();
  await pipeline(Readable.from(chunks), sink);
  return sink;
}

describe("OutputCapture", () => {
  it("keeps exactly the first and last window bytes and logs up to the cap, for any chunking", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 30 }),
        fc.integer({ min: 1, max: 16 }),
        fc.integer({ min: 0, max: 500 }),
        async (arrays, window, cap) => {
          const chunks = arrays.map((a) => Buffer.from(a));
          const all = Buffer.concat(chunks);
          const sink = await capture(chunks, cap, window, "prop");
          const { head, tail, bytes } = sink.windows();
          const afterHead = all.subarray(Math.min(window, all.length));
          expect({ head, tail, bytes, logged: readFileSync(join(tmp.dir, "prop")) }).toEqual({
            head: all.subarray(0, window),
            tail: afterHead.subarray(Math.max(0, afterHead.length - window)),
            bytes: all.length,
            logged: all.subarray(0, cap),
          });
          expect(sink.facts().truncated).toBe(all.length > cap);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("renderStream and renderBashText", () => {
  it.each<[string, string, number, string]>([
    ["short output is shown whole", "hello\n", 10, "hello\n"],
    ["long output keeps head and tail", "0123456789abcdefghij", 10, "01234\n[... 10 bytes of stdout clipped ...]\nfghij"],
    ["multi-byte characters count as one", "ééééé", 4, "éé\n[... 2 bytes of stdout clipped ...]\néé"],
  ])("%s", async (_label, text, max, expected) => {
    const sink = await capture([Buffer.from(text)], 1_000, max * 4, `r-${max}`);
    expect(renderStream(sink.windows(), max, "stdout")).toBe(expected);
  });

  it("clips a stream far larger than its windows without reading it back", async () => {
    const big = Buffer.alloc(100_000, "a");
    big.write("START", 0);
    big.write("END", big.length - 3);
    const sink = await capture([big.subarray(0, 50_000), big.subarray(50_000)], 10, 40, "big");
    expect(renderStream(sink.windows(), 10, "stdout")).toBe("START\n[... 99990 bytes of stdout clipped ...]\naaEND");
  });

  it.each<[{ stdout: string; stderr: string; exitCode: number; note: string | undefined }, string]>([
    [{ stdout: "", stderr: "", exitCode: 0, note: undefined }, "Exit code: 0"],
    [{ stdout: "out\n", stderr: "err\n", exitCode: 2, note: undefined }, "out\n[stderr]\nerr\nExit code: 2"],
    [
      { stdout: "x", stderr: "", exitCode: 124, note: "Command timed out after 5 ms; its process group was killed." },
      "x\nCommand timed out after 5 ms; its process group was killed.\nExit code: 124",
    ],
  ])("renderBashText %#", (facts, expected) => {
    expect(renderBashText(facts)).toBe(expected);
  });
});
