// capture(): the candidate's change against its base as one binary Git patch, or a
// CandidateCaptureError that leaves the worktree exactly as it was.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { CandidateCaptureError } from "./errors.js";
import { runGit } from "./git.js";
import { findSubmoduleChanges, renderSubmoduleChanges } from "./submodule-guard.js";
import { snapshotWorkingTree } from "./tree-snapshot.js";

/** What capture needs to know about a workspace. */
export interface CaptureTarget {
  label: string;
  /** The worktree root. */
  root: string;
  /** The tree the candidate started from (source HEAD plus the source's uncommitted changes). */
  baseTree: string;
  /** The worktree's git directory as created: used instead of the `.git` file the candidate could rewrite. */
  gitDir?: string;
}

// Plumbing diff with every output-shaping option explicit, so repository config cannot reshape it.
const DIFF = [
  "diff-tree",
  "-r",
  "-p",
  "--binary",
  "--full-index",
  "--no-renames",
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "--src-prefix=a/",
  "--dst-prefix=b/",
];

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Captures the candidate's change (tracked, untracked-not-ignored, binary, mode changes) against
 * `baseTree` through a temporary index. Any submodule change raises {@link CandidateCaptureError}.
 */
export async function captureCandidatePatch(target: CaptureTarget): Promise<string> {
  return (await captureCandidateChange(target)).patch;
}

/** The patch, and the tree of the working files it was taken from (what a bundle pins the evidence to). */
export async function captureCandidateChange(target: CaptureTarget): Promise<{ patch: string; tree: string }> {
  const failure = (why: string, cause?: unknown): CandidateCaptureError =>
    new CandidateCaptureError(
      target.root,
      `candidate diff capture failed (${target.label}): ${why}; worktree preserved at ${target.root}`,
      cause === undefined ? undefined : { cause },
    );
  let snapshot: string;
  try {
    snapshot = await snapshotWorkingTree(target.root, target.baseTree, target.gitDir);
    const changes = await findSubmoduleChanges(target.root, target.baseTree, snapshot, target.gitDir);
    if (changes.length > 0) {
      throw failure(`submodule changes cannot be delivered as a patch: ${renderSubmoduleChanges(changes)}`);
    }
    return { patch: await renderPatch(target.root, target.baseTree, snapshot, target.gitDir), tree: snapshot };
  } catch (error) {
    if (error instanceof CandidateCaptureError) throw error;
    throw failure(error instanceof Error ? error.message : String(error), error);
  }
}

// A patch is text: a file block that is not UTF-8 (content or name) is replaced by the same file's
// block rendered with the `binary` attribute and C-quoted names, so the text stays lossless while
// readable files keep their readable hunks.
async function renderPatch(root: string, from: string, to: string, gitDir: string | undefined): Promise<string> {
  const { stdout } = await runGit(root, [...DIFF, from, to], { gitDir });
  const text = decodeUtf8(stdout);
  if (text !== undefined) return text;
  const scratch = await mkdtemp(join(tmpdir(), "agent-evidence-attributes-"));
  try {
    const attributes = join(scratch, "attributes");
    await writeFile(attributes, "* binary\n");
    const binary = await runGit(root, [...DIFF, from, to], {
      gitDir,
      config: [`core.attributesFile=${attributes}`, "core.quotePath=true"],
    });
    const readable = splitFileBlocks(stdout);
    const safe = splitFileBlocks(binary.stdout);
    if (readable.length !== safe.length) return utf8.decode(binary.stdout);
    return readable.map((block, index) => decodeUtf8(block) ?? utf8.decode(safe[index])).join("");
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

const HEADER = Buffer.from("diff --git ");

/** Splits a patch's bytes into per-file blocks, each starting at a line that begins with `diff --git `. */
export function splitFileBlocks(patch: Uint8Array): Uint8Array[] {
  const bytes = Buffer.from(patch.buffer, patch.byteOffset, patch.byteLength);
  const starts: number[] = [];
  for (let at = bytes.indexOf(HEADER); at !== -1; at = bytes.indexOf(HEADER, at + 1)) {
    if (at === 0 || bytes[at - 1] === 0x0a) starts.push(at);
  }
  if (starts[0] !== 0) starts.unshift(0);
  return starts.map((start, index) => bytes.subarray(start, starts[index + 1] ?? bytes.length));
}
