// Builds real repositories with real git for the patch tests: one repository per change kind,
// every awkward name in each, and git's own NUL-separated answers for the same diff.
import { chmodSync, mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { gitBytes } from "../support/git.js";
import { tempDirPath } from "../support/temp-dir.js";

// The suite's one git environment, plus a fixed locale and clock so every run builds the same commits.
const FIXED: Record<string, string> = { GIT_AUTHOR_DATE: "2001-02-03T04:05:06Z", GIT_COMMITTER_DATE: "2001-02-03T04:05:06Z", LC_ALL: "C" };

/** Runs git in `cwd` and returns stdout bytes; throws with stderr on failure. */
export function git(cwd: string, args: readonly string[], input?: Buffer): Buffer {
  return gitBytes(cwd, args, { env: FIXED, ...(input === undefined ? {} : { input }) });
}

/** The awkward names every kind is exercised with (as bytes: one is not UTF-8). */
export const NAMES: readonly Buffer[] = [
  "plain.txt",
  "trailing ",
  " leading",
  " both sides ",
  "inner  space.txt",
  "tab\tname",
  "new\nline",
  'quo"te',
  "back\\slash",
  "uni\u2028sep",
  "中文.txt",
  "café.txt",
  "b/in-dir-b.txt",
  "a b/c",
  "x b/y b/z",
]
  .map((name) => Buffer.from(name, "utf8"))
  .concat([Buffer.from([0x6e, 0x6f, 0x74, 0x2d, 0xff, 0x2d, 0x75, 0x74, 0x66, 0x38])]);

/** How one change kind builds its base commit and its staged change. */
export interface ChangeKind {
  readonly name: string;
  /** Files of the base commit (written before the first commit). */
  readonly base: (repo: Repo, name: Buffer, index: number) => void;
  /** The change, applied after the base commit. */
  readonly change: (repo: Repo, name: Buffer, index: number) => void;
  /** Extra diff options (rename and copy detection). */
  readonly diffOptions?: readonly string[];
  /** Which comparison: staged against HEAD (default), worktree against index, or worktree against HEAD. */
  readonly against?: "cached" | "worktree" | "head";
  /** The change lives in the index only (gitlinks): `git add -A` would drop it. */
  readonly indexOnly?: boolean;
}

/** A scratch repository addressed with byte paths. */
export interface Repo {
  readonly dir: string;
  write(name: Buffer, content: string | Buffer): void;
  link(name: Buffer, target: string): void;
  path(name: Buffer): Buffer;
}

const text = (name: Buffer, index: number, extra = ""): string =>
  `file ${index}\n${Array.from({ length: 12 }, (_, line) => `line ${line} of ${name.toString("hex")}\n`).join("")}${extra}`;
const binary = (index: number, variant: number): Buffer => Buffer.from([0, 1, 2, index, variant, 0, 255, 254]);
const suffixed = (name: Buffer, suffix: string): Buffer => Buffer.concat([name, Buffer.from(suffix)]);

/** Every kind the acceptance list names. */
export const KINDS: readonly ChangeKind[] = [
  { name: "text change", base: (r, n, i) => r.write(n, text(n, i)), change: (r, n, i) => r.write(n, text(n, i, "more\n")) },
  {
    name: "text change (worktree vs index)",
    against: "worktree",
    base: (r, n, i) => r.write(n, text(n, i)),
    change: (r, n, i) => r.write(n, text(n, i, "w\n")),
  },
  {
    name: "text change (worktree vs HEAD)",
    against: "head",
    base: (r, n, i) => r.write(n, text(n, i)),
    change: (r, n, i) => r.write(n, text(n, i, "h\n")),
  },
  { name: "binary change", base: (r, n, i) => r.write(n, binary(i, 1)), change: (r, n, i) => r.write(n, binary(i, 2)) },
  {
    name: "rename",
    diffOptions: ["-M"],
    base: (r, n, i) => r.write(n, text(n, i)),
    change: (r, n) => renameSync(r.path(n), r.path(suffixed(n, " renamed "))),
  },
  {
    name: "rename with edit",
    diffOptions: ["-M"],
    base: (r, n, i) => r.write(n, text(n, i)),
    change: (r, n, i) => {
      unlinkSync(r.path(n));
      r.write(suffixed(n, ".moved"), text(n, i, "edited\n"));
    },
  },
  {
    name: "copy",
    diffOptions: ["-C", "-C"],
    base: (r, n, i) => r.write(n, text(n, i)),
    change: (r, n, i) => r.write(suffixed(n, " copy"), text(n, i)),
  },
  { name: "mode change", base: (r, n, i) => r.write(n, text(n, i)), change: (r, n) => chmodSync(r.path(n), 0o755) },
  {
    name: "mode and content change",
    base: (r, n, i) => r.write(n, text(n, i)),
    change: (r, n, i) => (r.write(n, text(n, i, "x\n")), chmodSync(r.path(n), 0o755)),
  },
  { name: "addition", base: () => undefined, change: (r, n, i) => r.write(n, text(n, i)) },
  { name: "deletion", base: (r, n, i) => r.write(n, text(n, i)), change: (r, n) => unlinkSync(r.path(n)) },
  { name: "empty-file addition", base: () => undefined, change: (r, n) => r.write(n, "") },
  { name: "empty-file deletion", base: (r, n) => r.write(n, ""), change: (r, n) => unlinkSync(r.path(n)) },
  { name: "binary addition", base: () => undefined, change: (r, n, i) => r.write(n, binary(i, 1)) },
  { name: "binary deletion", base: (r, n, i) => r.write(n, binary(i, 1)), change: (r, n) => unlinkSync(r.path(n)) },
  { name: "symlink addition", base: () => undefined, change: (r, n, i) => r.link(n, `target-${i}`) },
  {
    name: "symlink change",
    base: (r, n, i) => r.link(n, `target-${i}`),
    change: (r, n, i) => (unlinkSync(r.path(n)), r.link(n, `other-${i}`)),
  },
  { name: "symlink deletion", base: (r, n, i) => r.link(n, `target-${i}`), change: (r, n) => unlinkSync(r.path(n)) },
  {
    name: "type change file to symlink",
    base: (r, n, i) => r.write(n, text(n, i)),
    change: (r, n, i) => (unlinkSync(r.path(n)), r.link(n, `target-${i}`)),
  },
  { name: "submodule addition", indexOnly: true, base: () => undefined, change: (r, n, i) => gitlink(r, n, commitId(i, 1)) },
  {
    name: "submodule change",
    indexOnly: true,
    base: (r, n, i) => gitlink(r, n, commitId(i, 1)),
    change: (r, n, i) => gitlink(r, n, commitId(i, 2)),
  },
  {
    name: "submodule deletion",
    indexOnly: true,
    base: (r, n, i) => gitlink(r, n, commitId(i, 1)),
    change: (r, n) => removeFromIndex(r, n),
  },
];

function commitId(index: number, variant: number): string {
  return `${variant}${index.toString(16).padStart(2, "0")}`.padEnd(40, "a");
}

// Gitlinks go straight into the index: no nested repository needed for the diff to show them.
function gitlink(repo: Repo, name: Buffer, id: string): void {
  git(repo.dir, ["update-index", "-z", "--index-info"], Buffer.concat([Buffer.from(`160000 ${id}\t`), name, Buffer.from([0])]));
}

function removeFromIndex(repo: Repo, name: Buffer): void {
  git(repo.dir, ["update-index", "-z", "--index-info"], Buffer.concat([Buffer.from(`0 ${"0".repeat(40)}\t`), name, Buffer.from([0])]));
}

/** A prepared repository for one kind: base committed, change applied (staged unless worktree). */
export function createKindRepo(kind: ChangeKind): string {
  const dir = tempDirPath("ae-patches-");
  const repo: Repo = {
    dir,
    path: (name) => Buffer.concat([Buffer.from(`${dir}/`), name]),
    write(name, content) {
      const slash = name.lastIndexOf(0x2f);
      if (slash >= 0) mkdirSync(this.path(name.subarray(0, slash)), { recursive: true });
      writeFileSync(this.path(name), content);
    },
    link(name, target) {
      const slash = name.lastIndexOf(0x2f);
      if (slash >= 0) mkdirSync(this.path(name.subarray(0, slash)), { recursive: true });
      symlinkSync(target, this.path(name));
    },
  };
  git(dir, ["init", "-q", "-b", "main", "."]);
  writeFileSync(join(dir, "keep"), "keep\n");
  git(dir, ["add", "keep"]);
  NAMES.forEach((name, index) => kind.base(repo, name, index));
  if (kind.indexOnly !== true) git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "-m", "base"]);
  NAMES.forEach((name, index) => kind.change(repo, name, index));
  if (kind.indexOnly !== true && kind.against !== "worktree" && kind.against !== "head") git(dir, ["add", "-A"]);
  return dir;
}

