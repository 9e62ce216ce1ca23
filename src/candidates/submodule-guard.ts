// Finds submodule changes, which a Git patch cannot deliver (it carries only gitlink ids).
// Used on the source before a candidate is created and on the candidate before capture.
import { existsSync, lstatSync, readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";

import { locateRepository } from "../tools/host-git.js";
import { isInside } from "../tools/workspace-path.js";
import { readGit, runGit } from "./git.js";
import { GITLINK_MODE, parseLsFiles, parseRawDiff, type RawDiffRecord, touchesGitlink } from "./raw-diff.js";

/** One submodule change: the module path (from the repository root) and what changed there. */
export interface SubmoduleChange {
  path: string;
  kind: "gitlink-changed" | "new-commits" | "modified-or-untracked" | "not-a-checkout" | "replaced-by-directory";
}

const RAW = ["--raw", "-z", "--no-renames", "--ignore-submodules=none", "--no-ext-diff"];

function describe(record: RawDiffRecord): SubmoduleChange {
  return { path: record.path, kind: "gitlink-changed" };
}

/**
 * Lists submodule changes of `root` against `base`: the real index, the working files, the
 * `snapshot` tree (which sees a module removed or replaced by a directory, and new embedded
 * repositories) and, recursively, every populated module's own status. `--ignore-submodules=none`
 * overrides any `submodule.<name>.ignore` setting.
 */
export async function findSubmoduleChanges(root: string, base: string, snapshot: string, gitDir?: string): Promise<SubmoduleChange[]> {
  const outputs = await Promise.all([
    readGit(root, ["diff-index", "--cached", ...RAW, base], { gitDir }),
    readGit(root, ["diff-files", ...RAW], { gitDir }),
    readGit(root, ["diff-tree", "-r", ...RAW, base, snapshot], { gitDir }),
  ]);
  const changes = outputs.flatMap((output) => parseRawDiff(output).filter(touchesGitlink).map(describe));
  const seen = new Set<string>([realpathSync(root)]);
  changes.push(...(await inspectModules(root, "", seen, gitDir)));
  return dedupe(changes);
}

// Walks the populated modules listed in `dir`'s index; `prefix` turns their paths into root paths.
// With `gitDir` (a candidate), every module's git directory must lie under `gitDir/modules`, where the
// library put it and the candidate's sandbox cannot write: a `.git` file the candidate pointed
// elsewhere is "not-a-checkout", and git never reads the configuration it names.
async function inspectModules(dir: string, prefix: string, seen: Set<string>, gitDir: string | undefined): Promise<SubmoduleChange[]> {
  const gitlinks = parseLsFiles(await readGit(dir, ["ls-files", "-s", "-z"], { gitDir })).filter((entry) => entry.mode === GITLINK_MODE);
  const changes: SubmoduleChange[] = [];
  for (const entry of gitlinks) {
    const moduleDir = join(dir, entry.path);
    const path = prefix + entry.path;
    if (!existsSync(join(moduleDir, ".git"))) {
      // An unpopulated module is an empty directory; git itself ignores files put there.
      if (isNonEmptyDirectory(moduleDir)) changes.push({ path, kind: "replaced-by-directory" });
      continue;
    }
    const real = realpathSync(moduleDir);
    // A module reached twice (through a symlink) is inspected once; it cannot hide a change that way.
    if (seen.has(real)) continue;
    seen.add(real);
    let moduleGitDir: string | undefined;
    if (gitDir !== undefined) {
      const located = await locateRepository(moduleDir);
      if (located === null || located.top !== moduleDir || !isInside(join(gitDir, "modules"), located.gitDir)) {
        changes.push({ path, kind: "not-a-checkout" });
        continue;
      }
      moduleGitDir = located.gitDir;
    }
    const probe = await runGit(moduleDir, ["rev-parse", "--show-toplevel", "HEAD"], { allowFailure: true, gitDir: moduleGitDir });
    const [top = "", head = ""] = Buffer.from(probe.stdout).toString("utf8").split("\n");
    if (probe.exitCode !== 0 || realpathSync(top) !== real) {
      changes.push({ path, kind: "not-a-checkout" });
      continue;
    }
    if (head !== entry.id) changes.push({ path, kind: "new-commits" });
    const status = await readGit(moduleDir, ["status", "--porcelain=v1", "-z", "--untracked-files=normal", "--ignore-submodules=none"], {
      gitDir: moduleGitDir,
    });
    if (status !== "") changes.push({ path, kind: "modified-or-untracked" });
    changes.push(...(await inspectModules(moduleDir, `${path}/`, seen, moduleGitDir)));
  }
  return changes;
}

function isNonEmptyDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory() && readdirSync(path).length > 0;
  } catch {
    return false;
  }
}

function dedupe(changes: SubmoduleChange[]): SubmoduleChange[] {
  const unique = new Map<string, SubmoduleChange>();
  for (const change of changes) unique.set(`${change.path}\0${change.kind}`, change);
  return [...unique.values()];
}

/** Renders changes as `path (kind), ...` for an error message. */
export function renderSubmoduleChanges(changes: readonly SubmoduleChange[]): string {
  return changes.map((change) => `${change.path} (${change.kind})`).join(", ");
}
