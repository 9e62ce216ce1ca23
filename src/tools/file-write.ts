// file_write: create (only with allowFileCreation), overwrite, or replace one exact unique string.
// It reports { completed, changed, path } by comparing the bytes before and after, and skips the
// write when nothing changes, so watchers and the evidence ledger see no edit.
import { stat } from "node:fs/promises";
import { dirname } from "node:path";

import { z } from "zod/v4";

import type { EditReport } from "../host/reports.js";
import { defineTool, errorMessage, type Tool, type ToolResult } from "../host/tool.js";
import { booleanOption, directoryOption, optionsObject, rejectUnknownOptions, stringOption } from "./options.js";
import { makeDirectoryInside, readFileInside, writeFileInside } from "./safe-fs.js";
import { resolveInWorkspace } from "./workspace-path.js";

/** Options of {@link createFileWriteTool}. */
export interface FileWriteToolOptions {
  /** The workspace: only files inside it (after symlinks) can be written. */
  cwd: string;
  /** Tool name (default `file_write`). */
  name?: string;
  /** Allow `create` (new files); default false. */
  allowFileCreation?: boolean;
}

/** The three ways file_write changes a file. */
export type FileWriteMode = "create" | "overwrite" | "str_replace";

/** Input of file_write. */
export interface FileWriteInput {
  path: string;
  mode: FileWriteMode;
  content?: string | null | undefined;
  oldString?: string | null | undefined;
  newString?: string | null | undefined;
}

/** `data` of every file_write call: the facts an edit observer needs. */
export interface FileWriteData extends EditReport {
  /** True when the requested edit was carried out (including "already had this content"). */
  completed: boolean;
  /** Whether the file's bytes differ from before; null when a failure left that unknown. */
  changed: boolean | null;
  /** Workspace-relative path (as requested when it could not be resolved). */
  path: string;
  mode: FileWriteMode;
}

/** The input schema of file_write with file creation allowed (every mode). */
export const fileWriteInputSchema = z.object({
  path: z.string().min(1).describe("File path, relative to the workspace (or absolute inside it)."),
  mode: z
    .enum(["create", "overwrite", "str_replace"])
    .describe("create a new file, overwrite an existing one, or str_replace one exact unique string."),
  content: z.string().nullish().describe("The whole new content (create, overwrite)."),
  oldString: z.string().nullish().describe("The exact text to replace; it must occur exactly once (str_replace)."),
  newString: z.string().nullish().describe("The replacement text (str_replace)."),
});

// Without file creation the model is not offered "create" at all.
const fileWriteNoCreateSchema = fileWriteInputSchema.extend({
  mode: z.enum(["overwrite", "str_replace"]).describe("overwrite an existing file, or str_replace one exact unique string."),
});

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

