// The ledger a BashEvidence keeps, as its options make it: the workspace (through its realpath), the
// judge bound to the runners, the journal opened or continued, the store of kept logs; on a restore,
// the journal's records replayed, and what replay distrusted left distrusted.
import { resolve as resolvePath } from "node:path";

import { judgeAnalyzed } from "../evidence/judge.js";
import { EvidenceLedger, type LineJudge } from "../evidence/ledger.js";
import type { RunnerRegistry } from "../runners/registry.js";
import { realpathOfPrefix } from "../tools/workspace-path.js";
import type { BashEvidenceOptions } from "./bash-evidence-options.js";
import { openBashJournal, refuseInsideWorkspace } from "./bash-journal.js";
import type { FileJournal } from "./journal.js";
import { RunLogStore } from "./run-logs.js";

/** What a BashEvidence opened: its ledger, journal (if any) and log store, and why a restore distrusted what came before. */
export interface OpenedBashLedger {
  ledger: EvidenceLedger;
  journal: FileJournal | undefined;
  logs: RunLogStore;
  restoreWarnings: string[];
}

/** Opens the ledger `options` name. `restoring`: BashEvidence.fromJournal, which continues a journal. */
export function openBashLedger(options: BashEvidenceOptions, runners: RunnerRegistry, restoring: boolean): OpenedBashLedger {
  const workspace = options.workspace === null ? null : resolvePath(options.workspace);
  const useRealpath = options.realpath ?? workspace !== null;
  if (options.logsDir !== undefined && typeof options.logsDir === "string" && workspace !== null)
    refuseInsideWorkspace(workspace, { logsDir: options.logsDir });
  const logs = new RunLogStore(options.logsDir);
  const { journal, restored } = openBashJournal(options, workspace, restoring);
  const ledger = new EvidenceLedger({
    workspace: workspace !== null && useRealpath ? realpathOfPrefix(workspace) : workspace,
    judge: options.judge ?? judgeLineWith(runners),
    runners,
    resolvePath: useRealpath ? realpathOfPrefix : undefined,
    maxRecords: options.maxRecords,
    journal,
  });
  let restoreWarnings: string[] = [];
  if (restored !== undefined && restoring) {
    ledger.restore(restored.records, restored.verified, restored.harness);
    // What replay distrusted stays distrusted on the next restore, whatever the chain holds then.
    if (restored.warnings.length > 0) ledger.invalidateAll(`journal restore: ${restored.warnings[0] ?? "damaged"}`);
    restoreWarnings = restored.warnings;
    logs.notSeen(
      restored.records.map((r) => r.seq),
      "recorded before the evidence was restored from its journal: this process never saw the run's output",
    );
  }
  return { ledger, journal, logs, restoreWarnings };
}

// The ledger passes the analysis it acted on, so the judge's runs match its invocations one to one.
const judgeLineWith =
  (runners: RunnerRegistry): LineJudge =>
  (input) =>
    judgeAnalyzed(input.analysis, {
      output: input.output,
      exitCode: input.exitCode ?? undefined,
      cwd: input.cwd ?? undefined,
      outputTruncated: input.outputTruncated,
      runners,
    });
