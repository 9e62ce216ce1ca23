// Named files: only regular files are read (without blocking on a FIFO), reads are capped, outputs
// never replace what is not a regular file. Each refusal is a NamedFileError with its code.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { EXIT_CANT_CREATE, EXIT_DATA, EXIT_IO, EXIT_USAGE, fileErrorExitStatus } from "../../src/cli/exit-codes.js";
import {
  checkOutputFile,
  hashRegularFile,
  NamedFileError,
  openOutputFile,
  readRegularFile,
  writeFileReplacing,
} from "../../src/io/named-files.js";
import { tempDirPath } from "../support/temp-dir.js";

let dir = "";
beforeAll(() => {
  dir = tempDirPath("ae-named-files-");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fifo = (name: string): string => {
  const path = join(dir, name);
  execFileSync("mkfifo", [path]);
  return path;
};

function refusal(run: () => unknown): { code: string; operation: string; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(NamedFileError);
    const { code, operation, message } = error as NamedFileError;
    return { code, operation, message };
  }
  throw new Error("expected a NamedFileError");
}

describe("readRegularFile", () => {
  it("reads a regular file whole, bytes as they are", () => {
    const path = join(dir, "bytes.bin");
    const bytes = Buffer.from([0, 0xff, 0xfe, 10, 0x80, 0]);
    writeFileSync(path, bytes);
    expect(readRegularFile(path, { cap: 6 })).toEqual(bytes);
  });

  it.each([
    ["/dev/zero", () => "/dev/zero", "ENOTREGULAR"],
    ["a FIFO with no writer (returns at once)", () => fifo("no-writer"), "ENOTREGULAR"],
    ["a directory", () => dir, "EISDIR"],
    ["a missing file", () => join(dir, "missing"), "ENOENT"],
    [
      "a link to /dev/null",
      () => {
        const link = join(dir, "null-link");
        symlinkSync("/dev/null", link);
        return link;
      },
      "ENOTREGULAR",
    ],
  ])("refuses %s: %s", (_name, path, code) => {
    const target = path();
    expect(refusal(() => readRegularFile(target, { cap: 1 << 20 }))).toEqual({
      code,
      operation: "read",
      message: `cannot read ${target} (${code})`,
    });
  });

  it("refuses a file over the cap by its size, without reading it (a sparse 2 GB file)", () => {
    const path = join(dir, "sparse");
    writeFileSync(path, "");
    truncateSync(path, 2 * 1024 ** 3);
    expect(refusal(() => readRegularFile(path, { cap: 48 << 20, name: "--junit sparse" }))).toEqual({
      code: "EFBIG",
      operation: "read",
      message: "--junit sparse is larger than 48 MiB; not read",
    });
  });

  it("takes a file of exactly the cap", () => {
    const path = join(dir, "exact");
    writeFileSync(path, "x".repeat(1000));
    expect(readRegularFile(path, { cap: 1000 }).length).toBe(1000);
    expect(refusal(() => readRegularFile(path, { cap: 999 })).code).toBe("EFBIG");
  });
});

describe("hashRegularFile", () => {
  it("hashes in blocks what sha256 of the whole file gives", () => {
    const path = join(dir, "hash.bin");
    const bytes = Buffer.alloc(3 * (1 << 20) + 17, 7);
    writeFileSync(path, bytes);
    expect(hashRegularFile(path)).toBe(createHash("sha256").update(bytes).digest("hex"));
  });

  it("refuses a FIFO without waiting for a writer", () => {
    expect(refusal(() => hashRegularFile(fifo("hash-fifo"))).code).toBe("ENOTREGULAR");
  });
});

describe("outputs", () => {
  it.each([
    ["a missing directory", () => join(dir, "nope", "out.json"), "ENOENT"],
    ["a directory", () => dir, "EISDIR"],
    ["a FIFO with no reader", () => fifo("out-fifo"), "ENOTREGULAR"],
    [
      "a file as the directory",
      () => {
        const file = join(dir, "plain");
        writeFileSync(file, "");
        return join(file, "out.json");
      },
      "ENOTDIR",
    ],
  ])("checkOutputFile refuses %s (%s)", (_name, path, code) => {
    const target = path();
    expect(refusal(() => checkOutputFile(target))).toEqual({ code, operation: "write", message: `cannot write ${target} (${code})` });
    expect(refusal(() => openOutputFile(target)).code).toBe(code);
    expect(refusal(() => writeFileReplacing(target, "x")).code).toBe(code);
  });

  it("never renames over a device: a link to /dev/null stays a link, /dev/null a device", () => {
    const link = join(dir, "out-null-link");
    symlinkSync("/dev/null", link);
    expect(refusal(() => writeFileReplacing(link, "{}")).code).toBe("ENOTREGULAR");
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe("/dev/null");
    expect(lstatSync("/dev/null").isCharacterDevice()).toBe(true);
  });

  it("writeFileReplacing replaces a regular file whole and leaves no temp file", () => {
    const sub = join(dir, "replace");
    mkdirSync(sub);
    const path = join(sub, "verdict.json");
    writeFileSync(path, "old");
    writeFileReplacing(path, "new");
    expect(readFileSync(path, "utf8")).toBe("new");
    expect(readdirSync(sub)).toEqual(["verdict.json"]);
  });
});

describe("fileErrorExitStatus", () => {
  it.each([
    ["read", "ENOENT", EXIT_USAGE],
    ["read", "ENOTREGULAR", EXIT_USAGE],
    ["read", "EFBIG", EXIT_DATA],
    ["write", "ENOENT", EXIT_CANT_CREATE],
    ["write", "EISDIR", EXIT_CANT_CREATE],
    ["write", "ENOTREGULAR", EXIT_CANT_CREATE],
    ["write", "ENOSPC", EXIT_IO],
    ["write", "EFBIG", EXIT_IO],
  ] as const)("%s %s -> %i", (operation, code, status) => {
    expect(fileErrorExitStatus({ operation, code })).toBe(status);
  });
});
