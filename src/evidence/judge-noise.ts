// A package manager's own lines in a script run's output (`> pkg@1.0.0 test`, `> vitest run`,
// `npm error ...`, pnpm's ` ELIFECYCLE `, yarn's `$ cmd`, `info Visit ...`): read here and dropped
// before the runners' parsers see the output. The banner's `> command` line must be the script the
// analysis followed: npm prints what it really ran, so a different one means package.json changed.
import { stripAnsi } from "../observers/lines.js";
import type { PackageScriptRun } from "../shell/package-scripts.js";

/** Drops package-manager lines from a stream of output. */
export interface NoiseFilter {
  /** The chunk without the manager's lines (a partial last line is held back). */
  push(chunk: string): string;
  /** What is left (the held partial line). */
  end(): string;
  /** A banner showed a command that is not the followed script's. */
  readonly mismatch: boolean;
}

const MANAGER_LINE = [
  /^npm (?:error|ERR!|warn|WARN|notice)(?: |$)/,
  /^ ?ELIFECYCLE {1,2}/,
  /^ ?WARN {2,3}/,
  /^yarn (?:run|exec) v\d+\.\d+\.\d+$/,
  /^Done in \d+(?:\.\d+)?m?s\.$/,
  /^info Visit https:\/\/yarnpkg\.com\//,
  /^error Command failed with exit code \d+\.$/,
  /^warning package\.json: /,
  /^warning From Yarn 1\.0 onwards, scripts don't require "--"/,
];

/** A line longer than this is never a manager's: it is handed on as it comes, not held whole. */
const MAX_MANAGER_LINE = 64 * 1024;

/**
 * A filter for the output of a line whose script runs are `runs` (only expanded runs are read); null when
 * none is. `onDropped` gets each line the filter drops (the judge still reads it for a host's clipping note).
 */
export function createNoiseFilter(runs: readonly PackageScriptRun[], onDropped: (line: string) => void = () => {}): NoiseFilter | null {
  const followed = runs.filter((run) => run.expanded);
  if (followed.length === 0) return null;
  // `> pkg@1.0.0 test` (npm) or `> pkg@1.0.0 test /dir` (pnpm): the command lines that follow it.
  const headers = new Map<string, string>();
  const scripts: string[] = [];
  for (const run of followed) {
    for (const line of run.lines) {
      const first = firstLine(line.script);
      scripts.push(first);
      if (run.packageId !== null && line.event !== "") headers.set(`> ${run.packageId} ${line.event}`, first);
    }
  }
  let held = "";
  // Inside a line too long to be a manager's: its text passes until its end.
  let passing = false;
  let awaiting: string | null = null;
  let mismatch = false;

  const keep = (raw: string): boolean => {
    if (raw.length > MAX_MANAGER_LINE) return true;
    const line = stripAnsi(raw).replace(/\r$/, "").trimEnd();
    if (awaiting !== null) {
      if (line.startsWith("> ")) {
        if (!line.slice(2).startsWith(awaiting)) mismatch = true;
        awaiting = "";
        return false;
      }
      awaiting = null;
    }
    if (line.startsWith("> ")) {
      const header = headerOf(line, headers);
      if (header !== null) {
        awaiting = header;
        return false;
      }
    }
    if (line.startsWith("$ ") && scripts.some((script) => line.slice(2).startsWith(script))) return false;
    return !MANAGER_LINE.some((pattern) => pattern.test(line));
  };
  const kept = (raw: string): boolean => {
    if (keep(raw)) return true;
    onDropped(raw);
    return false;
  };

  return {
    push(chunk: string): string {
      let passed = "";
      let rest = chunk;
      if (passing) {
        const newline = chunk.indexOf("\n");
        if (newline === -1) return chunk;
        passed = chunk.slice(0, newline + 1);
        rest = chunk.slice(newline + 1);
        passing = false;
      }
      const text = held + rest;
      const last = text.lastIndexOf("\n");
      held = text.slice(last + 1);
      const out: string[] = [];
      if (last !== -1) for (const line of text.slice(0, last).split("\n")) if (kept(line)) out.push(line);
      let lines = out.length === 0 ? "" : `${out.join("\n")}\n`;
      // Memory stays flat on an endless line: it is not a manager's, so it passes as it comes.
      if (held.length > MAX_MANAGER_LINE) {
        lines += held;
        held = "";
        passing = true;
      }
      return passed + lines;
    },
    end(): string {
      const rest = held;
      held = "";
      passing = false;
      return rest === "" || kept(rest) ? rest : "";
    },
    get mismatch() {
      return mismatch;
    },
  };
}

function headerOf(line: string, headers: ReadonlyMap<string, string>): string | null {
  const exact = headers.get(line);
  if (exact !== undefined) return exact;
  // pnpm adds the package's directory.
  const space = line.indexOf(" /");
  return space === -1 ? null : (headers.get(line.slice(0, space)) ?? null);
}

function firstLine(text: string): string {
  return text.split("\n")[0]!.trim();
}
