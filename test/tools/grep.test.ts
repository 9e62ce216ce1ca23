import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { isEvidenceError } from "../../src/errors.js";
import { isIgnored, parseGitignore } from "../../src/tools/gitignore.js";
import { globToRegExp, matchesGlob } from "../../src/tools/glob.js";
import { createGrepTool, defaultRgPath, type GrepData, type GrepEngine, type GrepInput } from "../../src/tools/grep.js";
import { makeTempDir } from "../support/temp-dir.js";

let repo: { dir: string; cleanup: () => void };
let plain: { dir: string; cleanup: () => void };

function files(root: string): void {
  mkdirSync(join(root, "src", "deep"), { recursive: true });
  writeFileSync(join(root, "src", "app.py"), "def hello():\n    return 'Hello, World'\n# TODO: more\n");
  writeFileSync(join(root, "src", "deep", "util.ts"), "export const hello = 1;\n// todo later\nconst a = b.c(d);\n");
  writeFileSync(join(root, "notes.md"), "hello from notes\nprice: $5 (approx.)\n");
  writeFileSync(join(root, "data.bin"), Buffer.from("hello\0binary\n"));
}

beforeAll(() => {
  repo = makeTempDir("ae-grep-repo-");
  plain = makeTempDir("ae-grep-plain-");
  files(repo.dir);
  files(plain.dir);
  writeFileSync(join(repo.dir, ".gitignore"), "ignored.txt\n");
  writeFileSync(join(repo.dir, "ignored.txt"), "hello ignored\n");
  execFileSync("git", ["init", "-q"], { cwd: repo.dir });
  execFileSync("git", ["add", "src", ".gitignore"], { cwd: repo.dir }); // notes.md stays untracked
});
afterAll(() => {
  repo.cleanup();
  plain.cleanup();
});

const ALL: GrepEngine[] = ["ripgrep", "git-grep", "js"];

async function search(engine: GrepEngine, input: GrepInput, cwd = repo.dir): Promise<GrepData | undefined> {
  return (await createGrepTool({ cwd, engines: [engine] }).execute(input)).data;
}

describe("grep engines return the same result shape and matches", () => {
  it.each<[string, GrepInput, [string, number][]]>([
    [
      "a regex",
      { pattern: "hel+o" },
      [
        ["notes.md", 1],
        ["src/app.py", 1],
        ["src/deep/util.ts", 1],
      ],
    ],
    [
      "ignoreCase",
      { pattern: "todo", ignoreCase: true },
      [
        ["src/app.py", 3],
        ["src/deep/util.ts", 2],
      ],
    ],
    ["fixedStrings with regex characters", { pattern: "$5 (approx.)", fixedStrings: true }, [["notes.md", 2]]],
    ["a file-name glob", { pattern: "hello", glob: "*.ts" }, [["src/deep/util.ts", 1]]],
    ["a path glob", { pattern: "hello", glob: "src/**/*.py" }, [["src/app.py", 1]]],
    ["a path scope", { pattern: "hello", path: "src/deep" }, [["src/deep/util.ts", 1]]],
    ["a single file", { pattern: "b\\.c", path: "src/deep/util.ts" }, [["src/deep/util.ts", 3]]],
    ["no match", { pattern: "zebra" }, []],
  ])("%s", async (_label, input, expected) => {
    const results = await Promise.all(ALL.map((engine) => search(engine, input)));
    const shapes = results.map((data) =>
      data?.status === "ok" ? { engine: data.engine, hits: data.matches.map((m) => [m.path, m.line]) } : data,
    );
    expect(shapes).toEqual(ALL.map((engine) => ({ engine, hits: expected })));
  });

  it.each(ALL)("%s reports the matching line text without its line break", async (engine) => {
    const data = await search(engine, { pattern: "World" });
    expect(data).toEqual({
      status: "ok",
      engine,
      matches: [{ path: "src/app.py", line: 2, text: "    return 'Hello, World'" }],
      truncated: false,
      fallbacks: [],
    });
  });

  it.each(ALL)("%s stops at maxResults and says more exist", async (engine) => {
    const data = await search(engine, { pattern: "hello", maxResults: 2 });
    expect(data?.status === "ok" ? { n: data.matches.length, truncated: data.truncated } : data).toEqual({ n: 2, truncated: true });
  });

  it.each<[GrepEngine, boolean]>([
    ["ripgrep", false],
    ["git-grep", false],
    ["js", false],
  ])("%s skips .gitignore'd files (found: %s)", async (engine, found) => {
    const data = await search(engine, { pattern: "ignored" });
    expect(data?.status === "ok" && data.matches.some((m) => m.path === "ignored.txt")).toBe(found);
  });

  it.each<[GrepEngine, string]>([
    ["ripgrep", "regex parse error"],
    ["git-grep", "missing closing parenthesis"],
    ["js", "invalid regular expression"],
  ])("%s returns an invalid pattern as an error result", async (engine, fragment) => {
    const result = await createGrepTool({ cwd: repo.dir, engines: [engine] }).execute({ pattern: "(unclosed" });
    expect({ isError: result.isError, status: result.data?.status, mentions: result.text.includes(fragment) }).toEqual({
      isError: true,
      status: "error",
      mentions: true,
    });
  });
});

