// The path rule: which written files can change what a test run proved. One rule for the ledger (its
// measured effects, in both modes) and the audit. Pure: paths in, a decision out; whether a name is
// really the file it looks like (a link into the sources) is the caller's to check.
import { posix } from "node:path";

import { isLogFileName } from "../shell/read-only.js";
import { isRunnerByproduct } from "./byproducts.js";

// Documentation by its extension. (`.txt` and `.json` are often test data; a `.py` under docs/ can be imported.)
const DOC_FILE = /\.(?:md|markdown|rst|adoc|asciidoc)$/i;
// Caches and state of runners, checkers and package managers: no test reads them as sources.
const CACHE_DIRS = new Set([".git", ".mypy_cache", ".ruff_cache", ".turbo", ".parcel-cache"]);
const CACHE_FILES = /(?:^|\/)(?:\.eslintcache|[^/]*\.tsbuildinfo)$/;

/** Why a written path cannot change what the tests proved, or null when it can. */
export type InertPathReason = "outside-workspace" | "documentation" | "log" | "vcs-internals" | "cache";

/**
 * Why writing `path` cannot affect a test run in `workspace`: outside it, documentation (`*.md`,
 * `*.rst`), logs (`*.log`: no runner loads one), version-control internals (`.git/`), runner and checker caches (`.pytest_cache/`,
 * `__pycache__/`, `node_modules/.cache/`, `.mypy_cache/`); null when it can. `path` is absolute or
 * relative to `cwd` (default: the workspace). A null workspace knows no outside.
 * @example inertPathReason("README.md", "/repo") // "documentation"
 * @example inertPathReason("src/../src/mod.py", "/repo") // null
 */
export function inertPathReason(path: string, workspace: string | null, cwd: string | null = workspace): InertPathReason | null {
  if (path === "") return null;
  const base = cwd ?? workspace;
  const absolute = posix.isAbsolute(path) ? posix.normalize(path) : base === null ? null : posix.join(base, path);
  let inside: string;
  if (workspace !== null && absolute !== null) {
    const rel = posix.relative(posix.normalize(workspace), absolute);
    if (rel === "") return null;
    if (rel === ".." || rel.startsWith("../") || posix.isAbsolute(rel)) return "outside-workspace";
    inside = rel;
  } else {
    const normal = posix.normalize(path);
    if (normal === ".." || normal.startsWith("../") || posix.isAbsolute(normal)) return null;
    inside = normal.replace(/^\.\//, "");
  }
  const parts = inside.split("/");
  if (
    parts.some((part) => CACHE_DIRS.has(part)) ||
    isRunnerByproduct(inside) ||
    inside.startsWith("node_modules/.cache/") ||
    CACHE_FILES.test(inside)
  ) {
    return parts.includes(".git") ? "vcs-internals" : "cache";
  }
  if (DOC_FILE.test(inside)) return "documentation";
  if (isLogFileName(inside)) return "log";
  return null;
}

/** True when writing `path` can change what a test run in `workspace` proved (see {@link inertPathReason}). */
export function affectsTests(path: string, workspace: string | null, cwd: string | null = workspace): boolean {
  return inertPathReason(path, workspace, cwd) === null;
}
