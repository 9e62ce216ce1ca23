// The MCP server's stdin, one line (one JSON-RPC message) at a time and each under a cap. The SDK's
// stdio transport joins chunks into a growing buffer until a newline, and past its own 10 MiB limit
// quietly closes the server; here a longer line ends the server with a clear error instead, and the
// transport only ever receives whole lines.
import { Transform, type TransformCallback } from "node:stream";

import { createTooLargeError } from "../io/named-files.js";

/** The largest message read from stdin: 8 MiB (under the SDK's 10 MiB buffer limit). */
export const MAX_MCP_MESSAGE_BYTES = 8 << 20;

/** A stream that passes whole lines on and fails (a NamedFileError, `EFBIG`) on a line over `cap` bytes. */
export function createMessageLines(cap: number = MAX_MCP_MESSAGE_BYTES): Transform {
  let partial: Buffer[] = [];
  let partialSize = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
      const last = chunk.lastIndexOf(10);
      if (last === -1) {
        partial.push(chunk);
        partialSize += chunk.length;
        done(partialSize > cap ? createTooLargeError("a message on stdin", cap) : null);
        return;
      }
      // The line before the first newline in this chunk is the one that was partial: check it.
      const first = chunk.indexOf(10);
      if (partialSize + first > cap) {
        done(createTooLargeError("a message on stdin", cap));
        return;
      }
      this.push(Buffer.concat([...partial, chunk.subarray(0, last + 1)]));
      partial = [chunk.subarray(last + 1)];
      partialSize = chunk.length - last - 1;
      done(partialSize > cap ? createTooLargeError("a message on stdin", cap) : null);
    },
    flush(done: TransformCallback): void {
      if (partialSize > 0) this.push(Buffer.concat(partial));
      done();
    },
  });
}
