// One shared superproject (submodule setups are slow): lib (initialised, with nested initialised),
// lib2 (initialised, its nested left uninitialised) and opt (deinitialised). Every .gitmodules entry
// says ignore = all, and the upstream repositories are deleted, so nothing can be fetched.
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { rename, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CandidateCaptureError, CandidateSourceError } from "../../src/candidates/errors.js";
import { createCandidateWorkspace } from "../../src/candidates/workspace.js";
import { candidateDirs, commitAll, createRepo, fingerprint, git, removeAll, worktreePaths, writeFiles } from "./git-fixture.js";

let source: string;
const heads: Record<string, string> = {};
const created: string[] = [];

async function setIgnoreAll(repo: string, names: string[]): Promise<void> {
  for (const name of names) await git(repo, "config", "-f", ".gitmodules", `submodule.${name}.ignore`, "all");
}

beforeAll(async () => {
  const nested = await createRepo("up-nested", { "n.txt": "nested\n" });
  const lib = await createRepo("up-lib", { "l.txt": "lib\n" });
  const opt = await createRepo("up-opt", { "o.txt": "opt\n" });
  created.push(nested, lib, opt);
  await git(lib, "submodule", "add", "-q", nested, "nested");
  await setIgnoreAll(lib, ["nested"]);
  await commitAll(lib, "add nested");
  source = await createRepo("super", { "root.txt": "root\n" });
  created.push(source);
  await git(source, "submodule", "add", "-q", lib, "lib");
  await git(source, "submodule", "add", "-q", lib, "lib2");
  await git(source, "submodule", "add", "-q", opt, "opt");
  await setIgnoreAll(source, ["lib", "lib2", "opt"]);
  await git(source, "config", "submodule.lib.ignore", "all");
  await commitAll(source, "add modules");
  await git(source, "submodule", "update", "-q", "--init", "--recursive", "--", "lib");
  await git(source, "submodule", "deinit", "-q", "-f", "opt");
  await removeAll(nested, lib, opt);
  for (const module of ["", "lib", "lib/nested", "lib2"]) heads[module] = await git(join(source, module), "rev-parse", "HEAD");
});

afterAll(async () => {
  await removeAll(...created);
});

describe("clean submodules", () => {
  it("initialised modules (nested too) are checked out from the source, others stay empty, and dispose removes everything", async () => {
    const ws = await createCandidateWorkspace(source, { label: "sub-clean" });
    const admin = await git(ws.root, "rev-parse", "--absolute-git-dir");
    expect({
      lib: readFileSync(join(ws.root, "lib/l.txt"), "utf8"),
      nested: readFileSync(join(ws.root, "lib/nested/n.txt"), "utf8"),
      libHead: await git(join(ws.root, "lib"), "rev-parse", "HEAD"),
      nestedHead: await git(join(ws.root, "lib/nested"), "rev-parse", "HEAD"),
      lib2: readFileSync(join(ws.root, "lib2/l.txt"), "utf8"),
      lib2Nested: readdirSync(join(ws.root, "lib2/nested")),
      opt: readdirSync(join(ws.root, "opt")),
    }).toEqual({
      lib: "lib\n",
      nested: "nested\n",
      libHead: heads.lib,
      nestedHead: heads["lib/nested"],
      lib2: "lib\n",
      lib2Nested: [],
      opt: [],
    });
    expect(await ws.capture()).toEqual("");
    await writeFiles(ws.root, { "root.txt": "root edit\n" });
    expect(await ws.capture()).toContain("+root edit");
    await ws.dispose();
    expect([existsSync(ws.root), existsSync(admin), await worktreePaths(source)]).toEqual([false, false, [source]]);
  });
});

type Change = (root: string) => Promise<void>;

const commitIn =
  (module: string): Change =>
  async (root) => {
    await writeFiles(join(root, module), { "committed.txt": "new commit\n" });
    await commitAll(join(root, module), "module commit");
  };

const candidateChanges: [string, Change][] = [
  ["dirty file in a module", (root) => writeFiles(root, { "lib/l.txt": "dirty\n" })],
  ["untracked file in a module", (root) => writeFiles(root, { "lib/untracked.txt": "new\n" })],
  ["new commit in a module", commitIn("lib")],
  ["dirty file in a nested module", (root) => writeFiles(root, { "lib/nested/n.txt": "dirty\n" })],
  ["untracked file in a nested module", (root) => writeFiles(root, { "lib/nested/untracked.txt": "new\n" })],
  ["new commit in a nested module", commitIn("lib/nested")],
  [
    "new commit in a module, staged in the superproject",
    async (root) => {
      await commitIn("lib2")(root);
      await git(root, "add", "lib2");
    },
  ],
  ["module directory removed", (root) => rm(join(root, "lib"), { recursive: true, force: true })],
  [
    "module removed with git rm",
    async (root) => {
      await git(root, "rm", "-q", "-f", "lib2");
    },
  ],
  [
    "module replaced by an ordinary directory",
    async (root) => {
      await rm(join(root, "lib"), { recursive: true, force: true });
      await writeFiles(root, { "lib/l.txt": "now a plain file\n" });
    },
  ],
  [
    "new embedded repository",
    async (root) => {
      await writeFiles(root, { "embedded/e.txt": "e\n" });
      await git(join(root, "embedded"), "init", "-q");
      await commitAll(join(root, "embedded"), "embedded");
    },
  ],
];

