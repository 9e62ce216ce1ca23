// What the lines of one file block state, collected while scanning, and how they become a FilePatch.
import { decodeGitCPath } from "./c-path.js";
import { splitHeader, stripPrefixPair } from "./header.js";
import type { FilePatch, FilePatchStatus, PatchHunk } from "./types.js";

/** Facts gathered from one block's header lines (mutable while the block is scanned). */
export interface BlockFacts {
  /** `git` for `diff --git`, `combined` for `diff --cc`/`diff --combined`. */
  kind: "git" | "combined";
  /** The header text after `diff --git ` / `diff --cc ` (line ending removed). */
  headerRest: string;
  minus: string | undefined;
  plus: string | undefined;
  renameFrom: string | undefined;
  renameTo: string | undefined;
  copyFrom: string | undefined;
  copyTo: string | undefined;
  newFileMode: string | undefined;
  deletedFileMode: string | undefined;
  oldMode: string | undefined;
  newMode: string | undefined;
  indexMode: string | undefined;
  oldId: string | undefined;
  newId: string | undefined;
  similarity: number | null;
  dissimilarity: number | null;
  binary: boolean;
  binaryFromNull: boolean;
  binaryToNull: boolean;
  hunks: PatchHunk[];
}

/** A fresh fact sheet for a block whose header is `headerRest`. */
export function createBlockFacts(kind: "git" | "combined", headerRest: string): BlockFacts {
  return {
    kind,
    headerRest,
    minus: undefined,
    plus: undefined,
    renameFrom: undefined,
    renameTo: undefined,
    copyFrom: undefined,
    copyTo: undefined,
    newFileMode: undefined,
    deletedFileMode: undefined,
    oldMode: undefined,
    newMode: undefined,
    indexMode: undefined,
    oldId: undefined,
    newId: undefined,
    similarity: null,
    dissimilarity: null,
    binary: false,
    binaryFromNull: false,
    binaryToNull: false,
    hunks: [],
  };
}

const DEV_NULL = "/dev/null";

interface ResolvedPaths {
  oldPath: string;
  newPath: string;
  ambiguous: boolean;
}

// Exact names first (rename/copy lines carry no prefix), then ---/+++, then the header.
function resolvePaths(facts: BlockFacts, added: boolean, deleted: boolean): ResolvedPaths {
  if (facts.kind === "combined") {
    const path = decodeGitCPath(facts.headerRest);
    return { oldPath: added ? "" : path, newPath: deleted ? "" : path, ambiguous: false };
  }
  const from = facts.renameFrom ?? facts.copyFrom;
  const to = facts.renameTo ?? facts.copyTo;
  if (from !== undefined && to !== undefined) return { oldPath: from, newPath: to, ambiguous: false };
  const minus = facts.minus === undefined ? undefined : decodeGitCPath(facts.minus);
  const plus = facts.plus === undefined ? undefined : decodeGitCPath(facts.plus);
  const split = splitHeader(facts.headerRest, { minus: facts.minus, plus: facts.plus, from, to });
  const [first, second] = split.tokens.map(decodeGitCPath);
  const oldToken = minus !== undefined && minus !== DEV_NULL ? minus : first;
  const newToken = plus !== undefined && plus !== DEV_NULL ? plus : second;
  if (oldToken === undefined || newToken === undefined) {
    const only = oldToken ?? newToken ?? "";
    return { oldPath: added ? "" : only, newPath: deleted ? "" : only, ambiguous: true };
  }
  const decidedByLines = minus !== undefined && minus !== DEV_NULL && plus !== undefined && plus !== DEV_NULL;
  const names = stripPrefixPair(oldToken, newToken);
  return {
    oldPath: added ? "" : names.oldName,
    newPath: deleted ? "" : names.newName,
    ambiguous: names.ambiguous || (split.ambiguous && !decidedByLines),
  };
}

// The file type is the mode without its permission digits (100, 120, 160, 040).
function fileType(mode: string): string {
  return mode.slice(0, -3);
}

/** Turns a finished block's facts into its FilePatch. */
export function finishBlock(facts: BlockFacts): FilePatch {
  const added = facts.newFileMode !== undefined || facts.minus === DEV_NULL || facts.binaryFromNull;
  const deleted = facts.deletedFileMode !== undefined || facts.plus === DEV_NULL || facts.binaryToNull;
  const { oldPath, newPath, ambiguous } = resolvePaths(facts, added && !deleted, deleted && !added);
  const oldMode = added && !deleted ? null : (facts.oldMode ?? facts.deletedFileMode ?? facts.indexMode ?? null);
  const newMode = deleted && !added ? null : (facts.newMode ?? facts.newFileMode ?? facts.indexMode ?? null);
  const contentChanged = facts.hunks.length > 0 || facts.binary || (facts.oldId !== undefined && facts.oldId !== facts.newId);
  let status: FilePatchStatus;
  if (added && !deleted) status = "added";
  else if (deleted && !added) status = "deleted";
  else if (facts.copyFrom !== undefined && facts.copyTo !== undefined) status = "copied";
  else if ((facts.renameFrom !== undefined && facts.renameTo !== undefined) || oldPath !== newPath) status = "renamed";
  else if (oldMode !== null && newMode !== null && fileType(oldMode) !== fileType(newMode)) status = "type-changed";
  else if (oldMode !== null && newMode !== null && oldMode !== newMode && !contentChanged) status = "mode-changed";
  else status = "modified";
  return {
    oldPath,
    newPath,
    status,
    binary: facts.binary,
    similarity: facts.similarity,
    dissimilarity: facts.dissimilarity,
    oldMode,
    newMode,
    oldId: facts.oldId ?? null,
    newId: facts.newId ?? null,
    submodule: oldMode === "160000" || newMode === "160000",
    ambiguous,
    combined: facts.kind === "combined",
    hunks: facts.hunks,
  };
}
