// evidence_status: the ledger as a tool, so the agent (or a person in the loop) can read what the
// evidence says now in every framework, not only over MCP. It reads, never changes, the evidence.
import { z } from "zod/v4";

import { defineTool, type Tool } from "../host/tool.js";
import type { VerificationRecord } from "../types.js";

/** What evidence_status reads: the live view evidenceTools returns (or a BashEvidence). */
export interface EvidenceStatusSource {
  readonly verifiedTargets: string[];
  readonly verificationRecords: VerificationRecord[];
}

/** `data` of an evidence_status call. */
export interface EvidenceStatusData {
  verifiedTargets: string[];
  verificationRecords: VerificationRecord[];
}

const recordSchema = z.looseObject({
  target: z.string(),
  runner: z.string(),
  command: z.string(),
  verified: z.boolean(),
  applicability: z.string(),
});

/** The schema of evidence_status's `data` (MCP: its structuredContent). */
export const evidenceStatusOutputSchema = z.object({ verifiedTargets: z.array(z.string()), verificationRecords: z.array(recordSchema) });

/**
 * A read-only tool that shows the evidence so far: the verified targets and every record, one line each.
 * @example
 * const { tools, evidence } = evidenceTools(["bash"], { cwd: repo });
 * tools.push(createEvidenceStatusTool(evidence));
 */
export function createEvidenceStatusTool(
  source: EvidenceStatusSource,
  options: { name?: string } = {},
): Tool<Record<string, never>, EvidenceStatusData> {
  const tool = defineTool<Record<string, never>, EvidenceStatusData>({
    name: options.name ?? "evidence_status",
    title: "Show the test evidence",
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    description:
      "Show the test evidence so far: every verification record and the targets whose passing run still applies to the code as it is now.",
    inputSchema: z.object({}),
    run: () => {
      const data = { verifiedTargets: source.verifiedTargets, verificationRecords: source.verificationRecords };
      return Promise.resolve({ text: renderStatus(data.verifiedTargets, data.verificationRecords), data });
    },
  });
  return { ...tool, outputSchema: evidenceStatusOutputSchema };
}

/** The status as the model reads it: one line per record, newest last. */
export function renderStatus(verifiedTargets: readonly string[], records: readonly VerificationRecord[]): string {
  const head =
    verifiedTargets.length === 0
      ? "Verified targets: none."
      : `Verified targets (${verifiedTargets.length}): ${verifiedTargets.join(", ")}`;
  const lines = records.map(
    (r) =>
      `- ${r.target}: ${r.outcome}, exit ${r.exitCode ?? "unknown"}, ${r.verified ? "verified" : "not verified"}, ${r.applicability}${r.reasons.length > 0 ? ` (${r.reasons.join(", ")})` : ""} [${r.command}]`,
  );
  return [head, records.length === 0 ? "Records: none (no test run observed yet)." : `Records (${records.length}):`, ...lines].join("\n");
}
