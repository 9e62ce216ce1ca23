// The effect algebra of the command-effect table (docs/shell.md, "What a command changes"): what a
// command can change, how two effects combine, and the argument readers every program's rule uses.
import { isLiteralPath } from "./read-only.js";
import type { Redirect } from "./types.js";

/**
 * What the command's behaviour depends on beyond its words, which the agent can write:
 * - `repository-config`: git's configuration and hooks (`core.fsmonitor`, `diff.external`, a
 *   `post-commit` or `reference-transaction` hook run programs);
 * - `project-config`: the tool's config can make it write (ruff's `fix = true`, a `tsBuildInfoFile`);
 * - `project-code`: the tool runs code from the project (an ESLint or Prettier config, a mypy plugin,
 *   a Cargo build script).
 */
export type EffectDependency = "repository-config" | "project-config" | "project-code";

/** What a simple command can change (docs/shell.md, "What a command changes"). */
export type CommandEffect =
  /** Reads, prints, checks: writes no file (a checker's own cache aside). */
  | { kind: "none"; dependsOn?: EffectDependency }
  /** Changes only the repository's metadata (index, refs, objects): the work tree is as it was. */
  | { kind: "vcs-metadata"; dependsOn: EffectDependency }
  /** Writes build outputs (binaries, bytecode, `target/`, `dist/`) that no runner reads as sources. */
  | { kind: "build-outputs"; dependsOn?: EffectDependency }
  /** Writes, creates or removes the files it names (paths as written, relative to where it runs). */
  | { kind: "paths"; paths: string[]; dependsOn?: EffectDependency }
  /** May change anything. */
  | { kind: "unknown"; reason: string };

/** Writes nothing. */
export const NONE: CommandEffect = { kind: "none" };
/** May change anything, for `reason`. */
export const unknown = (reason: string): CommandEffect => ({ kind: "unknown", reason });

const RANK: Record<CommandEffect["kind"], number> = { none: 0, "vcs-metadata": 1, "build-outputs": 2, paths: 3, unknown: 4 };
const DEPENDENCY_RANK: Record<EffectDependency, number> = { "repository-config": 1, "project-config": 2, "project-code": 3 };

/** The wider of two effects: unknown wins, paths add up, the strongest dependency is kept. */
export function combineEffects(a: CommandEffect, b: CommandEffect): CommandEffect {
  if (a.kind === "unknown") return a;
  if (b.kind === "unknown") return b;
  const dependsOn = strongest(a.dependsOn, b.dependsOn);
  const paths = [...(a.kind === "paths" ? a.paths : []), ...(b.kind === "paths" ? b.paths : [])];
  const kind = RANK[a.kind] >= RANK[b.kind] ? a.kind : b.kind;
  const extra = dependsOn === undefined ? {} : { dependsOn };
  switch (kind) {
    case "paths":
      return { kind, paths: [...new Set(paths)], ...extra };
    case "vcs-metadata":
      return { kind, dependsOn: dependsOn ?? "repository-config" };
    case "none":
    case "build-outputs":
      return { kind, ...extra };
    default:
      return unknown("unreachable");
  }
}

function strongest(a: EffectDependency | undefined, b: EffectDependency | undefined): EffectDependency | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return DEPENDENCY_RANK[a] >= DEPENDENCY_RANK[b] ? a : b;
}

export const has = (args: readonly string[], ...options: string[]): boolean =>
  args.some((a) => options.some((o) => a === o || (o.startsWith("--") && a.startsWith(`${o}=`))));
export const literalPaths = (paths: readonly string[], what: string): CommandEffect =>
  paths.length === 0
    ? unknown(`${what} names no file`)
    : paths.every(isLiteralPath)
      ? { kind: "paths", paths: [...paths] }
      : unknown(`${what} a path that is not literal`);

/** The value of the first of `options` given (`-s X`, `-sX`, `--source=X`), or undefined. */
export function valueOf(args: readonly string[], ...options: string[]): string | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i]!;
    for (const o of options) {
      if (a === o) return args[i + 1];
      if (o.startsWith("--") && a.startsWith(`${o}=`)) return a.slice(o.length + 1);
      if (!o.startsWith("--") && a.startsWith(o) && a.length > o.length) return a.slice(o.length);
    }
  }
  return undefined;
}

// The files a patch in a heredoc names: apply_patch's `*** Update File: p`, a unified diff's `+++ b/p`.
export function patchBodyEffect(redirects: readonly Redirect[], what: string, strip = 1): CommandEffect {
  const heredocs = redirects.filter((r) => r.op === "<<" || r.op === "<<-");
  const body = heredocs.length === 1 ? heredocs[0]!.body : undefined;
  if (body === undefined || redirects.length !== heredocs.length) return unknown(`${what} reads a patch that is not in a heredoc`);
  const paths: string[] = [];
  for (const line of body.split("\n")) {
    const codex = /^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/.exec(line);
    if (codex !== null) paths.push((codex[1] ?? codex[2]!).trim());
    const diff = /^(?:\+\+\+|---) (\S+)/.exec(line);
    if (diff !== null && diff[1] !== "/dev/null") paths.push(diff[1]!.split("/").slice(strip).join("/"));
  }
  return literalPaths([...new Set(paths.filter((p) => p !== ""))], what);
}