/** Removes a repository made by createKindRepo. */
export function removeRepo(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** One configuration of the diff: quoting and prefixes. */
export interface DiffConfig {
  readonly quotePath: boolean;
  readonly prefix: "default" | "no-prefix" | "mnemonic";
}

/** Every quotePath x prefix combination. */
export const CONFIGS: readonly DiffConfig[] = [true, false].flatMap((quotePath) =>
  (["default", "no-prefix", "mnemonic"] as const).map((prefix) => ({ quotePath, prefix })),
);

const diffCache = new Map<string, Buffer>();

/** Runs `git diff` for a kind under a configuration with extra format options (memoised per repository). */
export function gitDiff(dir: string, kind: ChangeKind, config: DiffConfig, format: readonly string[]): Buffer {
  const against = kind.against === "worktree" ? [] : kind.against === "head" ? ["HEAD"] : ["--cached"];
  const args = [
    "-c",
    `core.quotePath=${String(config.quotePath)}`,
    "-c",
    `diff.mnemonicPrefix=${String(config.prefix === "mnemonic")}`,
    "diff",
    ...(config.prefix === "no-prefix" ? ["--no-prefix"] : []),
    ...(kind.diffOptions ?? ["--no-renames"]),
    ...format,
    ...against,
  ];
  const key = `${dir}\0${args.join("\0")}`;
  let output = diffCache.get(key);
  if (output === undefined) {
    output = git(dir, args);
    diffCache.set(key, output);
  }
  return output;
}
