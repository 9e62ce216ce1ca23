// One output stream of a bash call: the raw bytes go to a log file up to a cap, and only a head and a
// tail window stay in memory, so a gigabyte of output costs a few kilobytes of heap.
import { type FileHandle, open } from "node:fs/promises";
import { Writable } from "node:stream";

/** Facts about one captured stream, as reported in the bash tool's `data`. */
export interface StreamFacts {
  /** Bytes the command printed on this stream. */
  bytes: number;
  /** Bytes written to the log (equal to `bytes` unless the raw cap was hit). */
  loggedBytes: number;
  /** True when the raw cap was hit: the log is incomplete and can never prove a pass. */
  truncated: boolean;
  /** The log file holding the raw bytes of this stream. */
  logPath: string;
}

/** The head and tail windows kept in memory, plus the total size. */
export interface StreamWindows {
  head: Buffer;
  tail: Buffer;
  bytes: number;
}

/** Collects one stream into a log file (up to `rawCapBytes`) and head/tail windows of `windowBytes` each. */
export class OutputCapture extends Writable {
  readonly logPath: string;
  private readonly rawCapBytes: number;
  private readonly head: Buffer;
  private headLength = 0;
  private readonly tail: Buffer;
  // Ring buffer: `tailStart` is where the oldest byte sits once the ring is full.
  private tailStart = 0;
  private tailLength = 0;
  private total = 0;
  private logged = 0;
  private file: FileHandle | undefined;

  constructor(logPath: string, rawCapBytes: number, windowBytes: number) {
    super({ decodeStrings: true });
    this.logPath = logPath;
    this.rawCapBytes = rawCapBytes;
    this.head = Buffer.alloc(windowBytes);
    this.tail = Buffer.alloc(windowBytes);
  }

  /** Creates the (empty) log file; call before piping. */
  async openLog(): Promise<void> {
    this.file = await open(this.logPath, "w", 0o600);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.total += chunk.length;
    this.keepWindows(chunk);
    const room = this.rawCapBytes - this.logged;
    if (room <= 0 || this.file === undefined) {
      callback();
      return;
    }
    const slice = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.logged += slice.length;
    // Waiting for the write before taking the next chunk is the backpressure that keeps memory flat.
    this.file.write(slice).then(
      () => callback(),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.closeLog().then(
      () => callback(),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }

  /** Closes the log file (idempotent); used when the stream is abandoned rather than ended. */
  async closeLog(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await file?.close();
  }

  private keepWindows(chunk: Buffer): void {
    let rest = chunk;
    if (this.headLength < this.head.length) {
      const taken = rest.copy(this.head, this.headLength);
      this.headLength += taken;
      rest = rest.subarray(taken);
    }
    if (rest.length === 0) return;
    const size = this.tail.length;
    if (rest.length >= size) {
      rest.copy(this.tail, 0, rest.length - size);
      this.tailStart = 0;
      this.tailLength = size;
      return;
    }
    let writeAt = (this.tailStart + this.tailLength) % size;
    let offset = 0;
    while (offset < rest.length) {
      const n = Math.min(rest.length - offset, size - writeAt);
      rest.copy(this.tail, writeAt, offset, offset + n);
      offset += n;
      writeAt = (writeAt + n) % size;
    }
    const overflow = this.tailLength + rest.length - size;
    if (overflow > 0) {
      this.tailStart = (this.tailStart + overflow) % size;
      this.tailLength = size;
    } else {
      this.tailLength += rest.length;
    }
  }

  /** The windows so far: the head, the tail (bytes after the head only) and the total size. */
  windows(): StreamWindows {
    const tail = Buffer.concat([
      this.tail.subarray(this.tailStart, Math.min(this.tailStart + this.tailLength, this.tail.length)),
      this.tail.subarray(0, Math.max(0, this.tailStart + this.tailLength - this.tail.length)),
    ]);
    return { head: Buffer.from(this.head.subarray(0, this.headLength)), tail, bytes: this.total };
  }

  /** The facts reported for this stream. */
  facts(): StreamFacts {
    return { bytes: this.total, loggedBytes: this.logged, truncated: this.total > this.logged, logPath: this.logPath };
  }
}
