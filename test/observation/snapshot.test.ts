// Workspace snapshots against the stat cache: a same-size change with its mtime put back, made in the
// second git last saw the file (git compares ctime to the second), and the stat resets mtimeResets finds.
import { execFileSync } from "node:child_process";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { createWorkspaceSnapshotter, mtimeResets } from "../../src/observation/snapshot.js";
import { makeProject, type TempProject } from "../evidence/ledger-helpers.js";
import { gitInit } from "../support/git.js";
import { tempDirPath } from "../support/temp-dir.js";

const projects: TempProject[] = [];
afterEach(() => {
  for (const p of projects.splice(0)) p.cleanup();
});

function gitProject(): TempProject {
  const p = makeProject({ "mod.py": "VALUE = 1\n" });
  projects.push(p);
  gitInit(p.dir);
  return p;
}

// The workspace one directory below the top of the work tree (`git rm` there once refused the re-add).
function gitSubdirectoryProject(): TempProject {
  const p = makeProject({ "mod.py": "VALUE = 1\n" });
  projects.push(p);
  gitInit(dirname(p.dir));
  return p;
}

// Waits for the start of a wall-clock second, so what follows happens within one second.
async function startOfSecond(): Promise<void> {
  while (Date.now() % 1000 > 50) await new Promise((resolve) => setTimeout(resolve, 5));
}

// Rewrites mod.py with the same size, then puts its mtime back to the nanosecond (`cp -p`, `touch -r`).
function sameSizeEdit(p: TempProject, text: string): void {
  const path = join(p.dir, "mod.py");
  const ref = join(p.scratch, "ref");
  execFileSync("cp", ["-p", path, ref]);
  writeFileSync(path, text);
  execFileSync("touch", ["-r", ref, path]);
}

describe.each([
  ["git", gitProject, 8],
  ["git, the workspace below the top of the work tree", gitSubdirectoryProject, 8],
  [
    "outside git",
    () => {
      const p = makeProject({ "mod.py": "VALUE = 1\n" });
      projects.push(p);
      return p;
    },
    1,
  ],
] as const)("a same-size edit with its mtime put back (%s)", (_name, make, tries) => {
  // git alone misses such a change in about one try of three (it compares ctime to the second):
  // eight tries, each must see it (content hashes outside git have no such blind spot: one try).
  it("in the same second the snapshot saw the file: a change, and a reset, every time", async () => {
    for (let attempt = 0; attempt < tries; attempt += 1) {
      const p = make();
      const snapshotter = await createWorkspaceSnapshotter(p.dir);
      try {
        await startOfSecond();
        // An old mtime (so git does not take the entry for racily clean), a ctime in this second.
        writeFileSync(join(p.dir, "mod.py"), "VALUE = 3\n");
        execFileSync("touch", ["-d", "1 hour ago", join(p.dir, "mod.py")]);
        await snapshotter.take();
        const before = await snapshotter.take();
        sameSizeEdit(p, "VALUE = 2\n");
        const after = await snapshotter.take();
        const changed = await snapshotter.changedPaths(before, after);
        expect([attempt, changed, mtimeResets(before, after, changed)]).toEqual([attempt, ["mod.py"], ["mod.py"]]);
      } finally {
        await snapshotter.close();
      }
    }
  });

  it("an ordinary edit is a change and no reset", async () => {
    const p = make();
    const snapshotter = await createWorkspaceSnapshotter(p.dir);
    try {
      const before = await snapshotter.take();
      writeFileSync(join(p.dir, "mod.py"), "VALUE = 22\n");
      const after = await snapshotter.take();
      const changed = await snapshotter.changedPaths(before, after);
      expect([changed, mtimeResets(before, after, changed)]).toEqual([["mod.py"], []]);
    } finally {
      await snapshotter.close();
    }
  });
});

describe("closing a git snapshotter", () => {
  // Found by CI: an aborted candidate closed its evidence while a snapshot's `git add` still wrote
  // into the shadow directory, and the removal failed (ENOTEMPTY) as an unhandled rejection.
  it("while snapshots are in flight runs them one at a time, waits for them, removes the shadow and never rejects", async () => {
    const p = gitProject();
    for (let i = 0; i < 200; i += 1) writeFileSync(join(p.dir, `f${i}.py`), `X = ${i}\n`);
    // A private temp directory: other suites running at the same time make and remove shadows in the shared one.
    const base = tempDirPath("ae-snapshot-close-");
    const savedTmp = process.env.TMPDIR;
    process.env.TMPDIR = base;
    try {
      const snapshotter = await createWorkspaceSnapshotter(p.dir);
      const shadows = readdirSync(base).filter((name) => name.startsWith("agent-evidence-git-"));
      const takes = [snapshotter.take(), snapshotter.take(), snapshotter.take()];
      await snapshotter.close();
      const settled = await Promise.allSettled(takes);
      const left = readdirSync(base).filter((name) => name.startsWith("agent-evidence-git-"));
      // The snapshots ran to their end (one at a time: two would race for index.lock) before the
      // removal, and this snapshotter's shadow is gone.
      expect([settled.map((s) => s.status), shadows.length, left]).toEqual([["fulfilled", "fulfilled", "fulfilled"], 1, []]);
    } finally {
      if (savedTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmp;
      rmSync(base, { recursive: true, force: true });
    }
  });
});
