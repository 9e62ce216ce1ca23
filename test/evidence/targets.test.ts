import { describe, expect, it } from "vitest";

import { covers, normalizeGoTarget, normalizePathTarget, overlaps, splitSelector, type TargetKey } from "../../src/evidence/targets.js";
import type { TargetFamily } from "../../src/runners/definition.js";
import { DJANGO_FAMILY, GO_FAMILY, PYTHON_FAMILY } from "../../src/runners/target-families.js";

const FAMILIES: Record<string, TargetFamily> = { python: PYTHON_FAMILY, go: GO_FAMILY, django: DJANGO_FAMILY };

const py = (key: string): TargetKey => ({ family: "python", key });
const go = (key: string): TargetKey => ({ family: "go", key });
const dj = (key: string): TargetKey => ({ family: "django", key });

describe("splitSelector", () => {
  it.each([
    ["tests/t.py", { path: "tests/t.py", selector: "" }],
    ["tests/t.py::C::test_x[a b]", { path: "tests/t.py", selector: "::C::test_x[a b]" }],
    ["::test_a", { path: "", selector: "::test_a" }],
  ])("%s", (target, expected) => {
    expect(splitSelector(target)).toEqual(expected);
  });
});

describe("normalizePathTarget", () => {
  const links: Record<string, string> = { "/link/tests/t.py": "/ws/tests/t.py", "/link": "/ws" };
  const resolve = (p: string): string => links[p] ?? p;
  it.each([
    ["absolute inside the root", "/ws/tests/t.py", "/ws", "tests/t.py"],
    ["dot-slash spelling", "./tests/t.py", "/ws", "tests/t.py"],
    ["relative to a cd directory", "tests/t.py", "/ws/sub", "sub/tests/t.py"],
    ["parent segments", "sub/../tests/t.py", "/ws", "tests/t.py"],
    ["a symlinked spelling", "/link/tests/t.py", "/ws", "tests/t.py"],
    ["a node id keeps its selector verbatim", "./tests/t.py::test_x[a/b]", "/ws", "tests/t.py::test_x[a/b]"],
    ["the workspace itself", ".", "/ws", "."],
    ["a directory with a trailing slash", "tests/", "/ws", "tests"],
    ["a path outside the root stays absolute", "/other/t.py", "/ws", "/other/t.py"],
  ])("%s", (_name, target, runWorkspace, expected) => {
    expect(normalizePathTarget(target, runWorkspace, "/ws", resolve)).toBe(expected);
  });

  it("falls back to lexical joining when no workspace is absolute", () => {
    expect(normalizePathTarget("./t.py", null, null)).toBe("t.py");
    expect(normalizePathTarget("t.py", "sub", null)).toBe("sub/t.py");
  });
});

describe("normalizeGoTarget", () => {
  it.each([
    ["./...", "/ws", "./..."],
    ["./...", "/ws/sub", "./sub/..."],
    [".", "/ws/sub", "./sub"],
    ["./calc/", "/ws", "./calc"],
    ["../calc", "/ws/sub", "./calc"],
    ["./calc::TestAdd", "/ws", "./calc::TestAdd"],
    ["./...", "/tmp/copy", "/tmp/copy/..."],
    ["./calc", "/tmp/copy", "/tmp/copy/calc"],
    ["example.com/m/calc", "/tmp/copy", "example.com/m/calc"],
    ["...", "/tmp/copy", "..."],
  ])("%s typed in %s", (target, runWorkspace, expected) => {
    expect(normalizeGoTarget(target, runWorkspace, "/ws")).toBe(expected);
  });

  it("resolves symlinked spellings and keeps a target as typed without an absolute base", () => {
    const resolve = (p: string): string => p.replace(/^\/link/, "/ws");
    expect(normalizeGoTarget("./...", "/link/sub", "/ws", resolve)).toBe("./sub/...");
    expect(normalizeGoTarget("./...", null, null)).toBe("./...");
  });
});

describe("covers and overlaps", () => {
  it.each([
    ["the workspace covers everything", py("."), py("tests/t.py::x"), true],
    ["a file covers its ids", py("tests/t.py"), py("tests/t.py::test_a"), true],
    ["a directory covers files beneath it", py("tests"), py("tests/t.py::test_a"), true],
    ["a prefix is not a directory", py("test"), py("tests/t.py"), false],
    ["an id covers its parametrised ids", py("x.py::test_a"), py("x.py::test_a[1]"), true],
    ["an id does not cover a longer name", py("x.py::test_a"), py("x.py::test_ab"), false],
    ["a class covers its methods", py("x.py::C"), py("x.py::C::test_m"), true],
    ["go ./... covers packages beneath", go("./..."), go("./pkg1::TestA"), true],
    ["go pkg/... covers nested packages", go("./a/..."), go("./a/b"), true],
    ["go pkg/... does not cover a sibling prefix", go("./a/..."), go("./ab"), false],
    ["go a package covers its tests", go("./pkg"), go("./pkg::TestA/sub"), true],
    ["go a test covers its subtests", go("./pkg::TestA"), go("./pkg::TestA/sub"), true],
    ["go a test does not cover another", go("./pkg::TestA"), go("./pkg::TestAB"), false],
    ["django a label covers dotted children", dj("admin_utils"), dj("admin_utils.tests.C.test_x"), true],
    ["django a label is not a prefix match", dj("admin"), dj("admin_utils.tests"), false],
    ["families never overlap", py("."), go("./pkg"), false],
  ])("%s", (_name, a, b, expected) => {
    expect(covers(FAMILIES[a.family]!, a, b)).toBe(expected);
    expect(overlaps(FAMILIES[b.family]!, b, a)).toBe(expected || covers(FAMILIES[b.family]!, b, a));
  });
});
