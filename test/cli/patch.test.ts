// `agent-evidence patch`: run the built CLI on real git output; -z bytes must equal git's own.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { renderPatchReport } from "../../src/cli/patch.js";
import { decodeGitBytes, patchEntries } from "../../src/patches/index.js";
import { createKindRepo, git, KINDS, removeRepo } from "../patches/git-fixture.js";

const cli = resolve(import.meta.dirname, "../../dist/cli/main.js");

function runCli(args: string[], input?: Buffer) {
  return spawnSync(process.execPath, [cli, ...args], { input, maxBuffer: 1 << 26 });
}

describe("agent-evidence patch", () => {
  const repos: string[] = [];
  let patch = Buffer.alloc(0);
  let nameOnly = Buffer.alloc(0);
  let nameStatus = Buffer.alloc(0);
  beforeAll(() => {
    for (const name of ["text change", "addition", "deletion"]) repos.push(createKindRepo(KINDS.find((kind) => kind.name === name)!));
    // One patch touching every awkward name three ways (one repository per kind, concatenated).
    const diffs = repos.map((dir) => git(dir, ["diff", "--cached", "--no-renames"]));
    patch = Buffer.concat(diffs);
    nameOnly = Buffer.concat(repos.map((dir) => git(dir, ["diff", "--cached", "--no-renames", "--name-only", "-z"])));
    nameStatus = Buffer.concat(repos.map((dir) => git(dir, ["diff", "--cached", "--no-renames", "--name-status", "-z"])));
  });
  afterAll(() => repos.forEach(removeRepo));

  it("paths -z from stdin prints git's --name-only -z bytes (first-seen, no duplicates)", () => {
    const result = runCli(["patch", "paths", "-z"], patch);
    expect(result.status).toBe(0);
    const unique = [...new Set(nameOnly.toString("latin1").split("\0").slice(0, -1))].map((name) => `${name}\0`).join("");
    expect(result.stdout.toString("latin1")).toEqual(unique);
  });

  it("files -z prints status, old and new per file, matching --name-status -z", () => {
    const result = runCli(["patch", "files", "-z"], patch);
    const fields = result.stdout.toString("latin1").split("\0").slice(0, -1);
    const ours: string[] = [];
    for (let i = 0; i < fields.length; i += 3) {
      const [status, oldPath, newPath] = fields.slice(i, i + 3);
      ours.push({ added: "A", deleted: "D", modified: "M" }[status as "added"] ?? status!, newPath !== "" ? newPath! : oldPath!);
    }
    expect(ours).toEqual(nameStatus.toString("latin1").split("\0").slice(0, -1));
  });

  it("entries --json from a FILE argument equals patchEntries", () => {
    const file = join(repos[0]!, "patch.diff");
    writeFileSync(file, patch);
    const result = runCli(["patch", "entries", "--json", file]);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout.toString())).toEqual({ entries: patchEntries(decodeGitBytes(patch)) });
    expect((JSON.parse(result.stdout.toString()) as { entries: unknown[] }).entries).toHaveLength(
      nameStatus.toString("latin1").split("\0").slice(0, -1).length / 2,
    );
  });

  it("plain output is one path per line", () => {
    const result = runCli(["patch", "paths"], Buffer.from("diff --git a/x y b/x y\nnew file mode 100644\n"));
    expect([result.status, result.stdout.toString()]).toEqual([0, "x y\n"]);
  });

  it.each([
    [["patch"]],
    [["patch", "names"]],
    [["patch", "paths", "--json", "-z"]],
    [["patch", "paths", "--bogus"]],
    [["patch", "paths", "/nonexistent/patch.diff"]],
    [["patch", "paths", "a", "b"]],
  ])("usage error %j exits 64 with one line", (args) => {
    const result = runCli(args, Buffer.alloc(0));
    expect(result.status).toBe(64);
    expect(result.stderr.toString().trim().split("\n")).toHaveLength(1);
  });

  it.each([
    ["paths", "json", '{"paths":["x","y"]}\n'],
    ["entries", "lines", "\tx\ny\t\n"],
    ["entries", "nul", "\0x\0y\0\0"],
    ["files", "lines", "added\t\tx\ndeleted\ty\t\n"],
  ] as const)("renderPatchReport %s as %s", (report, format, expected) => {
    const text = "diff --git a/x b/x\nnew file mode 100644\ndiff --git a/y b/y\ndeleted file mode 100644\n";
    expect(new TextDecoder().decode(renderPatchReport(report, format, text))).toEqual(expected);
  });
});
