// fast-check: no function throws on any input, splitting is lossless, streaming equals one pass.
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import * as patches from "../../src/patches/index.js";

// Inputs biased towards patch syntax so the properties reach the interesting states.
const fragment = fc.constantFrom(
  "diff --git ",
  "diff --cc ",
  "a/",
  "b/",
  " ",
  "\t",
  "\n",
  "\r\n",
  "\u2028",
  "\u0085",
  '"',
  "\\",
  "\\303",
  "\\377",
  "\\400",
  "/dev/null",
  "--- ",
  "+++ ",
  "@@ -1,2 +1,3 @@",
  "@@@ -1 -1 +1 @@@",
  "\n-",
  "\n+",
  "\n ",
  "\n\\ No newline",
  "rename from ",
  "rename to ",
  "copy from ",
  "new file mode 100644",
  "deleted file mode 160000",
  "old mode 100644",
  "new mode 120000",
  "index 1..2 100644",
  "Binary files ",
  " and ",
  " differ",
  "GIT binary patch",
  "similarity index 90%",
  "x",
  "é",
  "中",
);
const patchText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.array(fragment, { maxLength: 60 }).map((parts) => parts.join("")),
);

describe("properties", () => {
  it("splitPatchBlocks is lossless and splits on LF only", () => {
    fc.assert(
      fc.property(patchText, (text) => {
        const blocks = patches.splitPatchBlocks(text);
        expect(blocks.flat().join("")).toBe(text);
        const lines = blocks.flat();
        lines.forEach((line, index) => {
          const last = index === lines.length - 1;
          expect(line.indexOf("\n")).toBe(last && !line.endsWith("\n") ? -1 : line.length - 1);
        });
      }),
      { numRuns: 3000 },
    );
  });

  it("no exported function throws on any input string", () => {
    fc.assert(
      fc.property(patchText, fc.string({ maxLength: 3 }), (text, side) => {
        patches.parsePatch(text);
        patches.patchEntries(text);
        patches.patchPaths(text);
        patches.patchBlockTargetPath(text.split("\n"));
        patches.gitHeaderTokens(text);
        patches.gitHeaderTokens(text, text.split("\n"));
        patches.diffTargetPath(text);
        patches.decodeGitCPath(text);
        patches.encodeGitCPath(text);
        patches.gitDiffEndpoint(text, side);
        patches.normalizePatchPath(text);
        patches.normalizePatchPath(text, { backslashes: true });
        patches.isBlockHeader(text);
        expect(patches.decodeGitBytes(patches.encodeGitBytes(text)).length).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 3000 },
    );
  });

  it("streaming in random chunks equals parsing in one pass", () => {
    fc.assert(
      fc.property(patchText, fc.array(fc.nat({ max: 30 }), { maxLength: 20 }), (text, cuts) => {
        const parser = patches.createPatchParser();
        const files = [];
        let at = 0;
        for (const cut of cuts) {
          files.push(...parser.write(text.slice(at, at + cut)));
          at += cut;
        }
        files.push(...parser.write(text.slice(at)), ...parser.end());
        expect(files).toEqual(patches.parsePatch(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("every diff --git block yields exactly one file", () => {
    fc.assert(
      fc.property(patchText, (text) => {
        const headers = patches.splitPatchBlocks(text).filter((block) => patches.isBlockHeader(block[0]!)).length;
        expect(patches.parsePatch(text)).toHaveLength(headers);
      }),
      { numRuns: 2000 },
    );
  });
});
