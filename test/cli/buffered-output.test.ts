// The CLI's buffered stdout: pieces encoded straight into large buffers give exactly the bytes of
// writing each piece on its own, in order, through backpressure, with one write per full buffer.
import { Writable } from "node:stream";

import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { createBufferedOutput } from "../../src/cli/buffered-output.js";

// A stream that keeps what it is given; `slow` takes each write a tick later and asks for drains.
function collector(slow: boolean): { stream: Writable; writes: Buffer[] } {
  const writes: Buffer[] = [];
  const stream = new Writable({
    highWaterMark: slow ? 16 : 16 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      writes.push(Buffer.from(chunk));
      if (slow) setImmediate(callback);
      else callback();
    },
  });
  return { stream, writes };
}

async function written(pieces: readonly string[], size: number, slow: boolean): Promise<{ bytes: Buffer; writes: number }> {
  const { stream, writes } = collector(slow);
  const out = createBufferedOutput(stream, size);
  for (const piece of pieces) await out.write(piece);
  await out.flush();
  await new Promise<void>((resolve) => stream.end(resolve));
  return { bytes: Buffer.concat(writes), writes: writes.length };
}

// What writing each piece to the stream as a string gave before: its own UTF-8 encoding.
const eachEncoded = (pieces: readonly string[]): Buffer => Buffer.concat(pieces.map((piece) => Buffer.from(piece, "utf8")));

describe("createBufferedOutput", () => {
  it("any pieces (multi-byte characters, lone surrogates, longer than the buffer), any buffer size: each piece's own UTF-8, in order", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: "binary", maxLength: 40 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 64 }),
        fc.boolean(),
        async (pieces, size, slow) => {
          expect((await written(pieces, size, slow)).bytes.equals(eachEncoded(pieces))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("one write per full buffer: 10,000 pieces of 100 bytes in 64 KiB buffers are 16 writes", async () => {
    const pieces = Array.from({ length: 10_000 }, (_, i) => `${String(i).padStart(5, "0")}${"x".repeat(95)}`);
    const { bytes, writes } = await written(pieces, 64 * 1024, false);
    expect(bytes.equals(eachEncoded(pieces))).toBe(true);
    // A piece goes in while 3 bytes per character still fit: 652 pieces (65,200 bytes) a buffer.
    expect(writes).toBe(Math.ceil(10_000 / 652));
  });
});
