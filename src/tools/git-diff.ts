// git_diff: status and diff of the working tree against HEAD, untracked files included, with flags
// that make the output independent of the user's git config (colour, external diff, textconv, prefixes).
// The real index is never touched: untracked files are marked intent-to-add in a temporary copy.
import { isAbsolute, join, relative, sep } from "node:path";

import { z } from "zod/v4";

import { defineTool, type Tool, type ToolResult } from "../host/tool.js";
import { createShadowRepository, runHostGit } from "./host-git.js";
import { directoryOption, optionsObject, positiveIntegerOption, rejectUnknownOptions, stringOption } from "./options.js";
import { resolveInWorkspace } from "./workspace-path.js";

/** Options of {@link createGitDiffTool}. */
export interface GitDiffToolOptions {
  /** The workspace: a git work tree or a directory inside one. */
  cwd: string;
  /** Tool name (default `git_diff`). */
  name?: string;
  /** Characters of diff the model sees (default 20,000); `data.diff` always holds all of it. */
  maxOutputChars?: number;
  /** Timeout per git command in ms (default 60,000). */
  timeoutMs?: number;
}

/** Input of git_diff. */
export interface GitDiffInput {
  path?: string | null | undefined;
}

/** One entry of `git status --porcelain`: X is the index side, Y the working tree side (`?` untracked). */
export interface GitStatusEntry {
  path: string;
  index: string;
  worktree: string;
}

/** `data` of git_diff. */
export type GitDiffData =
  { status: "ok"; files: GitStatusEntry[]; diff: string; truncated: boolean } | { status: "error"; message: string };

/** The input schema of git_diff. */
export const gitDiffInputSchema = z.object({
  path: z.string().nullish().describe("Limit to this file or directory (relative to the workspace)."),
});

/** The diff flags that override every user setting that changes diff output. */
export const STABLE_DIFF_FLAGS = [
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "--src-prefix=a/",
  "--dst-prefix=b/",
  "--no-renames",
  "--submodule=short",
  "--diff-algorithm=myers",
  "--indent-heuristic",
] as const;

// Config that could still leak into output despite the flags above.
const CONFIG = ["core.quotePath=true", "diff.noprefix=false", "diff.mnemonicPrefix=false", "color.ui=false"];

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

/** Parses `git status --porcelain=v1 -z` output (paths relative to the repository root). */
export function parsePorcelainStatus(output: string): GitStatusEntry[] {
  const entries: GitStatusEntry[] = [];
  const fields = output.split("\0");
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] ?? "";
    if (field.length < 4) continue;
    const index = field.charAt(0);
    const worktree = field.charAt(1);
    entries.push({ path: field.slice(3), index, worktree });
    // A rename or copy is followed by its source path in the next field.
    if (index === "R" || index === "C") i += 1;
  }
  return entries;
}

/** Creates the git_diff tool. Throws an EvidenceError for a wrong option. */
export function createGitDiffTool(options: GitDiffToolOptions): Tool<GitDiffInput, GitDiffData> {
  const tool = "createGitDiffTool";
  optionsObject(tool, options);
  rejectUnknownOptions(tool, options, ["cwd", "name", "maxOutputChars", "timeoutMs"]);
  const workspace = directoryOption(tool, "cwd", options.cwd);
  const name = stringOption(tool, "name", options.name, "git_diff");
  const maxOutputChars = positiveIntegerOption(tool, "maxOutputChars", options.maxOutputChars, 20_000);
  const timeoutMs = positiveIntegerOption(tool, "timeoutMs", options.timeoutMs, 60_000);

  // Every git call runs on the host against a shadow of the repository (src/tools/host-git.ts): the
  // repository's own config, hooks and attribute filters, which the agent can write, are never read.
  const git = async (args: string[], env: Readonly<Record<string, string>>) => {
    const result = await runHostGit(workspace, args, { env, timeoutMs, config: CONFIG });
    return { ...result, stdout: result.stdout.toString("utf8") };
  };

  return defineTool<GitDiffInput, GitDiffData>({
    name,
    title: "Show the diff",
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    description:
      `Show git status and the diff of the working tree against HEAD in the workspace, untracked files included. ` +
      `The diff text is clipped after ${maxOutputChars} characters.`,
    inputSchema: gitDiffInputSchema,
    async run(input): Promise<ToolResult<GitDiffData>> {
      const error = (message: string): ToolResult<GitDiffData> => ({
        text: `Error: ${message}`,
        isError: true,
        data: { status: "error", message },
      });
      const scope = await resolveInWorkspace(workspace, input.path ?? ".");
      if (!scope.ok) return error(scope.message.replace(/^Error: /, ""));
      const shadow = await createShadowRepository(workspace);
      if (shadow === null) return error("the workspace is not inside a git work tree.");
      try {
        const root = shadow.location.top;
        const pathspec = scope.relative;
        // Submodules count by their recorded commit only: looking inside one would run git with the
        // submodule's own configuration.
        const status = await git(
          ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=dirty", "--", pathspec],
          shadow.env,
        );
        if (status.errorCode === "ENOENT") return error("git is not installed.");
        if (status.exitCode !== 0) return error(`git status failed: ${status.stderr.trim()}`);
        const files = parsePorcelainStatus(status.stdout).map((entry) => ({ ...entry, path: workspaceRelative(root, entry.path) }));
        const base = shadow.head ?? (await git(["hash-object", "-t", "tree", "/dev/null"], shadow.env)).stdout.trim();
        const added = await git(["add", "--intent-to-add", "--all", "--", pathspec], shadow.env);
        if (added.exitCode !== 0) return error(`marking untracked files failed: ${added.stderr.trim()}`);
        const relativeFlag = root === workspace ? "--no-relative" : "--relative";
        const result = await git(
          ["diff", ...STABLE_DIFF_FLAGS, "--ignore-submodules=dirty", relativeFlag, base, "--", pathspec],
          shadow.env,
        );
        if (result.exitCode !== 0) return error(`git diff failed: ${result.stderr.trim()}`);
        const diff = result.stdout;
        const truncated = diff.length > maxOutputChars;
        const statusText = files.length === 0 ? "(clean)" : files.map((f) => `${f.index}${f.worktree} ${f.path}`).join("\n");
        const diffText =
          diff === ""
            ? "(no changes)"
            : truncated
              ? `${diff.slice(0, maxOutputChars)}\n[... ${diff.length - maxOutputChars} more characters of diff not shown; pass path to narrow it ...]`
              : diff.replace(/\n$/, "");
        return { text: `## status\n${statusText}\n## diff\n${diffText}`, data: { status: "ok", files, diff, truncated } };
      } finally {
        await shadow.close();
      }
    },
  });

  function workspaceRelative(root: string, path: string): string {
    const absolute = join(root, path);
    const rel = relative(workspace, absolute);
    return rel === "" || isAbsolute(rel) ? toPosix(path) : toPosix(rel);
  }
}
