// The evidence ledger: records, applicability and verified targets. Pure state transitions;
// judging, path resolution and the journal are injected so this file does no I/O of its own. Its
// shapes are in ledger-types.ts, what a run proves in target-proof.ts, the events in ledger-events.ts.
import type { RecordReasonCode } from "../reasons.js";
import type { CommandAnalysis, TestInvocation } from "../shell/types.js";
import type { Outcome, VerificationRecord } from "../types.js";
import type { HarnessDigest } from "./harness.js";
import { applyLedgerEvent, copyRecord, type LedgerEvent, type LedgerState, type VerifiedEntry } from "./ledger-events.js";
import type {
  CommandResult,
  CommandTicket,
  EditObservation,
  EvidenceLedgerOptions,
  InvalidationTiming,
  WorkspaceEffect,
} from "./ledger-types.js";
import { editsAfter, editsBefore, isAbsoluteTarget, isProvable, provableInvocations } from "./line-reading.js";
import { familyOf, keyOf, targetProof, withVerified } from "./target-proof.js";
import { overlaps } from "./targets.js";
import { affectsTests } from "./test-inputs.js";

export type { LedgerEvent, LedgerJournal, LedgerState, VerifiedEntry } from "./ledger-events.js";
export type {
  CommandResult,
  CommandTicket,
  EditObservation,
  EvidenceLedgerOptions,
  InvalidationTiming,
  LineJudge,
  LineJudgement,
  WorkspaceEffect,
} from "./ledger-types.js";

/**
 * The ledger. Every transition is synchronous, so concurrent tool calls are serialised by the
 * event loop; a command in flight learns about edits that complete while it runs.
 */
export class EvidenceLedger {
  readonly #options: EvidenceLedgerOptions;
  readonly #state: LedgerState = { records: [], verified: [] };
  #seq = 0;
  #ticketSeq = 0;
  readonly #inFlight = new Set<CommandTicket>();
  readonly #invalidatedAtStart = new WeakMap<CommandTicket, boolean>();
  readonly #measured = new WeakSet<CommandTicket>();
  readonly #pendingEffect = new WeakMap<CommandTicket, WorkspaceEffect>();
  #invalidations = 0;

  constructor(options: EvidenceLedgerOptions) {
    this.#options = options;
  }

  /** Every observed test run's records, as copies. */
  get verificationRecords(): VerificationRecord[] {
    return this.#state.records.map(copyRecord);
  }

