// file_read: a text file inside the workspace, whole or by line range, with line numbers. Binary
// files and files over the size cap (without a range) are refused; the text shown is bounded.
import { type FileHandle, open } from "node:fs/promises";
import { createInterface } from "node:readline";

import { z } from "zod/v4";

import { defineTool, type Tool, type ToolResult } from "../host/tool.js";
import { directoryOption, optionsObject, positiveIntegerOption, rejectUnknownOptions, stringOption } from "./options.js";
import { type OpenedPath, openInside, OutsideWorkspaceError } from "./safe-fs.js";
import { resolveInWorkspace } from "./workspace-path.js";

/** Options of {@link createFileReadTool}. */
export interface FileReadToolOptions {
  /** The workspace: only files inside it (after symlinks) can be read. */
  cwd: string;
  /** Tool name (default `file_read`). */
  name?: string;
  /** Files larger than this need a line range (default 1 MiB). */
  maxFileBytes?: number;
  /** Characters of file text shown per call (default 50,000); the rest is named with the line to continue from. */
  maxOutputChars?: number;
}

/** Input of file_read. */
export interface FileReadInput {
  path: string;
  startLine?: number | null | undefined;
  endLine?: number | null | undefined;
}

/** `data` of file_read. */
export type FileReadData =
  | { status: "read"; path: string; startLine: number; endLine: number; totalLines: number | null; bytes: number; clipped: boolean }
  | { status: "refused"; path: string; reason: FileReadRefusal };

/** Why file_read showed nothing. */
export type FileReadRefusal = "outside-workspace" | "not-found" | "directory" | "binary" | "too-large" | "bad-range";

/** The input schema of file_read. */
export const fileReadInputSchema = z.object({
  path: z.string().min(1).describe("File path, relative to the workspace (or absolute inside it)."),
  startLine: z.number().int().positive().nullish().describe("First line to show (1-based)."),
  endLine: z.number().int().positive().nullish().describe("Last line to show (inclusive)."),
});

const SNIFF_BYTES = 8_192;

/** True when the first bytes of a file hold a NUL byte (the test git and grep use). */
export async function looksBinary(path: string | FileHandle): Promise<boolean> {
  const handle = typeof path === "string" ? await open(path, "r") : path;
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    if (typeof path === "string") await handle.close();
  }
}

/**
 * Lines `start..end` (1-based, inclusive) of a file, streamed and stopped once `budget` characters are
 * collected; `total` is the file's line count when the file ended within the range.
 */
async function readLineRange(
  handle: FileHandle,
  start: number,
  end: number,
  budget: number,
): Promise<{ lines: string[]; total: number | null }> {
  const lines: string[] = [];
  let number = 0;
  let collected = 0;
  const reader = createInterface({ input: handle.createReadStream({ encoding: "utf8", start: 0, autoClose: false }), crlfDelay: Infinity });
  try {
    for await (const line of reader) {
      number += 1;
      if (number >= start) {
        lines.push(line);
        collected += line.length + 1;
      }
      if (number >= end || collected > budget) return { lines, total: null };
    }
  } finally {
    reader.close();
  }
  return { lines, total: number };
}

