import { existsSync, readFileSync, statSync } from "node:fs";
import { chmod, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CandidateAdoptError, CandidateSourceError, CandidateWorkspaceTrackingError } from "../../src/candidates/errors.js";
import { CANDIDATE_BASE_REF, type CandidateWorkspace, createCandidateWorkspace } from "../../src/candidates/workspace.js";
import { EvidenceError } from "../../src/errors.js";
import { candidateDirs, commitAll, createRepo, fingerprint, git, removeAll, tempDir, worktreePaths, writeFiles } from "./git-fixture.js";

const COLON = ":160000 160000 file.txt";
const BINARY = Uint8Array.from([0, 1, 2, 255, 254, 10, 0, 7]);
const LATIN1 = Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café\n" in Latin-1: text, not UTF-8
const BASE_FILES = {
  "text.txt": "one\ntwo\nthree\n",
  "bin.dat": BINARY,
  "run.sh": "#!/bin/sh\necho hi\n",
  [COLON]: "colon\n",
  "pkg/mod.py": "x = 1\n",
  ".gitignore": "*.log\n",
};

const created: string[] = [];
const open: CandidateWorkspace[] = [];

async function repo(prefix: string): Promise<string> {
  const dir = await createRepo(prefix, BASE_FILES, ["run.sh"]);
  created.push(dir);
  return dir;
}

async function workspace(source: string, label: string): Promise<CandidateWorkspace> {
  const ws = await createCandidateWorkspace(source, { label });
  open.push(ws);
  return ws;
}

afterAll(async () => {
  for (const ws of open) await ws.dispose();
  await removeAll(...created);
});

describe("createCandidateWorkspace", () => {
  let clean: string;
  beforeAll(async () => {
    clean = await repo("clean");
  });

  it("a clean source gives a detached worktree at HEAD with an empty capture", async () => {
    const ws = await workspace(clean, "clean");
    const head = await git(clean, "rev-parse", "HEAD");
    expect(ws.base).toEqual({ revision: head, tree: await git(clean, "rev-parse", "HEAD^{tree}") });
    expect(await git(ws.root, "rev-parse", "HEAD")).toEqual(head);
    expect(await git(ws.root, "symbolic-ref", "-q", "--short", "HEAD").catch(() => "detached")).toEqual("detached");
    expect(readFileSync(join(ws.path, COLON), "utf8")).toEqual("colon\n");
    expect(await git(ws.root, "rev-parse", CANDIDATE_BASE_REF)).toEqual(ws.base.tree);
    expect(await ws.capture()).toEqual("");
  });

  it("a dirty source seeds the candidate with tracked, staged and untracked changes, never ignored files", async () => {
    const source = await repo("dirty");
    await writeFiles(source, {
      "text.txt": "one\nTWO\nthree\n",
      "new.txt": "untracked\n",
      "debug.log": "ignored\n",
      "staged.txt": "staged\n",
    });
    await git(source, "add", "staged.txt");
    await rm(join(source, "pkg/mod.py"));
    const before = await fingerprint(source);
    const ws = await workspace(source, "dirty");
    expect(ws.base.revision).toEqual(await git(source, "rev-parse", "HEAD"));
    expect(ws.base.tree).not.toEqual(await git(source, "rev-parse", "HEAD^{tree}"));
    expect({
      text: readFileSync(join(ws.root, "text.txt"), "utf8"),
      untracked: readFileSync(join(ws.root, "new.txt"), "utf8"),
      staged: readFileSync(join(ws.root, "staged.txt"), "utf8"),
      deleted: existsSync(join(ws.root, "pkg/mod.py")),
      ignored: existsSync(join(ws.root, "debug.log")),
    }).toEqual({ text: "one\nTWO\nthree\n", untracked: "untracked\n", staged: "staged\n", deleted: false, ignored: false });
    // The source's changes are the base, so only the candidate's own work is captured.
    expect(await ws.capture()).toEqual("");
    await writeFiles(ws.root, { "new.txt": "candidate\n" });
    expect(await ws.capture()).toContain("-untracked\n+candidate\n");
    expect(await fingerprint(source)).toEqual(before);
  });

  it("a repository subdirectory maps to the same subdirectory of the worktree", async () => {
    const ws = await workspace(join(clean, "pkg"), "subdir");
    expect({ path: ws.path, root: ws.root, source: ws.source }).toEqual({ path: join(ws.root, "pkg"), root: ws.root, source: clean });
  });

  it.each([
    ["a directory outside any repository", async () => tempDir("plain")],
    [
      "a repository without a commit",
      async () => {
        const dir = await tempDir("empty");
        await git(dir, "init", "-q");
        return dir;
      },
    ],
  ])("refuses %s with CandidateSourceError", async (_name, make) => {
    const dir = await make();
    created.push(dir);
    await expect(createCandidateWorkspace(dir, { label: "refused" })).rejects.toBeInstanceOf(CandidateSourceError);
  });
});

