// The transcript files under the paths given to `agent-evidence audit`.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

import { EvidenceError } from "../errors.js";

/**
 * Expands files and directories (recursively: every `*.jsonl` below them, sorted) into a file list.
 * A named file is taken whatever its name; a path that cannot be read throws an `EvidenceError` `E_IO`.
 */
export function collectTranscriptFiles(paths: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith(".jsonl")) files.push(path);
    }
  };
  for (const path of paths) {
    let stats;
    try {
      stats = statSync(path);
    } catch (error) {
      throw new EvidenceError(
        "E_IO",
        `cannot read ${path} (${error instanceof Error && "code" in error ? String(error.code) : "unreadable"})`,
      );
    }
    if (stats.isDirectory()) walk(path);
    else files.push(path);
  }
  return files;
}
