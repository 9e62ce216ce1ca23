import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createFileReadTool } from "../../src/tools/file-read.js";
import { createFileWriteTool, type FileWriteInput } from "../../src/tools/file-write.js";
import { makeTempDir } from "../support/temp-dir.js";

let ws: { dir: string; cleanup: () => void };
let outside: { dir: string; cleanup: () => void };

beforeAll(() => {
  ws = makeTempDir("ae-files-ws-");
  outside = makeTempDir("ae-files-outside-");
  writeFileSync(join(outside.dir, "secret.txt"), "outside secret\n");
  writeFileSync(join(ws.dir, "lines.txt"), Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
  writeFileSync(join(ws.dir, "blob.bin"), Buffer.from([0x50, 0x4b, 0x00, 0x01, 0x02]));
  mkdirSync(join(ws.dir, "sub"));
  writeFileSync(join(ws.dir, "sub", "inner.txt"), "inner\n");
  symlinkSync(join(outside.dir, "secret.txt"), join(ws.dir, "link-out"));
  symlinkSync(outside.dir, join(ws.dir, "dir-out"));
  symlinkSync(join(ws.dir, "sub", "inner.txt"), join(ws.dir, "link-in"));
  symlinkSync(join(ws.dir, "missing-target"), join(ws.dir, "dangling"));
});
afterAll(() => {
  ws.cleanup();
  outside.cleanup();
});

describe("file_read", () => {
  it("shows numbered lines of a whole file", async () => {
    const result = await createFileReadTool({ cwd: ws.dir }).execute({ path: "sub/inner.txt" });
    expect(result).toEqual({
      text: "1\tinner",
      data: { status: "read", path: "sub/inner.txt", startLine: 1, endLine: 1, totalLines: 1, bytes: 6, clipped: false },
    });
  });

  it.each<[number | null, number | null, string, number]>([
    [3, 5, "3\tline 3\n4\tline 4\n5\tline 5", 5],
    [19, null, "19\tline 19\n20\tline 20", 20],
    [null, 2, "1\tline 1\n2\tline 2", 2],
  ])("line range %s..%s", async (startLine, endLine, text, last) => {
    const result = await createFileReadTool({ cwd: ws.dir }).execute({ path: "lines.txt", startLine, endLine });
    expect({ text: result.text, endLine: result.data?.status === "read" ? result.data.endLine : null }).toEqual({ text, endLine: last });
  });

  it.each<[string, string]>([
    ["../outside.txt", "outside-workspace"],
    ["sub/../../x", "outside-workspace"],
    ["/etc/passwd", "outside-workspace"],
    ["link-out", "outside-workspace"],
    ["dir-out/secret.txt", "outside-workspace"],
    ["dangling", "outside-workspace"],
    ["nope.txt", "not-found"],
    ["sub", "directory"],
    ["blob.bin", "binary"],
  ])("refuses %s (%s)", async (path, reason) => {
    const result = await createFileReadTool({ cwd: ws.dir }).execute({ path });
    expect({
      isError: result.isError,
      reason: result.data?.status === "refused" ? result.data.reason : null,
      leaked: result.text.includes("outside secret"),
    }).toEqual({
      isError: true,
      reason,
      leaked: false,
    });
  });

  it("follows a symlink that stays inside the workspace, and accepts an absolute path inside it", async () => {
    const tool = createFileReadTool({ cwd: ws.dir });
    const [viaLink, absolute] = await Promise.all([
      tool.execute({ path: "link-in" }),
      tool.execute({ path: join(ws.dir, "sub/inner.txt") }),
    ]);
    expect([viaLink.text, viaLink.data?.path, absolute.text]).toEqual(["1\tinner", "sub/inner.txt", "1\tinner"]);
  });

  it("needs a line range for a file over the size cap, and streams the range", async () => {
    const tool = createFileReadTool({ cwd: ws.dir, maxFileBytes: 50 });
    const whole = await tool.execute({ path: "lines.txt" });
    const part = await tool.execute({ path: "lines.txt", startLine: 10, endLine: 11 });
    expect([whole.data?.status === "refused" ? whole.data.reason : null, part.text]).toEqual(["too-large", "10\tline 10\n11\tline 11"]);
  });

  it("bounds the text and says where to continue", async () => {
    const result = await createFileReadTool({ cwd: ws.dir, maxOutputChars: 40 }).execute({ path: "lines.txt" });
    expect(result.text).toBe(
      " 1\tline 1\n 2\tline 2\n 3\tline 3\n 4\tline 4\n[... output clipped after line 4; pass startLine 5 to continue ...]",
    );
  });

  it("rejects an end before the start", async () => {
    const result = await createFileReadTool({ cwd: ws.dir }).execute({ path: "lines.txt", startLine: 5, endLine: 2 });
    expect(result.data).toEqual({ status: "refused", path: "lines.txt", reason: "bad-range" });
  });
});

describe("file_write", () => {
  const write = (input: FileWriteInput, allowFileCreation = false) =>
    createFileWriteTool({ cwd: ws.dir, allowFileCreation }).execute(input);

  it("create is refused without allowFileCreation and works with it", async () => {
    const refused = await write({ path: "new/a.txt", mode: "create", content: "a\n" });
    const existedAfterRefusal = existsSync(join(ws.dir, "new/a.txt"));
    const created = await write({ path: "new/a.txt", mode: "create", content: "a\n" }, true);
    expect({
      refused: refused.data,
      isError: refused.isError,
      existedAfterRefusal,
      created: created.data,
      content: readFileSync(join(ws.dir, "new/a.txt"), "utf8"),
    }).toEqual({
      refused: { completed: false, changed: false, path: "new/a.txt", mode: "create" },
      isError: true,
      existedAfterRefusal: false,
      created: { completed: true, changed: true, path: "new/a.txt", mode: "create" },
      content: "a\n",
    });
  });

  it("create does not replace an existing file", async () => {
    writeFileSync(join(ws.dir, "exists.txt"), "old\n");
    const result = await write({ path: "exists.txt", mode: "create", content: "new\n" }, true);
    expect([result.data, readFileSync(join(ws.dir, "exists.txt"), "utf8")]).toEqual([
      { completed: false, changed: false, path: "exists.txt", mode: "create" },
      "old\n",
    ]);
  });

  it("overwrite with different content reports changed true and keeps the file mode", async () => {
    writeFileSync(join(ws.dir, "script.sh"), "echo 1\n", { mode: 0o755 });
    const result = await write({ path: "script.sh", mode: "overwrite", content: "echo 2\n" });
    expect([result.data, readFileSync(join(ws.dir, "script.sh"), "utf8"), statSync(join(ws.dir, "script.sh")).mode & 0o777]).toEqual([
      { completed: true, changed: true, path: "script.sh", mode: "overwrite" },
      "echo 2\n",
      0o755,
    ]);
  });

  it("an unchanged overwrite reports changed false and leaves the file untouched", async () => {
    writeFileSync(join(ws.dir, "same.txt"), "same\n");
    const before = statSync(join(ws.dir, "same.txt"));
    const result = await write({ path: "same.txt", mode: "overwrite", content: "same\n" });
    const after = statSync(join(ws.dir, "same.txt"));
    expect({
      data: result.data,
      isError: result.isError,
      sameInode: before.ino === after.ino,
      sameMtime: before.mtimeMs === after.mtimeMs,
    }).toEqual({
      data: { completed: true, changed: false, path: "same.txt", mode: "overwrite" },
      isError: undefined,
      sameInode: true,
      sameMtime: true,
    });
  });

  it("overwrite of a missing file is refused (it would be a creation)", async () => {
    const result = await write({ path: "ghost.txt", mode: "overwrite", content: "x" }, true);
    expect([result.data, existsSync(join(ws.dir, "ghost.txt"))]).toEqual([
      { completed: false, changed: false, path: "ghost.txt", mode: "overwrite" },
      false,
    ]);
  });

  it.each<[string, string, string | null, string | null, boolean, string]>([
    ["a unique match is replaced", "alpha beta gamma\n", "beta", "BETA", true, "alpha BETA gamma\n"],
    ["a missing match is an error", "alpha beta\n", "delta", "x", false, "alpha beta\n"],
    ["an ambiguous match is an error", "x x\n", "x", "y", false, "x x\n"],
    ["identical old and new strings are an error", "alpha\n", "alpha", "alpha", false, "alpha\n"],
    ["an empty oldString is an error", "alpha\n", "", "b", false, "alpha\n"],
    ["replacement text with $& is taken literally", "a-b\n", "-", "$&$&", true, "a$&$&b\n"],
    ["newString may be empty (deletion)", "keep drop keep\n", " drop", "", true, "keep keep\n"],
  ])("str_replace: %s", async (_label, initial, oldString, newString, ok, final) => {
    writeFileSync(join(ws.dir, "edit.txt"), initial);
    const result = await write({ path: "edit.txt", mode: "str_replace", oldString, newString });
    expect({ data: result.data, isError: result.isError === true, content: readFileSync(join(ws.dir, "edit.txt"), "utf8") }).toEqual({
      data: { completed: ok, changed: ok, path: "edit.txt", mode: "str_replace" },
      isError: !ok,
      content: final,
    });
  });

  it.each(["../escape.txt", "link-out", "dir-out/new.txt", "/tmp/ae-escape.txt", "dangling"])(
    "refuses to write outside the workspace: %s",
    async (path) => {
      const result = await write({ path, mode: "create", content: "pwned\n" }, true);
      expect({
        completed: result.data?.completed,
        changed: result.data?.changed,
        secret: readFileSync(join(outside.dir, "secret.txt"), "utf8"),
        newFile: existsSync(join(outside.dir, "new.txt")),
      }).toEqual({
        completed: false,
        changed: false,
        secret: "outside secret\n",
        newFile: false,
      });
    },
  );

  it("writes through a symlink that stays inside and reports the real path", async () => {
    const result = await write({ path: "link-in", mode: "str_replace", oldString: "inner", newString: "INNER" });
    expect([result.data, readFileSync(join(ws.dir, "sub/inner.txt"), "utf8")]).toEqual([
      { completed: true, changed: true, path: "sub/inner.txt", mode: "str_replace" },
      "INNER\n",
    ]);
  });
});