describe("options", () => {
  it.each([[""], ["   "], [undefined], [7]])("an unusable label %j is refused with E_INVALID_OPTION", async (label) => {
    const error = await createCandidateWorkspace("/nonexistent", { label: label as string }).catch((caught: unknown) => caught);
    expect([error instanceof EvidenceError, (error as EvidenceError).code]).toEqual([true, "E_INVALID_OPTION"]);
  });
});

describe("capture", () => {
  let source: string;
  beforeAll(async () => {
    source = await repo("capture");
    // Repository-level settings that would reshape a porcelain diff or reject the apply.
    for (const [key, value] of [
      ["diff.noprefix", "true"],
      ["diff.mnemonicPrefix", "true"],
      ["color.diff", "always"],
      ["diff.external", "false"],
      ["apply.whitespace", "error"],
      ["core.filemode", "false"],
      ["core.quotePath", "true"],
    ]) {
      await git(source, "config", key!, value!);
    }
  });

  it("captures edits, deletions, untracked, binary, non-UTF-8, mode changes and the colon file, and adoption reproduces them", async () => {
    const ws = await workspace(source, "roundtrip");
    await writeFiles(ws.root, {
      "text.txt": "one\ntwo\nthree \n",
      "bin.dat": Uint8Array.from([...BINARY, 0, 9]),
      "new/image.bin": Uint8Array.from([137, 80, 78, 71, 0, 0, 255]),
      "new/latin1.txt": LATIN1,
      "new/ünïcode name.txt": "hello\n",
      [COLON]: "colon changed\n",
      "debug.log": "ignored, never captured\n",
    });
    await rm(join(ws.root, "pkg/mod.py"));
    await chmod(join(ws.root, "run.sh"), 0o644);
    const patch = await ws.capture();
    expect(patch).toContain("diff --git a/:160000 160000 file.txt b/:160000 160000 file.txt");
    expect(patch).toContain("GIT binary patch");
    // Readable files keep readable hunks even though other blocks had to become binary.
    expect(patch).toContain("-three\n+three \n");
    expect(patch).toContain("diff --git a/new/ünïcode name.txt b/new/ünïcode name.txt");
    expect(patch).not.toContain("debug.log");
    await ws.adopt(patch);
    const read = (dir: string, path: string): string => readFileSync(join(dir, path)).toString("hex");
    for (const path of ["text.txt", "bin.dat", "new/image.bin", "new/latin1.txt", "new/ünïcode name.txt", COLON]) {
      expect([path, read(source, path)]).toEqual([path, read(ws.root, path)]);
    }
    expect({ deleted: !existsSync(join(source, "pkg/mod.py")), mode: statSync(join(source, "run.sh")).mode & 0o111 }).toEqual({
      deleted: true,
      mode: 0,
    });
    // Adoption writes the working tree only: the source index still matches HEAD.
    expect(await git(source, "diff", "--cached", "--name-only")).toEqual("");
  });

  it("keeps a base file whose path a new ignore rule matches", async () => {
    const ws = await workspace(source, "ignored");
    await writeFiles(ws.root, {
      ".gitignore": "*.log\n*.txt\n",
      "text.txt": "changed under an ignore rule\n",
      "fresh.txt": "new and ignored\n",
    });
    const patch = await ws.capture();
    expect(patch).toContain("+changed under an ignore rule");
    expect(patch).not.toContain("fresh.txt");
  });

  it("captures the candidate's commits as part of its change", async () => {
    const ws = await workspace(source, "commits");
    await writeFiles(ws.root, { "committed.txt": "in a commit\n" });
    await commitAll(ws.root, "candidate commit");
    expect(await ws.capture()).toContain("+in a commit");
  });
});

