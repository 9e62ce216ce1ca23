// apply_patch: a unified Git diff applied to the workspace, all files or none. Paths come from the
// pure patch parser (src/patches) and must stay inside the workspace; `git apply --check` validates
// every hunk before `git apply` writes anything. The result names the paths whose content changed.
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { execa } from "execa";
import { z } from "zod";
import { parsePatch } from "../patches/index.js";
import { booleanOption, directoryOption, optionsObject, positiveIntegerOption, rejectUnknownOptions, stringOption } from "./options.js";
import { defineTool, errorMessage, type Tool, type ToolResult } from "./tool.js";
import { resolveInWorkspace, type ContainedPath } from "./workspace-path.js";

/** Options of {@link createApplyPatchTool}. */
export interface ApplyPatchToolOptions {
  /** The workspace the patch paths are relative to. */
  cwd: string;
  /** Tool name (default `apply_patch`). */
  name?: string;
  /** Allow patches that create files; default false. */
  allowFileCreation?: boolean;
  /** Timeout per git command in ms (default 60,000). */
  timeoutMs?: number;
}

/** Input of apply_patch. */
export interface ApplyPatchInput {
  patch: string;
}

/** `data` of every apply_patch call: the facts an edit observer needs. */
export interface ApplyPatchData {
  /** True when the whole patch was applied. */
  completed: boolean;
  /** Whether any file's content differs from before; null when a failure left that unknown. */
  changed: boolean | null;
  /** Workspace-relative paths the patch names (old and new sides). */
  paths: string[];
  /** The paths whose content (or existence) actually changed. */
  changedPaths: string[];
}

/** The input schema of apply_patch. */
export const applyPatchInputSchema = z.object({
  patch: z.string().min(1).describe("A unified diff in Git format (diff --git a/x b/x, ---/+++ lines, @@ hunks), paths relative to the workspace."),
});

const GIT_APPLY = ["-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "apply", "--whitespace=nowarn", "--recount"];

/** Paths from `git apply --numstat -z` output, for patches the Git-diff parser does not cover (plain `---`/`+++`). */
export function parseNumstatPaths(output: string): string[] {
  const paths: string[] = [];
  const fields = output.split("\0");
  for (let i = 0; i < fields.length; i += 1) {
    const match = /^(?:-|\d+)\t(?:-|\d+)\t(.*)$/s.exec(fields[i] ?? "");
    if (match === null) continue;
    if (match[1] !== "") paths.push(match[1] ?? "");
    else {
      // A rename: the old and new names follow in the next two fields.
      paths.push(fields[i + 1] ?? "", fields[i + 2] ?? "");
      i += 2;
    }
  }
  return paths.filter((path) => path !== "");
}

async function snapshot(paths: readonly ContainedPath[]): Promise<(Buffer | null)[]> {
  return Promise.all(paths.map((path) => readFile(path.absolute).catch(() => null)));
}

/** Creates the apply_patch tool. Throws an EvidenceError for a wrong option. */
export function createApplyPatchTool(options: ApplyPatchToolOptions): Tool<ApplyPatchInput, ApplyPatchData> {
  const tool = "createApplyPatchTool";
  optionsObject(tool, options);
  rejectUnknownOptions(tool, options, ["cwd", "name", "allowFileCreation", "timeoutMs"]);
  const workspace = directoryOption(tool, "cwd", options.cwd);
  const name = stringOption(tool, "name", options.name, "apply_patch");
  const allowFileCreation = booleanOption(tool, "allowFileCreation", options.allowFileCreation, false);
  const timeoutMs = positiveIntegerOption(tool, "timeoutMs", options.timeoutMs, 60_000);

  // Repository discovery stops at the workspace: patch paths are workspace-relative even when the
  // workspace is a subdirectory of a repository (where `git apply` would read them from the top).
  const gitApply = (args: string[], patch: string) =>
    execa("git", [...GIT_APPLY, ...args], {
      cwd: workspace,
      input: patch,
      reject: false,
      timeout: timeoutMs,
      env: { GIT_CEILING_DIRECTORIES: dirname(workspace) },
    });

  return defineTool<ApplyPatchInput, ApplyPatchData>({
    name,
    description:
      `Apply a unified diff (Git format, paths relative to the workspace ${workspace}). Either every file is patched or none is. ` +
      (allowFileCreation ? "Patches may create and delete files." : "Patches may not create files."),
    inputSchema: applyPatchInputSchema,
    async run(input): Promise<ToolResult<ApplyPatchData>> {
      const patch = input.patch.endsWith("\n") ? input.patch : `${input.patch}\n`;
      const refuse = (text: string, paths: string[] = []): ToolResult<ApplyPatchData> => ({
        text: `Error: ${text} Nothing was changed.`,
        isError: true,
        data: { completed: false, changed: false, paths, changedPaths: [] },
      });

      let named: string[];
      try {
        const files = parsePatch(patch);
        if (files.some((file) => file.combined)) return refuse("combined (merge) diffs cannot be applied.");
        named = [...new Set(files.flatMap((file) => [file.oldPath, file.newPath]).filter((path) => path !== ""))];
      } catch (error) {
        return refuse(`the patch could not be parsed (${errorMessage(error)}).`);
      }
      if (named.length === 0) {
        const numstat = await gitApply(["--numstat", "-z"], patch);
        named = [...new Set(parseNumstatPaths(String(numstat.stdout)))];
        if (named.length === 0) return refuse(`the patch names no files (${String(numstat.stderr).trim() || "no diff headers found"}).`);
      }

      const contained: ContainedPath[] = [];
      for (const path of named) {
        const resolved = await resolveInWorkspace(workspace, path);
        if (!resolved.ok) return refuse(resolved.message.replace(/^Error: /, ""), named);
        if (resolved.relative === ".git" || resolved.relative.startsWith(".git/")) return refuse(`the patch touches ${resolved.relative}; the .git directory is off limits.`, named);
        contained.push(resolved);
      }
      const paths = contained.map((path) => path.relative);
      const before = await snapshot(contained);

      const check = await gitApply(["--check"], patch);
      if (check.exitCode !== 0) return refuse(`the patch does not apply: ${String(check.stderr).trim() || check.shortMessage}`, paths);
      // --check passed, so a named path that does not exist yet can only be one the patch creates
      // (an added file, or the new name of a rename or copy).
      const created = contained.filter((path) => !path.exists);
      if (!allowFileCreation && created.length > 0) {
        return refuse(`creating files is disabled for this tool (allowFileCreation is false); the patch would create ${created.map((p) => p.relative).join(", ")}.`, paths);
      }

      const applied = await gitApply([], patch);
      const after = await snapshot(contained);
      const changedPaths = paths.filter((_, i) => {
        const a = before[i] ?? null;
        const b = after[i] ?? null;
        return a === null || b === null ? a !== b : !a.equals(b);
      });
      if (applied.exitCode !== 0) {
        return {
          text: `Error: git apply failed after its check passed: ${String(applied.stderr).trim()}`,
          isError: true,
          data: { completed: false, changed: changedPaths.length > 0 ? true : null, paths, changedPaths },
        };
      }
      const summary = changedPaths.length === 0 ? "no file content changed" : `changed ${changedPaths.join(", ")}`;
      return { text: `Applied the patch: ${summary}.`, data: { completed: true, changed: changedPaths.length > 0, paths, changedPaths } };
    },
  });
}
