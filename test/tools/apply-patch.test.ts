import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { createApplyPatchTool, parseNumstatPaths } from "../../src/tools/apply-patch.js";
import { makeTempDir } from "../support/temp-dir.js";

let ws: { dir: string; cleanup: () => void };
let outside: { dir: string; cleanup: () => void };

beforeEach(() => {
  ws = makeTempDir("ae-patch-ws-");
  outside = makeTempDir("ae-patch-outside-");
  writeFileSync(join(ws.dir, "a.py"), "def f():\n    return 1\n");
  writeFileSync(join(ws.dir, "b.py"), "X = 1\nY = 2\n");
  writeFileSync(join(outside.dir, "target.py"), "SECRET = 1\n");
});
afterEach(() => {
  ws.cleanup();
  outside.cleanup();
});

const read = (path: string) => readFileSync(join(ws.dir, path), "utf8");
const MODIFY_A = "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n";
const MODIFY_B = "diff --git a/b.py b/b.py\n--- a/b.py\n+++ b/b.py\n@@ -1,2 +1,2 @@\n X = 1\n-Y = 2\n+Y = 3\n";
const BAD_B = "diff --git a/b.py b/b.py\n--- a/b.py\n+++ b/b.py\n@@ -1,2 +1,2 @@\n X = 1\n-Y = 999\n+Y = 3\n";
const CREATE_C = "diff --git a/c.py b/c.py\nnew file mode 100644\n--- /dev/null\n+++ b/c.py\n@@ -0,0 +1 @@\n+Z = 1\n";

