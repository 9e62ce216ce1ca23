// git_diff: status and diff of the working tree against HEAD, untracked files included, with flags
// that make the output independent of the user's git config (colour, external diff, textconv, prefixes).
// The real index is never touched: untracked files are marked intent-to-add in a temporary copy.
import { copyFile, mkdtemp, rm, stat, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { execa } from "execa";
import { z } from "zod";
import { directoryOption, optionsObject, positiveIntegerOption, rejectUnknownOptions, stringOption } from "./options.js";
import { defineTool, type Tool, type ToolResult } from "./tool.js";
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
  | { status: "ok"; files: GitStatusEntry[]; diff: string; truncated: boolean }
  | { status: "error"; message: string };

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
const CONFIG = ["-c", "core.quotePath=true", "-c", "diff.noprefix=false", "-c", "diff.mnemonicPrefix=false", "-c", "color.ui=false"];

// The copy keeps the index's mtime: git trusts a file's stat data only when the file is older than the
// index ("racy git"), so a fresh mtime would hide an edit made in the same second as the last commit.
async function copyIndex(from: string, to: string): Promise<void> {
  let info;
  try {
    info = await stat(from);
  } catch {
    return; // no index yet: a repository without commits or staged files
  }
  await copyFile(from, to);
  await utimes(to, info.atime, info.mtime);
}

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

  const git = (args: string[], env: Record<string, string> = {}) =>
    execa("git", [...CONFIG, ...args], {
      cwd: workspace,
      reject: false,
      stdin: "ignore",
      timeout: timeoutMs,
      maxBuffer: 256 * 1024 * 1024,
      stripFinalNewline: false,
      // Optional locks off: `git status` must not rewrite the real index as a side effect.
      env: { GIT_OPTIONAL_LOCKS: "0", ...env },
    });

  return defineTool<GitDiffInput, GitDiffData>({
    name,
    description:
      `Show git status and the diff of the working tree against HEAD in the workspace (${workspace}), untracked files included. ` +
      `The diff text is clipped after ${maxOutputChars} characters.`,
    inputSchema: gitDiffInputSchema,
    async run(input): Promise<ToolResult<GitDiffData>> {
      const error = (message: string): ToolResult<GitDiffData> => ({ text: `Error: ${message}`, isError: true, data: { status: "error", message } });
      const scope = await resolveInWorkspace(workspace, input.path ?? ".");
      if (!scope.ok) return error(scope.message.replace(/^Error: /, ""));
      const top = await git(["rev-parse", "--show-toplevel"]);
      if (top.code === "ENOENT") return error("git is not installed.");
      if (top.exitCode !== 0) return error(`the workspace is not inside a git work tree (${String(top.stderr).trim()}).`);
      const root = String(top.stdout).trim();
      const pathspec = scope.relative;

      const status = await git(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--", pathspec]);
      if (status.exitCode !== 0) return error(`git status failed: ${String(status.stderr).trim()}`);
      const files = parsePorcelainStatus(String(status.stdout)).map((entry) => ({ ...entry, path: workspaceRelative(root, entry.path) }));

      const head = await git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]);
      const base = head.exitCode === 0 ? String(head.stdout).trim() : String((await git(["hash-object", "-t", "tree", "/dev/null"])).stdout).trim();
      const indexPath = resolve(workspace, String((await git(["rev-parse", "--git-path", "index"])).stdout).trim());
      const temp = await mkdtemp(join(tmpdir(), "agent-evidence-index-"));
      let diff: string;
      try {
        const tempIndex = join(temp, "index");
        await copyIndex(indexPath, tempIndex);
        const env = { GIT_INDEX_FILE: tempIndex };
        const added = await git(["add", "--intent-to-add", "--all", "--", pathspec], env);
        if (added.exitCode !== 0) return error(`marking untracked files failed: ${String(added.stderr).trim()}`);
        const relativeFlag = root === workspace ? "--no-relative" : "--relative";
        const result = await git(["diff", ...STABLE_DIFF_FLAGS, relativeFlag, base, "--", pathspec], env);
        if (result.exitCode !== 0) return error(`git diff failed: ${String(result.stderr).trim()}`);
        diff = String(result.stdout);
      } finally {
        await rm(temp, { recursive: true, force: true });
      }

      const truncated = diff.length > maxOutputChars;
      const statusText = files.length === 0 ? "(clean)" : files.map((f) => `${f.index}${f.worktree} ${f.path}`).join("\n");
      const diffText = diff === "" ? "(no changes)" : truncated ? `${diff.slice(0, maxOutputChars)}\n[... ${diff.length - maxOutputChars} more characters of diff not shown; pass path to narrow it ...]` : diff.replace(/\n$/, "");
      return { text: `## status\n${statusText}\n## diff\n${diffText}`, data: { status: "ok", files, diff, truncated } };
    },
  });

  function workspaceRelative(root: string, path: string): string {
    const absolute = join(root, path);
    const rel = relative(workspace, absolute);
    return rel === "" || isAbsolute(rel) ? toPosix(path) : toPosix(rel);
  }
}
