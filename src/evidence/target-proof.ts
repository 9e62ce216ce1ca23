// Which targets and test ids a judged run proves, and the verified entries they add: the run's
// targets and printed ids placed in its runner's target family (targets.ts), relative to the
// ledger's workspace. Pure functions of the ledger's options, used by its transitions (ledger.ts).
import { onlyTargetNotProven } from "../reasons.js";
import { builtinRunners } from "../runners/registry.js";
import type { TestInvocation } from "../shell/types.js";
import type { RunEvidence } from "../types.js";
import type { VerifiedEntry } from "./ledger-events.js";
import type { EvidenceLedgerOptions } from "./ledger-types.js";
import { covers, type TargetKey, targetKey } from "./targets.js";

/** What of the ledger's options places a target: the workspace, the path resolver, the runners. */
export type TargetPlacement = Pick<EvidenceLedgerOptions, "workspace" | "resolvePath" | "runners">;

/** The target family of the run's runner. */
export function familyOf(options: TargetPlacement, inv: TestInvocation) {
  return (options.runners ?? builtinRunners).familyOf(inv.kind);
}

/** A target (or a printed id) of the run, placed in its family. */
export function keyOf(options: TargetPlacement, inv: TestInvocation, target: string): TargetKey {
  return targetKey(familyOf(options, inv), target, inv.workspace, options.workspace, options.resolvePath);
}

// Which ids of the run prove `target`. A passed run proves all its targets; a run that is
// unknown only because some target lacks proof still proves the targets its ids cover.
export function targetProof(
  options: TargetPlacement,
  inv: TestInvocation,
  run: RunEvidence,
  target: string,
): { verified: boolean; ids: string[] } {
  const key = keyOf(options, inv, target);
  const ids = run.passed.map((id) => keyOf(options, inv, id));
  const family = familyOf(options, inv);
  const proving = ids.filter((id) => covers(family, key, id)).map((id) => id.key);
  if (run.outcome === "passed" && run.unprovenTargets?.includes(target) === true) return { verified: false, ids: [] };
  if (run.outcome === "passed") return { verified: true, ids: proving };
  const onlyCoverageMissing = run.outcome === "unknown" && onlyTargetNotProven(run.reasons);
  if (onlyCoverageMissing && run.failed.length === 0 && proving.length > 0) return { verified: true, ids: proving };
  return { verified: false, ids: [] };
}

/** The verified entries with the target's key and the run's proving ids added, each once. */
export function withVerified(
  options: TargetPlacement,
  verified: VerifiedEntry[],
  inv: TestInvocation,
  target: string | null,
  ids: string[],
): VerifiedEntry[] {
  const family = familyOf(options, inv).name;
  const keys = [...(target === null ? [] : [keyOf(options, inv, target).key]), ...ids];
  const next = [...verified];
  for (const key of keys) if (!next.some((v) => v.family === family && v.key === key)) next.push({ family, key });
  return next;
}
