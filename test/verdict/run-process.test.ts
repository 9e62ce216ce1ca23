// `agent-evidence run` reads each chunk of the suite's output once and hands its text on in pieces of
// TEXT_PIECE bytes (run-process.ts), where it used to hand on each chunk's text whole. The same output,
// cut into chunks at random sizes (inside UTF-8 characters and lines too), goes through both paths:
// every field the verdict reads must agree (the judge's result, the clipping scan, the progress
// counts), and the real process keeps the log's bytes and hash exactly.
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CLIPPING_NOTES } from "../../src/evidence/clipping.js";
import { createJudgeStream } from "../../src/evidence/judge.js";
import { analyzeWithPackageScripts } from "../../src/observation/package-scripts.js";
import { createProgressCounter } from "../../src/verdict/progress.js";
import { decodeInPieces, runSuiteProcess, TEXT_PIECE } from "../../src/verdict/run-process.js";
import { type CapturedRun, ensureCaptured, loadCapture } from "../support/capture.js";
import { CAPTURE_CASES } from "../support/capture-cases.js";
import { tempDirPath } from "../support/temp-dir.js";

let captures: CapturedRun[] = [];
let dir = "";
beforeAll(async () => {
  await ensureCaptured();
  captures = CAPTURE_CASES.map((c) => loadCapture(c.name));
  dir = tempDirPath("ae-run-process-");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Lines a suite may print besides its runner's: its own log lines, text in several scripts, a line
// cut by a carriage return, host clipping notes, long lines (up to 4,000 characters: the clipping scan
// keeps 4,096 characters of an unfinished line, so a longer line's scan already depends on where the
// pipe cuts it, in both paths alike).
const EXTRA_LINES = [
  "2024-05-01 12:00:00,000 INFO worker.pool: processed item 0123456789 in 0.42 ms, queue depth 17",
  "Grüße aus Köln — ñandú, 日本語のテキスト, emoji 🧪🚀, combining e\u0301",
  "progress 50%\rprogress 100%",
  "\u001b[32mPASSED\u001b[0m tests/test_colour.py::test_x",
  ...CLIPPING_NOTES.map((note) => note.example),
];

const outputArbitrary = fc
  .record({
    capture: fc.nat(),
    extras: fc.array(fc.tuple(fc.nat(), fc.nat(EXTRA_LINES.length - 1), fc.integer({ min: 1, max: 200 })), { maxLength: 12 }),
    finalNewline: fc.boolean(),
    cutTail: fc.nat(3),
  })
  .map(({ capture, extras, finalNewline, cutTail }) => {
    const run = captures[capture % captures.length]!;
    const lines = run.output.split("\n");
    for (const [at, which, repeat] of extras) {
      const line = EXTRA_LINES[which]!;
      lines.splice(
        at % (lines.length + 1),
        0,
        ...Array.from({ length: repeat }, () => (repeat > 100 ? line.repeat(20).slice(0, 4000) : line)),
      );
    }
    let bytes = Buffer.from(lines.join("\n") + (finalNewline ? "\n" : ""));
    // A cut inside a multi-byte character at the very end (a killed suite): the decoder's end() text.
    if (cutTail > 0 && bytes.length > cutTail) bytes = bytes.subarray(0, bytes.length - cutTail);
    return { run, bytes };
  });

// Cuts `bytes` into chunks of random sizes: small ones split characters and lines, large ones span several pieces.
function chunksOf(bytes: Buffer, sizes: readonly number[]): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0, k = 0; at < bytes.length; k += 1) {
    const size = sizes.length === 0 ? bytes.length : sizes[k % sizes.length]!;
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

interface PathResult {
  judged: unknown;
  clipped: boolean;
  endsWithNewline: boolean;
  passed: number;
  failed: number;
  counted: number;
  text: string;
}

const analyses = new Map<string, ReturnType<typeof analyzeWithPackageScripts>>();
function analysisOf(run: CapturedRun): ReturnType<typeof analyzeWithPackageScripts> {
  let analysis = analyses.get(run.name);
  if (analysis === undefined) analyses.set(run.name, (analysis = analyzeWithPackageScripts(run.line, { cwd: run.cwd })));
  return analysis;
}

// One path: `toText` turns a chunk into the texts the readers get (the old path: the chunk's text whole).
function readThrough(
  run: CapturedRun,
  chunks: readonly Buffer[],
  toText: (decoder: StringDecoder, chunk: Buffer, onText: (text: string) => void) => void,
): PathResult {
  const decoder = new StringDecoder("utf8");
  const judge = createJudgeStream(analysisOf(run), { cwd: run.cwd });
  const counter = createProgressCounter();
  let text = "";
  const onText = (piece: string): void => {
    judge.push(piece);
    counter.push(piece);
    text += piece;
  };
  for (const chunk of chunks) toText(decoder, chunk, onText);
  const rest = decoder.end();
  if (rest !== "") onText(rest);
  const judged = judge.end(run.exitCode);
  return {
    judged,
    clipped: judge.clippingNoteSeen,
    endsWithNewline: text.endsWith("\n"),
    passed: counter.passed,
    failed: counter.failed,
    counted: counter.bytes,
    text,
  };
}

const wholeChunk = (decoder: StringDecoder, chunk: Buffer, onText: (text: string) => void): void => {
  const text = decoder.write(chunk);
  if (text !== "") onText(text);
};

describe("the chunk's text in pieces: the same results as the chunk's text whole", () => {
  it("on captured runner output with log lines, other scripts and clipping notes, chunked at random sizes", () => {
    fc.assert(
      fc.property(
        outputArbitrary,
        fc.array(fc.oneof(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 4 * TEXT_PIECE })), { maxLength: 8 }),
        ({ run, bytes }, sizes) => {
          const chunks = chunksOf(bytes, sizes);
          expect(readThrough(run, chunks, decodeInPieces)).toEqual(readThrough(run, chunks, wholeChunk));
        },
      ),
      { numRuns: 150 },
    );
  }, 300_000);

  it("a chunk larger than a piece is handed on in pieces, split inside a character where the piece ends", () => {
    const bytes = Buffer.from("é".repeat(TEXT_PIECE));
    const pieces: string[] = [];
    decodeInPieces(new StringDecoder("utf8"), bytes, (text) => pieces.push(text));
    expect(pieces.length).toBe(2);
    expect(pieces.join("")).toBe("é".repeat(TEXT_PIECE));
  });
});

