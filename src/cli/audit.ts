// `agent-evidence audit PATH...`: audits transcripts in parallel; JSON lines, summary, HTML report.
import type { Command } from "commander";

import type { SessionAudit } from "../audit/audit-transcript.js";
import { EvidenceError, isEvidenceError } from "../errors.js";
import { checkOutputFile, writeFileReplacing } from "../io/named-files.js";

interface AuditOptions {
  summary?: boolean;
  report?: string;
  jobs?: string;
  progress?: boolean;
}

const MAX_REPORTED_SESSIONS = 1000;

function createProgressBar(enabled: boolean): { update: (done: number, total: number) => void; end: () => void } {
  const started = Date.now();
  let drawn = -1;
  return {
    update(done, total) {
      if (!enabled) return;
      const cells = Math.floor((done / Math.max(1, total)) * 30);
      if (cells === drawn && done !== total) return;
      drawn = cells;
      const rate = done / Math.max(0.001, (Date.now() - started) / 1000);
      process.stderr.write(`\r[${"#".repeat(cells)}${".".repeat(30 - cells)}] ${done}/${total} sessions, ${rate.toFixed(0)}/s`);
    },
    end() {
      if (enabled && drawn !== -1) process.stderr.write("\n");
    },
  };
}

function parseJobs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value))
    throw new EvidenceError("E_USAGE", `audit: --jobs must be a positive integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Registers `agent-evidence audit PATH...`. */
export function registerAuditCommand(program: Command): void {
  program
    .command("audit")
    .description("Audit agent transcripts (files or directories): one JSON line per session, a summary on stderr.")
    .argument("<paths...>", "transcript files or directories (searched recursively for *.jsonl)")
    .option("--summary", "print only the summary table, on stdout")
    .option("--report <file>", "write a self-contained HTML report")
    .option("-j, --jobs <n>", "worker threads (default: the number of cores)")
    .option("--progress", "draw the progress bar even when stderr is not a terminal")
    .option("--no-progress", "never draw the progress bar")
    .action(async (paths: string[], options: AuditOptions) => {
      const jobs = parseJobs(options.jobs);
      // Checked before the audit (which can take minutes), written after it: 73 at once, not at the end.
      const reportName = options.report === undefined ? "" : `--report ${options.report}`;
      if (options.report !== undefined) checkOutputFile(options.report, reportName);
      const [{ collectTranscriptFiles }, { auditFiles }, { addToSummary, createAuditSummary, renderSummaryTable }, { renderAuditReport }] =
        await Promise.all([
          import("../audit/audit-files.js"),
          import("../audit/audit-pool.js"),
          import("../audit/audit-summary.js"),
          import("../audit/report-html.js"),
        ]);
      let files: string[];
      try {
        files = collectTranscriptFiles(paths);
      } catch (error) {
        if (isEvidenceError(error, "E_IO")) throw new EvidenceError("E_USAGE", `audit: ${error.message}`);
        throw error;
      }
      const summary = createAuditSummary();
      const problems: SessionAudit[] = [];
      let omitted = 0;
      const bar = createProgressBar(options.progress ?? process.stderr.isTTY);
      await auditFiles(files, {
        ...(jobs === undefined ? {} : { jobs }),
        onProgress: bar.update,
        onResult(result) {
          if (result.kind === "error") {
            summary.unreadable += 1;
            process.stderr.write(`agent-evidence: audit: cannot read ${result.path} (${result.error})\n`);
            return;
          }
          addToSummary(summary, result.audit);
          if (options.summary !== true) process.stdout.write(`${JSON.stringify(result.audit)}\n`);
          if (options.report !== undefined && result.audit.findings.some((f) => f !== "no-test-run")) {
            if (problems.length < MAX_REPORTED_SESSIONS) problems.push(result.audit);
            else omitted += 1;
          }
        },
      });
      bar.end();
      const table = renderSummaryTable(summary);
      if (options.summary === true) process.stdout.write(table);
      else process.stderr.write(table);
      if (options.report !== undefined) writeFileReplacing(options.report, renderAuditReport(summary, problems, omitted), reportName);
      process.exitCode = summary.unreadable > 0 ? 1 : 0;
    });
}
