// The native agent tools: framework-free factories, their option, input and data types (evidenceTools,
// which composes them with the ledger, is src/observation/evidence-tools.ts).
export { defineTool, assertToolName, TOOL_NAME_PATTERN, withExecute } from "../host/tool.js";
export type { Tool, ToolContext, ToolResult, ToolDefinition, ToolAnnotations, ToolProgress } from "../host/tool.js";
export type { CommandReport, CommandRunReport, CommandNotRunReport, EditReport } from "../host/reports.js";
export { createEvidenceStatusTool } from "./evidence-status.js";
export type { EvidenceStatusData, EvidenceStatusSource } from "./evidence-status.js";
export { createBashTool, readBashOutput, bashInputSchema } from "./bash.js";
export type {
  BashToolOptions,
  BashInput,
  BashData,
  BashRunData,
  BashNotRunData,
  BashNotRunReason,
  ConfirmCallback,
  ConfirmRequest,
} from "./bash.js";
export { checkCommandPolicy } from "./bash-policy.js";
export type { PolicyDecision, BlockRule, ConfirmRule } from "./bash-policy.js";
export type { StreamFacts } from "./output-capture.js";
export { SANDBOX_FIX } from "./sandbox.js";
export { createFileReadTool, fileReadInputSchema } from "./file-read.js";
export type { FileReadToolOptions, FileReadInput, FileReadData, FileReadRefusal } from "./file-read.js";
export { createFileWriteTool, fileWriteInputSchema } from "./file-write.js";
export type { FileWriteToolOptions, FileWriteInput, FileWriteData, FileWriteMode } from "./file-write.js";
export { createApplyPatchTool, applyPatchInputSchema } from "./apply-patch.js";
export type { ApplyPatchToolOptions, ApplyPatchInput, ApplyPatchData } from "./apply-patch.js";
export { createGrepTool, grepInputSchema, defaultRgPath } from "./grep.js";
export type { GrepToolOptions, GrepInput, GrepData, GrepEngine, GrepMatch, GrepFallback } from "./grep.js";
export { createGitDiffTool, gitDiffInputSchema } from "./git-diff.js";
export type { GitDiffToolOptions, GitDiffInput, GitDiffData, GitStatusEntry } from "./git-diff.js";
