// BashEvidence's journal options: the journal and its seal must lie outside the workspace (the agent's
// commands could forge or cut them there), and a new BashEvidence never appends to a used journal.
import { statSync } from "node:fs";

import { EvidenceError } from "../errors.js";
import { isInside, realpathOfPrefix } from "../tools/workspace-path.js";
import { defaultSealPath, type FileJournal, type JournalState, openJournal } from "./journal.js";

/**
 * Opens the journal `options` name (nothing without one). `restoring`: BashEvidence.fromJournal,
 * which continues a journal that holds events.
 */
export function openBashJournal(
  options: { journal?: string; journalSeal?: string },
  workspace: string | null,
  restoring: boolean,
): { journal?: FileJournal; restored?: JournalState } {
  if (options.journal === undefined) return {};
  if (typeof options.journal !== "string" || (options.journalSeal !== undefined && typeof options.journalSeal !== "string")) {
    throw new EvidenceError("E_INVALID_OPTION", `BashEvidence options "journal" and "journalSeal" must be file paths.`);
  }
  const seal = options.journalSeal ?? defaultSealPath(options.journal);
  if (workspace !== null) refuseInsideWorkspace(workspace, { journal: options.journal, journalSeal: seal });
  if (!restoring && hasContent(options.journal)) {
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `The journal ${options.journal} already holds events: continue it with BashEvidence.fromJournal, or choose a new file.`,
    );
  }
  const opened = openJournal(options.journal, { seal });
  return { journal: opened.journal, restored: opened.state };
}

function hasContent(path: string): boolean {
  try {
    return statSync(path).size > 0;
  } catch {
    return false;
  }
}

/**
 * Refuses BashEvidence options that name a path inside the workspace: the agent's commands can write
 * there, so a journal, a seal or a kept log could be forged or cut.
 */
export function refuseInsideWorkspace(workspacePath: string, paths: Record<string, string>): void {
  const workspace = realpathOfPrefix(workspacePath);
  for (const [option, path] of Object.entries(paths)) {
    const real = realpathOfPrefix(path);
    if (isInside(workspace, real)) {
      throw new EvidenceError(
        "E_INVALID_OPTION",
        `BashEvidence option "${option}" (${path}) lies inside the workspace ${workspace}, where the agent's commands can write it; put it outside.`,
      );
    }
  }
}
