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

/** A filter for the output of a line whose script runs are `runs` (only expanded runs are read); null when none is. */
export function createNoiseFilter(runs: readonly PackageScriptRun[]): NoiseFilter | null {
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
  let awaiting: string | null = null;
  let mismatch = false;

  const keep = (raw: string): boolean => {
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

  return {
    push(chunk: string): string {
      const text = held + chunk;
      const last = text.lastIndexOf("\n");
      if (last === -1) {
        held = text;
        return "";
      }
      held = text.slice(last + 1);
      const out: string[] = [];
      for (const line of text.slice(0, last).split("\n")) if (keep(line)) out.push(line);
      return out.length === 0 ? "" : `${out.join("\n")}\n`;
    },
    end(): string {
      const rest = held;
      held = "";
      return rest === "" || keep(rest) ? rest : "";
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
