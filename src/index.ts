/**
 * agent-evidence: the public API. Everything exported here, by name, is public and stable;
 * nothing else is. Importing this module loads nothing: the bash grammar is read on the first call
 * that parses a command line (`analyzeCommand`, `judge`, `hasPassEvidence`, ...), synchronously, or
 * early by `await ready()`. Framework adapters are subpath exports (`agent-evidence/ai-sdk`,
 * `/openai-agents`, `/langchain`, `/mcp`), so this entry pulls in no framework.
 */

// Shapes and errors
export type { Outcome, RunnerKind, GateFinding, RunEvidence, Applicability, VerificationRecord } from "./types.js";
export { EvidenceError, isEvidenceError } from "./errors.js";
export type { EvidenceErrorCode } from "./errors.js";
export { NamedFileError } from "./io/named-files.js";
export type { NamedFileOperation } from "./io/named-files.js";

// Shell analysis
export { analyzeCommand } from "./grammar/analyze-command.js";
export { ready } from "./grammar/bash-grammar.js";
export { parseCommandLine, analyzeParsed, attributeExit, stripWrappers, recognizeRunner, isReadOnlyCommand } from "./shell/index.js";
export type {
  AnalyzeOptions,
  AttributeOptions,
  BashParser,
  SyntaxNode,
  SyntaxTree,
  AndOrList,
  AnalyzedCommand,
  CommandAnalysis,
  CommandNode,
  Compound,
  ExitAttribution,
  ExitAttributionStatus,
  Group,
  ParsedLine,
  Pipeline,
  Redirect,
  SimpleCommand,
  Statement,
  Subshell,
  TestInvocation,
} from "./shell/index.js";

// Runner observers
export {
  stripAnsi,
  IdTable,
  mergeOutcomeIds,
  createPytestParser,
  parsePytest,
  createGoTestParser,
  parseGoTest,
  createDjangoParser,
  parseDjango,
  createJunitParser,
  parseJunit,
  isStaleReport,
  pytestTargetCovers,
  goTargetCovers,
  unittestTargetCovers,
  builtinObservers,
  createObserverRegistry,
  defaultObserverRegistry,
  pytestObserver,
  goTestObserver,
  djangoObserver,
  unittestObserver,
} from "./observers/index.js";
export type {
  OutcomeIds,
  FinalSummary,
  ForgeryKind,
  ForgerySignal,
  MarkerKind,
  OutputParser,
  ParsedRunOutput,
  RunMarker,
  JunitCase,
  JunitReport,
  JunitReportInvalid,
  JunitReportOk,
  JunitTiming,
  JunitTotals,
  ObservedInvocation,
  ObserverRegistry,
  RunnerObserver,
} from "./observers/index.js";

// Judging
export { judge, judgeAnalyzed, createJudgeStream } from "./evidence/judge.js";
export type { JudgeInput, JudgeJunitXml, JudgeReport, JudgeResult, JudgeStream, JudgeStreamOptions } from "./evidence/judge.js";
export { hasPassEvidence } from "./evidence/has-pass-evidence.js";
export type { HasPassEvidenceOptions } from "./evidence/has-pass-evidence.js";

// The evidence ledger
export { EvidenceLedger } from "./evidence/ledger.js";
export { testView } from "./evidence/test-view.js";
export type { TestView, TestViewEntry, TestState } from "./evidence/test-view.js";
export { verifyEvidenceBundle } from "./evidence/bundle.js";
export type { EvidenceBundle, EvidenceBundleManifest, VerifyBundleResult } from "./evidence/bundle.js";
export type { CommandResult, EditObservation, EvidenceLedgerOptions, InvalidationTiming, LedgerEvent, LedgerJournal, LedgerState, LineJudge, VerifiedEntry, WorkspaceEffect } from "./evidence/ledger.js";
export { BashEvidence, START_HOOK, PER_CALL_SHELL } from "./evidence/bash-evidence.js";
export { ShellSession, isPlantablePathEntry } from "./evidence/shell-session.js";
export type { ShellSessionState } from "./evidence/shell-session.js";
export type { BashEvidenceOptions, BashLikeInput, InvalidationMode, ObservedToolContext, ResultExtractor } from "./evidence/bash-evidence.js";
export { createWorkspaceSnapshotter } from "./evidence/snapshot.js";
export type { WorkspaceSnapshot, WorkspaceSnapshotter } from "./evidence/snapshot.js";
export { WorkspaceWatcher } from "./evidence/watch.js";
export type { WorkspaceWatcherOptions } from "./evidence/watch.js";
export { readJournal, replayJournal, createFileJournal, openJournal, defaultSealPath, lineMac } from "./evidence/journal.js";
export type { FileJournal, JournalOptions, JournalSeal, JournalState, JournalTip } from "./evidence/journal.js";