/** Creates the file_write tool. Throws an EvidenceError for a wrong option. */
export function createFileWriteTool(options: FileWriteToolOptions): Tool<FileWriteInput, FileWriteData> {
  const tool = "createFileWriteTool";
  optionsObject(tool, options);
  rejectUnknownOptions(tool, options, ["cwd", "name", "allowFileCreation"]);
  const workspace = directoryOption(tool, "cwd", options.cwd);
  const name = stringOption(tool, "name", options.name, "file_write");
  const allowFileCreation = booleanOption(tool, "allowFileCreation", options.allowFileCreation, false);

  const defined = defineTool<FileWriteInput, FileWriteData>({
    name,
    title: "Write a file",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    description:
      `Write a file inside the workspace. mode "str_replace" replaces oldString, which must occur exactly once, with newString; ` +
      `mode "overwrite" replaces an existing file's content` +
      (allowFileCreation ? `; mode "create" makes a new file (parent directories included).` : `; creating new files is disabled.`),
    inputSchema: fileWriteInputSchema,
    async run(input): Promise<ToolResult<FileWriteData>> {
      try {
        return await edit(input);
      } catch (error) {
        // Everything before the write only reads, so an exception there leaves the file as it was.
        return {
          text: `Error: ${errorMessage(error)}`,
          isError: true,
          data: { completed: false, changed: false, path: input.path, mode: input.mode },
        };
      }
    },
  });
  // The model is offered only the modes this tool allows; a call that still asks for "create" is
  // refused with its reason (the schema execute validates against keeps every mode for that).
  return allowFileCreation ? defined : { ...defined, inputSchema: fileWriteNoCreateSchema };

  async function edit(input: FileWriteInput): Promise<ToolResult<FileWriteData>> {
    const { mode } = input;
    const fail = (text: string, path = input.path): ToolResult<FileWriteData> => ({
      text: `Error: ${text}`,
      isError: true,
      data: { completed: false, changed: false, path, mode },
    });
    const resolved = await resolveInWorkspace(workspace, input.path);
    if (!resolved.ok) return fail(resolved.message.replace(/^Error: /, ""));
    const path = resolved.relative;
    if (resolved.exists && (await stat(resolved.absolute)).isDirectory()) return fail(`${path} is a directory.`, path);
    const readIfExists = (file: string) => readFileInside(workspace, file);
    const before = await readIfExists(resolved.absolute);

    let after: Buffer;
    switch (mode) {
      case "create":
        if (!allowFileCreation)
          return fail(`creating files is disabled for this tool (allowFileCreation is false); ${path} was not created.`, path);
        if (before !== null) return fail(`${path} already exists; use mode "overwrite" or "str_replace".`, path);
        if (input.content == null) return fail(`mode "create" needs content.`, path);
        after = Buffer.from(input.content, "utf8");
        break;
      case "overwrite":
        if (before === null)
          return fail(
            `${path} does not exist; overwrite changes existing files only${allowFileCreation ? ' (use mode "create")' : ""}.`,
            path,
          );
        if (input.content == null) return fail(`mode "overwrite" needs content.`, path);
        after = Buffer.from(input.content, "utf8");
        break;
      case "str_replace": {
        const { oldString, newString } = input;
        if (oldString == null || oldString === "") return fail(`mode "str_replace" needs a non-empty oldString.`, path);
        if (newString == null) return fail(`mode "str_replace" needs newString (it may be empty).`, path);
        if (oldString === newString) return fail(`oldString and newString are identical; nothing to replace.`, path);
        if (before === null) return fail(`${path} does not exist.`, path);
        if (before.includes(0)) return fail(`${path} is a binary file; str_replace edits text files only.`, path);
        const text = before.toString("utf8");
        const count = countOccurrences(text, oldString);
        if (count === 0) return fail(`oldString was not found in ${path}; it must match exactly, whitespace included.`, path);
        if (count > 1)
          return fail(`oldString occurs ${count} times in ${path}; include more surrounding text so it matches exactly once.`, path);
        const at = text.indexOf(oldString);
        after = Buffer.from(text.slice(0, at) + newString + text.slice(at + oldString.length), "utf8");
        break;
      }
      default: {
        const never: never = mode;
        return fail(`unknown mode ${String(never)}.`, path);
      }
    }

    if (before !== null && before.equals(after)) {
      return { text: `${path} already has this content; nothing changed.`, data: { completed: true, changed: false, path, mode } };
    }
    try {
      // Written through the checked parent directory (src/tools/safe-fs.ts): a directory swapped for a
      // symlink by the agent's bash meanwhile cannot send the write outside the workspace.
      if (before === null) await makeDirectoryInside(workspace, dirname(resolved.absolute));
      const fileMode = before === null ? undefined : (await stat(resolved.absolute)).mode & 0o7777;
      await writeFileInside(workspace, resolved.absolute, after, fileMode);
    } catch (error) {
      // The write failed part-way: look at the file to say whether its content changed.
      let changed: boolean | null;
      try {
        const now = await readIfExists(resolved.absolute);
        changed = now === null ? before !== null : before === null ? true : !now.equals(before);
      } catch {
        changed = null;
      }
      return {
        text: `Error: writing ${path} failed: ${errorMessage(error)}`,
        isError: true,
        data: { completed: false, changed, path, mode },
      };
    }
    const verb = mode === "create" ? "Created" : mode === "overwrite" ? "Overwrote" : "Edited";
    return { text: `${verb} ${path} (${after.length} bytes).`, data: { completed: true, changed: true, path, mode } };
  }
}
