// `agent-evidence judge`: judge a captured command output from a file or stdin; one JSON object out.
// Its exit statuses (the verdict's 0, 1, 2, then usage, cap, internal and output errors) are CLI_EXITS.judge in exit-codes.ts.
import { closeSync, fstatSync, readSync, statSync } from "node:fs";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";

import type { Command } from "commander";

import { EvidenceError } from "../errors.js";
import type { JudgeReport } from "../evidence/judge-types.js";
import { NamedFileError, openRegularFile, readRegularFile } from "../io/named-files.js";
import type { Outcome } from "../types.js";
import { createBufferedOutput } from "./buffered-output.js";
import { IDS_MODES, type IdsMode, writeJudgeJson } from "./judge-json.js";

interface JudgeCliOptions {
  command: string;
  cwd?: string;
  exitCode?: string;
  truncated?: boolean;
  output?: string;
  junit?: string;
  startedAt?: string;
  ids?: string;
}

/** The exit status the CLI gives each verdict. */
export function verdictExitStatus(verdict: Outcome): number {
  switch (verdict) {
    case "passed":
      return 0;
    case "failed":
      return 1;
    case "unknown":
      return 2;
    default: {
      const never: never = verdict;
      return never;
    }
  }
}

/** Registers `agent-evidence judge`. */
export function registerJudgeCommand(program: Command): void {
  program
    .command("judge")
    .description("Judge a captured test command output from FILE or stdin; prints one JSON object (exit 0 passed, 1 failed, 2 unknown).")
    .requiredOption("--command <cmd>", "the command line that produced the output")
    .option("--cwd <dir>", "the directory the command ran in (used as text)")
    .option("--exit-code <n>", "the command line's exit status")
    .option("--truncated", "the output was clipped")
    .option("--output <file>", "read the output from FILE (default: stdin)")
    .option("--junit <file>", "a JUnit XML report the run wrote")
    .option("--started-at <iso>", "when the run started: an older --junit file is stale")
    .option("--ids <which>", "the id lists to print: all (default), failed, or none (the verdict and reasons only)")
    .action(async (options: JudgeCliOptions) => {
      const exitCode = parseExitCode(options.exitCode);
      const ids = parseIds(options.ids);
      const startedAt = parseStartedAt(options.startedAt);
      const reports: JudgeReport[] = options.junit === undefined ? [] : [await readJunit(options.junit, startedAt)];
      // Opened before the judge loads: a bad --output fails at once. Only a regular file (stdin takes pipes).
      const output = options.output === undefined ? null : openRegularFile(options.output, `--output ${options.output}`);
      const [{ analyzeWithPackageScripts }, { createJudgeStream }] = await Promise.all([
        import("../observation/package-scripts.js"),
        import("../evidence/judge.js"),
      ]);
      // A script run (`npm test`) is followed into its script only from a --cwd that exists here: its package.json is read now.
      const cwdExists = options.cwd !== undefined && isDirectory(options.cwd);
      const analysis = analyzeWithPackageScripts(options.command, {
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        resolveScripts: cwdExists ? undefined : false,
      });
      // Packed ids: the JSON is written from the ids' bytes, with no string per id (docs/benchmarks.md, bench/judge).
      const stream = createJudgeStream(analysis, {
        exitCode,
        outputTruncated: options.truncated === true,
        reports,
        ids: "bytes",
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      });
      const push = (chunk: string): void => stream.push(chunk);
      if (output !== null) feedFile(output.fd, push, options.output);
      else if (isRegularFile(0)) feedFile(0, push, undefined);
      else await feed(process.stdin, push);
      const result = stream.end();
      // Written in pieces gathered into large writes, waiting for stdout to drain: a result with millions of ids is never one string.
      const out = createBufferedOutput(process.stdout);
      await writeJudgeJson(result, (text) => out.write(text), ids);
      await out.write("\n");
      await out.flush();
      process.exitCode = verdictExitStatus(result.verdict);
    });
}

function parseIds(text: string | undefined): IdsMode {
  if (text === undefined) return "all";
  const mode = IDS_MODES.find((m) => m === text);
  if (mode === undefined)
    throw new EvidenceError("E_USAGE", `judge: --ids must be one of ${IDS_MODES.join(", ")}, got ${JSON.stringify(text)}`);
  return mode;
}

function parseExitCode(text: string | undefined): number | null {
  if (text === undefined) return null;
  if (!/^-?\d+$/.test(text.trim()))
    throw new EvidenceError("E_USAGE", `judge: --exit-code must be an integer, got ${JSON.stringify(text)}`);
  return Number(text.trim());
}

function parseStartedAt(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (Number.isNaN(Date.parse(text)))
    throw new EvidenceError("E_USAGE", `judge: --started-at must be an ISO date-time, got ${JSON.stringify(text)}`);
  return text;
}

async function readJunit(path: string, startedAt: string | undefined): Promise<JudgeReport> {
  const { MAX_JUNIT_REPORT_BYTES } = await import("../observers/junit.js");
  const name = `--junit ${path}`;
  const xml = readRegularFile(path, { cap: MAX_JUNIT_REPORT_BYTES, name }).toString("utf8");
  // Staleness is judged only when the caller says when the run started.
  return startedAt === undefined ? { kind: "junit", xml, path } : { kind: "junit", xml, path, mtime: statSync(path).mtime, startedAt };
}

/**
 * Bytes read from a regular file at once. Measured against 128 KiB and 1 MiB: 64 KiB takes the least
 * CPU on the service suite and the 1.23 M-id log (a decoded chunk stays in the cache and the young
 * generation), 1 MiB on the parametrised log only (its ids keep their chunks alive).
 */
const READ_CHUNK_BYTES = 64 * 1024;

// A regular file (--output FILE, or stdin redirected from one) is read with synchronous reads into
// one reused buffer (no stream, no Buffer per chunk), decoded chunk by chunk (UTF-8 split safely);
// the fd is closed at the end.
function feedFile(fd: number, push: (chunk: string) => void, path: string | undefined): void {
  const decoder = new StringDecoder("utf8");
  const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  try {
    for (let read = readInput(fd, buffer, path); read > 0; read = readInput(fd, buffer, path))
      push(decoder.write(read === buffer.length ? buffer : buffer.subarray(0, read)));
  } finally {
    if (fd !== 0) closeSync(fd);
  }
  push(decoder.end());
}

function readInput(fd: number, buffer: Buffer, path: string | undefined): number {
  try {
    return readSync(fd, buffer, 0, buffer.length, null);
  } catch (error) {
    throw readError(error, path);
  }
}

// Stdin from a pipe or a terminal streams in the chunks it arrives in (a multi-gigabyte log is never held whole).
async function feed(input: Readable, push: (chunk: string) => void): Promise<void> {
  const decoder = new StringDecoder("utf8");
  try {
    for await (const chunk of input) push(typeof chunk === "string" ? chunk : decoder.write(chunk as Buffer));
  } catch (error) {
    throw readError(error, undefined);
  }
  push(decoder.end());
}

function readError(error: unknown, path: string | undefined): NamedFileError {
  const code = error instanceof Error && "code" in error ? String(error.code) : "EIO";
  return new NamedFileError("read", code, path ?? "-", `cannot read ${path === undefined ? "stdin" : `--output ${path}`} (${code})`, {
    cause: error,
  });
}

function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
