// BashEvidence: decorates any bash tool of the tool shape with the evidence ledger. Transparent:
// the same schema, the same command and timeout passed through, the same result returned.
// Its ledger is opened in bash-ledger.ts, a line read in observed-line.ts, the workspace snapshots
// around a call taken in call-snapshots.ts; here, what one observed call does in between.
import { resolve as resolvePath } from "node:path";

import { EvidenceError } from "../errors.js";
import { type CommandResult, type EditObservation, EvidenceLedger } from "../evidence/ledger.js";
import { runsProvableTest } from "../evidence/line-reading.js";
import { bashParser } from "../grammar/bash-grammar.js";
import {
  NATIVE_BASH,
  type ObservedToolContext,
  PER_CALL_SHELL,
  START_HOOK,
  type Tool,
  type ToolAnnotations,
  type ToolContext,
  toolMetadata,
  type ToolResult,
} from "../host/tool.js";
import { builtinRunners, type RunnerRegistry } from "../runners/registry.js";
import { lineEffect } from "../shell/command-effect.js";
import { changesNoFile } from "../shell/read-only.js";
import { startsBackgroundJob } from "../shell/shadowing.js";
import type { VerificationRecord } from "../types.js";
import {
  type BashEvidenceOptions,
  type BashLikeInput,
  type InvalidationMode,
  type ResultExtractor,
  validateBashEvidenceOptions,
} from "./bash-evidence-options.js";
import type { FileJournal } from "./journal.js";
import { changedPackageScripts, markChangedScripts, type PackageScriptResolver, readPackageManifest } from "./package-scripts.js";
export type { BashEvidenceOptions, BashLikeInput, InvalidationMode, ResultExtractor } from "./bash-evidence-options.js";
import { type TestView, testView } from "../evidence/test-view.js";
import { runnersFollowMoves, ShellSession } from "../shell/persistent-shell.js";
import { openBashLedger } from "./bash-ledger.js";
import { type EvidenceBundle, exportEvidenceBundle } from "./bundle.js";
import { CallSnapshots } from "./call-snapshots.js";
import { HarnessScanner } from "./harness-scan.js";
import { markLiveRunnerIdentity } from "./module-shadow.js";
import { extractNativeResult, extractTextResult } from "./native-result.js";
import { lineCallKind, readObservedLine } from "./observed-line.js";
import { RunLogStore } from "./run-logs.js";
import { namedBeforeRun, runOwnEffect } from "./run-writes.js";
import { StatResets } from "./stat-resets.js";
import { type CallKind, WorkspaceWatcher } from "./watch.js";

/**
 * Wraps a bash tool and keeps verification records of every test run it observes.
 * @example
 * const bash = new BashEvidence(createBashTool({ cwd: repo }), { workspace: repo });
 * await bash.execute({ command: "python -m pytest -rA tests" });
 * bash.verifiedTargets; // ["tests", "tests/test_a.py::test_x"]
 */
