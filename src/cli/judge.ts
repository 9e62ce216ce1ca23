// `agent-evidence judge`: judge a captured command output from a file or stdin; one JSON object out.
// Exit status 0 passed, 1 failed, 2 unknown, 64 usage error, 65 a --junit report over its cap.
import { createReadStream, statSync } from "node:fs";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";

import type { Command } from "commander";

import { EvidenceError } from "../errors.js";
import type { JudgeReport } from "../evidence/judge-types.js";
import { NamedFileError, openRegularFile, readRegularFile } from "../io/named-files.js";
import type { Outcome } from "../types.js";
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
      const stream = createJudgeStream(analysis, {
        exitCode,
        outputTruncated: options.truncated === true,
        reports,
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      });
      const input = output === null ? process.stdin : createReadStream("", { fd: output.fd, start: 0 });
      await feed(input, (chunk) => stream.push(chunk), options.output);
      const result = stream.end();
      // Written in pieces, waiting for stdout to drain: a result with millions of ids is never one string.
      await writeJudgeJson(result, writeStdout, ids);
      await writeStdout("\n");
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

// Resolves once stdout took the text (at once, or after it drained).
function writeStdout(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (process.stdout.write(text, (error) => (error === null || error === undefined ? undefined : reject(error)))) resolve();
    else process.stdout.once("drain", resolve);
  });
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

// Streams the output in chunks (a multi-gigabyte log is never held whole); UTF-8 split safely.
async function feed(input: Readable, push: (chunk: string) => void, path: string | undefined): Promise<void> {
  const decoder = new StringDecoder("utf8");
  try {
    for await (const chunk of input) push(typeof chunk === "string" ? chunk : decoder.write(chunk as Buffer));
  } catch (error) {
    const code = error instanceof Error && "code" in error ? String(error.code) : "EIO";
    throw new NamedFileError("read", code, path ?? "-", `cannot read ${path === undefined ? "stdin" : `--output ${path}`} (${code})`, {
      cause: error,
    });
  }
  push(decoder.end());
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
