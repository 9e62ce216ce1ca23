// `watch: true`: a chokidar watcher on the workspace that reports files changed between tool calls by
// someone else (an editor, a background job). Changes made during our own calls, and inside .git,
// are ignored; a change whose mtime falls inside one of our calls is ours even when its event arrives late.
import { relative, resolve, sep } from "node:path";
import { watch, type FSWatcher } from "chokidar";

/** Options of {@link WorkspaceWatcher}. */
export interface WorkspaceWatcherOptions {
  /** Receives workspace-relative paths changed outside our own tool calls. */
  onExternalChange: (paths: string[]) => void;
  /** Absolute paths never reported (the ledger's own journal). */
  ignore?: string[];
  /** How long after a call ends a late event without an mtime still counts as ours (default 250 ms). */
  settleMs?: number;
}

/** Watches a workspace and tells our own tool calls apart from changes made by someone else. */
export class WorkspaceWatcher {
  readonly #root: string;
  readonly #options: WorkspaceWatcherOptions;
  readonly #watcher: FSWatcher;
  readonly #ready: Promise<void>;
  #active = 0;
  // Recent windows [start, end] of our own calls (end = Infinity while running).
  #windows: { start: number; end: number }[] = [];

  constructor(root: string, options: WorkspaceWatcherOptions) {
    this.#root = resolve(root);
    this.#options = options;
    const ignored = new Set((options.ignore ?? []).map((p) => resolve(p)));
    this.#watcher = watch(this.#root, {
      ignoreInitial: true,
      persistent: false,
      alwaysStat: true,
      ignored: (path: string) => ignored.has(resolve(path)) || relative(this.#root, path).split(sep).includes(".git"),
    });
    this.#ready = new Promise((done) => this.#watcher.once("ready", () => done()));
    this.#watcher.on("all", (_event, path, stats) => this.#onEvent(path, stats?.mtimeMs));
  }

  /** Resolves once the initial scan is done (changes before that are not seen). */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** Marks the start of one of our own tool calls; call the returned function when it ends. */
  enterCall(): () => void {
    const window = { start: Date.now(), end: Number.POSITIVE_INFINITY };
    this.#active += 1;
    this.#windows.push(window);
    if (this.#windows.length > 256) this.#windows = this.#windows.slice(-128);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#active -= 1;
      window.end = Date.now();
    };
  }

  /** Stops watching. */
  close(): Promise<void> {
    return this.#watcher.close();
  }

  #onEvent(path: string, mtimeMs: number | undefined): void {
    if (this.#active > 0) return;
    const now = Date.now();
    const settle = this.#options.settleMs ?? 250;
    // mtime has coarse granularity on some filesystems: allow a little slack around each window.
    const ours = this.#windows.some((w) =>
      mtimeMs !== undefined ? mtimeMs >= w.start - 20 && mtimeMs <= w.end + 20 : now <= w.end + settle,
    );
    if (ours) return;
    this.#options.onExternalChange([relative(this.#root, path) || "."]);
  }
}
