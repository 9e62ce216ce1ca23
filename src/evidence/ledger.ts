// The evidence ledger: records, applicability and verified targets. Pure state transitions;
// judging, path resolution and the journal are injected so this file does no I/O of its own.
import type { CommandAnalysis, TestInvocation } from "../shell/types.js";
import type { Outcome, RunEvidence, VerificationRecord } from "../types.js";
import { posix } from "node:path";
import { covers, normalizePathTarget, overlaps, splitSelector, targetFamily, type PathResolver, type TargetKey } from "./targets.js";

/** The complete result of one observed command, as the ledger needs it. */
export interface CommandResult {
  exitCode: number | null;
  /** The complete raw output (stdout and stderr), never the model-visible text. */
  output: string;
  /** The raw output was clipped (raw cap) or otherwise incomplete. */
  truncated: boolean;
  timedOut: boolean;
}

/** What judging one command line yields: one run per recognised invocation, in line order. */
export interface LineJudgement {
  runs: RunEvidence[];
}

/** Judges a complete command result (normally `judgeAnalyzed`); `analysis` is the line's analysis, made once. */
export type LineJudge = (input: {
  command: string;
  analysis: CommandAnalysis;
  output: string;
  exitCode: number | null;
  cwd: string | null;
  outputTruncated: boolean;
}) => LineJudgement;

/** A journal sink: receives every record change and transition, in order. */
export interface LedgerJournal {
  append(event: LedgerEvent): void;
}

/** One journal line. `state` events carry the full state after a transition. */
export type LedgerEvent =
  | { type: "record"; record: VerificationRecord }
  | { type: "state"; verified: VerifiedEntry[]; records: { seq: number; applicability: VerificationRecord["applicability"]; postTestEdits: (string | null)[]; postTestCommands: string[] }[] };

/** A verified target with the family that decides what it overlaps. */
export interface VerifiedEntry {
  family: TargetKey["family"];
  key: string;
}

/** Options of {@link EvidenceLedger}. */
export interface EvidenceLedgerOptions {
  /** The workspace the ledger was created with (targets are made relative to it), or null. */
  workspace: string | null;
  judge: LineJudge;
  /** Canonicalises absolute paths (realpath for local workspaces). Defaults to identity. */
  resolvePath?: PathResolver;
  /** History bound kept in memory (the journal keeps all). Default unbounded. */
  maxRecords?: number;
  journal?: LedgerJournal;
}

/** An edit reported by a native edit tool. */
export interface EditObservation {
  completed: boolean;
  /** true: content changed; false: unchanged; null: effect unknown (treated as a change). */
  changed: boolean | null;
  paths: string[];
}

/**
 * What a non-test command did to the workspace, when the caller measured it (snapshot mode):
 * `unchanged` keeps records current, `changed` lists the paths, `unknown` is treated as a change.
 */
export type WorkspaceEffect = { kind: "unchanged" } | { kind: "changed"; paths: string[] } | { kind: "unknown" };

/** How `beginCommand` treats a line that runs no provable test: invalidate now, or wait for its measured effect. */
export type InvalidationTiming = "before" | "measured";

/** A command in flight: returned by `beginCommand`, closed by `finishCommand` or `abandonCommand`. */
export interface CommandTicket {
  readonly id: number;
  readonly command: string;
  readonly analysis: CommandAnalysis;
  /** Edits and commands that completed while this command ran. */
  readonly concurrent: { edits: (string | null)[]; commands: string[] };
}

/**
 * The ledger. Every transition is synchronous, so concurrent tool calls are serialised by the
 * event loop; a command in flight learns about edits that complete while it runs.
 */
export class EvidenceLedger {
  readonly #options: EvidenceLedgerOptions;
  #records: VerificationRecord[] = [];
  #verified: VerifiedEntry[] = [];
  #seq = 0;
  #ticketSeq = 0;
  readonly #inFlight = new Set<CommandTicket>();
  readonly #invalidatedAtStart = new WeakMap<CommandTicket, boolean>();
  readonly #measured = new WeakSet<CommandTicket>();
  #invalidations = 0;

  constructor(options: EvidenceLedgerOptions) {
    this.#options = options;
  }

  /** Every observed test run's records, as copies. */
  get verificationRecords(): VerificationRecord[] {
    return this.#records.map(copyRecord);
  }

