// Target identity and overlap. Pure: path resolution through symlinks is injected by the caller.
import { posix } from "node:path";
import type { RunnerKind } from "../types.js";

/** A target in ledger form: its runner family and its text relative to the ledger's workspace. */
export interface TargetKey {
  family: "python" | "go" | "django";
  /** Normalised text: pytest `path[::selector]` relative to the ledger root; go and Django as typed. */
  key: string;
}

/** Maps an absolute path to its canonical spelling (realpath of the longest existing prefix). */
export type PathResolver = (absolutePath: string) => string;

/** The runner family whose targets can overlap each other. */
export function targetFamily(kind: RunnerKind): TargetKey["family"] {
  switch (kind) {
    case "pytest":
      return "python";
    case "go":
      return "go";
    case "django":
    case "unittest":
      return "django";
    default: {
      const never: never = kind;
      return never;
    }
  }
}

/** Splits a pytest target into its path and its `::selector` part (kept verbatim). */
export function splitSelector(target: string): { path: string; selector: string } {
  const at = target.indexOf("::");
  return at < 0 ? { path: target, selector: "" } : { path: target.slice(0, at), selector: target.slice(at) };
}

/**
 * Normalises a pytest-style path target relative to `root`: absolute spellings, `./x`, `a/../x`
 * and symlinked spellings of one file become one key. Paths outside `root` stay absolute.
 */
export function normalizePathTarget(
  target: string,
  runWorkspace: string | null,
  root: string | null,
  resolve: PathResolver = (p) => p,
): string {
  const { path, selector } = splitSelector(target);
  if (path === "" && selector !== "") return selector;
  const base = runWorkspace ?? root;
  if (base === null || !posix.isAbsolute(base)) {
    const joined = posix.normalize(posix.join(base ?? ".", path || "."));
    return tidy(joined) + selector;
  }
  const absolute = resolve(posix.resolve(base, path || "."));
  const canonicalRoot = root === null ? null : resolve(posix.resolve(root));
  if (canonicalRoot !== null && (absolute === canonicalRoot || absolute.startsWith(canonicalRoot + "/"))) {
    return tidy(posix.relative(canonicalRoot, absolute) || ".") + selector;
  }
  return absolute + selector;
}

/**
 * Places a go package target given as a directory (`.`, `./pkg`, `./pkg/...`, `../x`, an absolute
 * path) in the ledger's workspace, as pytest's are: `./...` typed in `sub` is `./sub/...`, and typed in
 * a copy outside `root` it stays absolute (it speaks about that copy). Import paths stay as typed.
 * @example normalizeGoTarget("./...", "/tmp/copy", "/work/repo") // "/tmp/copy/..."
 */
export function normalizeGoTarget(target: string, runWorkspace: string | null, root: string | null, resolve: PathResolver = (p) => p): string {
  const at = target.indexOf("::");
  const pkg = at < 0 ? target : target.slice(0, at);
  const selector = at < 0 ? "" : target.slice(at);
  const isDirectory = pkg === "." || pkg === ".." || pkg.startsWith("./") || pkg.startsWith("../") || posix.isAbsolute(pkg);
  const base = runWorkspace ?? root;
  if (!isDirectory || base === null || !posix.isAbsolute(base)) return target;
  const recursive = pkg === "..." || pkg.endsWith("/...");
  const dir = recursive ? pkg.slice(0, -3) || "." : pkg;
  const absolute = resolve(posix.resolve(base, dir));
  const canonicalRoot = root === null ? null : resolve(posix.resolve(root));
  const suffix = recursive ? "/..." : "";
  if (canonicalRoot !== null && (absolute === canonicalRoot || absolute.startsWith(canonicalRoot + "/"))) {
    const rel = posix.relative(canonicalRoot, absolute);
    return (rel === "" ? (recursive ? "./..." : ".") : `./${rel}${suffix}`) + selector;
  }
  return (absolute === "/" && recursive ? "/..." : absolute + suffix) + selector;
}

/**
 * A target in its family's ledger form, placed in `root` as the family places them: pytest paths and
 * go package directories relative to it (through `resolve`), Django labels and go import paths as typed.
 * @example placeTarget("go", "./...", "/ws/sub", "/ws") // "./sub/..."
 */
export function placeTarget(family: TargetKey["family"], target: string, runWorkspace: string | null, root: string | null, resolve?: PathResolver): string {
  switch (family) {
    case "python":
      return normalizePathTarget(target, runWorkspace, root, resolve);
    case "go":
      return normalizeGoTarget(target, runWorkspace, root, resolve);
    case "django":
      return target;
    default: {
      const never: never = family;
      return never;
    }
  }
}

function tidy(path: string): string {
  const trimmed = path.replace(/\/+$/, "").replace(/^\.\//, "");
  return trimmed === "" ? "." : trimmed;
}

/** True when target `a` covers target `b` (same family): `.`, equality, file -> ids, dir -> files, id -> parametrised ids. */
export function covers(a: TargetKey, b: TargetKey): boolean {
  if (a.family !== b.family) return false;
  if (a.key === b.key) return true;
  switch (a.family) {
    case "python": {
      if (a.key === ".") return true;
      if (b.key.startsWith(a.key + "::") || b.key.startsWith(a.key + "[")) return true;
      const { selector } = splitSelector(a.key);
      return selector === "" && splitSelector(b.key).path.startsWith(a.key + "/");
    }
    case "go":
      return goCovers(a.key, b.key);
    case "django":
      return a.key === "." || b.key.startsWith(a.key + ".");
    default: {
      const never: never = a.family;
      return never;
    }
  }
}

// go targets: `./pkg`, `./pkg/...`, `./...`, `./pkg::TestA`, `./pkg::TestA/sub`.
function goCovers(a: string, b: string): boolean {
  const [aPkg = "", aTest = ""] = a.split("::");
  const [bPkg = "", bTest = ""] = b.split("::");
  const packageCovers = (outer: string, inner: string): boolean => {
    const o = outer.replace(/^\.\//, "");
    const i = inner.replace(/^\.\//, "");
    if (o === "..." || o === "." && i === ".") return true;
    if (o.endsWith("/...")) {
      const prefix = o.slice(0, -4);
      const innerBase = i.endsWith("/...") ? i.slice(0, -4) : i;
      return innerBase === prefix || innerBase.startsWith(prefix + "/");
    }
    return o === i;
  };
  if (!packageCovers(aPkg, bPkg)) return false;
  if (aTest === "") return true;
  return bTest === aTest || bTest.startsWith(aTest + "/");
}

/** True when either target covers the other. */
export function overlaps(a: TargetKey, b: TargetKey): boolean {
  return covers(a, b) || covers(b, a);
}
