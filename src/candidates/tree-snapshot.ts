// Records a working tree's full contents as a tree object through a private index, so the real
// index of the source or candidate is never touched.
import { lstatSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";

import { copyIndexFile } from "../tools/host-git.js";
import { readGit, runGit } from "./git.js";
import { parseLsFiles, parseLsTree } from "./raw-diff.js";

/**
 * Stages every tracked and untracked-not-ignored file of `root` into a temporary index and writes it
 * as a tree. The temporary index starts as a copy of the real one (its stat cache saves rehashing);
 * files of `base` or of the real index that new ignore rules would hide are added back by force.
 */
export async function snapshotWorkingTree(root: string, base: string, gitDir?: string): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), "agent-evidence-index-"));
  const indexFile = join(scratch, "index");
  try {
    const realIndex = await readGit(root, ["rev-parse", "--git-path", "index"], { gitDir });
    const realIndexPath = isAbsolute(realIndex) ? realIndex : join(root, realIndex);
    // The copy keeps the index's mtime (copyIndexFile): without it a same-size edit made within one
    // timestamp tick of the checkout was missing from a candidate's patch.
    if (!(await copyIndexFile(realIndexPath, indexFile))) await runGit(root, ["read-tree", base], { indexFile, gitDir });
    await runGit(root, ["add", "-A"], { indexFile, gitDir });
    await addBackHiddenFiles(root, base, indexFile, gitDir);
    return await readGit(root, ["write-tree"], { indexFile, gitDir });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

// A file the base already held must not vanish from the capture because a .gitignore now matches it.
async function addBackHiddenFiles(root: string, base: string, indexFile: string, gitDir: string | undefined): Promise<void> {
  const staged = new Set(parseLsFiles(await readGit(root, ["ls-files", "-s", "-z"], { indexFile, gitDir })).map((entry) => entry.path));
  const known = parseLsTree(await readGit(root, ["ls-tree", "-r", "-z", base], { gitDir })).map((entry) => entry.path);
  const hidden = known.filter((path) => !staged.has(path) && isPresent(join(root, path)));
  if (hidden.length === 0) return;
  await runGit(root, ["--literal-pathspecs", "add", "-f", "--pathspec-from-file=-", "--pathspec-file-nul"], {
    indexFile,
    gitDir,
    input: hidden.map((path) => `${path}\0`).join(""),
  });
}

function isPresent(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