describe("apply_patch", () => {
  it("applies a multi-file Git diff and reports the changed paths", async () => {
    const result = await createApplyPatchTool({ cwd: ws.dir }).execute({ patch: MODIFY_A + MODIFY_B });
    expect({ result, a: read("a.py"), b: read("b.py") }).toEqual({
      result: {
        text: "Applied the patch: changed a.py, b.py.",
        data: { completed: true, changed: true, paths: ["a.py", "b.py"], changedPaths: ["a.py", "b.py"] },
      },
      a: "def f():\n    return 2\n",
      b: "X = 1\nY = 3\n",
    });
  });

  it("is all or nothing: one failing hunk leaves every file untouched", async () => {
    const result = await createApplyPatchTool({ cwd: ws.dir }).execute({ patch: MODIFY_A + BAD_B });
    expect({
      isError: result.isError,
      data: result.data,
      a: read("a.py"),
      b: read("b.py"),
      says: result.text.includes("does not apply"),
    }).toEqual({
      isError: true,
      data: { completed: false, changed: false, paths: ["a.py", "b.py"], changedPaths: [] },
      a: "def f():\n    return 1\n",
      b: "X = 1\nY = 2\n",
      says: true,
    });
  });

  it.each<[string, string]>([
    ["a parent-directory path", "diff --git a/../x.py b/../x.py\n--- a/../x.py\n+++ b/../x.py\n@@ -1 +1 @@\n-SECRET = 1\n+SECRET = 2\n"],
    [
      "a path through a symlink that leaves the workspace",
      "diff --git a/out/target.py b/out/target.py\n--- a/out/target.py\n+++ b/out/target.py\n@@ -1 +1 @@\n-SECRET = 1\n+SECRET = 2\n",
    ],
    [
      "the .git directory",
      "diff --git a/.git/config b/.git/config\nnew file mode 100644\n--- /dev/null\n+++ b/.git/config\n@@ -0,0 +1 @@\n+[core]\n",
    ],
  ])("refuses %s and changes nothing", async (_label, patch) => {
    symlinkSync(outside.dir, join(ws.dir, "out"));
    const result = await createApplyPatchTool({ cwd: ws.dir, allowFileCreation: true }).execute({ patch: MODIFY_A + patch });
    expect({
      isError: result.isError,
      completed: result.data?.completed,
      changed: result.data?.changed,
      secret: readFileSync(join(outside.dir, "target.py"), "utf8"),
      a: read("a.py"),
    }).toEqual({
      isError: true,
      completed: false,
      changed: false,
      secret: "SECRET = 1\n",
      a: "def f():\n    return 1\n",
    });
  });

  it("gates file creation on allowFileCreation", async () => {
    const refused = await createApplyPatchTool({ cwd: ws.dir }).execute({ patch: CREATE_C });
    const createdWhenRefused = existsSync(join(ws.dir, "c.py"));
    const allowed = await createApplyPatchTool({ cwd: ws.dir, allowFileCreation: true }).execute({ patch: CREATE_C });
    expect({ refused: refused.data, createdWhenRefused, allowed: allowed.data, c: read("c.py") }).toEqual({
      refused: { completed: false, changed: false, paths: ["c.py"], changedPaths: [] },
      createdWhenRefused: false,
      allowed: { completed: true, changed: true, paths: ["c.py"], changedPaths: ["c.py"] },
      c: "Z = 1\n",
    });
  });

  it("gates creation by a plain unified diff from /dev/null too", async () => {
    const result = await createApplyPatchTool({ cwd: ws.dir }).execute({ patch: "--- /dev/null\n+++ b/d.py\n@@ -0,0 +1 @@\n+D = 1\n" });
    expect([result.data?.completed, existsSync(join(ws.dir, "d.py"))]).toEqual([false, false]);
  });

  it("deletes and renames files", async () => {
    const patch =
      "diff --git a/b.py b/b.py\ndeleted file mode 100644\n--- a/b.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-X = 1\n-Y = 2\n" +
      "diff --git a/a.py b/pkg/a.py\nsimilarity index 100%\nrename from a.py\nrename to pkg/a.py\n";
    const result = await createApplyPatchTool({ cwd: ws.dir, allowFileCreation: true }).execute({ patch });
    expect({ data: result.data, b: existsSync(join(ws.dir, "b.py")), moved: read("pkg/a.py") }).toEqual({
      data: { completed: true, changed: true, paths: ["b.py", "a.py", "pkg/a.py"], changedPaths: ["b.py", "a.py", "pkg/a.py"] },
      b: false,
      moved: "def f():\n    return 1\n",
    });
  });

  it("accepts a plain unified diff without `diff --git` headers", async () => {
    const result = await createApplyPatchTool({ cwd: ws.dir }).execute({
      patch: "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 3\n",
    });
    expect([result.data, read("a.py")]).toEqual([
      { completed: true, changed: true, paths: ["a.py"], changedPaths: ["a.py"] },
      "def f():\n    return 3\n",
    ]);
  });

  it("tolerates wrong hunk line counts (agents miscount them)", async () => {
    const result = await createApplyPatchTool({ cwd: ws.dir }).execute({
      patch: "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1,7 +1,9 @@\n def f():\n-    return 1\n+    return 4\n",
    });
    expect([result.data?.completed, read("a.py")]).toEqual([true, "def f():\n    return 4\n"]);
  });

  it("uses workspace-relative paths when the workspace is a subdirectory of a repository", async () => {
    const repo = makeTempDir("ae-patch-repo-");
    try {
      mkdirSync(join(repo.dir, "sub"));
      writeFileSync(join(repo.dir, "sub", "a.py"), "def f():\n    return 1\n");
      writeFileSync(join(repo.dir, "a.py"), "def f():\n    return 1\n");
      execFileSync("git", ["init", "-q"], { cwd: repo.dir });
      const result = await createApplyPatchTool({ cwd: join(repo.dir, "sub") }).execute({ patch: MODIFY_A });
      expect([
        result.data?.changedPaths,
        readFileSync(join(repo.dir, "sub", "a.py"), "utf8"),
        readFileSync(join(repo.dir, "a.py"), "utf8"),
      ]).toEqual([["a.py"], "def f():\n    return 2\n", "def f():\n    return 1\n"]);
    } finally {
      repo.cleanup();
    }
  });

  it("returns garbage input as an error result", async () => {
    const result = await createApplyPatchTool({ cwd: ws.dir }).execute({ patch: "this is not a patch" });
    expect([result.isError, result.data]).toEqual([true, { completed: false, changed: false, paths: [], changedPaths: [] }]);
  });
});

describe("parseNumstatPaths", () => {
  it.each<[string, string[]]>([
    ["1\t1\ta.py\0", ["a.py"]],
    ["2\t0\tsp ace.py\0-\t-\tbin.dat\0", ["sp ace.py", "bin.dat"]],
    ["0\t0\t\0old.py\0new.py\0", ["old.py", "new.py"]],
    ["", []],
  ])("%j", (output, expected) => {
    expect(parseNumstatPaths(output)).toEqual(expected);
  });
});
