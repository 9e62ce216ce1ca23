// parsePatch on real git output for the cases the kind matrix does not reach: custom prefixes,
// merges (combined diffs), hunk lines that look like headers, CRLF, mails, rewrites, binary data.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createPatchParser, decodeGitBytes, type FilePatch, parsePatch, patchEntries } from "../../src/patches/index.js";
import { tempDirPath } from "../support/temp-dir.js";
import { createKindRepo, git, KINDS, removeRepo } from "./git-fixture.js";

const summary = (files: readonly FilePatch[]) => files.map((f) => [f.status, f.oldPath, f.newPath, f.ambiguous]);

describe("custom --src-prefix/--dst-prefix", () => {
  const repos = new Map<string, string>();
  const kinds = ["text change", "rename", "addition", "empty-file addition", "mode change"];
  beforeAll(() => {
    for (const name of kinds) repos.set(name, createKindRepo(KINDS.find((kind) => kind.name === name)!));
  });
  afterAll(() => [...repos.values()].forEach(removeRepo));

  it.each(kinds)("%s: names right; ambiguous unless rename lines fix the prefixes", (name) => {
    const dir = repos.get(name)!;
    const rename = name === "rename" ? ["-M"] : ["--no-renames"];
    const patch = decodeGitBytes(git(dir, ["diff", "--cached", ...rename, "--src-prefix=SRC/", "--dst-prefix=DST/"]));
    const reference = parsePatch(decodeGitBytes(git(dir, ["diff", "--cached", ...rename])));
    const files = parsePatch(patch);
    expect(summary(files)).toEqual(reference.map((f) => [f.status, f.oldPath, f.newPath, name !== "rename"]));
  });
});

describe("combined diffs of a merge", () => {
  let dir = "";
  beforeAll(() => {
    dir = tempDirPath("ae-merge-");
    const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
    git(dir, ["init", "-q", "-b", "main", "."]);
    write("both changed.txt", "one\ntwo\nthree\n");
    write("café.txt", "x\n");
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-q", "-m", "base"]);
    git(dir, ["checkout", "-q", "-b", "side"]);
    write("both changed.txt", "one\nside\nthree\n");
    write("café.txt", "side\n");
    git(dir, ["commit", "-q", "-am", "side"]);
    git(dir, ["checkout", "-q", "main"]);
    write("both changed.txt", "one\nmain\nthree\n");
    write("café.txt", "main\n");
    git(dir, ["commit", "-q", "-am", "main"]);
    const merge = git.bind(undefined, dir);
    try {
      merge(["merge", "-q", "side"]);
    } catch {
      // The conflict is the point: resolve both files with a line from neither side.
    }
    write("both changed.txt", "one\nresolved\nthree\nextra\n");
    write("café.txt", "resolved\n");
    git(dir, ["commit", "-q", "-am", "merge"]);
  });
  afterAll(() => removeRepo(dir));

  it.each([["--cc"], ["-c"]])("git show %s: one combined file per path with parent ranges", (flag) => {
    const patch = decodeGitBytes(git(dir, ["show", "--format=", flag, "HEAD"]));
    const files = parsePatch(patch);
    expect(
      files.map((f) => ({
        path: f.newPath,
        combined: f.combined,
        parents: f.hunks[0]?.parentRanges?.length,
        added: f.hunks.reduce((n, h) => n + h.added, 0),
      })),
    ).toEqual([
      { path: "both changed.txt", combined: true, parents: 2, added: 2 },
      { path: "café.txt", combined: true, parents: 2, added: 1 },
    ]);
  });
});