describe("capture refuses every submodule change and keeps the worktree intact", () => {
  let sourceBefore: string[];
  beforeAll(async () => {
    sourceBefore = await fingerprint(source);
  });
  afterAll(async () => {
    expect(await fingerprint(source)).toEqual(sourceBefore);
  });

  // Cases share nothing but the read-only source, so they run concurrently. Every other case also
  // edits a root file: a legitimate root change must not let a module change through.
  const cases = candidateChanges.map(
    ([name, change], index) => [index % 2 === 1 ? `${name}, with a root edit` : name, index % 2 === 1, change] as const,
  );
  it.concurrent.for(cases)("%s", async ([, rootEdit, change], { expect }) => {
    const ws = await createCandidateWorkspace(source, { label: "sub-change" });
    try {
      if (rootEdit) await writeFiles(ws.root, { "root.txt": "root edit\n" });
      await change(ws.root);
      const before = await fingerprint(ws.root);
      const error = await ws.capture().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CandidateCaptureError);
      const message = (error as CandidateCaptureError).message;
      expect([
        message.includes("submodule changes"),
        message.includes(ws.root),
        (error as CandidateCaptureError).workspacePath,
        (error as CandidateCaptureError).workspace === ws,
      ]).toEqual([true, true, ws.root, true]);
      expect(await fingerprint(ws.root)).toEqual(before);
    } finally {
      await ws.dispose();
    }
  });

  it("ignore = all hides a dirty module from plain git status, yet capture refuses it", async () => {
    const ws = await createCandidateWorkspace(source, { label: "sub-ignore" });
    try {
      await writeFiles(ws.root, { "lib/l.txt": "dirty\n" });
      expect(await git(ws.root, "status", "--porcelain")).toEqual("");
      await expect(ws.capture()).rejects.toBeInstanceOf(CandidateCaptureError);
    } finally {
      await ws.dispose();
    }
  });
});

// Restores the shared source: modules deepest first, then the superproject's index.
async function restoreSource(): Promise<void> {
  for (const module of ["lib/nested", "lib", ""]) {
    const dir = join(source, module);
    await git(dir, "reset", "-q", "--hard", heads[module]!);
    await git(dir, "clean", "-q", "-fd");
  }
}

const sourceChanges: [string, Change][] = [
  ["dirty file in a module", (root) => writeFiles(root, { "lib/l.txt": "dirty\n" })],
  ["untracked file in a module", (root) => writeFiles(root, { "lib/untracked.txt": "new\n" })],
  ["new commit in a module", commitIn("lib")],
  ["dirty file in a nested module", (root) => writeFiles(root, { "lib/nested/n.txt": "dirty\n" })],
  ["untracked file in a nested module", (root) => writeFiles(root, { "lib/nested/untracked.txt": "new\n" })],
  ["new commit in a nested module", commitIn("lib/nested")],
  [
    "moved gitlink staged in the superproject",
    async (root) => {
      await commitIn("lib")(root);
      await git(root, "add", "lib");
    },
  ],
];

describe("a source with submodule changes is refused before anything is created", () => {
  const pristine: string[] = [];
  beforeAll(async () => {
    // Restoring rewrites stat data in the indexes, so the hygiene check compares everything else.
    pristine.push(...(await fingerprint(source, { index: false })));
  });

  it.each(sourceChanges)("%s", async (_name, change) => {
    const label = "sub-refused";
    try {
      await change(source);
      const before = await fingerprint(source);
      const error = await createCandidateWorkspace(source, { label }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CandidateSourceError);
      expect((error as CandidateSourceError).message).toContain("submodule changes");
      expect([await worktreePaths(source), candidateDirs(label), await fingerprint(source)]).toEqual([[source], [], before]);
    } finally {
      await restoreSource();
    }
    expect(await fingerprint(source, { index: false })).toEqual(pristine);
  });
});

describe("a source whose module checkout is unusable is refused before anything is created", () => {
  const moduleGitFile = (): string => join(source, "lib2/.git");

  it.each([
    [
      "broken module metadata (.git points nowhere)",
      async () => {
        await writeFile(moduleGitFile(), "gitdir: /nonexistent/agent-evidence/modules/lib2\n");
      },
    ],
    [
      "module directory replaced by a symlink outside the source",
      async () => {
        await rename(join(source, "lib2"), join(source, "../lib2-moved-" + process.pid));
        await symlink(join(source, "../lib2-moved-" + process.pid), join(source, "lib2"));
      },
    ],
  ])("%s", async (_name, breakIt) => {
    const label = "sub-unusable";
    const saved = readFileSync(moduleGitFile(), "utf8");
    try {
      await breakIt();
      const error = await createCandidateWorkspace(source, { label }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CandidateSourceError);
      expect([await worktreePaths(source), candidateDirs(label)]).toEqual([[source], []]);
    } finally {
      if (lstatSync(join(source, "lib2")).isSymbolicLink()) {
        await unlink(join(source, "lib2"));
        await rename(join(source, "../lib2-moved-" + process.pid), join(source, "lib2"));
      }
      await writeFile(moduleGitFile(), saved);
    }
    expect(await git(join(source, "lib2"), "rev-parse", "HEAD")).toEqual(heads.lib2);
  });
});
