// apply_patch: a unified Git diff applied to the workspace, all files or none. Paths come from the
// pure patch parser (src/patches) and must stay inside the workspace; `git apply --check` validates
// every hunk before `git apply` writes anything. The result names the paths whose content changed.
import { lstat, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";

import { z } from "zod/v4";

import type { EditReport } from "../host/reports.js";
import { defineTool, errorMessage, type Tool, type ToolResult } from "../host/tool.js";
import { parsePatch } from "../patches/index.js";
import { runHostGit } from "./host-git.js";
import { booleanOption, directoryOption, optionsObject, positiveIntegerOption, rejectUnknownOptions, stringOption } from "./options.js";
import { makeDirectoryInside, openInside, removeFileInside, writeFileInside } from "./safe-fs.js";
import { type ContainedPath, resolveInWorkspace } from "./workspace-path.js";

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
export interface ApplyPatchData extends EditReport {
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
  patch: z
    .string()
    .min(1)
    .describe("A unified diff in Git format (diff --git a/x b/x, ---/+++ lines, @@ hunks), paths relative to the workspace."),
});

const GIT_APPLY = ["-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "apply", "--whitespace=nowarn", "--recount"];

/** One named path as staged: its content and mode before and after, null when absent. */
interface StagedFile {
  named: string;
  target: ContainedPath;
  before: { bytes: Buffer; mode: number } | null;
}

async function readStaged(stage: string, named: string): Promise<{ bytes: Buffer; mode: number } | null> {
  const path = join(stage, named);
  const info = await lstat(path).catch(() => null);
  if (info === null || !info.isFile()) return null;
  return { bytes: await readFile(path), mode: info.mode & 0o777 };
}

const sameFile = (a: { bytes: Buffer; mode: number } | null, b: { bytes: Buffer; mode: number } | null): boolean =>
  a === null || b === null ? a === b : a.bytes.equals(b.bytes) && (a.mode & 0o111) === (b.mode & 0o111);

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

/** Creates the apply_patch tool. Throws an EvidenceError for a wrong option. */
export function createApplyPatchTool(options: ApplyPatchToolOptions): Tool<ApplyPatchInput, ApplyPatchData> {
  const tool = "createApplyPatchTool";
  optionsObject(tool, options);
  rejectUnknownOptions(tool, options, ["cwd", "name", "allowFileCreation", "timeoutMs"]);
  const workspace = directoryOption(tool, "cwd", options.cwd);
  const name = stringOption(tool, "name", options.name, "apply_patch");
  const allowFileCreation = booleanOption(tool, "allowFileCreation", options.allowFileCreation, false);
  const timeoutMs = positiveIntegerOption(tool, "timeoutMs", options.timeoutMs, 60_000);

  // git apply runs in a private staging directory holding copies of the named files, never in the
  // workspace: it reads no configuration or attributes the agent wrote, and it cannot be raced into
  // writing outside the workspace. The results are copied back through safe-fs.ts.
  const gitApply = async (stage: string, args: string[], patch: string) => {
    const result = await runHostGit(stage, [...GIT_APPLY, ...args], {
      input: patch,
      timeoutMs,
      env: { GIT_CEILING_DIRECTORIES: dirname(stage) },
    });
    return {
      exitCode: result.exitCode,
      stdout: result.stdout.toString("utf8"),
      stderr: result.stderr.trim() || (result.errorCode === undefined ? "" : `git could not start (${result.errorCode})`),
    };
  };

  type Refuse = (text: string, paths?: string[]) => ToolResult<ApplyPatchData>;

  async function applyStaged(stage: string, patch: string, named: string[], refuse: Refuse): Promise<ToolResult<ApplyPatchData>> {
    if (named.length === 0) {
      const numstat = await gitApply(stage, ["--numstat", "-z"], patch);
      named = [...new Set(parseNumstatPaths(numstat.stdout))];
      if (named.length === 0) return refuse(`the patch names no files (${numstat.stderr || "no diff headers found"}).`);
    }
    const staged: StagedFile[] = [];
    for (const path of named) {
      const resolved = await resolveInWorkspace(workspace, path);
      if (!resolved.ok) return refuse(resolved.message.replace(/^Error: /, ""), named);
      if (resolved.relative === ".git" || resolved.relative.startsWith(".git/"))
        return refuse(`the patch touches ${resolved.relative}; the .git directory is off limits.`, named);
      const lexical = relative(workspace, resolve(workspace, path));
      if (lexical === "" || lexical.split(sep).includes(".git"))
        return refuse(`the patch touches ${path}; the .git directory is off limits.`, named);
      let before: StagedFile["before"] = null;
      if (resolved.exists) {
        const opened = await openInside(workspace, resolved.absolute).catch((error: unknown) => error as Error);
        if (opened instanceof Error) return refuse(errorMessage(opened), named);
        try {
          const info = await opened.handle.stat();
          if (!info.isFile()) return refuse(`${resolved.relative} is not a regular file.`, named);
          before = { bytes: await opened.handle.readFile(), mode: info.mode & 0o777 };
        } finally {
          await opened.handle.close();
        }
        await mkdir(dirname(join(stage, lexical)), { recursive: true });
        await writeFile(join(stage, lexical), before.bytes, { mode: before.mode });
      }
      staged.push({ named: lexical, target: resolved, before });
    }
    const paths = [...new Set(staged.map((file) => file.target.relative))];

    const check = await gitApply(stage, ["--check"], patch);
    if (check.exitCode !== 0) return refuse(`the patch does not apply: ${check.stderr || `git apply exited ${check.exitCode}`}`, paths);
    // --check passed, so a named path that does not exist yet can only be one the patch creates
    // (an added file, or the new name of a rename or copy).
    const created = staged.filter((file) => file.before === null);
    if (!allowFileCreation && created.length > 0) {
      return refuse(
        `creating files is disabled for this tool (allowFileCreation is false); the patch would create ${created.map((file) => file.target.relative).join(", ")}.`,
        paths,
      );
    }
    const applied = await gitApply(stage, [], patch);
    if (applied.exitCode !== 0) return refuse(`git apply failed after its check passed: ${applied.stderr}`, paths);

    const changedPaths: string[] = [];
    try {
      for (const file of staged) {
        const after = await readStaged(stage, file.named);
        if (sameFile(file.before, after)) continue;
        if (after === null) await removeFileInside(workspace, file.target.absolute);
        else {
          await makeDirectoryInside(workspace, dirname(file.target.absolute));
          await writeFileInside(workspace, file.target.absolute, after.bytes, after.mode);
        }
        changedPaths.push(file.target.relative);
      }
    } catch (error) {
      return {
        text: `Error: writing the patched files failed part-way (${errorMessage(error)}); changed so far: ${changedPaths.join(", ") || "nothing"}.`,
        isError: true,
        data: { completed: false, changed: changedPaths.length > 0 ? true : null, paths, changedPaths },
      };
    }
    const summary = changedPaths.length === 0 ? "no file content changed" : `changed ${changedPaths.join(", ")}`;
    return { text: `Applied the patch: ${summary}.`, data: { completed: true, changed: changedPaths.length > 0, paths, changedPaths } };
  }

  return defineTool<ApplyPatchInput, ApplyPatchData>({
    name,
    title: "Apply a patch",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    description:
      "Apply a unified diff (Git format, paths relative to the workspace). Either every file is patched or none is. " +
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
      const stage = await mkdtemp(join(tmpdir(), "agent-evidence-apply-"));
      try {
        return await applyStaged(stage, patch, named, refuse);
      } finally {
        await rm(stage, { recursive: true, force: true });
      }
    },
  });
}
