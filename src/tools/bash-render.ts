// Model-visible text of a bash call: each stream as head + tail (at most `maxChars` characters) with an
// explicit clipping marker, then `Exit code: N`. Evidence never reads this text; it reads the raw logs.
import type { StreamWindows } from "./output-capture.js";

const decoderOptions = { fatal: false } as const;

/** Bytes a UTF-8 decoder would treat as a continuation of an earlier character. */
function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

function decodeHead(head: Buffer): string {
  // `stream: true` holds back a character cut at the end of the window instead of printing U+FFFD.
  return new TextDecoder("utf-8", decoderOptions).decode(head, { stream: true });
}

function decodeTail(tail: Buffer): string {
  let start = 0;
  while (start < 3 && isContinuation(tail[start])) start += 1;
  return new TextDecoder("utf-8", decoderOptions).decode(tail.subarray(start));
}

/** The note the bash tool adds when its timeout killed a call (the judge reads it as the host's timeout). */
export function timeoutNote(timeoutMs: number): string {
  return `Command timed out after ${timeoutMs} ms; its process group was killed.`;
}

/** The head and tail of one stream, clipped to `maxChars` code points, with a marker naming the clipped bytes. */
export function renderStream(windows: StreamWindows, maxChars: number, label: string): string {
  const { head, tail, bytes } = windows;
  const whole = head.length + tail.length === bytes;
  if (whole) {
    const text = new TextDecoder("utf-8", decoderOptions).decode(Buffer.concat([head, tail]));
    const points = [...text];
    if (points.length <= maxChars) return text;
    return clip(
      points.slice(0, Math.ceil(maxChars / 2)).join(""),
      points.slice(points.length - Math.floor(maxChars / 2)).join(""),
      bytes,
      label,
    );
  }
  const headPoints = [...decodeHead(head)];
  const tailPoints = [...decodeTail(tail)];
  return clip(
    headPoints.slice(0, Math.ceil(maxChars / 2)).join(""),
    tailPoints.slice(Math.max(0, tailPoints.length - Math.floor(maxChars / 2))).join(""),
    bytes,
    label,
  );
}

function clip(headText: string, tailText: string, bytes: number, label: string): string {
  const clipped = bytes - Buffer.byteLength(headText) - Buffer.byteLength(tailText);
  const lead = headText.endsWith("\n") || headText === "" ? "" : "\n";
  const trail = tailText.startsWith("\n") ? "" : "\n";
  return `${headText}${lead}[... ${clipped} bytes of ${label} clipped ...]${trail}${tailText}`;
}

/** What {@link renderBashText} needs to know about a finished call. */
export interface RenderFacts {
  stdout: string;
  stderr: string;
  exitCode: number;
  note: string | undefined;
}

/** The full model-visible text: stdout, a `[stderr]` section when stderr is not empty, an optional note, `Exit code: N`. */
export function renderBashText({ stdout, stderr, exitCode, note }: RenderFacts): string {
  const parts: string[] = [];
  if (stdout !== "") parts.push(stdout.endsWith("\n") ? stdout.slice(0, -1) : stdout);
  if (stderr !== "") parts.push(`[stderr]\n${stderr.endsWith("\n") ? stderr.slice(0, -1) : stderr}`);
  if (note !== undefined) parts.push(note);
  parts.push(`Exit code: ${exitCode}`);
  return parts.join("\n");
}
