// src/patches: pure Git diff parsing. Text in, data out; no file system, no processes.
export { splitPatchBlocks, isBlockHeader } from "./split-blocks.js";
export { decodeGitCPath, encodeGitCPath, decodeGitBytes, encodeGitBytes } from "./c-path.js";
export type { EncodeGitCPathOptions } from "./c-path.js";
export { gitHeaderTokens, gitDiffEndpoint, diffTargetPath } from "./header.js";
export { normalizePatchPath } from "./normalize-path.js";
export type { NormalizePatchPathOptions } from "./normalize-path.js";
export { patchEntries, patchPaths, patchBlockTargetPath } from "./entries.js";
export type { PatchEntry } from "./entries.js";
export { parsePatch, createPatchParser } from "./parse-patch.js";
export type { PatchParser } from "./parse-patch.js";
export type { FilePatch, FilePatchStatus, PatchHunk } from "./types.js";