  /** Targets (and proving test ids) proven passing on the code as it is now, sorted. */
  get verifiedTargets(): string[] {
    return [...new Set(this.#verified.map((v) => v.key))].sort();
  }

  /** How many times everything was made unknown (the watcher compares it across a call). */
  get invalidations(): number {
    return this.#invalidations;
  }

  /** The workspace the ledger was created with. */
  get workspace(): string | null {
    return this.#options.workspace;
  }

  /** Restores records and verified targets (used by journal replay). */
  restore(records: VerificationRecord[], verified: VerifiedEntry[]): void {
    this.#records = records.map(copyRecord);
    this.#verified = verified.map((v) => ({ ...v }));
    this.#seq = records.reduce((max, r) => Math.max(max, r.seq), 0);
  }

  /**
   * Called before a bash command runs. A line that can prove nothing invalidates everything now;
   * a recognised test run first clears verified targets that overlap its own. With timing
   * `measured`, a line that runs no provable test waits for its measured {@link WorkspaceEffect}.
   */
  beginCommand(command: string, analysis: CommandAnalysis, timing: InvalidationTiming = "before"): CommandTicket {
    const ticket: CommandTicket = { id: ++this.#ticketSeq, command, analysis, concurrent: { edits: [], commands: [] } };
    const provable = provableInvocations(analysis);
    const first = provable[0];
    const invalidatesBefore =
      first === undefined ||
      analysis.opaque ||
      analysis.invocations.some((inv) => !isProvable(inv)) ||
      analysis.commands.some((c) => !c.readOnly && c.invocation === undefined && c.index < first.commandIndex);
    const measured = timing === "measured" && first === undefined;
    if (measured) this.#measured.add(ticket);
    else if (invalidatesBefore) this.#invalidate({ command });
    for (const inv of analysis.invocations) this.#clearOverlapping(inv);
    this.#invalidatedAtStart.set(ticket, invalidatesBefore);
    this.#inFlight.add(ticket);
    this.#emitState();
    return ticket;
  }

  /** Closes a command that threw: nothing is recorded (a measured command's effect is unknown). */
  abandonCommand(ticket: CommandTicket): void {
    this.#inFlight.delete(ticket);
    if (this.#measured.has(ticket)) {
      this.#invalidate({ command: ticket.command });
      this.#emitState();
    }
  }

  /** Called with the complete result: appends one record per target of each recognised run. */
  finishCommand(ticket: CommandTicket, result: CommandResult, effect: WorkspaceEffect = { kind: "unknown" }): VerificationRecord[] {
    this.#inFlight.delete(ticket);
    const { analysis, command } = ticket;
    if (this.#measured.has(ticket)) this.#applyEffect(command, effect);
    const recorded = analysis.opaque ? [] : analysis.invocations;
    // `pytest a && sed -i ...`: the edit after the run also touches what earlier runs proved.
    const first = recorded[0];
    const editsAfterRun = first !== undefined && analysis.commands.some((c) => !c.readOnly && c.invocation === undefined && c.index > first.commandIndex);
    if (editsAfterRun && this.#invalidatedAtStart.get(ticket) !== true) this.#invalidate({ command });
    if (recorded.length === 0) {
      this.#emitState();
      return [];
    }
    const judgement = this.#options.judge({
      command,
      analysis,
      output: result.output,
      exitCode: result.exitCode,
      cwd: this.#options.workspace,
      outputTruncated: result.truncated,
    });
    const created: VerificationRecord[] = [];
    recorded.forEach((inv, i) => {
      const run = judgement.runs[i];
      const laterEdits = analysis.commands.filter((c) => !c.readOnly && c.invocation === undefined && c.index > inv.commandIndex);
      for (const target of inv.targets) {
        // `cd "$DIR" && pytest t.py`: the run's t.py is not known to be the workspace's t.py.
        const placed = inv.workspace !== null || isAbsoluteTarget(inv, target);
        // Where the run started is unknown: its printed ids cannot be placed either, only an absolute target.
        const proof =
          run === undefined || !isProvable(inv) || !placed
            ? { verified: false, ids: [] }
            : inv.workspace === null
              ? { verified: run.outcome === "passed", ids: [] }
              : this.#targetProof(inv, run, target);
        const baseline = inv.afterStash && (run?.baseline ?? true);
        // A filtered run (`pytest -k add tests`) says nothing of the tests it deselected: the target
        // stays unverified, and only the ids it printed as passed become verified targets.
        const filtered = inv.filtered || run?.filtered === true;
        const stale = baseline || laterEdits.length > 0 || ticket.concurrent.edits.length > 0 || ticket.concurrent.commands.length > 0;
        const record: VerificationRecord = {
          seq: ++this.#seq,
          target,
          runner: inv.runner,
          command,
          workspace: inv.workspace,
          exitCode: result.exitCode,
          timedOut: result.timedOut,
          verified: proof.verified && !baseline && !filtered,
          applicability: stale ? "unknown" : "current",
          postTestEdits: [...ticket.concurrent.edits],
          postTestCommands: [...ticket.concurrent.commands, ...(laterEdits.length > 0 ? [command] : [])],
          outcome: run?.outcome ?? ("unknown" satisfies Outcome),
          passed: [...(run?.passed ?? [])],
          failed: [...(run?.failed ?? [])],
          reasons: [
            ...(run?.reasons ?? ["not-judged"]),
            ...(placed || run === undefined ? [] : ["workspace-unknown"]),
            ...(run?.unprovenTargets?.includes(target) === true ? ["target-not-proven"] : []),
          ],
          truncated: result.truncated,
          filtered,
          baseline,
        };
        created.push(record);
        this.#records.push(record);
        this.#options.journal?.append({ type: "record", record: copyRecord(record) });
        if (record.verified && !stale) this.#addVerified(inv, target, proof.ids);
        else if (filtered && proof.verified && !baseline && !stale) this.#addVerified(inv, null, proof.ids);
      }
    });
    this.#trim();
    this.#emitState();
    return created.map(copyRecord);
  }

  /** A native edit tool finished: a completed change (or unknown effect) makes everything stale. */
  observeEdit(edit: EditObservation): void {
    if (!edit.completed || edit.changed === false) return;
    const paths = edit.paths.length > 0 ? edit.paths : [null];
    this.#invalidate({ edits: paths });
    this.#emitState();
  }

  /** Files changed between tool calls by someone else (an editor, a background job). */
  observeExternalChange(paths: string[]): void {
    if (paths.length === 0) return;
    this.#invalidate({ edits: paths });
    this.#emitState();
  }

  #applyEffect(command: string, effect: WorkspaceEffect): void {
    switch (effect.kind) {
      case "unchanged":
        return;
      case "changed":
        this.#invalidate({ command, edits: effect.paths });
        return;
      case "unknown":
        this.#invalidate({ command });
        return;
      default: {
        const never: never = effect;
        throw new Error(`unhandled effect ${JSON.stringify(never)}`);
      }
    }
  }

  #invalidate(cause: { command?: string; edits?: (string | null)[] }): void {
    this.#invalidations += 1;
    for (const ticket of this.#inFlight) {
      if (cause.command !== undefined) ticket.concurrent.commands.push(cause.command);
      if (cause.edits !== undefined) ticket.concurrent.edits.push(...cause.edits);
    }
    this.#verified = [];
    for (const record of this.#records) {
      record.applicability = "unknown";
      if (cause.command !== undefined) record.postTestCommands.push(cause.command);
      if (cause.edits !== undefined) record.postTestEdits.push(...cause.edits);
    }
  }

  #clearOverlapping(inv: TestInvocation): void {
    const keys = inv.targets.map((t) => this.#keyOf(inv, t));
    this.#verified = this.#verified.filter((v) => !keys.some((k) => overlaps(k, v)));
  }

  #keyOf(inv: TestInvocation, target: string): TargetKey {
    const family = targetFamily(inv.kind);
    if (family !== "python") return { family, key: target };
    return { family, key: normalizePathTarget(target, inv.workspace, this.#options.workspace, this.#options.resolvePath) };
  }

  // Which ids of the run prove `target`. A passed run proves all its targets; a run that is
  // unknown only because some target lacks proof still proves the targets its ids cover.
  #targetProof(inv: TestInvocation, run: RunEvidence, target: string): { verified: boolean; ids: string[] } {
    const key = this.#keyOf(inv, target);
    const ids = run.passed.map((id) => this.#keyOf(inv, id));
    const proving = ids.filter((id) => covers(key, id)).map((id) => id.key);
    if (run.outcome === "passed" && run.unprovenTargets?.includes(target) === true) return { verified: false, ids: [] };
    if (run.outcome === "passed") return { verified: true, ids: proving };
    const onlyCoverageMissing = run.outcome === "unknown" && run.reasons.length > 0 && run.reasons.every((r) => r === "target-not-proven");
    if (onlyCoverageMissing && run.failed.length === 0 && proving.length > 0) return { verified: true, ids: proving };
    return { verified: false, ids: [] };
  }

  #addVerified(inv: TestInvocation, target: string | null, ids: string[]): void {
    const family = targetFamily(inv.kind);
    const keys = [...(target === null ? [] : [this.#keyOf(inv, target).key]), ...ids];
    for (const key of keys) if (!this.#verified.some((v) => v.family === family && v.key === key)) this.#verified.push({ family, key });
  }

  #trim(): void {
    const max = this.#options.maxRecords;
    if (max !== undefined && this.#records.length > max) this.#records = this.#records.slice(this.#records.length - max);
  }

  #emitState(): void {
    this.#options.journal?.append({
      type: "state",
      verified: this.#verified.map((v) => ({ ...v })),
      records: this.#records.map((r) => ({ seq: r.seq, applicability: r.applicability, postTestEdits: [...r.postTestEdits], postTestCommands: [...r.postTestCommands] })),
    });
  }
}

/** True when the line holds a recognised invocation that can prove something (a test command). */
export function runsProvableTest(analysis: CommandAnalysis): boolean {
  return provableInvocations(analysis).length > 0;
}

// A pytest or Django target given as an absolute path names its file wherever the run started.
function isAbsoluteTarget(inv: TestInvocation, target: string): boolean {
  return targetFamily(inv.kind) === "python" && posix.isAbsolute(splitSelector(target).path);
}

/** A recognised invocation that can prove something (runs tests, the runner is the real one). */
function isProvable(inv: TestInvocation): boolean {
  return inv.runsTests && !inv.shadowed;
}

function provableInvocations(analysis: CommandAnalysis): TestInvocation[] {
  return analysis.opaque ? [] : analysis.invocations.filter(isProvable);
}

function copyRecord(record: VerificationRecord): VerificationRecord {
  return {
    ...record,
    postTestEdits: [...record.postTestEdits],
    postTestCommands: [...record.postTestCommands],
    passed: [...record.passed],
    failed: [...record.failed],
    reasons: [...record.reasons],
  };
}
