/**
 * agent-evidence/audit: agent transcripts (Claude Code, Codex) read into events, claims found and
 * labelled against the runs, whole sessions and files audited, and the Stop / PostToolUse hooks.
 */
export { parsePytestLog, triagePytestLog } from "../audit/triage-pytest-log.js";
export type { PytestLogTriageResult } from "../audit/triage-pytest-log.js";
export { createParsePytestLogTool } from "../audit/triage-pytest-log-tool.js";
export type { ParsePytestLogInput, ParsePytestLogToolOptions } from "../audit/triage-pytest-log-tool.js";
export { detectClaims, isDisclosure } from "../audit/claims.js";
export type { ClaimSentence, ClaimKind, ClaimScope } from "../audit/claims.js";
export { readTranscript, detectTranscriptFormat } from "../audit/transcripts/read-transcript.js";
export type { ReadTranscriptOptions } from "../audit/transcripts/read-transcript.js";
export type {
  TranscriptEvent,
  ShellEvent,
  EditEvent,
  AssistantMessageEvent,
  TranscriptFormat,
  TranscriptProblem,
  TranscriptReadResult,
} from "../audit/transcripts/types.js";
export { mergeTranscriptEvents } from "../audit/transcripts/merge-events.js";
export { mergeSubagentTranscripts, findSubagentFiles } from "../audit/subagent-files.js";
export type { SubagentFilesOptions } from "../audit/subagent-files.js";
export { analyzeSession } from "../audit/transcript-timeline.js";
export type { SessionAnalysis, SessionRun, SessionEdit, EditCause } from "../audit/transcript-timeline.js";
export { labelClaims } from "../audit/labels.js";
export type { ClaimLabel, ClaimLabelReason, LabelledClaim, LabelClaimsOptions } from "../audit/labels.js";
export { auditTranscript, auditEvents } from "../audit/audit-transcript.js";
export type { SessionAudit, AuditedRun, SessionFinding } from "../audit/audit-transcript.js";
export { auditFiles, auditFile } from "../audit/audit-pool.js";
export type { AuditFileResult, AuditFilesOptions } from "../audit/audit-pool.js";
export { runStopHook, MAX_STOP_BLOCKS } from "../audit/hooks/stop.js";
export { decideStop } from "../audit/hooks/stop-decision.js";
export type { DecideStopOptions } from "../audit/hooks/stop-decision.js";
export type { HookClient, StopHookOptions } from "../audit/hooks/stop.js";
export { runPostToolUseHook } from "../audit/hooks/post-tool-use.js";
export type { HookRunResult } from "../audit/hooks/post-tool-use.js";
export { installHooks, uninstallHooks, mergeHookSettings, removeHookSettings, hookSettingsPath } from "../audit/hooks/install.js";
export type { InstallHooksOptions, InstallHooksResult } from "../audit/hooks/install.js";
