// What a git command changes: the repository's metadata, named files, or the tree (one program's
// rows of the command-effect table, docs/shell.md).
import { isOption, operands } from "./command-facts.js";
import { combineEffects, type CommandEffect, has, literalPaths, patchBodyEffect, unknown, valueOf } from "./effect.js";
import type { Redirect } from "./types.js";

export const GIT_METADATA_EFFECT: CommandEffect = { kind: "vcs-metadata", dependsOn: "repository-config" };
// git's reads that compare the tree with the index refresh the index's stat cache as they go: after a
// checkout or a copy of the repository, `git status` rewrites .git/index (`git describe --dirty` too).
const GIT_REFRESHES_INDEX = new Set(["status", "diff", "describe"]);

// A read-only git command writes no file, but it depends on the repository's config, and some write its index.
export function gitReadEffect(args: readonly string[]): CommandEffect {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) i += args[i] === "--namespace" ? 2 : 1;
  return GIT_REFRESHES_INDEX.has(args[i] ?? "") ? GIT_METADATA_EFFECT : { kind: "none", dependsOn: "repository-config" };
}

/** The git subcommands that change only the repository's metadata. */
export const GIT_METADATA_SUBCOMMANDS: readonly string[] = [
  "add",
  "commit",
  "tag",
  "fetch",
  "push",
  "notes",
  "init",
  "gc",
  "prune",
  "repack",
  "pack-refs",
  "update-index",
  "update-ref",
  "mktree",
  "write-tree",
  "commit-tree",
  "hash-object",
  "fsck",
  "maintenance",
];
const GIT_METADATA = new Set(GIT_METADATA_SUBCOMMANDS);

// What a git command changes: the repository's metadata, named files, or the tree.
export function gitEffect(args: readonly string[], redirects: readonly Redirect[]): CommandEffect {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) {
    if (args[i] === "-c" || args[i]!.startsWith("--config-env") || args[i]!.startsWith("--exec-path"))
      return unknown("git with a setting that can run a program");
    if (["-C", "--git-dir", "--work-tree", "--namespace"].includes(args[i]!) || /^--(git-dir|work-tree)=/.test(args[i]!))
      return unknown("git on another repository or work tree");
    i += 1;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  const meta = GIT_METADATA_EFFECT;
  const files = (paths: string[], what: string): CommandEffect => combineEffects(literalPaths(paths, what), meta);
  if (sub === undefined) return { kind: "none", dependsOn: "repository-config" };
  if (
    rest.some(
      (a) =>
        a.startsWith("--output") ||
        a === "--ext-diff" ||
        a.startsWith("--exec") ||
        a.startsWith("--upload-pack") ||
        a.startsWith("--receive-pack"),
    )
  )
    return unknown(`git ${sub} with an option that writes or runs`);
  if (GIT_METADATA.has(sub)) return sub === "commit" && has(rest, "--interactive", "--patch") ? unknown("git commit --interactive") : meta;
  switch (sub) {
    case "branch":
    case "remote":
      return meta;
    case "checkout": {
      const dash = rest.indexOf("--");
      if (dash !== -1) return files(rest.slice(dash + 1), "git checkout --");
      const creates = rest.some((a) => a === "-b" || a === "-B" || a === "--orphan");
      // `git checkout -b name` keeps the tree; with a start point it switches to it.
      if (creates && rest.filter((a) => !isOption(a)).length === 1) return meta;
      return unknown("git checkout switches the tree");
    }
    case "switch":
      return rest.some((a) => a === "-c" || a === "-C" || a === "--create" || a === "--force-create") &&
        rest.filter((a) => !isOption(a)).length === 1
        ? meta
        : unknown("git switch changes the tree");
    case "restore": {
      const worktree = has(rest, "--worktree", "-W") || !has(rest, "--staged", "-S");
      if (!worktree) return meta;
      const source = valueOf(rest, "--source", "-s");
      return files(
        operands(rest).filter((a) => a !== source),
        "git restore",
      );
    }
    case "reset":
      return has(rest, "--hard", "--merge", "--keep") ? unknown("git reset rewrites the tree") : meta;
    case "rm":
      return has(rest, "--cached") ? meta : files(operands(rest), "git rm");
    case "mv":
      return files(operands(rest), "git mv");
    case "apply":
      if (has(rest, "--cached")) return meta;
      if (has(rest, "--check", "--stat", "--numstat", "--summary") && !has(rest, "--apply"))
        return { kind: "none", dependsOn: "repository-config" };
      return operands(rest).length > 0
        ? unknown("git apply reads a patch file")
        : combineEffects(patchBodyEffect(redirects, "git apply", 1), meta);
    case "stash":
      return unknown("git stash restores or reverts tracked files");
    case "config":
      return unknown("git config changes what later git commands run");
    default:
      return unknown(`git ${sub}`);
  }
}