describe("runSuiteProcess keeps every byte", () => {
  it("log, hash, byte count, the bytes handed to onBytes and the text handed to onOutput, for output that is not all UTF-8", async () => {
    // Valid text in several scripts, lines of every length, and bytes that are no UTF-8 at all.
    const parts: Buffer[] = [];
    for (let k = 0; k < 2000; k += 1) {
      parts.push(Buffer.from(`${"line ".repeat(k % 97)}${EXTRA_LINES[k % EXTRA_LINES.length]} ${k}\n`));
      if (k % 50 === 0) parts.push(Buffer.from([0xff, 0xfe, 0xc3, 0x0a, 0xe2, 0x82]));
    }
    const expected = Buffer.concat(parts);
    const source = join(dir, "output.bin");
    writeFileSync(source, expected);
    const logPath = join(dir, "suite.log");
    const seen: Buffer[] = [];
    let text = "";
    const result = await runSuiteProcess({
      command: `cat ${source}`,
      cwd: dir,
      logPath,
      onBytes: (chunk) => seen.push(Buffer.from(chunk)),
      onOutput: (piece) => (text += piece),
    });
    const decoder = new StringDecoder("utf8");
    expect({ exitCode: result.exitCode, bytes: result.bytes, logSha256: result.logSha256 }).toEqual({
      exitCode: 0,
      bytes: expected.length,
      logSha256: createHash("sha256").update(expected).digest("hex"),
    });
    expect(readFileSync(logPath).equals(expected)).toBe(true);
    expect(Buffer.concat(seen).equals(expected)).toBe(true);
    expect(text).toBe(decoder.write(expected) + decoder.end());
  });
});