// Native tools
export {
  evidenceTools,
  EVIDENCE_TOOL_NAMES,
  defineTool,
  createBashTool,
  createFileReadTool,
  createFileWriteTool,
  createApplyPatchTool,
  createGrepTool,
  createGitDiffTool,
  readBashOutput,
  checkCommandPolicy,
} from "./tools/index.js";
export type {
  EvidenceToolsOptions,
  EvidenceToolset,
  EvidenceToolName,
  EvidenceView,
  Tool,
  ToolContext,
  ToolResult,
  BashToolOptions,
  BashInput,
  BashData,
  BashRunData,
  BashNotRunData,
  ConfirmCallback,
  ConfirmRequest,
  FileReadToolOptions,
  FileReadInput,
  FileReadData,
  FileWriteToolOptions,
  FileWriteInput,
  FileWriteData,
  ApplyPatchToolOptions,
  ApplyPatchInput,
  ApplyPatchData,
  GrepToolOptions,
  GrepInput,
  GrepData,
  GitDiffToolOptions,
  GitDiffInput,
  GitDiffData,
} from "./tools/index.js";

// Git diffs
export {
  splitPatchBlocks,
  decodeGitCPath,
  encodeGitCPath,
  decodeGitBytes,
  encodeGitBytes,
  gitHeaderTokens,
  gitDiffEndpoint,
  diffTargetPath,
  normalizePatchPath,
  patchEntries,
  patchPaths,
  patchBlockTargetPath,
  parsePatch,
  createPatchParser,
} from "./patches/index.js";
export type { FilePatch, FilePatchStatus, PatchHunk, PatchEntry, PatchParser } from "./patches/index.js";

// Verdicts
export { runVerdict } from "./verdict/run-verdict.js";
export type { RunVerdictOptions } from "./verdict/run-verdict.js";
export { verdictSchema, verdictStatusSchema, junitStateSchema, gateSchema, verdictRunSchema, verdictJsonSchema, verdictExitCode, VERDICT_EXIT } from "./verdict/schema.js";
export { CLIPPING_NOTES, containsClippingNote, isClippingNoteLine, isClippingNoteLine as isClippingMarkerLine, type ClippingNote } from "./evidence/clipping.js";
export type { Verdict } from "./verdict/schema.js";
export { verifyVerdictFile } from "./verdict/verify.js";
export type { VerifyVerdictResult } from "./verdict/verify.js";

// Audit
export { parsePytestLog } from "./audit/parse-pytest-log.js";
export type { PytestLogTriageResult } from "./audit/parse-pytest-log.js";
export { createParsePytestLogTool } from "./audit/parse-pytest-log-tool.js";
export type { ParsePytestLogInput, ParsePytestLogToolOptions } from "./audit/parse-pytest-log-tool.js";
export { detectClaims, isDisclosure } from "./audit/claims.js";
export type { ClaimSentence, ClaimKind, ClaimScope } from "./audit/claims.js";
export { readTranscript, detectTranscriptFormat } from "./audit/transcripts/read-transcript.js";
export type { ReadTranscriptOptions } from "./audit/transcripts/read-transcript.js";
export type { TranscriptEvent, ShellEvent, EditEvent, AssistantMessageEvent, TranscriptFormat, TranscriptProblem, TranscriptReadResult } from "./audit/transcripts/types.js";
export { mergeTranscriptEvents } from "./audit/transcripts/merge-events.js";
export { mergeSubagentTranscripts, findSubagentFiles, MAX_SUBAGENT_FILES, MAX_SUBAGENT_FILE_BYTES, MAX_SUBAGENT_TOTAL_BYTES } from "./audit/subagent-files.js";
export type { SubagentFilesOptions } from "./audit/subagent-files.js";
export { analyzeSession } from "./audit/session.js";
export type { SessionAnalysis, SessionRun, SessionEdit, EditCause } from "./audit/session.js";
export { labelClaims } from "./audit/labels.js";
export type { ClaimLabel, ClaimLabelReason, LabelledClaim, LabelClaimsOptions } from "./audit/labels.js";
export { auditTranscript, auditEvents } from "./audit/audit-session.js";
export type { SessionAudit, AuditedRun, SessionFinding } from "./audit/audit-session.js";
export { auditFiles, auditFile } from "./audit/audit-pool.js";
export type { AuditFileResult, AuditFilesOptions } from "./audit/audit-pool.js";
export { runStopHook, MAX_STOP_BLOCKS } from "./audit/hooks/stop.js";
export { decideStop } from "./audit/hooks/stop-decision.js";
export type { DecideStopOptions } from "./audit/hooks/stop-decision.js";
export type { HookClient, StopHookOptions } from "./audit/hooks/stop.js";
export { runPostToolUseHook } from "./audit/hooks/post-tool-use.js";
export type { HookRunResult } from "./audit/hooks/post-tool-use.js";
export { installHooks, mergeHookSettings, hookSettingsPath } from "./audit/hooks/install.js";
export type { InstallHooksOptions, InstallHooksResult } from "./audit/hooks/install.js";

// Candidates
export { createCandidateWorkspace, runCandidate, runCandidates, pruneCandidates, compareCandidates, rankCandidates } from "./candidates/index.js";
export { CandidateSourceError, CandidateCaptureError, CandidateWorkspaceTrackingError, CandidateAdoptError, CandidateRunError } from "./candidates/index.js";
export type {
  CandidateWorkspace,
  CandidateWorkspaceOptions,
  CandidateBase,
  RunCandidateOptions,
  RunCandidateResult,
  CandidateToolset,
  CreateCandidateToolset,
  CandidateKey,
  ComparableCandidate,
  CandidateComparisonResult,
  CandidateVerifyStep,
  RankableCandidate,
  RankedCandidate,
  CandidateTestTable,
  PruneCandidatesResult,
  CandidateBundleInfo,
} from "./candidates/index.js";
