import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createGitDiffTool, type GitDiffData, parsePorcelainStatus } from "../../src/tools/git-diff.js";
import { makeTempDir } from "../support/temp-dir.js";

let repo: { dir: string; cleanup: () => void };
let home: { dir: string; cleanup: () => void };
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, HOME: home.dir } });

beforeAll(() => {
  home = makeTempDir("ae-gitdiff-home-");
  // A hostile user config: every setting here would change plain `git diff` output.
  writeFileSync(
    join(home.dir, ".gitconfig"),
    "[color]\n\tui = always\n[diff]\n\tnoprefix = true\n\tmnemonicPrefix = true\n\trenames = copies\n\texternal = false-diff\n[core]\n\tquotePath = false\n[user]\n\tname = t\n\temail = t@example.com\n",
  );
  repo = makeTempDir("ae-gitdiff-repo-");
  mkdirSync(join(repo.dir, "pkg"));
  writeFileSync(join(repo.dir, "pkg", "mod.py"), "VALUE = 0\n");
  writeFileSync(join(repo.dir, "gone.txt"), "bye\n");
  writeFileSync(join(repo.dir, ".gitignore"), "*.log\n");
  git(repo.dir, "init", "-q");
  git(repo.dir, "add", ".");
  git(repo.dir, "commit", "-q", "-m", "init");
  writeFileSync(join(repo.dir, "pkg", "mod.py"), "VALUE = 2\n");
  rmSync(join(repo.dir, "gone.txt"));
  writeFileSync(join(repo.dir, "pkg", "new file.py"), "x = 1\n");
  writeFileSync(join(repo.dir, "debug.log"), "ignored\n");
});
afterAll(() => {
  repo.cleanup();
  home.cleanup();
});

async function diff(cwd: string, path?: string): Promise<GitDiffData | undefined> {
  const previous = process.env.HOME;
  process.env.HOME = home.dir;
  try {
    return (await createGitDiffTool({ cwd }).execute({ path })).data;
  } finally {
    process.env.HOME = previous;
  }
}

describe("git_diff", () => {
  it("shows modified, deleted and untracked files with fixed prefixes despite a hostile user config", async () => {
    const data = await diff(repo.dir);
    expect(data?.status === "ok" ? data.files : data).toEqual([
      { path: "gone.txt", index: " ", worktree: "D" },
      { path: "pkg/mod.py", index: " ", worktree: "M" },
      { path: "pkg/new file.py", index: "?", worktree: "?" },
    ]);
    const text = data?.status === "ok" ? data.diff : "";
    expect(text).toContain("diff --git a/pkg/mod.py b/pkg/mod.py\n");
    expect(text).toContain("-VALUE = 0\n+VALUE = 2\n");
    expect(text).toContain("diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\n");
    expect(text).toContain("diff --git a/pkg/new file.py b/pkg/new file.py\nnew file mode 100644\n");
    expect(text).not.toContain("\u001b[");
    expect(text).not.toContain("debug.log");
  });

  it("sees a same-size edit whose stat data matches the index entry (racy git)", async () => {
    const racy = makeTempDir("ae-gitdiff-racy-");
    try {
      const file = join(racy.dir, "m.py");
      writeFileSync(file, "VALUE = 0\n");
      git(racy.dir, "init", "-q");
      git(racy.dir, "config", "core.trustctime", "false");
      git(racy.dir, "add", ".");
      git(racy.dir, "commit", "-q", "-m", "init");
      // Same size, same mtime as recorded in the index, and the index as old as the entry: only a
      // content check (which git does for such "racily clean" entries) can see this edit.
      const { atime, mtime } = statSync(file);
      writeFileSync(file, "VALUE = 2\n");
      utimesSync(file, atime, mtime);
      utimesSync(join(racy.dir, ".git", "index"), atime, mtime);
      const data = await diff(racy.dir);
      expect(data?.status === "ok" ? { files: data.files, edit: data.diff.includes("+VALUE = 2") } : data).toEqual({
        files: [{ path: "m.py", index: " ", worktree: "M" }],
        edit: true,
      });
    } finally {
      racy.cleanup();
    }
  });

  it("never changes the real index", async () => {
    const before = readFileSync(join(repo.dir, ".git", "index"));
    await diff(repo.dir);
    expect(readFileSync(join(repo.dir, ".git", "index")).equals(before)).toBe(true);
    expect(git(repo.dir, "status", "--porcelain=v1", "-z", "--untracked-files=all")).toBe(
      " D gone.txt\0 M pkg/mod.py\0?? pkg/new file.py\0",
    );
  });

  it("limits to a path", async () => {
    const data = await diff(repo.dir, "gone.txt");
    expect(data?.status === "ok" ? { files: data.files.map((f) => f.path), mentionsMod: data.diff.includes("mod.py") } : data).toEqual({
      files: ["gone.txt"],
      mentionsMod: false,
    });
  });

  it("makes paths relative to a workspace that is a subdirectory of the repository", async () => {
    const data = await diff(join(repo.dir, "pkg"));
    expect(data?.status === "ok" ? { files: data.files.map((f) => f.path), header: data.diff.split("\n")[0] } : data).toEqual({
      files: ["mod.py", "new file.py"],
      header: "diff --git a/mod.py b/mod.py",
    });
  });

  it("works in a repository without commits", async () => {
    const fresh = makeTempDir("ae-gitdiff-fresh-");
    try {
      git(fresh.dir, "init", "-q");
      writeFileSync(join(fresh.dir, "a.txt"), "a\n");
      const data = await diff(fresh.dir);
      expect(data?.status === "ok" ? { files: data.files, diff: data.diff.includes("+a\n") } : data).toEqual({
        files: [{ path: "a.txt", index: "?", worktree: "?" }],
        diff: true,
      });
    } finally {
      fresh.cleanup();
    }
  });

  it("returns an error result outside a git work tree", async () => {
    const plain = makeTempDir("ae-gitdiff-plain-");
    try {
      const result = await createGitDiffTool({ cwd: plain.dir }).execute({});
      expect([result.isError, result.data?.status, result.text.startsWith("Error: the workspace is not inside a git work tree")]).toEqual([
        true,
        "error",
        true,
      ]);
    } finally {
      plain.cleanup();
    }
  });

  it("clips the model text but keeps the whole diff in data", async () => {
    const result = await createGitDiffTool({ cwd: repo.dir, maxOutputChars: 50 }).execute({});
    const data = result.data;
    expect([
      data?.status === "ok" && data.truncated,
      data?.status === "ok" && data.diff.length > 50,
      /\[\.\.\. \d+ more characters of diff not shown/.test(result.text),
    ]).toEqual([true, true, true]);
  });
});

describe("parsePorcelainStatus", () => {
  it.each<[string, { path: string; index: string; worktree: string }[]]>([
    [
      " M a.txt\0?? b c.txt\0",
      [
        { path: "a.txt", index: " ", worktree: "M" },
        { path: "b c.txt", index: "?", worktree: "?" },
      ],
    ],
    [
      "R  new.txt\0old.txt\0A  x\0",
      [
        { path: "new.txt", index: "R", worktree: " " },
        { path: "x", index: "A", worktree: " " },
      ],
    ],
    ["", []],
  ])("%j", (output, expected) => {
    expect(parsePorcelainStatus(output)).toEqual(expected);
  });
});
