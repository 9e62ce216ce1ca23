import { describe, expect, it } from "vitest";

import { diffTargetPath, gitDiffEndpoint, gitHeaderTokens, normalizePatchPath } from "../../src/patches/index.js";

describe("gitHeaderTokens", () => {
  it.each([
    ["diff --git a/old name b/new name", ["a/old name", "b/new name"]],
    ['diff --git a/x "b/t\\ty"', ["a/x", '"b/t\\ty"']],
    ['diff --git "a/t\\ty" b/x', ['"a/t\\ty"', "b/x"]],
    ['diff --git "a/q\\"" "b/q\\""', ['"a/q\\""', '"b/q\\""']],
    ["diff --git a/x  b/x \n", ["a/x ", "b/x "]],
    ["diff --git a/ lead b/ lead\r\n", ["a/ lead", "b/ lead"]],
    ["diff --git a/a b/c b/a b/c", ["a/a b/c", "b/a b/c"]],
    ["diff --git a/b/c b/b/c", ["a/b/c", "b/b/c"]],
    ["diff --git c/x y i/x y", ["c/x y", "i/x y"]],
    ["diff --git x y x y", ["x y", "x y"]],
    ["diff --git SRC/d/x DST/d/x", ["SRC/d/x", "DST/d/x"]],
    ["diff --git a/noseparator", ["a/noseparator"]],
    ["diff --git a/x b/y b/z", ["a/x b/y", "b/z"]],
    ["not a header", []],
    ["diff --git ", []],
  ])("%j -> %j", (header, expected) => {
    expect(gitHeaderTokens(header)).toEqual(expected);
  });

  it.each([
    [
      ["diff --git a/x b/y b/z\n", "similarity index 100%\n", "rename from x b/y\n", "rename to z\n"],
      ["a/x b/y", "b/z"],
    ],
    [
      ["diff --git a/x b/y b/z\n", "similarity index 100%\n", "rename from x\n", "rename to y b/z\n"],
      ["a/x", "b/y b/z"],
    ],
    [
      ["diff --git L/x b/y R/x b/y\n", "--- L/x b/y\t\n", "+++ R/x b/y\t\n"],
      ["L/x b/y", "R/x b/y"],
    ],
    [
      ["diff --git L/x b/y R/x b/y\n", "new file mode 100644\n", "--- /dev/null\n", "+++ R/x b/y\t\n"],
      ["L/x b/y", "R/x b/y"],
    ],
  ])("resolved from the block %j", (block, expected) => {
    expect(gitHeaderTokens(block[0]!, block)).toEqual(expected);
  });
});

describe("gitDiffEndpoint", () => {
  it.each([
    ["a/x", "a", "x"],
    ["x/y", "a", "x/y"],
    ['"b/caf\\303\\251"', "b", "café"],
    ["/dev/null", "a", ""],
    ['"/dev/null"', "b", ""],
    ["w/x", "w", "x"],
    ["b/x y\t", "b", "x y"],
    ["x", "", "x"],
  ])("%j side %j -> %j", (token, side, expected) => {
    expect(gitDiffEndpoint(token, side)).toEqual(expected);
  });
});

describe("diffTargetPath", () => {
  it.each([
    ["diff --git a/b/c b/b/c", "b/c"],
    ["diff --git a/old b/new", "new"],
    ['diff --git "a/caf\\303\\251" "b/caf\\303\\251"', "café"],
    ["diff --git i/x w/x", "x"],
    ["diff --git x x", "x"],
    ["diff --cc merged.txt", "merged.txt"],
    ["diff --git a/only", "a/only"],
    ["random", ""],
  ])("%j -> %j", (header, expected) => {
    expect(diffTargetPath(header)).toEqual(expected);
  });
});

describe("normalizePatchPath", () => {
  it.each([
    ["/src//./x.py/", {}, "src/x.py"],
    [" leading and trailing ", {}, " leading and trailing "],
    ["b/source.py", {}, "b/source.py"],
    ["dir\\name", {}, "dir\\name"],
    ["dir\\name", { backslashes: true }, "dir/name"],
    ["a/../b", {}, "a/../b"],
    ["tab\tname\n", {}, "tab\tname\n"],
    [".", {}, ""],
  ])("%j %j -> %j", (path, options, expected) => {
    expect(normalizePatchPath(path, options)).toEqual(expected);
  });
});
