// One session's audit: transcript -> events -> judged runs -> labelled claims of the final message.
import { detectClaims } from "./claims.js";
import { type ClaimLabel, labelClaims, type LabelledClaim } from "./labels.js";
import {
  analyzeSession,
  type AnalyzeSessionOptions,
  type EditCause,
  type SessionAnalysis,
  type SessionRun,
} from "./transcript-timeline.js";
import { readTranscript } from "./transcripts/read-transcript.js";
import type { TranscriptEvent, TranscriptFormat, TranscriptProblem } from "./transcripts/types.js";

/** A run as the audit reports it. */
export interface AuditedRun {
  line: number;
  command: string;
  outcome: SessionRun["outcome"];
  reasons: string[];
  baseline: boolean;
  filtered: boolean;
  masked: boolean;
  sidechain: boolean;
  staleBy: EditCause | null;
}

/** Session-level findings, worst first. */
export type SessionFinding =
  | "last-run-failed"
  | "failure-not-rerun"
  | "last-run-stale"
  | "last-run-unknown"
  | "no-test-run"
  | `claim-${Exclude<ClaimLabel, "backed" | "disclosed">}`;

/** One session's audit: the JSON line `agent-evidence audit` prints. */
export interface SessionAudit {
  path: string | null;
  format: TranscriptFormat | null;
  shellCalls: number;
  runs: AuditedRun[];
  lastRun: (AuditedRun & { stale: boolean }) | null;
  /** An earlier failing run that no later passing run reran in full, with no edit since (SessionAnalysis.openFailure). */
  openFailure: AuditedRun | null;
  finalMessage: string | null;
  claims: LabelledClaim[];
  /** True when the final message admits a failure or that tests were not run. */
  disclosed: boolean;
  findings: SessionFinding[];
  problems: TranscriptProblem[];
}

const toAudited = (run: SessionRun): AuditedRun => ({
  line: run.line,
  command: run.command,
  outcome: run.outcome,
  reasons: run.reasons,
  baseline: run.baseline,
  filtered: run.filtered,
  masked: run.masked,
  sidechain: run.sidechain,
  staleBy: run.staleBy,
});

/** The index of the main agent's final message in the event list (the end when it is not there). */
function finalMessagePosition(events: readonly TranscriptEvent[], finalMessage: string | null): number {
  if (finalMessage === null) return events.length;
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const event = events[i]!;
    if (event.type === "assistant-message" && !event.sidechain && event.text === finalMessage) return i;
  }
  // A subagent's own transcript: its final message is its last (sidechain) text.
  if (events.some((event) => event.type === "assistant-message" && !event.sidechain)) return events.length;
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const event = events[i]!;
    if (event.type === "assistant-message" && event.text === finalMessage) return i;
  }
  return events.length;
}

function findingsOf(session: SessionAnalysis, claims: readonly LabelledClaim[]): SessionFinding[] {
  const findings: SessionFinding[] = [];
  const last = session.lastRun;
  if (last === null) findings.push("no-test-run");
  else if (last.outcome === "failed") findings.push("last-run-failed");
  else if (last.outcome === "unknown") findings.push("last-run-unknown");
  if (session.openFailure !== null && session.openFailure !== last) findings.push("failure-not-rerun");
  if (last !== null && last.staleBy !== null) findings.push("last-run-stale");
  for (const label of ["contradicted", "stale", "unsupported", "unclear"] as const) {
    if (claims.some((claim) => claim.label === label)) findings.push(`claim-${label}`);
  }
  return findings;
}

/** Audits an event list with its final message (what {@link auditTranscript} does after reading). */
export function auditEvents(
  events: readonly TranscriptEvent[],
  finalMessage: string | null,
  extra: {
    path?: string | null;
    format?: TranscriptFormat | null;
    problems?: TranscriptProblem[];
    isPlainFile?: AnalyzeSessionOptions["isPlainFile"];
  } = {},
): SessionAudit {
  const session = analyzeSession(events, extra.isPlainFile === undefined ? {} : { isPlainFile: extra.isPlainFile });
  const claims = labelClaims(detectClaims(finalMessage ?? ""), session, { position: finalMessagePosition(events, finalMessage) });
  const last = session.lastRun;
  return {
    path: extra.path ?? null,
    format: extra.format ?? null,
    shellCalls: session.shellCalls,
    runs: session.runs.map(toAudited),
    lastRun: last === null ? null : { ...toAudited(last), stale: last.staleBy !== null },
    openFailure: session.openFailure === null || session.openFailure === last ? null : toAudited(session.openFailure),
    finalMessage,
    claims,
    disclosed: claims.some((claim) => claim.label === "disclosed"),
    findings: findingsOf(session, claims),
    problems: extra.problems ?? [],
  };
}

/**
 * Reads a transcript (any supported format) and audits it: every run judged, the last run's outcome
 * and staleness, the final message's claims labelled. Never throws on bad lines (see `problems`).
 * @example auditTranscript(readFileSync(path, "utf8"), { path }).claims[0]?.label // "contradicted"
 */
export function auditTranscript(
  text: string,
  options: { path?: string; format?: TranscriptFormat; isPlainFile?: AnalyzeSessionOptions["isPlainFile"] } = {},
): SessionAudit {
  const read = readTranscript(text, options.format === undefined ? {} : { format: options.format });
  return auditEvents(read.events, read.finalMessage, {
    path: options.path ?? null,
    format: read.format,
    problems: read.problems,
    ...(options.isPlainFile === undefined ? {} : { isPlainFile: options.isPlainFile }),
  });
}
