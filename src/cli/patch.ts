// `agent-evidence patch paths|entries|files [--json | -z] [FILE]`: the patch parser on a file or stdin.
// Input is read as bytes and decoded losslessly, and plain/-z output is written back as the same
// bytes, so names that are not UTF-8 come out exactly as Git wrote them.
import { Argument, type Command, Option } from "commander";

import { readRegularFile } from "../io/named-files.js";
import { decodeGitBytes, encodeGitBytes, parsePatch, patchEntries, patchPaths } from "../patches/index.js";
import { readBoundedStdin } from "./bounded-input.js";

/** What `agent-evidence patch` prints. */
export type PatchReport = "paths" | "entries" | "files";

/** How `agent-evidence patch` prints it. */
export type PatchOutputFormat = "lines" | "nul" | "json";

/**
 * Renders the report for a decoded patch: `lines` is one record per line (fields TAB-separated),
 * `nul` ends every field with NUL, `json` is `{"paths"|"entries"|"files": [...]}` plus a newline.
 */
export function renderPatchReport(report: PatchReport, format: PatchOutputFormat, patch: string): Uint8Array {
  const records = recordsOf(report, patch);
  switch (format) {
    case "json":
      return new TextEncoder().encode(`${JSON.stringify({ [report]: records.json })}\n`);
    case "nul":
      return encodeGitBytes(records.fields.map((fields) => fields.map((field) => `${field}\0`).join("")).join(""));
    case "lines":
      return encodeGitBytes(records.fields.map((fields) => `${fields.join("\t")}\n`).join(""));
    default: {
      const never: never = format;
      return never;
    }
  }
}

function recordsOf(report: PatchReport, patch: string): { json: unknown[]; fields: string[][] } {
  switch (report) {
    case "paths": {
      const paths = patchPaths(patch);
      return { json: paths, fields: paths.map((path) => [path]) };
    }
    case "entries": {
      const entries = patchEntries(patch);
      return { json: entries, fields: entries };
    }
    case "files": {
      const files = parsePatch(patch);
      return { json: files, fields: files.map((file) => [file.status, file.oldPath, file.newPath]) };
    }
    default: {
      const never: never = report;
      return never;
    }
  }
}

/** Registers `agent-evidence patch paths|entries|files [--json | -z] [FILE]`. */
export function registerPatchCommand(program: Command): void {
  program
    .command("patch")
    .description("List what a Git diff touches: paths, [old, new] entries, or parsed files (status, modes, hunks).")
    .addArgument(new Argument("<report>", "what to print").choices(["paths", "entries", "files"]))
    .argument("[file]", "patch to read (default: stdin)")
    .addOption(new Option("--json", "print JSON").conflicts("z"))
    .addOption(new Option("-z", "end every field with NUL (names may contain newlines)").conflicts("json"))
    .action(async (report: PatchReport, file: string | undefined, options: { json?: boolean; z?: boolean }) => {
      const bytes = file === undefined ? await readBoundedStdin(MAX_PATCH_BYTES) : readRegularFile(file, { cap: MAX_PATCH_BYTES });
      const format: PatchOutputFormat = options.json === true ? "json" : options.z === true ? "nul" : "lines";
      process.stdout.write(renderPatchReport(report, format, decodeGitBytes(bytes)));
    });
}

/** The largest patch `patch` reads (stdin or file): 48 MiB; more exits 65. */
export const MAX_PATCH_BYTES = 48 << 20;