export class BashEvidence<TInput extends BashLikeInput = BashLikeInput, TData = unknown> implements Tool<TInput, TData> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Tool<TInput, TData>["inputSchema"];
  readonly title?: string;
  readonly annotations?: ToolAnnotations;
  readonly needsApproval?: (input: unknown) => boolean;
  readonly #inner: Tool<TInput, TData>;
  readonly #ledger: EvidenceLedger;
  readonly #extract: ResultExtractor;
  readonly #journal: FileJournal | undefined;
  readonly #invalidation: InvalidationMode;
  /** The workspace snapshots around a call. */
  readonly #snapshots: CallSnapshots;
  readonly #watcher: WorkspaceWatcher | undefined;
  /** The persistent shell's remembered definitions; undefined when every call gets a new shell. */
  readonly #session: ShellSession | undefined;
  /** The tool was said to keep its shell (not merely not said to start a new one per call). */
  readonly #sessionKnown: boolean;
  #restoreWarnings: string[] = [];
  /** Reads the workspace's harness (harness.ts); undefined without a workspace. */
  readonly #harness: HarnessScanner | undefined;
  /** Settles once the harness baseline is taken (or could not be). */
  readonly #baseline: Promise<void>;
  /** Files changed with their mtime and size put back, followed across the snapshots; undefined without a workspace. */
  readonly #resets: StatResets | undefined;
  /** The output each recorded run was judged on. */
  readonly #logs: RunLogStore;
  /** The runners this wrapper recognises and judges. */
  readonly #runners: RunnerRegistry;
  /** Reads package.json for script runs (`npm test`), or false. */
  readonly #resolveScripts: PackageScriptResolver | false;

  constructor(tool: Tool<TInput, TData>, options: BashEvidenceOptions) {
    const restoring = RESTORING.get(options);
    if (typeof tool !== "object" || tool === null || typeof tool.execute !== "function") {
      throw new EvidenceError("E_INVALID_OPTION", `BashEvidence needs a tool with an execute function; got ${typeof tool}.`);
    }
    validateBashEvidenceOptions(options);
    // The grammar is loaded here, not in the agent's first tool call: a missing or damaged grammar
    // file is an error of the setup (E_GRAMMAR), never a failed call the agent sees.
    bashParser();
    this.#inner = tool;
    this.#invalidation = options.invalidation ?? "conservative";
    this.name = tool.name;
    this.description = tool.description;
    this.inputSchema = tool.inputSchema;
    // The wrapped tool's title, annotations and approval rule, so an adapter sees the same tool.
    Object.assign(this, toolMetadata(tool as Tool<never, unknown>));
    this.#extract = options.extract ?? (tool[NATIVE_BASH] === true ? extractNativeResult : extractTextResult);
    this.#runners = options.runners ?? builtinRunners;
    this.#resolveScripts = options.resolveScripts ?? readPackageManifest;
    const runners = this.#runners;
    const opened = openBashLedger(options, runners, restoring === true);
    this.#logs = opened.logs;
    this.#journal = opened.journal;
    this.#ledger = opened.ledger;
    this.#restoreWarnings = opened.restoreWarnings;
    const root = this.#ledger.workspace;
    // The harness as the session found it, before any call runs (a restore keeps the journal's).
    this.#harness = root === null ? undefined : new HarnessScanner(root);
    this.#resets = root === null ? undefined : new StatResets(root);
    this.#snapshots = new CallSnapshots(root, this.#resets);
    const harness = this.#harness;
    // The first snapshot too: a change made before the first test run is then seen.
    const baselineScan =
      harness === undefined || this.#ledger.harnessBaseline !== undefined
        ? Promise.resolve()
        : harness.scan().then(
            (scan) => this.#ledger.setHarnessBaseline(scan.harness),
            () => undefined,
          );
    this.#baseline = Promise.all([baselineScan, root === null ? null : this.#snapshots.take()]).then(() => undefined);
    const perCall = options.shell === undefined ? tool[PER_CALL_SHELL] === true : options.shell === "per-call";
    this.#session = perCall ? undefined : new ShellSession(root, runners);
    this.#sessionKnown = options.shell === "persistent";
    this.#watcher =
      options.watch === true && root !== null
        ? new WorkspaceWatcher(root, {
            ignore: options.journal === undefined ? [] : [resolvePath(options.journal)],
            onExternalChange: (paths) => this.#ledger.observeExternalChange(paths),
          })
        : undefined;
  }

  /**
   * Restores a BashEvidence from its journal (and keeps appending to it). Whatever replay could not
   * trust (a torn or forged line, a journal cut short, a measured command that never finished) leaves
   * every record `unknown` and no verified target; {@link restoreWarnings} says why.
   */
  static fromJournal<I extends BashLikeInput, D>(
    path: string,
    tool: Tool<I, D>,
    options: Omit<BashEvidenceOptions, "journal">,
  ): BashEvidence<I, D> {
    const withJournal = { ...options, journal: path };
    RESTORING.set(withJournal, true);
    return new BashEvidence(tool, withJournal);
  }

  /** Why the restore from a journal distrusted what came before (empty when it trusted all of it). */
  get restoreWarnings(): string[] {
    return [...this.#restoreWarnings];
  }

  /** Every observed test run's records (copies). */
  get verificationRecords(): VerificationRecord[] {
    return this.#ledger.verificationRecords;
  }

  /** Targets proven passing on the code as it is now, and the ids that prove them (sorted). */
  get verifiedTargets(): string[] {
    return this.#ledger.verifiedTargets;
  }

  /** Each target and test id of the records: passing now, failing, stale or unknown, and the record that says so. */
  testView(): TestView {
    return testView(this.#ledger.verificationRecords);
  }

  /** The ledger (shared with the edit tools that report to it). */
  get ledger(): EvidenceLedger {
    return this.#ledger;
  }

  /** Reports a completed edit from a native edit tool. */
  observeEdit(edit: EditObservation): void {
    this.#ledger.observeEdit(edit);
  }

  /** Resolves once the harness baseline is taken and the watcher (if any) has scanned the workspace. */
  async ready(): Promise<void> {
    await this.#baseline;
    await this.#watcher?.ready();
  }

  /**
   * Runs `call` as one of our own tool calls (evidenceTools wraps every tool this way). With `watch`,
   * a change seen during a call that `writes` is its own when the call made the evidence unknown;
   * any other change is someone else's (see watch.ts).
   */
  async trackCall<T>(call: () => Promise<T>, kind: CallKind = "writes"): Promise<T> {
    await this.#baseline;
    const leave = this.#watcher?.enterCall(kind);
    const before = this.#ledger.invalidations;
    try {
      return await call();
    } finally {
      await leave?.(this.#ledger.invalidations !== before);
    }
  }

  /** Runs the wrapped tool unchanged, observing the command. Never throws more than the tool does. */
  async execute(input: TInput, ctx?: ToolContext): Promise<ToolResult<TData>> {
    const command = typeof input?.command === "string" ? input.command : "";
    const kind = this.#watcher === undefined ? "writes" : lineCallKind(command, this.#ledger.workspace, this.#runners);
    return this.trackCall(() => this.#observe(input, ctx), kind);
  }

  async #observe(input: TInput, ctx?: ToolContext): Promise<ToolResult<TData>> {
    const command = typeof input?.command === "string" ? input.command : "";
    const { observed, scripts } = readObservedLine(command, {
      workspace: this.#ledger.workspace,
      session: this.#session,
      sessionKnown: this.#sessionKnown,
      runners: this.#runners,
      resolveScripts: this.#resolveScripts,
    });
    // The runner's own modules, shadowed by files next to it, and a planted virtualenv runner (checked before the run starts).
    markLiveRunnerIdentity(observed, this.#ledger.workspace);
    const supportsHook = this.#inner[START_HOOK] === true;
    // A line that runs a test is measured in both modes (a test may change what it tested); in
    // snapshot mode a line that runs none is judged by what it changed.
    const runsTest = runsProvableTest(observed);
    // A line that changes no file (`ls`, `cat f`, `echo done`), in a shell that starts new for every
    // call, is recorded as the read-only tools are: not at all. Snapshot mode measures every line.
    if (!runsTest && this.#invalidation === "conservative" && this.#session === undefined && changesNoFile(observed))
      return this.#inner.execute(input, ctx);
    // A line the effect table says changes no source (a checker, `git status`, `git commit`, a build,
    // a write to README.md) is measured in conservative mode too: it keeps the evidence when the
    // snapshot shows it changed nothing a test reads, and a line of unknown effect invalidates at once.
    const measure = runsTest || this.#invalidation === "snapshot" || lineEffect(observed).kind !== "unknown";
    const [before] = await Promise.all([
      measure ? this.#snapshots.take() : null,
      runsTest ? this.#harness?.mark(observed, this.#ledger.harnessBaseline ?? null) : undefined,
    ]);
    if (runsTest) this.#resets?.mark(observed, "before");
    const resetsBefore = this.#resets?.paths ?? new Set<string>();
    let ticket: ReturnType<EvidenceLedger["beginCommand"]> | undefined;
    const begin = (): void => {
      ticket ??= this.#ledger.beginCommand(command, observed, before === null || runsTest ? "before" : "measured");
    };
    if (!supportsHook) begin();
    let result: ToolResult<TData>;
    try {
      const innerCtx: ObservedToolContext = { ...ctx, onCommandStart: begin };
      result = await this.#inner.execute(input, innerCtx);
    } catch (error) {
      if (ticket !== undefined) {
        this.#ledger.abandonCommand(ticket);
        // A line that started may have defined something, even if it failed half-way: take in all it could define.
        this.#session?.record(observed, false);
      }
      throw error;
    }
    if (ticket === undefined) return result;
    // A module or runner the line itself put there (`printf ... > pytest.py && python -m pytest`), a
    // harness it wrote (`printf ... > conftest.py && pytest`).
    markLiveRunnerIdentity(observed, this.#ledger.workspace);
    // A package.json the line changed (`npm test` whose pretest rewrites it): the script run may not be the one followed.
    if (this.#resolveScripts !== false && observed.packageRuns !== undefined)
      markChangedScripts(observed, changedPackageScripts(observed, scripts, this.#resolveScripts));
    // A snapshot that failed before a test run: what the run changed is unknown.
    const [measured] = await Promise.all([
      before === null
        ? runsTest && this.#ledger.workspace !== null
          ? ({ kind: "unknown" } as const)
          : undefined
        : this.#snapshots.measure(before),
      runsTest ? this.#harness?.mark(observed, this.#ledger.harnessBaseline ?? null) : undefined,
    ]);
    // A stat the line put back on a file it named before the run (`sed -i ... mod.py && touch -r ref
    // mod.py && pytest`), seen by the after-snapshot. A reset of any other file is the run's own
    // change, which makes the run stale anyway (a conftest that rewrites a source at session end).
    if (runsTest && this.#resets !== undefined && this.#ledger.workspace !== null) {
      const named = namedBeforeRun(observed, this.#ledger.workspace);
      this.#resets.mark(observed, "after", (path) => !resetsBefore.has(path) && named.has(path));
    }
    // A job an earlier line (or this one) left running in a persistent shell can change files at any
    // time: what a run proves, or a line did not change, may not hold for long. The watcher (watch:
    // true) sees such changes as they happen; without it, the effect is unknown until a `wait`.
    const startsJob = startsBackgroundJob(observed.parsed);
    const jobs = this.#session !== undefined && this.#watcher === undefined && (this.#session.backgroundJobs || startsJob);
    // A job the line itself starts runs beside its test run, whatever the shell: `(sleep 1; sed -i ...) & pytest`.
    const sideJob = runsTest && startsJob;
    const effect =
      sideJob || (jobs && (runsTest || before !== null))
        ? ({ kind: "unknown" } as const)
        : runsTest && measured !== undefined
          ? runOwnEffect(measured, observed, this.#ledger.workspace)
          : measured;
    const unreadable: CommandResult = { exitCode: null, output: "", truncated: true, timedOut: false };
    let completed = false;
    let ran = true;
    try {
      const complete = await this.#extract(result);
      // Not run (the tool refused it): nothing to record, and nothing changed but what a measured line shows.
      if (complete === null && (effect === undefined || runsTest)) {
        this.#ledger.abandonCommand(ticket);
        ran = false;
      } else {
        const records = this.#ledger.finishCommand(ticket, complete ?? unreadable, effect);
        await this.#logs.keep(
          records.map((r) => r.seq),
          complete?.output ?? "",
        );
        completed = complete?.exitCode === 0 || (records.some((r) => r.outcome !== "unknown") && runnersFollowMoves(observed));
      }
    } catch {
      // Observation never breaks the tool call: an unreadable result is recorded as unknown.
      this.#ledger.finishCommand(ticket, unreadable, effect);
    }
    if (ran) this.#session?.record(observed, completed);
    return result;
  }

  /**
   * Writes the evidence as a bundle into `dir` (new or empty): the records, the per-test view, the
   * output of every recorded run, and a manifest of their SHA-256 hashes that
   * {@link verifyEvidenceBundle} (and `agent-evidence verify-bundle`) re-hash later. Call it before
   * close: without `logsDir` the kept logs go with the evidence.
   * @example const { manifestSha256 } = await bash.exportBundle("/evidence/run-1");
   */
  async exportBundle(dir: string, extra?: Readonly<Record<string, string>>): Promise<EvidenceBundle> {
    return exportEvidenceBundle(dir, {
      workspace: this.#ledger.workspace,
      records: this.verificationRecords,
      tests: this.testView(),
      logs: this.#logs.logs,
      missing: this.#logs.missing,
      ...(extra === undefined ? {} : { extra }),
    });
  }

  /** Closes the journal file, the watcher and the snapshot index, and removes the private log directory. */
  async close(): Promise<void> {
    this.#logs.close();
    this.#journal?.close();
    await this.#watcher?.close();
    await this.#snapshots.close();
  }
}

// fromJournal's options, told apart from a caller's (the constructor refuses to append to a used journal).
const RESTORING = new WeakMap<object, boolean>();
