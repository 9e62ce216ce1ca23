// The built-in target families: how pytest paths, go packages and Django labels are written in the
// ledger's workspace, and which target covers which. Pure: path resolution is injected.
import { posix } from "node:path";

import type { TargetFamily } from "./definition.js";

/** Maps an absolute path to its canonical spelling (realpath of the longest existing prefix). */
export type PathResolver = (absolutePath: string) => string;

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
export function normalizeGoTarget(
  target: string,
  runWorkspace: string | null,
  root: string | null,
  resolve: PathResolver = (p) => p,
): string {
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

function tidy(path: string): string {
  const trimmed = path.replace(/\/+$/, "").replace(/^\.\//, "");
  return trimmed === "" ? "." : trimmed;
}

// go targets: `./pkg`, `./pkg/...`, `./...`, `./pkg::TestA`, `./pkg::TestA/sub`.
function goCovers(a: string, b: string): boolean {
  const [aPkg = "", aTest = ""] = a.split("::");
  const [bPkg = "", bTest = ""] = b.split("::");
  const packageCovers = (outer: string, inner: string): boolean => {
    const o = outer.replace(/^\.\//, "");
    const i = inner.replace(/^\.\//, "");
    if (o === "..." || (o === "." && i === ".")) return true;
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

/** pytest's family: paths relative to the ledger root, `path::selector` ids, `[param]` instances. */
export const PYTHON_FAMILY: TargetFamily = {
  name: "python",
  place: normalizePathTarget,
  covers(a, b) {
    if (a === "." || a === b) return true;
    if (b.startsWith(a + "::") || b.startsWith(a + "[")) return true;
    const { selector } = splitSelector(a);
    return selector === "" && splitSelector(b).path.startsWith(a + "/");
  },
};

/** go's family: package directories placed in the workspace, import paths as typed, `pkg::Test/sub` selectors. */
export const GO_FAMILY: TargetFamily = { name: "go", place: normalizeGoTarget, covers: (a, b) => a === b || goCovers(a, b) };

/** Django's and unittest's family: dotted labels as typed; a label covers the labels under it. */
export const DJANGO_FAMILY: TargetFamily = {
  name: "django",
  place: (target) => target,
  covers: (a, b) => a === b || a === "." || b.startsWith(a + "."),
};

/** A family that knows nothing but equality: a runner's kind with no definition (a record from another setup). */
export function exactFamily(name: string): TargetFamily {
  return { name, place: (target) => target, covers: (a, b) => a === b };
}

/** node:test's family: file, directory and glob targets placed as pytest's paths are; a directory covers what lies under it. */
export const NODE_FAMILY: TargetFamily = {
  name: "node",
  place: normalizePathTarget,
  covers: (a, b) => a === "." || a === b || b.startsWith(`${a}/`) || b.startsWith(`${a}::`),
};

/**
 * The JavaScript test file family (vitest's; jest's and mocha's may share it): file and directory
 * targets placed as pytest's paths are; a directory covers what lies under it, a file its ids
 * (`test/a.test.ts > suite > test`).
 */
export function jsPathFamily(): TargetFamily {
  return {
    name: "js-path",
    place: normalizePathTarget,
    covers: (a, b) => a === "." || a === b || b.startsWith(`${a}/`) || b.startsWith(`${a} > `),
  };
}

/** vitest's family (see {@link jsPathFamily}). */
export const VITEST_FAMILY: TargetFamily = jsPathFamily();

/**
 * jest's family: JavaScript test file and directory targets placed as pytest's paths are, ids
 * `file::describe > test`. jest reads a target as a regular expression over paths, so a target
 * covers another only as a path does (itself, what lies under it, its ids): never by pattern.
 */
export function jestPathCovers(outer: string, inner: string): boolean {
  return outer === "." || outer === inner || inner.startsWith(`${outer}/`) || inner.startsWith(`${outer}::`);
}

/** jest's target family (see {@link jestPathCovers}). */
export const JEST_FAMILY: TargetFamily = { name: "jest", place: normalizePathTarget, covers: jestPathCovers };

// mocha: a spec file, directory or glob target, and an id written with its file (`test/a.spec.js::suite > test`,
// as the capture harness's truth writes it; mocha itself prints none) under it.
const MOCHA_GLOB_CHARS = /[*?[{]/;

/** True when the mocha target (a file, a directory, a glob) holds the file of an id written `file::suite > test`. */
export function mochaFileCovers(target: string, id: string): boolean {
  const at = id.indexOf("::");
  if (at === -1) return false;
  const file = id.slice(0, at).replace(/^(?:\.\/)+/, "");
  const path = target.replace(/^(?:\.\/)+/, "").replace(/\/+$/, "");
  if (path === "" || path === ".") return true;
  if (MOCHA_GLOB_CHARS.test(path)) return pathGlob(path).test(file);
  return file === path || file.startsWith(`${path}/`);
}

/** A glob as mocha's and node's file patterns read it: `**` any depth, `*` and `?` within one name, `{a,b}` either. */
export function pathGlob(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      source += glob[i + 2] === "/" ? "(?:.*/)?" : ".*";
      i += glob[i + 2] === "/" ? 2 : 1;
    } else if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else if (c === "{") source += "(?:";
    else if (c === "}") source += ")";
    else if (c === ",") source += "|";
    else source += c.replace(/[.+^$()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/** mocha's family: spec file, directory and glob targets placed as pytest's paths are; a directory covers what lies under it. */
export const MOCHA_FAMILY: TargetFamily = {
  name: "mocha",
  place: normalizePathTarget,
  covers: (a, b) => a === "." || a === b || b.startsWith(`${a}/`) || b.startsWith(`${a}::`),
};

/** cargo's family: the directory a run applies to, placed as pytest's paths are; ids `binary::path` under it. */
export const CARGO_FAMILY: TargetFamily = {
  name: "cargo",
  place: normalizePathTarget,
  covers: (a, b) => a === "." || a === b || b.startsWith(`${a}/`) || b.startsWith(`${a}::`),
};
