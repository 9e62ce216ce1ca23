// Target identity and overlap in ledger form. Which target covers which is the family's rule
// (runners/target-families.ts for the built-ins, a runner definition's own for the rest).
import type { TargetFamily } from "../runners/definition.js";
import type { PathResolver } from "../runners/target-families.js";
export { normalizeGoTarget, normalizePathTarget, splitSelector, type PathResolver } from "../runners/target-families.js";

/** A target in ledger form: its runner family's name and its text relative to the ledger's workspace. */
export interface TargetKey {
  family: string;
  /** Normalised text: pytest `path[::selector]` relative to the ledger root; go and Django as typed. */
  key: string;
}

/** A target of `family` in ledger form, placed in `root` as the family places them. */
export function targetKey(
  family: TargetFamily,
  target: string,
  runWorkspace: string | null,
  root: string | null,
  resolve?: PathResolver,
): TargetKey {
  return { family: family.name, key: family.place(target, runWorkspace, root, resolve) };
}

/** True when target `a` covers target `b`: the same family, and by its rule (a key always covers itself). */
export function covers(family: TargetFamily, a: TargetKey, b: TargetKey): boolean {
  if (a.family !== b.family) return false;
  if (a.key === b.key) return true;
  return a.family === family.name && family.covers(a.key, b.key);
}

/** True when either target covers the other. */
export function overlaps(family: TargetFamily, a: TargetKey, b: TargetKey): boolean {
  return covers(family, a, b) || covers(family, b, a);
}
