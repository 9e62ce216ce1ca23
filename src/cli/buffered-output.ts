// Text written to a stream in large buffers: the judge's JSON arrives as thousands of pieces, and
// each became a write(2) and a Buffer of its own. Here each piece is encoded once, straight into a
// 1 MiB buffer, and a full buffer is one write. A written buffer is never reused (a pipe may still
// hold it). Writes pass no callback: a callback per write, queued for the next tick while an async
// loop keeps the microtask queue busy, kept every piece it closed over alive until the end (the CLI
// held its whole JSON, 190 MB on a log of 2.9 M ids). A failed write is the stream's `error` event,
// which the CLI's uncaught-error handler turns into exit 74 (main.ts).
import type { Writable } from "node:stream";

/** Bytes gathered before one write. */
const OUTPUT_BUFFER_BYTES = 1 << 20;
/** The most UTF-8 bytes one UTF-16 code unit becomes (a surrogate pair: 4 bytes for 2 units). */
const MAX_BYTES_PER_UNIT = 3;

/** Pieces of text or bytes gathered into large writes. */
export interface BufferedOutput {
  /** Adds `piece` (text, written as UTF-8, or bytes, copied). Returns a promise to wait on when the stream asked to (backpressure), else nothing. */
  write(piece: string | Uint8Array): void | Promise<void>;
  /** Writes what was gathered; a promise to wait on as for `write`. */
  flush(): void | Promise<void>;
}

/**
 * Gathers text for `stream` into buffers of `size` bytes. The bytes written are those of writing
 * each piece as UTF-8 on its own; a piece longer than a buffer is written as it is.
 * @example const out = createBufferedOutput(process.stdout); await out.write("{}"); await out.flush();
 */
export function createBufferedOutput(stream: Writable, size = OUTPUT_BUFFER_BYTES): BufferedOutput {
  let buffer = Buffer.allocUnsafe(size);
  let used = 0;
  const send = (data: Buffer | string): Promise<void> | undefined =>
    stream.write(data) ? undefined : new Promise((resolve) => stream.once("drain", resolve));
  const flush = (): Promise<void> | undefined => {
    if (used === 0) return undefined;
    const full = buffer.subarray(0, used);
    buffer = Buffer.allocUnsafe(size);
    used = 0;
    return send(full);
  };
  // Bytes are copied: a caller's view may be of memory it reuses.
  const writeBytes = (bytes: Uint8Array): void | Promise<void> => {
    if (used + bytes.length <= size) {
      buffer.set(bytes, used);
      used += bytes.length;
      return undefined;
    }
    const flushed = flush();
    if (bytes.length > size) {
      const copy = Buffer.from(bytes);
      return flushed === undefined ? send(copy) : flushed.then(() => send(copy));
    }
    buffer.set(bytes, 0);
    used = bytes.length;
    return flushed;
  };
  return {
    write(piece: string | Uint8Array): void | Promise<void> {
      if (typeof piece !== "string") return writeBytes(piece);
      const text = piece;
      if (used + text.length * MAX_BYTES_PER_UNIT <= size) {
        used += buffer.write(text, used);
        return undefined;
      }
      const flushed = flush();
      if (text.length * MAX_BYTES_PER_UNIT > size) return flushed === undefined ? send(text) : flushed.then(() => send(text));
      used = buffer.write(text, 0);
      return flushed;
    },
    flush,
  };
}
