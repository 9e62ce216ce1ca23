// fast-check against real git: whatever name Git quotes, decodeGitCPath gives the original back.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { decodeGitBytes, decodeGitCPath } from "../../src/patches/index.js";
import { tempDirPath } from "../support/temp-dir.js";
import { git, removeRepo } from "./git-fixture.js";

const nameChar = fc.oneof(
  fc.constantFrom("\t", "\n", "\r", "\x01", "\x7f", '"', "\\", " ", "\u2028", "\u0085", "é", "中", "😀", "a", "b"),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }),
);
const fileName = fc
  .array(nameChar, { minLength: 1, maxLength: 8 })
  .map((chars) => chars.join(""))
  .filter((name) => !name.includes("/") && !name.includes("\0") && name !== "." && name !== ".." && name.toLowerCase() !== ".git");

describe("names quoted by real git", () => {
  it.each([true, false])("core.quotePath=%s: decodeGitCPath(git ls-files line) equals the -z name", (quotePath) => {
    fc.assert(
      fc.property(fc.uniqueArray(fileName, { minLength: 1, maxLength: 12 }), (names) => {
        const dir = tempDirPath("ae-quote-");
        try {
          git(dir, ["init", "-q", "."]);
          for (const name of names) writeFileSync(join(dir, name), "x");
          git(dir, ["add", "-A"]);
          const config = ["-c", `core.quotePath=${String(quotePath)}`];
          const quoted = decodeGitBytes(git(dir, [...config, "ls-files"]))
            .split("\n")
            .slice(0, -1);
          const raw = decodeGitBytes(git(dir, [...config, "ls-files", "-z"]))
            .split("\0")
            .slice(0, -1);
          expect(quoted.map(decodeGitCPath)).toEqual(raw);
          expect([...raw].sort()).toEqual([...names].sort());
        } finally {
          removeRepo(dir);
        }
      }),
      { numRuns: 25 },
    );
  });
});
