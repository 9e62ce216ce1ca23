// Initialises, in a new candidate worktree, the submodules the source has checked out, cloning each
// from the source's own checkout (no network, no fetch, no config written into the shared repository).
import { existsSync, lstatSync, realpathSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";

import { CandidateSourceError } from "./errors.js";
import { readGit, runGit } from "./git.js";
import { GITLINK_MODE, parseLsFiles } from "./raw-diff.js";

/** Where one level of initialisation happens: the source checkout and its counterpart in the candidate. */
interface ModuleLevel {
  source: string;
  target: string;
  /** The git directory that holds this level's module repositories (`<gitdir>/modules/`). */
  gitDir: string;
  /** Real paths of the source repositories above this level, to refuse cycles. */
  chain: readonly string[];
}

function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep);
}

// Module repositories live in the candidate's private git dir; the name only has to be unique there.
function moduleDirName(path: string, index: number): string {
  return `${index}-${path.replace(/[^A-Za-z0-9._-]/g, "_")}`;
}

/**
 * Initialises every gitlink of `target`'s index whose source module is checked out: a local clone of
 * the source module (objects copied, so a detached module HEAD is present), checked out at the
 * recorded commit, recursively. Unpopulated modules stay empty directories.
 */
export async function initialiseSubmodules(source: string, target: string, gitDir: string): Promise<void> {
  await initialiseLevel({ source, target, gitDir, chain: [realpathSync(source)] });
}

async function initialiseLevel(level: ModuleLevel): Promise<void> {
  const gitlinks = parseLsFiles(await readGit(level.target, ["ls-files", "-s", "-z"])).filter((entry) => entry.mode === GITLINK_MODE);
  let index = 0;
  for (const entry of gitlinks) {
    index += 1;
    const sourceModule = join(level.source, entry.path);
    if (!existsSync(join(sourceModule, ".git"))) continue;
    const realSource = await checkSourceModule(level, sourceModule);
    const targetModule = join(level.target, entry.path);
    const moduleGitDir = join(level.gitDir, "modules", moduleDirName(entry.path, index));
    await mkdir(join(level.gitDir, "modules"), { recursive: true });
    await runGit(
      level.target,
      ["clone", "--quiet", "--local", "--no-checkout", "--separate-git-dir", moduleGitDir, "--", sourceModule, targetModule],
      {
        allowFileProtocol: true,
      },
    );
    await runGit(targetModule, ["checkout", "--quiet", "--detach", entry.id]);
    await initialiseLevel({ source: sourceModule, target: targetModule, gitDir: moduleGitDir, chain: [...level.chain, realSource] });
  }
}

// Refuses module checkouts that are symlinks, escape the source, have broken metadata, or loop.
async function checkSourceModule(level: ModuleLevel, sourceModule: string): Promise<string> {
  const fail = (why: string): never => {
    throw new CandidateSourceError(level.source, `cannot initialise submodule ${sourceModule} in the candidate: ${why}`);
  };
  if (lstatSync(sourceModule).isSymbolicLink()) fail("the module directory is a symbolic link");
  const real = realpathSync(sourceModule);
  const parent = level.chain.at(-1)!;
  if (!isInside(parent, real)) fail("the module directory lies outside its superproject");
  const top = await runGit(sourceModule, ["rev-parse", "--show-toplevel"], { allowFailure: true });
  if (top.exitCode !== 0) fail(`broken module metadata (${top.stderr.trim()})`);
  if (realpathSync(Buffer.from(top.stdout).toString("utf8").trim()) !== real) fail("broken module metadata (it is not its own checkout)");
  if (level.chain.includes(real)) fail("cyclic submodule sources");
  return real;
}
