// Git snapshots found by one `git status` (the default) against the reference that adds everything
// (`git add -A`, the index listed by git, a tree written every time): after every change an agent can
// make, both snapshotters of the same workspace give the same tree, ignored fingerprints, stats,
// changed paths and mtime resets. And the index read in place against `git ls-files --debug`.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { RUNNER_BYPRODUCT_EXCLUDES } from "../../src/evidence/byproducts.js";
import { parseGitIndex } from "../../src/observation/git-index.js";
import { mtimeResets, type WorkspaceSnapshot, type WorkspaceSnapshotter } from "../../src/observation/snapshot.js";
import { createGitSnapshotter, parseIndexListing, parseStatus } from "../../src/observation/snapshot-git.js";
import { createShadowRepository } from "../../src/tools/host-git.js";
import { makeProject, type TempProject } from "../evidence/ledger-helpers.js";
import { git, GIT_ENV } from "../support/git.js";

const projects: TempProject[] = [];
afterEach(() => {
  for (const p of projects.splice(0)) p.cleanup();
});

const env = { ...process.env, ...GIT_ENV };

const FILES: Record<string, string> = {
  ".gitignore": "build/\n*.log\n!keep.log\nsecret.py\n",
  "mod.py": "VALUE = 1\n",
  "pkg/a.py": "A = 1\n",
  "pkg/b.py": "B = 1\n",
  "tests/test_mod.py": "def test_a():\n    assert True\n",
  "build/out.txt": "built\n",
  "keep.log": "kept\n",
  "run.log": "ignored\n",
};

// A repository whose work tree is `root`; the workspace is `root` or its `sub` directory.
function repository(sub: boolean): { p: TempProject; workspace: string } {
  const p = makeProject(sub ? Object.fromEntries(Object.entries(FILES).map(([k, v]) => [`app/${k}`, v])) : FILES);
  projects.push(p);
  if (sub) writeFileSync(join(p.dir, "top.py"), "TOP = 1\n");
  git(p.dir, "init", "-q");
  git(p.dir, "add", "-A");
  git(p.dir, "commit", "-qm", "init");
  return { p, workspace: sub ? join(p.dir, "app") : p.dir };
}

async function snapshotter(workspace: string, strategy: "status" | "add-all"): Promise<WorkspaceSnapshotter> {
  const shadow = await createShadowRepository(workspace, { extraExcludes: RUNNER_BYPRODUCT_EXCLUDES });
  if (shadow === null) throw new Error("not a git work tree");
  return createGitSnapshotter(workspace, shadow, strategy);
}

const past = new Date("2001-02-03T04:05:06Z");

