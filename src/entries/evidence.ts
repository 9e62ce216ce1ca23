/**
 * agent-evidence/evidence: the ledger under `BashEvidence` and `evidenceTools`, for callers who
 * drive it themselves: records and their transitions, the journal that survives a restart, evidence
 * bundles, workspace snapshots and the watcher, the persistent-shell state, the per-test view.
 */
export { EvidenceLedger } from "../evidence/ledger.js";
export type {
  CommandResult,
  EditObservation,
  EvidenceLedgerOptions,
  InvalidationTiming,
  LedgerEvent,
  LedgerJournal,
  LedgerState,
  LineJudge,
  VerifiedEntry,
  WorkspaceEffect,
} from "../evidence/ledger.js";
export { START_HOOK, PER_CALL_SHELL } from "../host/tool.js";
export type { InvalidationMode } from "../observation/bash-evidence.js";
export { testView } from "../evidence/test-view.js";
export type { TestView, TestViewEntry, TestState } from "../evidence/test-view.js";
export { verifyEvidenceBundle } from "../observation/bundle.js";
export type { EvidenceBundle, EvidenceBundleManifest, VerifyBundleResult } from "../observation/bundle.js";
export { ShellSession } from "../shell/persistent-shell.js";
export type { ShellSessionState } from "../shell/persistent-shell.js";
export { createWorkspaceSnapshotter } from "../observation/snapshot.js";
export type { WorkspaceSnapshot, WorkspaceSnapshotter } from "../observation/snapshot.js";
export { WorkspaceWatcher } from "../observation/watch.js";
export type { WorkspaceWatcherOptions } from "../observation/watch.js";
export { readJournal, replayJournal, createFileJournal, openJournal, defaultSealPath } from "../observation/journal.js";
export type { FileJournal, JournalOptions, JournalSeal, JournalState, JournalTip } from "../observation/journal.js";
export { analyzeWithPackageScripts, readPackageManifest, resolvePackageScripts } from "../observation/package-scripts.js";
export type { PackageScriptResolver } from "../observation/package-scripts.js";
export { REASON_DEFINITIONS } from "../reasons.js";
export type {
  LineReasonCode,
  OpenCode,
  ReasonCode,
  ReasonCodeOf,
  ReasonDefinition,
  ReasonScope,
  RecordReasonCode,
  RunReasonCode,
  ScriptReasonCode,
} from "../reasons.js";
