// The files a test line writes as the runner's record of itself: its report files (`--junitxml`),
// and the logs its output is redirected or tee'd into (`pytest > run.log`, `pytest | tee out.log`).
// The snapshot around a test run does not count them as changes, so `pytest > run.log; tail run.log`
// keeps its pass. A log counts only under a name runners never load (`*.log`, `*.out`, as the
// read-only rules say): the gap is a test that reads such a file, which the line then overwrote.
import { isAbsolute, join, relative } from "node:path";

import type { WorkspaceEffect } from "../evidence/ledger.js";
import { writtenOperands } from "../shell/command-facts.js";
import { numberSimpleCommands } from "../shell/flatten.js";
import { isLogFileName } from "../shell/read-only.js";
import type { CommandAnalysis, SimpleCommand } from "../shell/types.js";
import { isInside } from "../tools/workspace-path.js";

const WRITES = new Set([">", ">>", "&>", "&>>", ">|"]);
// A path the shell takes as written: no expansion, glob or substitution.
const STATIC = /^[^$`*?[\]{}~]+$/;

/** Workspace-relative paths (of `root`) the line's test runs write as their own report or log. */
export function runnerOwnWrites(analysis: CommandAnalysis, root: string): Set<string> {
  const out = new Set<string>();
  if (analysis.opaque) return out;
  const byIndex = new Map<number, SimpleCommand>();
  for (const [command, index] of numberSimpleCommands(analysis.parsed)) byIndex.set(index, command);
  // Only `tee` as PATH finds it: `./tee` is a program someone wrote.
  const tees = [...byIndex.values()].flatMap((c) => (c.words[0] === "tee" ? writtenOperands("tee", c.words.slice(1)) : []));
  for (const inv of analysis.invocations) {
    if (inv.workspace === null || !isAbsolute(inv.workspace)) continue;
    const own = byIndex.get(inv.commandIndex);
    const logs = [
      ...(own?.redirects ?? []).filter((r) => WRITES.has(r.op) && (r.fd === null || r.fd === 1 || r.fd === 2)).map((r) => r.target),
      ...tees,
    ].filter((p) => STATIC.test(p) && isLogFileName(p));
    for (const file of [...inv.reportFiles.filter((p) => STATIC.test(p)), ...logs]) {
      const absolute = isAbsolute(file) ? file : join(inv.workspace, file);
      if (isInside(root, absolute)) out.add(relative(root, absolute));
    }
  }
  return out;
}

/**
 * Workspace-relative paths that commands before the line's first test run name (as a word or a write
 * redirect) and may write: `sed -i ... a.py && pytest` changed a.py before the run, which the run
 * then tested. A change to any other path is the run's own. The gap: a test that rewrites a file the
 * same line named before the run (docs/records.md).
 */
export function namedBeforeRun(analysis: CommandAnalysis, root: string): Set<string> {
  const out = new Set<string>();
  const first = analysis.invocations[0];
  if (analysis.opaque || first === undefined) return out;
  const byIndex = new Map<number, SimpleCommand>();
  for (const [command, index] of numberSimpleCommands(analysis.parsed)) byIndex.set(index, command);
  const bases = [root, ...(first.workspace !== null && isAbsolute(first.workspace) ? [first.workspace] : [])];
  for (const command of analysis.commands) {
    // A command that may run beside or after the run (a trap, a job, a pipeline stage) is no edit before it.
    if (command.index >= first.commandIndex || command.readOnly || command.runsLate === true) continue;
    const simple = byIndex.get(command.index);
    const named = [...command.words.slice(1), ...(simple?.redirects ?? []).filter((r) => r.op.includes(">")).map((r) => r.target)].filter(
      (w) => STATIC.test(w) && !w.startsWith("-"),
    );
    for (const word of named) {
      for (const base of bases) {
        const absolute = isAbsolute(word) ? word : join(base, word);
        if (isInside(root, absolute)) out.add(relative(root, absolute));
      }
    }
  }
  return out;
}

/**
 * What a measured test line changed, less what is not the run's own change: its report files and
 * logs, and the files it named before the run (edited, then tested).
 */
export function runOwnEffect(effect: WorkspaceEffect, analysis: CommandAnalysis, root: string | null): WorkspaceEffect {
  if (effect.kind !== "changed" || root === null) return effect;
  const own = runnerOwnWrites(analysis, root);
  const before = namedBeforeRun(analysis, root);
  const paths = effect.paths.filter((path) => !own.has(path) && !before.has(path));
  return paths.length === 0 ? { kind: "unchanged" } : { kind: "changed", paths };
}
