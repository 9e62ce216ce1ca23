// stdin with a cap: read into memory only up to a documented size, so 2 GB on stdin ends in a clear
// error (exit 65), not in an out-of-memory crash. Named files go through src/io/named-files.ts.
import type { Readable } from "node:stream";

import { createTooLargeError } from "../io/named-files.js";

async function readCapped(stream: Readable, cap: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > cap) {
      stream.destroy();
      throw createTooLargeError(what, cap);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Reads all of stdin, at most `cap` bytes; more throws a NamedFileError with code `EFBIG` (exit 65). */
export function readBoundedStdin(cap: number, what = "stdin"): Promise<Buffer> {
  return readCapped(process.stdin, cap, what);
}