// Every change below is one an agent's command can make; `w` is the workspace.
const CHANGES: [string, (w: string) => void][] = [
  ["nothing", () => undefined],
  ["an edit of a tracked file", (w) => writeFileSync(join(w, "mod.py"), "VALUE = 22\n")],
  [
    "a same-size edit with the mtime put back to the nanosecond",
    (w) => {
      execFileSync("cp", ["-p", join(w, "pkg/a.py"), join(w, "..", "ref")]);
      writeFileSync(join(w, "pkg/a.py"), "A = 2\n");
      execFileSync("touch", ["-r", join(w, "..", "ref"), join(w, "pkg/a.py")]);
    },
  ],
  [
    "a same-size edit dated into the past",
    (w) => {
      writeFileSync(join(w, "pkg/a.py"), "A = 3\n");
      utimesSync(join(w, "pkg/a.py"), past, past);
    },
  ],
  ["a touch that changes no content", (w) => utimesSync(join(w, "pkg/b.py"), new Date(), new Date())],
  ["a chmod +x", (w) => chmodSync(join(w, "pkg/b.py"), 0o755)],
  [
    "a new untracked file in a new directory",
    (w) => {
      mkdirSync(join(w, "new/deep"), { recursive: true });
      writeFileSync(join(w, "new/deep/n.py"), "N = 1\n");
    },
  ],
  ["a name with pattern characters and a space", (w) => writeFileSync(join(w, "[ab] *.py"), "X = 1\n")],
  ["a new ignored file", (w) => writeFileSync(join(w, "build/conftest.py"), "import sys\n")],
  ["an edit of an ignored file", (w) => writeFileSync(join(w, "run.log"), "ignored, longer\n")],
  [
    "a new by-product",
    (w) => {
      mkdirSync(join(w, "__pycache__"), { recursive: true });
      writeFileSync(join(w, "__pycache__/mod.cpython-311.pyc"), "bytes");
    },
  ],
  [".gitignore un-ignores a file", (w) => writeFileSync(join(w, ".gitignore"), "build/\n*.log\n!keep.log\n!run.log\n")],
  ["an ignored secret appears", (w) => writeFileSync(join(w, "secret.py"), "KEY = 1\n")],
  ["a deleted tracked file", (w) => unlinkSync(join(w, "pkg/b.py"))],
  [
    "a file replaced by a symlink",
    (w) => {
      unlinkSync(join(w, "pkg/a.py"));
      symlinkSync("../mod.py", join(w, "pkg/a.py"));
    },
  ],
  ["a rename", (w) => renameSync(join(w, "tests/test_mod.py"), join(w, "tests/test_mod2.py"))],
  [
    "an embedded repository",
    (w) => {
      mkdirSync(join(w, "vendor/lib"), { recursive: true });
      writeFileSync(join(w, "vendor/lib/l.py"), "L = 1\n");
      git(join(w, "vendor/lib"), "init", "-q");
      git(join(w, "vendor/lib"), "add", "-A");
      git(join(w, "vendor/lib"), "commit", "-qm", "l");
    },
  ],
  [
    "a commit in the embedded repository",
    (w) => {
      writeFileSync(join(w, "vendor/lib/l.py"), "L = 2\n");
      git(join(w, "vendor/lib"), "commit", "-qam", "l2");
    },
  ],
  ["an edit inside the embedded repository, not committed", (w) => writeFileSync(join(w, "vendor/lib/l.py"), "L = 3\n")],
  ["a directory removed", (w) => rmSync(join(w, "new"), { recursive: true })],
  ["a deleted file comes back with its old content", (w) => writeFileSync(join(w, "pkg/b.py"), "B = 1\n")],
  [
    "a commit by the agent",
    (w) => {
      git(w, "add", "-A");
      git(w, "commit", "-qm", "agent");
    },
  ],
  ["an edit after the commit", (w) => writeFileSync(join(w, "mod.py"), "VALUE = 333\n")],
];

// What a snapshot says, for comparison: the tree, the ignored fingerprints and the stats.
const view = (s: WorkspaceSnapshot): Record<string, unknown> =>
  s.kind === "git" ? { tree: s.tree, ignored: [...s.ignored].sort(), stats: [...s.stats].sort() } : s;

describe.each([
  ["the work tree's top", false],
  ["a directory inside the work tree", true],
] as const)("a git snapshot by status against one that adds everything (workspace: %s)", (_name, sub) => {
  it("gives the same snapshot, changed paths and mtime resets after every change", async () => {
    const { workspace } = repository(sub);
    const byStatus = await snapshotter(workspace, "status");
    const byAddAll = await snapshotter(workspace, "add-all");
    try {
      let previous = { status: await byStatus.take(), addAll: await byAddAll.take() };
      expect(view(previous.status)).toEqual(view(previous.addAll));
      for (const [name, change] of CHANGES) {
        change(workspace);
        const now = { status: await byStatus.take(), addAll: await byAddAll.take() };
        const changed = {
          status: await byStatus.changedPaths(previous.status, now.status),
          addAll: await byAddAll.changedPaths(previous.addAll, now.addAll),
        };
        expect({
          name,
          ...view(now.status),
          changed: changed.status,
          resets: mtimeResets(previous.status, now.status, changed.status),
        }).toEqual({
          name,
          ...view(now.addAll),
          changed: changed.addAll,
          resets: mtimeResets(previous.addAll, now.addAll, changed.addAll),
        });
        previous = now;
      }
    } finally {
      await byStatus.close();
      await byAddAll.close();
    }
  });
});

