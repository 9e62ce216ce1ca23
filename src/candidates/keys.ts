// Candidate keys: what a record is compared by across candidates. By what the run selected, not how it
// was typed: the runner family, the target placed in the candidate's worktree (`tests` = `tests/` =
// `./tests`, `cd sub && pytest t.py` = `pytest sub/t.py`), and the selection options (`-k`, `-m`,
// `--deselect`, go `-run`, ...). Flags that change only the output (`-q`, `-v`, `-rA`, `--tb`,
// `--color`, `-json`) are not part of it, and neither is `pytest` against `python -m pytest`. Pure.
import { selectionTargets } from "../evidence/judge-targets.js";
import type { TargetKey } from "../evidence/targets.js";
import { analyzeCommand } from "../grammar/analyze-command.js";
import type { TargetFamily } from "../runners/definition.js";
import { builtinRunners } from "../runners/registry.js";
import { DJANGO_FAMILY, GO_FAMILY, PYTHON_FAMILY } from "../runners/target-families.js";
import type { TestInvocation } from "../shell/types.js";
import type { VerificationRecord } from "../types.js";

/** What two candidates' records are matched by. */
export interface CandidateKey {
  family: TargetKey["family"];
  /** The target relative to the candidate's worktree (absolute when the run was elsewhere). */
  target: string;
  /** The selection options, `name=value`, sorted; empty for a run of the whole target. */
  selection: string[];
  /** One command that produced the key, as typed (for the reader; not compared). */
  command: string;
}

/** The key's identity: everything but the command. */
export function candidateKeyId(key: CandidateKey): string {
  return JSON.stringify([key.family, key.target, key.selection]);
}

/**
 * The key of a record of a candidate whose worktree is `root` (null: targets stay relative to the
 * directory the run started in). A record whose command no longer reads as a run of its target keeps
 * its command as the selection, so it meets only records of the same command.
 * @example candidateKeyOf({ target: "tests/", command: "cd /w && pytest -q tests/", runner: "pytest", workspace: "/w", ... }, "/w").target // "tests"
 */
export function candidateKeyOf(record: VerificationRecord, root: string | null): CandidateKey {
  const invocation = invocationOf(record);
  const family = invocation === null ? familyOfRunner(record.runner) : builtinRunners.familyOf(invocation.kind);
  const base = root ?? record.workspace;
  const target = family.place(record.target.trim(), record.workspace, base);
  const selection =
    invocation === null
      ? [`command=${record.command.trim()}`]
      : (invocation.selection ?? (invocation.filtered ? [`command=${record.command.trim()}`] : []));
  return { family: family.name, target, selection, command: record.command.trim() };
}

// The run of the record's line that produced it: its runner, and its target among the run's. (Where
// the line started is not kept; the record's workspace already has its `cd`s applied.)
function invocationOf(record: VerificationRecord): TestInvocation | null {
  let invocations: TestInvocation[];
  try {
    invocations = analyzeCommand(record.command).invocations;
  } catch {
    return null;
  }
  const runner = record.runner.trim();
  return (
    invocations.find((inv) => inv.runner === runner && selectionTargets(inv, builtinRunners.get(inv.kind)).includes(record.target)) ??
    invocations.find((inv) => inv.runner === runner) ??
    null
  );
}

// Without an analysis: the family the runner's words name.
function familyOfRunner(runner: string): TargetFamily {
  if (/\bgo\s+test\b/.test(runner)) return GO_FAMILY;
  if (/\bpytest\b|py\.test/.test(runner)) return PYTHON_FAMILY;
  return DJANGO_FAMILY;
}
