// Input with a cap: stdin and files read into memory only up to a documented size, so 2 GB on stdin
// or `/dev/zero` as a file ends in a clear error (exit 65), not in an out-of-memory crash.
import { createReadStream, statSync } from "node:fs";
import type { Readable } from "node:stream";
import { CommanderError } from "commander";

/** Exit status for input the command will not read (over its cap): BSD sysexits EX_DATAERR. */
export const EXIT_DATA = 65;

/** Input over a command's cap: exits {@link EXIT_DATA} with one line. */
export class InputTooLargeError extends CommanderError {
  constructor(what: string, cap: number) {
    super(EXIT_DATA, "agent-evidence.input-too-large", `${what} is larger than ${cap / (1 << 20)} MiB; not read`);
  }
}

async function readCapped(stream: Readable, cap: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > cap) {
      stream.destroy();
      throw new InputTooLargeError(what, cap);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Reads all of stdin, at most `cap` bytes (more throws {@link InputTooLargeError}). */
export function readBoundedStdin(cap: number, what = "stdin"): Promise<Buffer> {
  return readCapped(process.stdin, cap, what);
}

/** Reads a file, at most `cap` bytes: a regular file is checked by its size first, a device (`/dev/zero`) as it streams. */
export async function readBoundedFile(path: string, cap: number): Promise<Buffer> {
  const stat = statSync(path);
  if (stat.isFile() && stat.size > cap) throw new InputTooLargeError(path, cap);
  return readCapped(createReadStream(path), cap, path);
}
