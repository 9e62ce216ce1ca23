// Acceptance: every awkward name x every change kind x quotePath x prefix style, parsed from real
// `git diff` output and compared with git's own NUL-separated --name-status, --numstat and --raw.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  decodeGitBytes,
  type FilePatch,
  parsePatch,
  patchBlockTargetPath,
  patchEntries,
  patchPaths,
  splitPatchBlocks,
} from "../../src/patches/index.js";
import { CONFIGS, createKindRepo, gitDiff, KINDS, removeRepo } from "./git-fixture.js";

type Change = { status: string; paths: string[] };

function nulFields(output: Buffer): string[] {
  const fields = decodeGitBytes(output).split("\0");
  if (fields.at(-1) === "") fields.pop();
  return fields;
}

function parseNameStatus(output: Buffer): Change[] {
  const fields = nulFields(output);
  const changes: Change[] = [];
  for (let i = 0; i < fields.length;) {
    const status = fields[i]!;
    const count = /^[RC]/.test(status) ? 2 : 1;
    changes.push({ status, paths: fields.slice(i + 1, i + 1 + count) });
    i += 1 + count;
  }
  return changes;
}

function parseNumstat(output: Buffer): { counts: string; paths: string[] }[] {
  const fields = nulFields(output);
  const rows: { counts: string; paths: string[] }[] = [];
  for (let i = 0; i < fields.length;) {
    const [added, removed] = fields[i]!.split("\t", 2);
    const path = fields[i]!.slice(`${added}\t${removed}\t`.length);
    if (path === "") {
      rows.push({ counts: `${added}/${removed}`, paths: fields.slice(i + 1, i + 3) });
      i += 3;
    } else {
      rows.push({ counts: `${added}/${removed}`, paths: [path] });
      i += 1;
    }
  }
  return rows;
}

function parseRaw(output: Buffer): { status: string; modes: (string | null)[]; paths: string[] }[] {
  const fields = nulFields(output);
  const rows: { status: string; modes: (string | null)[]; paths: string[] }[] = [];
  for (let i = 0; i < fields.length;) {
    const [oldMode, newMode, , , status] = fields[i]!.slice(1).split(" ");
    const count = /^[RC]/.test(status!) ? 2 : 1;
    const modes = [oldMode, newMode].map((mode) => (mode === "000000" ? null : mode!));
    rows.push({ status: status!, modes, paths: fields.slice(i + 1, i + 1 + count) });
    i += 1 + count;
  }
  return rows;
}

function letterOf(file: FilePatch): string {
  switch (file.status) {
    case "added":
      return "A";
    case "deleted":
      return "D";
    case "modified":
    case "mode-changed":
      return "M";
    case "renamed":
      return `R${String(file.similarity).padStart(3, "0")}`;
    case "copied":
      return `C${String(file.similarity).padStart(3, "0")}`;
    case "type-changed":
      return "T";
    default: {
      const never: never = file.status;
      return never;
    }
  }
}

// Git prints a file <-> symlink change as a deletion block followed by an addition block of the
// same path; its --name-status calls that one `T`. Fold such pairs the same way.
function foldTypeChanges(files: readonly FilePatch[]): { letter: string; files: FilePatch[] }[] {
  const out: { letter: string; files: FilePatch[] }[] = [];
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    const next = files[i + 1];
    if (
      file.status === "deleted" &&
      next?.status === "added" &&
      next.newPath === file.oldPath &&
      file.oldMode?.slice(0, 3) !== next.newMode?.slice(0, 3)
    ) {
      out.push({ letter: "T", files: [file, next] });
      i += 1;
    } else out.push({ letter: letterOf(file), files: [file] });
  }
  return out;
}

function pathsOf(file: FilePatch): string[] {
  if (file.status === "renamed" || file.status === "copied") return [file.oldPath, file.newPath];
  return [file.newPath !== "" ? file.newPath : file.oldPath];
}

function lineCounts(files: readonly FilePatch[]): string {
  if (files.some((file) => file.binary)) return "-/-";
  const added = files.flatMap((file) => file.hunks).reduce((sum, hunk) => sum + hunk.added, 0);
  const removed = files.flatMap((file) => file.hunks).reduce((sum, hunk) => sum + hunk.removed, 0);
  return `${added}/${removed}`;
}

describe.each(KINDS)("real git: $name", (kind) => {
  let dir = "";
  beforeAll(() => {
    dir = createKindRepo(kind);
  });
  afterAll(() => removeRepo(dir));

  it.each(CONFIGS)("quotePath=$quotePath, $prefix prefixes: parsePatch matches --name-status -z, --numstat -z and --raw -z", (config) => {
    const patch = decodeGitBytes(gitDiff(dir, kind, config, []));
    const files = parsePatch(patch);
    const folded = foldTypeChanges(files);
    expect(files.length).toBeGreaterThanOrEqual(16);
    expect(folded.map((group) => ({ status: group.letter, paths: pathsOf(group.files.at(-1)!) }))).toEqual(
      parseNameStatus(gitDiff(dir, kind, config, ["--name-status", "-z"])),
    );
    expect(folded.map((group) => ({ counts: lineCounts(group.files), paths: pathsOf(group.files.at(-1)!) }))).toEqual(
      parseNumstat(gitDiff(dir, kind, config, ["--numstat", "-z"])),
    );
    const raw = parseRaw(gitDiff(dir, kind, config, ["--raw", "-z", "--no-abbrev"]));
    expect(
      folded.map((group, index) => {
        const [first, last] = [group.files[0]!, group.files.at(-1)!];
        // A 100% rename or copy block states no mode at all; the raw row is the only source then.
        const modes =
          first.oldMode === null && last.newMode === null && (first.status === "renamed" || first.status === "copied")
            ? raw[index]?.modes
            : [first.oldMode, last.newMode];
        return { status: group.letter, modes, paths: pathsOf(last) };
      }),
    ).toEqual(raw);
    expect(files.filter((file) => file.ambiguous)).toEqual([]);
    expect(files.every((file) => file.submodule === kind.name.startsWith("submodule"))).toBe(true);
  });

  it.each(CONFIGS)("quotePath=$quotePath, $prefix prefixes: entries, paths and block targets", (config) => {
    const patch = decodeGitBytes(gitDiff(dir, kind, config, []));
    const changes = parseNameStatus(gitDiff(dir, kind, config, ["--name-status", "-z"]));
    const expectedPaths = [...new Set(changes.flatMap((change) => change.paths))];
    expect(patchPaths(patch)).toEqual(expectedPaths);
    const entries = patchEntries(patch);
    expect(entries.filter(([oldPath]) => oldPath === "").length).toBe(
      parseNameStatus(gitDiff(dir, kind, config, ["--name-status", "-z"])).filter((c) => c.status === "A" || c.status === "T").length,
    );
    const blocks = splitPatchBlocks(patch);
    expect(blocks.flat().join("")).toBe(patch);
    expect(blocks.map((block) => patchBlockTargetPath(block))).toEqual(
      entries.map(([oldPath, newPath]) => (newPath !== "" ? newPath : oldPath)),
    );
  });
});