  /** Targets (and proving test ids) proven passing on the code as it is now, sorted. */
  get verifiedTargets(): string[] {
    return [...new Set(this.#state.verified.map((v) => v.key))].sort();
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
  restore(records: VerificationRecord[], verified: VerifiedEntry[], harness?: HarnessDigest): void {
    this.#state.records = records.map(copyRecord);
    this.#state.verified = verified.map((v) => ({ ...v }));
    if (harness !== undefined) this.#state.harness = { ...harness };
    this.#seq = records.reduce((max, r) => Math.max(max, r.seq), 0);
    this.#trim();
  }

  /** The workspace's harness as the session found it (harness.ts), once taken. */
  get harnessBaseline(): HarnessDigest | undefined {
    return this.#state.harness;
  }

  /** Keeps the harness baseline (journaled at once); a baseline already kept stays. */
  setHarnessBaseline(harness: HarnessDigest): void {
    if (this.#state.harness !== undefined) return;
    this.#apply({ type: "baseline", harness: { ...harness } });
    this.#commit();
  }

  /** Makes everything unknown for a reason that is no command or edit (a damaged journal at restore). */
  invalidateAll(reason: string): void {
    this.#invalidate({ reason });
    this.#commit();
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
      analysis.commands.some((c) => editsBefore(c, first.commandIndex));
    const measured = timing === "measured" && first === undefined;
    // What must be on disk before the command starts: its begin when its effect is measured, and any
    // loss of trust (a crash mid-command must not bring back what this call cleared).
    const durableBeforeStart = measured || this.#trusts();
    this.#journal({ type: "begin", call: ticket.id, command, measured });
    if (measured) this.#measured.add(ticket);
    else if (invalidatesBefore) this.#invalidate({ command });
    for (const inv of analysis.invocations) this.#clearOverlapping(inv);
    this.#invalidatedAtStart.set(ticket, invalidatesBefore);
    this.#inFlight.add(ticket);
    if (durableBeforeStart) this.#commit();
    return ticket;
  }

  /** Closes a command that threw: nothing is recorded (a measured command's effect is unknown). */
  abandonCommand(ticket: CommandTicket): void {
    this.#inFlight.delete(ticket);
    if (this.#measured.has(ticket)) this.#invalidate({ command: ticket.command });
    this.#end(ticket);
  }

  /**
   * Called with the complete result: appends one record per target of each recognised run. `effect`
   * is what the line changed, when the caller measured it: a measured line (one that runs no test) is
   * judged by it (not measured: unknown); a line that runs tests and changed files while it ran
   * leaves its own records, and everything else, unknown.
   */
  finishCommand(ticket: CommandTicket, result: CommandResult, effect?: WorkspaceEffect): VerificationRecord[] {
    this.#inFlight.delete(ticket);
    const { analysis, command } = ticket;
    if (this.#measured.has(ticket)) this.#applyEffect(command, effect ?? { kind: "unknown" });
    else if (effect !== undefined) this.#pendingEffect.set(ticket, effect);
    const recorded = analysis.opaque ? [] : analysis.invocations;
    // `pytest a && sed -i ...`: the edit after the run also touches what earlier runs proved.
    const first = recorded[0];
    const measuredLine = effect !== undefined && effect.kind !== "unknown";
    const editsAfterRun = first !== undefined && analysis.commands.some((c) => editsAfter(c, first.commandIndex, measuredLine));
    if (editsAfterRun && this.#invalidatedAtStart.get(ticket) !== true) this.#invalidate({ command });
    if (recorded.length === 0) {
      this.#applyRunEffect(ticket);
      this.#end(ticket);
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
    let verified = this.#state.verified.map((v) => ({ ...v }));
    recorded.forEach((inv, i) => {
      const run = judgement.runs[i];
      // An edit after the run, or one that may run beside or after it wherever it stands (a trap, a job, a pipeline stage).
      const laterEdits = analysis.commands.filter((c) => editsAfter(c, inv.commandIndex, measuredLine));
      for (const target of inv.targets) {
        // `cd "$DIR" && pytest t.py`: the run's t.py is not known to be the workspace's t.py.
        const placed = inv.workspace !== null || isAbsoluteTarget(inv, target);
        // Where the run started is unknown: its printed ids cannot be placed either, only an absolute target.
        const proof =
          run === undefined || !isProvable(inv) || !placed
            ? { verified: false, ids: [] }
            : inv.workspace === null
              ? { verified: run.outcome === "passed", ids: [] }
              : targetProof(this.#options, inv, run, target);
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
            ...(run?.reasons ?? (["not-judged"] satisfies RecordReasonCode[])),
            ...(placed || run === undefined ? [] : (["workspace-unknown"] satisfies RecordReasonCode[])),
            ...(run?.unprovenTargets?.includes(target) === true ? (["target-not-proven"] satisfies RecordReasonCode[]) : []),
          ],
          truncated: result.truncated,
          filtered,
          baseline,
        };
        created.push(record);
        this.#apply({ type: "record", record });
        if (record.verified && !stale) verified = withVerified(this.#options, verified, inv, target, proof.ids);
        else if (filtered && proof.verified && !baseline && !stale) verified = withVerified(this.#options, verified, inv, null, proof.ids);
      }
    });
    this.#setVerified(verified);
    this.#applyRunEffect(ticket);
    this.#trim();
    this.#end(ticket);
    // The state's copies: the run's own effect may have made them unknown.
    const tail = this.#state.records.slice(-created.length);
    return created.map((c) => tail.find((r) => r.seq === c.seq) ?? c).map(copyRecord);
  }

  /** A native edit tool finished: a completed change (or unknown effect) makes everything stale. */
  observeEdit(edit: EditObservation): void {
    if (!edit.completed || edit.changed === false) return;
    const paths = edit.paths.length > 0 ? edit.paths : [null];
    this.#invalidate({ edits: paths });
    this.#commit();
  }

  /** Files changed between tool calls by someone else (an editor, a background job). */
  observeExternalChange(paths: string[]): void {
    if (paths.length === 0) return;
    this.#invalidate({ edits: paths });
    this.#commit();
  }

  // A test run that changed the workspace while it ran (a conftest that rewrites a source, say).
  // Paths our own edit tools changed meanwhile were reported already (they made the run stale).
  #applyRunEffect(ticket: CommandTicket): void {
    const effect = this.#pendingEffect.get(ticket);
    this.#pendingEffect.delete(ticket);
    if (effect === undefined) return;
    if (effect.kind !== "changed") return this.#applyEffect(ticket.command, effect);
    const paths = effect.paths.filter((path) => !ticket.concurrent.edits.includes(path));
    if (paths.length > 0) this.#applyEffect(ticket.command, { kind: "changed", paths });
  }

  #applyEffect(command: string, effect: WorkspaceEffect): void {
    switch (effect.kind) {
      case "unchanged":
        return;
      case "changed": {
        // The path rule (test-inputs.ts): a changed README.md, .git/ or cache changes no test's result.
        const relevant = effect.paths.filter((path) => affectsTests(path, this.#options.workspace));
        if (relevant.length > 0) this.#invalidate({ command, edits: relevant });
        return;
      }
      case "unknown":
        this.#invalidate({ command });
        return;
      default: {
        const never: never = effect;
        throw new Error(`unhandled effect ${JSON.stringify(never)}`);
      }
    }
  }

  #invalidate(cause: { command?: string; edits?: (string | null)[]; reason?: string }): void {
    this.#invalidations += 1;
    for (const ticket of this.#inFlight) {
      if (cause.command !== undefined) ticket.concurrent.commands.push(cause.command);
      if (cause.edits !== undefined) ticket.concurrent.edits.push(...cause.edits);
    }
    this.#apply({ type: "invalidate", ...cause, ...(cause.edits === undefined ? {} : { edits: [...cause.edits] }) });
  }

  #clearOverlapping(inv: TestInvocation): void {
    const family = familyOf(this.#options, inv);
    const keys = inv.targets.map((t) => keyOf(this.#options, inv, t));
    this.#setVerified(this.#state.verified.filter((v) => !keys.some((k) => overlaps(family, k, v))));
  }

  // Journals a `verified` event only when the set changed.
  #setVerified(next: VerifiedEntry[]): void {
    const current = this.#state.verified;
    if (next.length === current.length && next.every((v, i) => v.family === current[i]?.family && v.key === current[i]?.key)) return;
    this.#apply({ type: "verified", verified: next });
  }

  // Every state change goes through here: applied, then journaled.
  #apply(event: LedgerEvent): void {
    applyLedgerEvent(this.#state, event);
    this.#journal(event);
  }

  #journal(event: LedgerEvent): void {
    this.#options.journal?.append(event);
  }

  #end(ticket: CommandTicket): void {
    this.#journal({ type: "end", call: ticket.id });
    this.#commit();
  }

  // Anything verified or current: a transition that takes trust away must be durable at once.
  #trusts(): boolean {
    return this.#state.verified.length > 0 || this.#state.records.some((r) => r.applicability === "current");
  }

  #commit(): void {
    this.#options.journal?.commit?.();
  }

  #trim(): void {
    const max = this.#options.maxRecords;
    const records = this.#state.records;
    if (max !== undefined && records.length > max) this.#state.records = records.slice(records.length - max);
  }
}
