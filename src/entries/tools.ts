/**
 * agent-evidence/tools: the native agent tools one by one (the root's `evidenceTools` builds the
 * set), the bash command policy, and their option, input and data types.
 */
export {
  createBashTool,
  createFileReadTool,
  createFileWriteTool,
  createApplyPatchTool,
  createGrepTool,
  createGitDiffTool,
  readBashOutput,
  checkCommandPolicy,
} from "../tools/index.js";
export type {
  ToolDefinition,
  BashToolOptions,
  BashInput,
  BashData,
  BashRunData,
  BashNotRunData,
  BashNotRunReason,
  ConfirmCallback,
  ConfirmRequest,
  PolicyDecision,
  BlockRule,
  ConfirmRule,
  FileReadToolOptions,
  FileReadInput,
  FileReadData,
  FileWriteToolOptions,
  FileWriteInput,
  FileWriteData,
  FileWriteMode,
  ApplyPatchToolOptions,
  ApplyPatchInput,
  ApplyPatchData,
  GrepToolOptions,
  GrepInput,
  GrepData,
  GitDiffToolOptions,
  GitDiffInput,
  GitDiffData,
} from "../tools/index.js";