describe("single-repository edge cases", () => {
  let dir = "";
  const write = (name: string, text: string | Buffer) => writeFileSync(join(dir, name), text);
  beforeAll(() => {
    dir = tempDirPath("ae-edges-");
    git(dir, ["init", "-q", "-b", "main", "."]);
    write("looks-like-headers.txt", "keep\n-- x\n++ y\ndiff --git a/q b/q\n@@ -1 +1 @@\nend\n");
    write("crlf.txt", "one\r\ntwo\r\n");
    write("no-eol.txt", "last");
    write("rewrite.txt", Array.from({ length: 40 }, (_, i) => `original ${i}\n`).join(""));
    write("data.bin", Buffer.from([0, 1, 2, 3]));
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-q", "-m", "base"]);
    write("looks-like-headers.txt", "keep\n+++ added\n--- also added\nend\n");
    write("crlf.txt", "one\r\nTWO\r\n");
    write("no-eol.txt", "last changed");
    write("rewrite.txt", Array.from({ length: 40 }, (_, i) => `rewritten ${i}\n`).join(""));
    write("data.bin", Buffer.from([0, 1, 2, 4, 5]));
    git(dir, ["commit", "-q", "-am", "change"]);
  });
  afterAll(() => removeRepo(dir));

  it("hunk lines that look like headers are counted, never read as headers", () => {
    const files = parsePatch(decodeGitBytes(git(dir, ["diff", "HEAD~", "HEAD", "--", "looks-like-headers.txt"])));
    expect(files.map((f) => [f.newPath, f.hunks.map((h) => [h.added, h.removed])])).toEqual([["looks-like-headers.txt", [[2, 4]]]]);
  });

  it("--numstat agrees on every file, CRLF and missing final newline included", () => {
    const files = parsePatch(decodeGitBytes(git(dir, ["diff", "HEAD~", "HEAD"])));
    const numstat = git(dir, ["diff", "--numstat", "HEAD~", "HEAD"]).toString().trim().split("\n");
    expect(
      files.map((f) =>
        f.binary
          ? `-\t-\t${f.newPath}`
          : `${f.hunks.reduce((n, h) => n + h.added, 0)}\t${f.hunks.reduce((n, h) => n + h.removed, 0)}\t${f.newPath}`,
      ),
    ).toEqual(numstat);
  });

  it("-B reports the dissimilarity of a rewrite", () => {
    const [file] = parsePatch(decodeGitBytes(git(dir, ["diff", "-B", "HEAD~", "HEAD", "--", "rewrite.txt"])));
    expect([file?.status, file?.dissimilarity]).toEqual(["modified", 100]);
  });

  it("--binary data is skipped and the file marked binary", () => {
    const patch = decodeGitBytes(git(dir, ["diff", "--binary", "HEAD~", "HEAD", "--", "data.bin", "no-eol.txt"]));
    expect(patch).toContain("GIT binary patch");
    expect(summary(parsePatch(patch))).toEqual([
      ["modified", "data.bin", "data.bin", false],
      ["modified", "no-eol.txt", "no-eol.txt", false],
    ]);
    expect(parsePatch(patch).map((f) => f.binary)).toEqual([true, false]);
  });

  it("a format-patch mail: preamble, diffstat and signature are not files", () => {
    const mail = decodeGitBytes(git(dir, ["format-patch", "--stdout", "-1", "HEAD"]));
    expect(mail).toMatch(/\n-- \n/);
    expect(patchEntries(mail)).toEqual([
      ["crlf.txt", "crlf.txt"],
      ["data.bin", "data.bin"],
      ["looks-like-headers.txt", "looks-like-headers.txt"],
      ["no-eol.txt", "no-eol.txt"],
      ["rewrite.txt", "rewrite.txt"],
    ]);
  });

  it("streaming in chunks of any size gives the same files", () => {
    const patch = decodeGitBytes(git(dir, ["format-patch", "--stdout", "--binary", "-1", "HEAD"]));
    const whole = parsePatch(patch);
    for (const size of [1, 2, 3, 7, 64, 1000]) {
      const parser = createPatchParser();
      const files: FilePatch[] = [];
      for (let at = 0; at < patch.length; at += size) files.push(...parser.write(patch.slice(at, at + size)));
      files.push(...parser.end());
      expect(files).toEqual(whole);
    }
  });
});

describe("hand-written blocks Git would not print", () => {
  it.each([
    ["explicit type change", "diff --git a/l b/l\nold mode 100644\nnew mode 120000\n", [["type-changed", "l", "l", false]]],
    ["mode only", "diff --git a/m b/m\nold mode 100644\nnew mode 100755\n", [["mode-changed", "m", "m", false]]],
    [
      "binary addition told by the Binary line alone",
      "diff --git a/x b/x\nBinary files /dev/null and b/x differ\n",
      [["added", "", "x", false]],
    ],
    [
      "binary deletion told by the Binary line alone",
      "diff --git a/x b/x\nBinary files a/x and /dev/null differ\n",
      [["deleted", "x", "", false]],
    ],
    ["custom prefixes, header only", "diff --git L/d/x R/d/x\nnew file mode 100644\n", [["added", "", "d/x", true]]],
    ["a header with one token", "diff --git a/noseparator\n", [["modified", "a/noseparator", "a/noseparator", true]]],
    ["truncated hunk", "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,5 +1,5 @@\n-a\n", [["modified", "x", "x", false]]],
    [
      "CRLF line endings",
      "diff --git a/x y b/x y\r\n--- a/x y\t\r\n+++ b/x y\t\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n",
      [["modified", "x y", "x y", false]],
    ],
  ])("%s", (_label, patch, expected) => {
    expect(summary(parsePatch(patch))).toEqual(expected);
  });
});