describe("adopt", () => {
  it("a conflicting patch leaves the source files and index untouched", async () => {
    const source = await repo("conflict");
    const ws = await workspace(source, "conflict");
    await writeFiles(ws.root, { "a-first.txt": "would be created first\n", "text.txt": "one\ncandidate\nthree\n" });
    const patch = await ws.capture();
    await writeFiles(source, { "text.txt": "one\nuser edit\nthree\n" });
    await git(source, "add", "text.txt");
    const before = await fingerprint(source);
    await expect(ws.adopt(patch)).rejects.toBeInstanceOf(CandidateAdoptError);
    expect(await fingerprint(source)).toEqual(before);
  });

  it("an independent user edit elsewhere survives adoption", async () => {
    const source = await repo("survive");
    const ws = await workspace(source, "survive");
    await writeFiles(ws.root, { "text.txt": "one\ntwo\nthree\nfour\n" });
    const patch = await ws.capture();
    await writeFiles(source, { "pkg/mod.py": "x = 2\n" });
    await ws.adopt(patch);
    expect([readFileSync(join(source, "text.txt"), "utf8"), readFileSync(join(source, "pkg/mod.py"), "utf8")]).toEqual([
      "one\ntwo\nthree\nfour\n",
      "x = 2\n",
    ]);
  });

  it("refuses when the source HEAD moved since creation, even when the patch would apply", async () => {
    const source = await repo("moved");
    const ws = await workspace(source, "moved");
    await writeFiles(ws.root, { "text.txt": "candidate\n" });
    const patch = await ws.capture();
    await writeFiles(source, { "other.txt": "x\n" });
    const moved = await commitAll(source, "moved on");
    const before = await fingerprint(source);
    const error = await ws.adopt(patch).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CandidateWorkspaceTrackingError);
    expect([(error as CandidateWorkspaceTrackingError).expected, (error as CandidateWorkspaceTrackingError).actual]).toEqual([
      ws.base.revision,
      moved,
    ]);
    expect(await fingerprint(source)).toEqual(before);
  });
});

describe("parallel candidates and dispose", () => {
  it("parallel candidates of one source capture only their own change and dispose cleanly", async () => {
    const source = await repo("parallel");
    const labels = ["p1", "p2", "p3"];
    const workspaces = await Promise.all(labels.map((label) => createCandidateWorkspace(source, { label })));
    expect(new Set(workspaces.map((ws) => ws.root)).size).toEqual(3);
    await Promise.all(workspaces.map((ws) => writeFile(join(ws.root, `${ws.label}.txt`), `${ws.label}\n`)));
    const patches = await Promise.all(workspaces.map((ws) => ws.capture()));
    expect(patches.map((patch) => [...patch.matchAll(/^diff --git a\/(\S+)/gm)].map((m) => m[1]))).toEqual([
      ["p1.txt"],
      ["p2.txt"],
      ["p3.txt"],
    ]);
    await Promise.all(workspaces.map((ws) => ws.dispose()));
    expect(await worktreePaths(source)).toEqual([await git(source, "rev-parse", "--show-toplevel")]);
    expect(labels.flatMap(candidateDirs)).toEqual([]);
    expect(workspaces.map((ws) => existsSync(ws.root))).toEqual([false, false, false]);
  });

  it("dispose removes the worktree and its admin entry and may be called twice", async () => {
    const source = await repo("dispose");
    const ws = await createCandidateWorkspace(source, { label: "dispose" });
    const admin = await git(ws.root, "rev-parse", "--absolute-git-dir");
    await ws.dispose();
    await ws.dispose();
    expect([existsSync(ws.root), existsSync(admin), await worktreePaths(source)]).toEqual([false, false, [source]]);
  });
});
