/** agent-evidence/patches: Git diffs parsed down to exact paths, with Git's own path quoting. Pure: text in, data out. */
export {
  parsePatch,
  createPatchParser,
  splitPatchBlocks,
  patchEntries,
  patchPaths,
  patchBlockTargetPath,
  normalizePatchPath,
  diffTargetPath,
  gitHeaderTokens,
  gitDiffEndpoint,
  decodeGitCPath,
  encodeGitCPath,
  decodeGitBytes,
  encodeGitBytes,
} from "../patches/index.js";
export type {
  FilePatch,
  FilePatchStatus,
  PatchHunk,
  PatchEntry,
  PatchParser,
  NormalizePatchPathOptions,
  EncodeGitCPathOptions,
} from "../patches/index.js";
