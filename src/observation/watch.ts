// `watch: true`: a chokidar watcher on the workspace that reports changes someone else made (an
// editor, a background job, a second agent, a test that rewrites a source). Attribution is by when
// an event arrives and what kind of call was running, never by mtime (a copy can set any mtime):
// - during or right after one of our calls that writes (an edit, a bash line that changes files), a
//   change is attributed to it: such a call has already made every record unknown, and a test run
//   started after it sees the change anyway. Such a call waits, before it returns, until the events
//   of its own writes have arrived (at most `settleMs`), so they cannot land in the next call;
// - a writing call that made nothing unknown (an unchanged edit, a snapshot that saw no change) owns
//   none of them: they are reported when it has settled;
// - at any other time (between calls, during a test run or a read-only call) a change is someone
//   else's and makes the evidence unknown, except the files a test runner writes as a by-product
//   (`__pycache__`, `.pytest_cache`, pytest's `pytest-cache-files-*`, coverage data) and `.git`.
import { relative, resolve, sep } from "node:path";
import { setTimeout as delay } from "node:timers/promises";

import { type FSWatcher, watch } from "chokidar";

import { isRunnerByproduct } from "../evidence/byproducts.js";

/** What one of our calls can do to the workspace (a test run `reads`: it writes only by-products). */
export type CallKind = "writes" | "reads";

/** Options of {@link WorkspaceWatcher}. */
export interface WorkspaceWatcherOptions {
  /** Receives workspace-relative paths changed outside our own tool calls. */
  onExternalChange: (paths: string[]) => void;
  /** Absolute paths never reported (the ledger's own journal). */
  ignore?: string[];
  /** The longest a writing call waits for the events of its own writes (default 250 ms). */
  settleMs?: number;
  /** How long without an event counts as settled (default 40 ms). */
  quietMs?: number;
}

/** Watches a workspace and tells our own tool calls apart from changes made by someone else. */
export class WorkspaceWatcher {
  readonly #root: string;
  readonly #options: WorkspaceWatcherOptions;
  readonly #watcher: FSWatcher;
  readonly #ready: Promise<void>;
  readonly #active = new Map<number, CallKind>();
  #nextCall = 0;
  // Writing calls that ended but are still settling.
  #settlingWrites = 0;
  #lastEventAt = 0;
  // Changes seen while a writing call ran or settled, and whether they must be reported after all.
  #pending = new Set<string>();
  #pendingIsExternal = false;

  constructor(root: string, options: WorkspaceWatcherOptions) {
    this.#root = resolve(root);
    this.#options = options;
    const ignored = new Set((options.ignore ?? []).map((p) => resolve(p)));
    this.#watcher = watch(this.#root, {
      ignoreInitial: true,
      persistent: false,
      // chokidar's default holds an unlink back 100 ms to merge it with a re-add: an edit's temp file
      // would then be reported after the edit has settled.
      atomic: false,
      ignored: (path: string) => ignored.has(resolve(path)) || relative(this.#root, path).split(sep).includes(".git"),
    });
    this.#ready = new Promise((done) => this.#watcher.once("ready", () => done()));
    this.#watcher.on("all", (_event, path) => this.#onEvent(path));
  }

  /** Resolves once the initial scan is done (changes before that are not seen). */
  ready(): Promise<void> {
    return this.#ready;
  }

  /**
   * Marks the start of one of our own tool calls of `kind`. Call the returned function when it ends,
   * saying whether the evidence was made unknown meanwhile, and await it (a writing call settles first).
   */
  enterCall(kind: CallKind): (invalidated: boolean) => Promise<void> {
    const id = (this.#nextCall += 1);
    this.#active.set(id, kind);
    let left = false;
    return async (invalidated) => {
      if (left) return;
      left = true;
      if (kind !== "writes") {
        this.#active.delete(id);
        this.#flush();
        return;
      }
      // A writing call that made nothing unknown (an unchanged edit, a snapshot that saw no change)
      // cannot own the changes seen meanwhile: they are reported after all.
      if (!invalidated) this.#pendingIsExternal = true;
      this.#settlingWrites += 1;
      this.#active.delete(id);
      try {
        await this.#settle();
      } finally {
        this.#settlingWrites -= 1;
        this.#flush();
      }
    };
  }

  /** Stops watching. */
  close(): Promise<void> {
    return this.#watcher.close();
  }

  async #settle(): Promise<void> {
    const quiet = this.#options.quietMs ?? 40;
    const deadline = Date.now() + (this.#options.settleMs ?? 250);
    const started = Date.now();
    while (Date.now() < deadline) {
      const now = Date.now();
      if (now - started >= quiet && now - this.#lastEventAt >= quiet) return;
      await delay(10);
    }
  }

  #writing(): boolean {
    return this.#settlingWrites > 0 || [...this.#active.values()].includes("writes");
  }

  // Once no writing call runs or settles, the changes held for them are dropped or reported.
  #flush(): void {
    if (this.#writing() || this.#pending.size === 0) {
      if (!this.#writing()) this.#pendingIsExternal = false;
      return;
    }
    const paths = [...this.#pending];
    const external = this.#pendingIsExternal;
    this.#pending.clear();
    this.#pendingIsExternal = false;
    if (external) this.#options.onExternalChange(paths);
  }

  #onEvent(path: string): void {
    this.#lastEventAt = Date.now();
    const rel = relative(this.#root, path) || ".";
    if (isRunnerByproduct(rel)) return;
    // A writing call of ours is running or settling: the change is held for it (see above).
    if (this.#writing()) {
      this.#pending.add(rel);
      return;
    }
    this.#options.onExternalChange([rel]);
  }
}
