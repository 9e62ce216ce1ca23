// How a requested target is covered by the ids a runner printed. Targets and ids are compared as
// text relative to the same directory (the runner prints ids relative to where it was started).

function stripDotSlash(text: string): string {
  let out = text;
  while (out.startsWith("./")) out = out.slice(2);
  return out;
}

function trimSlashes(path: string): string {
  return path.replace(/\/+$/, "");
}

/** True for targets that mean "the whole workspace". */
export function isWholeWorkspaceTarget(target: string): boolean {
  const t = trimSlashes(stripDotSlash(target.trim()));
  return t === "" || t === ".";
}

/**
 * pytest: a directory or file target is covered by ids under it (at a `/` boundary); a node-id target
 * by the same id, its methods (`::`) or its parametrised instances (`[`).
 */
export function pytestTargetCovers(target: string, id: string): boolean {
  if (isWholeWorkspaceTarget(target)) return true;
  const t = stripDotSlash(target);
  const node = stripDotSlash(id);
  if (t.includes("::")) return node === t || node.startsWith(`${t}::`) || node.startsWith(`${t}[`);
  const path = trimSlashes(t);
  const nodePath = node.split("::", 1)[0]!;
  return nodePath === path || nodePath.startsWith(`${path}/`);
}

/** Splits a go target `./pkg::TestA/sub` into package pattern and optional test selector. */
function splitGoTarget(target: string): { pkg: string; test: string | null } {
  const at = target.indexOf("::");
  return at === -1 ? { pkg: target, test: null } : { pkg: target.slice(0, at), test: target.slice(at + 2) };
}

/** go: does a package pattern (`./...`, `./calc`, `example.com/m/calc`, `./x/...`) name this import path? */
export function goPackageMatches(pattern: string, importPath: string): boolean {
  if (pattern === "" || pattern === "." || pattern === "./..." || pattern === "...") return true;
  if (pattern.endsWith("/...")) {
    const base = pattern.slice(0, -4);
    if (base.startsWith("./")) {
      const rel = base.slice(2);
      return importPath === rel || importPath.endsWith(`/${rel}`) || importPath.includes(`/${rel}/`) || importPath.startsWith(`${rel}/`);
    }
    return importPath === base || importPath.startsWith(`${base}/`);
  }
  if (pattern.startsWith("./")) {
    const rel = trimSlashes(pattern.slice(2));
    return importPath === rel || importPath.endsWith(`/${rel}`);
  }
  return importPath === pattern;
}

/** go: ids are `<import path>::<Test>[/<sub>]`; a `::Test` selector covers that test and its subtests. */
export function goTargetCovers(target: string, id: string): boolean {
  const at = id.indexOf("::");
  if (at === -1) return false;
  const importPath = id.slice(0, at);
  const test = id.slice(at + 2);
  const wanted = splitGoTarget(target.trim());
  if (!goPackageMatches(wanted.pkg, importPath)) return false;
  return wanted.test === null || test === wanted.test || test.startsWith(`${wanted.test}/`);
}

/**
 * Django/unittest: turns a target into a dotted label (`tests/admin_utils/tests.py::Example::test_one`
 * -> `admin_utils.tests.Example.test_one`); null when it is not one. "" means every test.
 */
export function unittestLabel(target: string): string | null {
  let t = stripDotSlash(target.trim());
  if (t.startsWith("/")) return null;
  if (t === "." || t === "tests" || t === "tests/" || t === "") return "";
  if (t.startsWith("tests/")) t = t.slice("tests/".length);
  const [path = "", ...selectors] = t.split("::");
  const dotted = [trimSlashes(path.replace(/\.py$/, "")).split("/").join("."), ...selectors].join(".");
  return /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$/.test(dotted) ? dotted : null;
}

/** Django/unittest: a label covers ids equal to it or under it at a dot boundary (`admin` is not `admin_utils`). */
export function unittestTargetCovers(target: string, id: string): boolean {
  const label = unittestLabel(target);
  if (label === null) return false;
  return label === "" || id === label || id.startsWith(`${label}.`);
}