describe("parseStatus", () => {
  it.each([
    [
      "a modified, a deleted, an untracked and an ignored file",
      " M app/a.py\0 D app/b.py\0?? app/c.py\0!! app/d.log\0",
      "app",
      { changed: ["a.py", "b.py", "c.py"], ignored: ["d.log"] },
    ],
    ["staged-only changes are not the work tree's", "M  a.py\0A  b.py\0MM c.py\0", "", { changed: ["c.py"], ignored: [] }],
    ["unmerged entries", "UU a.py\0AA b.py\0DD c.py\0", "", { changed: ["a.py", "b.py", "c.py"], ignored: [] }],
    ["a rename names its source next", "RM new.py\0old.py\0", "", { changed: ["new.py", "old.py"], ignored: [] }],
    ["an embedded repository", "?? vendor/lib/\0", "", { changed: ["vendor/lib/"], ignored: [] }],
  ])("%s", (_name, text, prefix, expected) => {
    expect(parseStatus(text, prefix)).toEqual(expected);
  });
});

describe("parseGitIndex against git ls-files --debug", () => {
  const listing = (dir: string, cwd = dir): unknown =>
    [...parseIndexListing(execFileSync("git", ["ls-files", "-z", "--debug", "--", "."], { cwd, env, encoding: "utf8" }))].sort();
  const parsed = (dir: string, hashBytes: 20 | 32, prefix = ""): unknown => {
    const result = parseGitIndex(readFileSync(join(dir, ".git/index")), hashBytes, prefix);
    return result === null ? null : [...result.entries].map(([path, { blob: _blob, ...stat }]) => [path, stat]).sort();
  };
  // What a tree written from the index holds per path (`git ls-files -s`), an intent-to-add entry none.
  const blobs = (dir: string, hashBytes: 20 | 32, intentToAdd: string[]): unknown => {
    const result = parseGitIndex(readFileSync(join(dir, ".git/index")), hashBytes, "");
    const listed = execFileSync("git", ["ls-files", "-s", "-z"], { cwd: dir, env, encoding: "utf8" })
      .split("\0")
      .filter((line) => line !== "");
    const expected = listed.map((line) => {
      const [mode, oid] = line.split(" ");
      const path = line.slice(line.indexOf("\t") + 1);
      return [path, intentToAdd.includes(path) ? null : `${mode} ${oid}`];
    });
    return [[...(result?.entries ?? [])].map(([path, entry]) => [path, entry.blob]).sort(), expected.sort()];
  };
  const project = (init: string[] = []): string => {
    const p = makeProject({
      "a.py": "A\n",
      "dir/b.py": "B\n",
      "dir/sub/c.py": "C\n",
      [`${"long/".repeat(30)}d.py`]: "D\n",
      "é name.py": "E\n",
    });
    projects.push(p);
    git(p.dir, "init", "-q", ...init);
    git(p.dir, "add", "-A");
    git(p.dir, "commit", "-qm", "init");
    return p.dir;
  };

  it.each<[string, string[], string[]]>([
    ["version 2", [], []],
    ["version 3 (an intent-to-add entry has extended flags)", [], ["add-n"]],
    ["version 4 (prefix-compressed paths)", [], ["v4"]],
    ["version 4 with an intent-to-add entry", [], ["v4", "add-n"]],
    ["a SHA-256 repository", ["--object-format=sha256"], []],
  ])("%s", (_name, init, steps) => {
    const dir = project(init);
    if (steps.includes("v4")) git(dir, "update-index", "--index-version", "4");
    if (steps.includes("add-n")) {
      writeFileSync(join(dir, "dir/new.py"), "N\n");
      git(dir, "add", "-N", "dir/new.py");
    }
    const hashBytes = init.length > 0 ? 32 : 20;
    expect(parsed(dir, hashBytes)).toEqual(listing(dir));
    expect(parsed(dir, hashBytes, "dir")).toEqual(listing(dir, join(dir, "dir")));
    const [got, expected] = blobs(dir, hashBytes, steps.includes("add-n") ? ["dir/new.py"] : []) as [unknown, unknown];
    expect(got).toEqual(expected);
  });

  it("a split index is left to git (null)", () => {
    const dir = project();
    git(dir, "update-index", "--split-index");
    writeFileSync(join(dir, "a.py"), "A2\n");
    git(dir, "add", "a.py");
    expect(parsed(dir, 20)).toBeNull();
  });

  it("damaged bytes are null, never a throw", () => {
    const dir = project();
    const bytes = readFileSync(join(dir, ".git/index"));
    for (let cut = 0; cut < bytes.length; cut += 7) expect(() => parseGitIndex(bytes.subarray(0, cut), 20, "")).not.toThrow();
    expect(parseGitIndex(bytes.subarray(0, bytes.length - 30), 20, "")).toBeNull();
  });
});
