import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { decodeGitBytes, decodeGitCPath, encodeGitBytes, encodeGitCPath } from "../../src/patches/index.js";

describe("decodeGitCPath", () => {
  it.each([
    ['"b/caf\\303\\251\\t\\"\\\\.py"', 'b/café\t"\\.py'],
    ['"a\\a\\b\\t\\n\\v\\f\\r"', "a\x07\b\t\n\v\f\r"],
    ['"a/x" trailing', "a/x"],
    ['"a/bad\\377"', "a/bad\udcff"],
    ['"\\344\\270\\255"', "中"],
    ['"a/\\342\\200\\250"', "a/\u2028"],
    ["a/plain\\bx", "a/plain\\bx"],
    ["plain name ", "plain name "],
    ['"unknown \\q escape"', "unknown \\q escape"],
    ['"octal \\400"', "octal  0"],
    ['"one digit \\7x"', "one digit \x07x"],
    ['"trailing backslash\\', "trailing backslash\\"],
    ['"unterminated', "unterminated"],
    ['"non-latin escape \\中"', "non-latin escape \\中"],
    ['"\\303"', "\udcc3"],
    ['""', ""],
    ["", ""],
  ])("%j decodes to %j", (value, expected) => {
    expect(decodeGitCPath(value)).toEqual(expected);
  });
});

describe("encodeGitCPath", () => {
  it.each([
    ["plain.txt", true, "plain.txt"],
    ["with space ", true, "with space "],
    ["café", true, '"caf\\303\\251"'],
    ["café", false, "café"],
    ['q"\\\t\n', false, '"q\\"\\\\\\t\\n"'],
    ["bad\udcff", false, '"bad\\377"'],
    ["del\x7f", true, '"del\\177"'],
  ])("%j (quotePath %s) is written %j", (name, quotePath, expected) => {
    expect(encodeGitCPath(name, { quotePath })).toEqual(expected);
  });
});

describe("bytes <-> string", () => {
  it.each([
    [[0x61, 0xff, 0x62], "a\udcffb"],
    [[0xc3, 0xa9], "é"],
    [[0xed, 0xa0, 0x80], "\udced\udca0\udc80"],
    [[0xf0, 0x9f, 0x98, 0x80], "😀"],
    [[0xe2, 0x82], "\udce2\udc82"],
  ])("%j decodes to %j and back", (bytes, text) => {
    expect(decodeGitBytes(Uint8Array.from(bytes))).toEqual(text);
    expect([...encodeGitBytes(text)]).toEqual(bytes);
  });

  it("any byte string survives decode then encode", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect([...encodeGitBytes(decodeGitBytes(bytes))]).toEqual([...bytes]);
      }),
      { numRuns: 2000 },
    );
  });

  it("decoding what encodeGitCPath wrote gives back the name, for any bytes and both quotePath settings", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.boolean(), (bytes, quotePath) => {
        const name = decodeGitBytes(bytes);
        expect(decodeGitCPath(encodeGitCPath(name, { quotePath }))).toEqual(name);
      }),
      { numRuns: 2000 },
    );
  });

  it("decodeGitCPath never throws", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (value) => {
        expect(typeof decodeGitCPath(`"${value}`)).toBe("string");
        expect(typeof decodeGitCPath(value)).toBe("string");
      }),
      { numRuns: 3000 },
    );
  });
});