describe("grep fallback order", () => {
  it("uses the ripgrep from @vscode/ripgrep by default", async () => {
    const data = (await createGrepTool({ cwd: repo.dir }).execute({ pattern: "World" })).data;
    expect([defaultRgPath() !== undefined, data?.status === "ok" ? data.engine : null]).toEqual([true, "ripgrep"]);
  });

  it("falls back to git grep when ripgrep is missing", async () => {
    const data = (await createGrepTool({ cwd: repo.dir, rgPath: join(repo.dir, "no-rg") }).execute({ pattern: "World" })).data;
    expect(
      data?.status === "ok" ? { engine: data.engine, fallbacks: data.fallbacks.map((f) => f.engine), n: data.matches.length } : data,
    ).toEqual({
      engine: "git-grep",
      fallbacks: ["ripgrep"],
      n: 1,
    });
  });

  it("falls back to the JS walk outside a git repository when ripgrep is missing", async () => {
    const data = (await createGrepTool({ cwd: plain.dir, rgPath: join(plain.dir, "no-rg") }).execute({ pattern: "World" })).data;
    expect(data?.status === "ok" ? { engine: data.engine, fallbacks: data.fallbacks } : data).toEqual({
      engine: "js",
      fallbacks: [
        { engine: "ripgrep", reason: `${join(plain.dir, "no-rg")} cannot run (ENOENT)` },
        { engine: "git-grep", reason: "the workspace is not a git work tree" },
      ],
    });
  });

  it("reports when no engine can run", async () => {
    const result = await createGrepTool({ cwd: plain.dir, engines: ["git-grep"] }).execute({ pattern: "x" });
    expect([result.isError, result.text]).toEqual([
      true,
      "Error: no grep engine could run here (git-grep: the workspace is not a git work tree).",
    ]);
  });

  it("searches a workspace that is a subdirectory of a repository with workspace-relative paths", async () => {
    const results = await Promise.all(ALL.map((engine) => search(engine, { pattern: "hello" }, join(repo.dir, "src"))));
    expect(results.map((d) => (d?.status === "ok" ? d.matches.map((m) => m.path) : d))).toEqual(ALL.map(() => ["app.py", "deep/util.ts"]));
  });

  it("refuses a path outside the workspace", async () => {
    const result = await createGrepTool({ cwd: join(repo.dir, "src") }).execute({ pattern: "hello", path: ".." });
    expect([result.isError, result.data?.status]).toEqual([true, "error"]);
  });

  it("rejects an unknown engine at construction", () => {
    expect(() => createGrepTool({ cwd: repo.dir, engines: ["ag" as GrepEngine] })).toThrow(
      'createGrepTool option "engines" is ["ag"]; accepted: a non-empty list of distinct names from ripgrep, git-grep, js.',
    );
    let caught: unknown;
    try {
      createGrepTool({ cwd: repo.dir, engines: [] });
    } catch (error) {
      caught = error;
    }
    expect(isEvidenceError(caught, "E_INVALID_OPTION")).toBe(true);
  });
});

describe("globToRegExp", () => {
  it.each<[string, string, boolean]>([
    ["*.py", "src/app.py", true],
    ["*.py", "src/app.pyc", false],
    ["src/*.py", "src/deep/x.py", false],
    ["src/**/*.py", "src/deep/x.py", true],
    ["src/**/*.py", "src/x.py", true],
    ["*.{ts,js}", "a/b.js", true],
    ["test_?.py", "test_a.py", true],
    ["[ab].txt", "c.txt", false],
  ])("%s vs %s -> %s", (glob, path, expected) => {
    expect(matchesGlob(path, globToRegExp(glob), glob.includes("/"))).toBe(expected);
  });
});

describe("the .gitignore subset of the JS walk", () => {
  const rules = [
    ...parseGitignore("# comment\n*.log\nbuild/\n/root-only.txt\ndocs/*.tmp\n!keep.log\n", ""),
    ...parseGitignore("local.txt\n", "pkg"),
  ];
  it.each<[string, boolean, boolean]>([
    ["a/b/run.log", false, true],
    ["build", true, true],
    ["build", false, false],
    ["root-only.txt", false, true],
    ["sub/root-only.txt", false, false],
    ["docs/x.tmp", false, true],
    ["docs/deep/x.tmp", false, false],
    ["pkg/local.txt", false, true],
    ["local.txt", false, false],
    ["keep.log", false, true],
  ])("%s (directory %s) ignored: %s", (path, isDirectory, expected) => {
    expect(isIgnored(rules, path, isDirectory)).toBe(expected);
  });
});
