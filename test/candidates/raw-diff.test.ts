import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { parseLsFiles, parseLsTree, parseRawDiff, touchesGitlink } from "../../src/candidates/raw-diff.js";
import { commitAll, createRepo, git, removeAll, writeFiles } from "./git-fixture.js";

const Z = "0".repeat(40);
const A = "a".repeat(40);
const B = "b".repeat(40);
const COLON = ":160000 160000 file.txt";

describe("parseRawDiff", () => {
  it.each([
    ["empty output", "", []],
    [
      "a modified file",
      `:100644 100644 ${A} ${B} M\0x.txt\0`,
      [{ oldMode: "100644", newMode: "100644", oldId: A, newId: B, status: "M", path: "x.txt" }],
    ],
    [
      "a moved gitlink",
      `:160000 160000 ${A} ${B} M\0lib\0`,
      [{ oldMode: "160000", newMode: "160000", oldId: A, newId: B, status: "M", path: "lib" }],
    ],
    [
      "a file whose name looks like metadata stays a path",
      `:100644 100644 ${A} ${Z} M\0${COLON}\0:000000 100644 ${Z} ${B} A\0next\0`,
      [
        { oldMode: "100644", newMode: "100644", oldId: A, newId: Z, status: "M", path: COLON },
        { oldMode: "000000", newMode: "100644", oldId: Z, newId: B, status: "A", path: "next" },
      ],
    ],
  ])("%s", (_name, input, expected) => {
    expect(parseRawDiff(input)).toEqual(expected);
  });

  it.each([
    ["a path where metadata belongs", `${COLON}\0x\0`],
    ["metadata without its path", `:100644 100644 ${A} ${B} M\0`],
    ["a rename record", `:100644 100644 ${A} ${B} R100\0old\0new\0`],
  ])("rejects %s", (_name, input) => {
    expect(() => parseRawDiff(input)).toThrow();
  });

  it.each([
    ["old side gitlink", { oldMode: "160000", newMode: "000000" }, true],
    ["new side gitlink", { oldMode: "100644", newMode: "160000" }, true],
    ["ordinary file", { oldMode: "100644", newMode: "100755" }, false],
  ])("touchesGitlink: %s", (_name, modes, expected) => {
    expect(touchesGitlink({ ...modes, oldId: A, newId: B, status: "M", path: "p" })).toEqual(expected);
  });
});

describe("real git output", () => {
  let repo: string;
  beforeAll(async () => {
    repo = await createRepo("raw", { [COLON]: "one\n", "plain.txt": "x\n" });
  });
  afterAll(async () => {
    await removeAll(repo);
  });

  it("diff-files, ls-files and ls-tree keep the colon file an ordinary file", async () => {
    await writeFiles(repo, { [COLON]: "two\n" });
    const raw = parseRawDiff(await git(repo, "diff-files", "--raw", "-z", "--no-renames"));
    expect(raw.map((record) => [record.path, record.newMode, touchesGitlink(record)])).toEqual([[COLON, "100644", false]]);
    await commitAll(repo, "two");
    const files = parseLsFiles(await git(repo, "ls-files", "-s", "-z")).map((entry) => [entry.mode, entry.path]);
    const tree = parseLsTree(await git(repo, "ls-tree", "-r", "-z", "HEAD")).map((entry) => [entry.mode, entry.path]);
    expect([files, tree]).toEqual([
      [
        ["100644", COLON],
        ["100644", "plain.txt"],
      ],
      [
        ["100644", COLON],
        ["100644", "plain.txt"],
      ],
    ]);
  });
});
