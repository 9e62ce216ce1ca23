// Stat resets for the live tools: files whose content changed while their mtime (to the second) and
// size stayed, across the snapshots BashEvidence takes (snapshot.ts `mtimeResets`). Python's bytecode
// cache and go's test cache trust exactly those, so while a reset file keeps that stat and a cache may
// hold its old content, the runs it reaches are marked (`TestInvocation.statResets`: `mtime-reset`).
import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";

import { builtinRunners } from "../runners/registry.js";
import type { CommandAnalysis } from "../shell/types.js";
import { cacheStat, mtimeResets, type WorkspaceSnapshot, type WorkspaceSnapshotter } from "./snapshot.js";

/** The resets of one workspace, followed from snapshot to snapshot. */
export class StatResets {
  readonly #root: string;
  #last: WorkspaceSnapshot | null = null;
  /** Reset path -> the stat it keeps. */
  readonly #resets = new Map<string, string>();
  /** A go test ran in this session: go's test cache may hold entries keyed on files' mtimes. */
  #goTestsRan = false;

  constructor(root: string) {
    this.#root = root;
  }

  /** The paths reset now. */
  get paths(): Set<string> {
    return new Set(this.#resets.keys());
  }

  /**
   * Takes in a new snapshot: what changed since the last one with its mtime (to the second) and size
   * as they were. A reset lasts while the file keeps that second and size (a later edit or `touch`
   * moves them, and the caches miss again).
   */
  async note(snapshotter: WorkspaceSnapshotter, snapshot: WorkspaceSnapshot): Promise<void> {
    const last = this.#last;
    this.#last = snapshot;
    for (const [path, stat] of this.#resets) {
      const now = snapshot.stats.get(path);
      if (now === undefined || cacheStat(now) !== cacheStat(stat)) this.#resets.delete(path);
    }
    if (last === null || last.kind !== snapshot.kind) return;
    for (const path of mtimeResets(last, snapshot, await snapshotter.changedPaths(last, snapshot)))
      this.#resets.set(path, snapshot.stats.get(path)!);
  }

  /**
   * Marks every run of the line with the resets `counts` keeps that a cache may still answer for (in
   * place). Before the run, a reset no cache can answer for ends: the run caches the new content.
   */
  mark(analysis: CommandAnalysis, phase: "before" | "after", counts: (path: string) => boolean = () => true): void {
    const paths: string[] = [];
    for (const path of [...this.#resets.keys()].filter(counts)) {
      if (cacheMayHold(this.#root, path, this.#goTestsRan)) paths.push(path);
      else if (phase === "before") this.#resets.delete(path);
    }
    if (analysis.invocations.some((inv) => builtinRunners.familyOf(inv.kind).name === "go")) this.#goTestsRan = true;
    if (paths.length === 0) return;
    paths.sort();
    for (const inv of analysis.invocations) inv.statResets = [...new Set([...(inv.statResets ?? []), ...paths])].sort();
  }
}

// Could a cache answer for a reset file's old content? A Python source: only when bytecode of it is
// there to be reused (`__pycache__/NAME.*.pyc` beside it; a fresh checkout has none). Any other file:
// go's test cache, once a go test ran in the session (it keys the files a test opens on their mtime).
function cacheMayHold(root: string, path: string, goTestsRan: boolean): boolean {
  if (!path.endsWith(".py")) return goTestsRan;
  const dir = join(root, dirname(path), "__pycache__");
  const stem = basename(path, ".py");
  try {
    return readdirSync(dir).some((name) => name.startsWith(`${stem}.`) && name.endsWith(".pyc"));
  } catch {
    return false;
  }
}