function splitLines(text: string): string[] {
  const lines = text.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Creates the file_read tool. Throws an EvidenceError for a wrong option. */
export function createFileReadTool(options: FileReadToolOptions): Tool<FileReadInput, FileReadData> {
  const tool = "createFileReadTool";
  optionsObject(tool, options);
  rejectUnknownOptions(tool, options, ["cwd", "name", "maxFileBytes", "maxOutputChars"]);
  const workspace = directoryOption(tool, "cwd", options.cwd);
  const name = stringOption(tool, "name", options.name, "file_read");
  const maxFileBytes = positiveIntegerOption(tool, "maxFileBytes", options.maxFileBytes, 1024 * 1024);
  const maxOutputChars = positiveIntegerOption(tool, "maxOutputChars", options.maxOutputChars, 50_000);

  type Refuse = (reason: FileReadRefusal, text: string, path?: string) => ToolResult<FileReadData>;

  // Shows the opened file: the checks on its kind and size, then the numbered lines.
  async function show(
    input: FileReadInput,
    start: number,
    end: number | undefined,
    relativePath: string,
    handle: FileHandle,
    refuse: Refuse,
  ): Promise<ToolResult<FileReadData>> {
    const info = await handle.stat();
    if (info.isDirectory())
      return refuse("directory", `Error: ${relativePath} is a directory; list it with bash (ls) or grep.`, relativePath);
    if (!info.isFile()) return refuse("binary", `Error: ${relativePath} is not a regular file; it is not shown.`, relativePath);
    if (await looksBinary(handle)) {
      return refuse("binary", `Error: ${relativePath} is a binary file (${info.size} bytes); it is not shown.`, relativePath);
    }
    const ranged = input.startLine != null || input.endLine != null;
    if (info.size > maxFileBytes && !ranged) {
      return refuse(
        "too-large",
        `Error: ${relativePath} is ${info.size} bytes, over the ${maxFileBytes}-byte cap; pass startLine and endLine to read part of it.`,
        relativePath,
      );
    }
    let lines: string[];
    let totalLines: number | null;
    if (info.size > maxFileBytes) {
      const part = await readLineRange(handle, start, end ?? Number.MAX_SAFE_INTEGER, maxOutputChars);
      lines = part.lines;
      totalLines = part.total;
    } else {
      const all = splitLines(await handle.readFile("utf8"));
      totalLines = all.length;
      lines = all.slice(start - 1, end);
    }
    const width = String(start + Math.max(lines.length - 1, 0)).length;
    const shown: string[] = [];
    let used = 0;
    let clipped = false;
    for (const [index, line] of lines.entries()) {
      const numbered = `${String(start + index).padStart(width)}\t${line}`;
      if (used + numbered.length + 1 > maxOutputChars) {
        if (shown.length === 0) shown.push(`${numbered.slice(0, maxOutputChars)} [... line clipped ...]`);
        clipped = true;
        break;
      }
      shown.push(numbered);
      used += numbered.length + 1;
    }
    const last = start + shown.length - 1;
    let text = shown.join("\n");
    if (lines.length === 0)
      text = totalLines === null ? "(no lines in this range)" : `(the file has ${totalLines} lines; none in this range)`;
    if (clipped) text += `\n[... output clipped after line ${last}; pass startLine ${last + 1} to continue ...]`;
    return {
      text,
      data: {
        status: "read" as const,
        path: relativePath,
        startLine: start,
        endLine: Math.max(last, start - 1),
        totalLines,
        bytes: info.size,
        clipped,
      },
    };
  }

  return defineTool<FileReadInput, FileReadData>({
    name,
    title: "Read a file",
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    description:
      `Read a text file inside the workspace. Lines are shown as "N<TAB>text". ` +
      `Use startLine/endLine for a part; files over ${maxFileBytes} bytes need a range. At most ${maxOutputChars} characters per call.`,
    inputSchema: fileReadInputSchema,
    async run(input) {
      const refuse: Refuse = (reason, text, path = input.path) => ({
        text,
        isError: true,
        data: { status: "refused", path, reason },
      });
      const start = input.startLine ?? 1;
      const end = input.endLine ?? undefined;
      if (end !== undefined && end < start) return refuse("bad-range", `Error: endLine (${end}) is before startLine (${start}).`);
      const resolved = await resolveInWorkspace(workspace, input.path);
      if (!resolved.ok) return refuse("outside-workspace", resolved.message);
      if (!resolved.exists) return refuse("not-found", `Error: ${resolved.relative} does not exist.`, resolved.relative);
      // Opened first, located after (src/tools/safe-fs.ts): a swap in between cannot make it read outside.
      let opened: OpenedPath;
      try {
        opened = await openInside(workspace, resolved.absolute);
      } catch (error) {
        if (error instanceof OutsideWorkspaceError) return refuse("outside-workspace", `Error: ${error.message}`, resolved.relative);
        if ((error as NodeJS.ErrnoException).code === "ENOENT")
          return refuse("not-found", `Error: ${resolved.relative} does not exist.`, resolved.relative);
        throw error;
      }
      try {
        return await show(input, start, end, resolved.relative, opened.handle, refuse);
      } finally {
        await opened.handle.close();
      }
    },
  });
}
