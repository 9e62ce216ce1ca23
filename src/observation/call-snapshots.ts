// The workspace snapshots BashEvidence takes around a call: one before, one after, and what changed
// between them; each snapshot also tells StatResets which mtimes were put back. Observation never
// breaks a call: a snapshot that fails is null, a measure that fails is `unknown`.
import type { WorkspaceEffect } from "../evidence/ledger.js";
import { createWorkspaceSnapshotter, type WorkspaceSnapshot, type WorkspaceSnapshotter } from "./snapshot.js";
import type { StatResets } from "./stat-resets.js";

/** Snapshots of one workspace (none without one), the snapshotter made on the first. */
export class CallSnapshots {
  readonly #root: string | null;
  readonly #resets: StatResets | undefined;
  #snapshotter: Promise<WorkspaceSnapshotter> | undefined;

  constructor(root: string | null, resets: StatResets | undefined) {
    this.#root = root;
    this.#resets = resets;
  }

  /** A snapshot of the workspace now; null without a workspace or when it fails. */
  async take(): Promise<WorkspaceSnapshot | null> {
    const root = this.#root;
    if (root === null) return null;
    try {
      this.#snapshotter ??= createWorkspaceSnapshotter(root);
      const snapshotter = await this.#snapshotter;
      const snapshot = await snapshotter.take();
      await this.#resets?.note(snapshotter, snapshot);
      return snapshot;
    } catch {
      return null;
    }
  }

  /** What changed since `before`: a snapshot taken now, compared. */
  async measure(before: WorkspaceSnapshot): Promise<WorkspaceEffect> {
    try {
      const snapshotter = await this.#snapshotter;
      const after = await this.take();
      if (snapshotter === undefined || after === null) return { kind: "unknown" };
      const paths = await snapshotter.changedPaths(before, after);
      return paths.length === 0 ? { kind: "unchanged" } : { kind: "changed", paths };
    } catch {
      return { kind: "unknown" };
    }
  }

  /** Closes the snapshot index. */
  async close(): Promise<void> {
    if (this.#snapshotter !== undefined) await (await this.#snapshotter.catch(() => undefined))?.close();
  }
}
