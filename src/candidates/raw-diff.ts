// Pure parsers for git's NUL-separated plumbing output. Metadata is read at fixed positions: a path
// is always the field after a metadata field, so a file named ":160000 160000 file.txt" stays a path.

/** Git's mode for a submodule entry (a gitlink). */
export const GITLINK_MODE = "160000";

/** One record of `git diff-* --raw -z --no-renames`. */
export interface RawDiffRecord {
  oldMode: string;
  newMode: string;
  oldId: string;
  newId: string;
  /** The status letter (`A`, `D`, `M`, `T`, `U`, ...), without a score. */
  status: string;
  path: string;
}

/** One entry of `git ls-tree -r -z` or `git ls-files -s -z`. */
export interface TreeEntry {
  mode: string;
  id: string;
  path: string;
}

const RAW_META = /^:([0-7]{6}) ([0-7]{6}) ([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{40}|[0-9a-f]{64}) ([A-Z])([0-9]*)$/;
const LS_TREE = /^([0-7]{6}) (blob|tree|commit) ([0-9a-f]{40}|[0-9a-f]{64})\t/;
const LS_FILES = /^([0-7]{6}) ([0-9a-f]{40}|[0-9a-f]{64}) ([0-3])\t/;

function fields(text: string): string[] {
  const parts = text.split("\0");
  if (parts.at(-1) === "") parts.pop();
  return parts;
}

/** Parses `--raw -z` output (renames and copies off); throws on anything that is not that format. */
export function parseRawDiff(text: string): RawDiffRecord[] {
  const parts = fields(text);
  const records: RawDiffRecord[] = [];
  for (let index = 0; index < parts.length; index += 2) {
    const meta = RAW_META.exec(parts[index] ?? "");
    const path = parts[index + 1];
    if (meta === null || path === undefined) throw new Error(`unexpected raw diff field ${JSON.stringify(parts[index])}`);
    const status = meta[5]!;
    if (status === "R" || status === "C") throw new Error("raw diff with renames or copies: run it with --no-renames");
    records.push({ oldMode: meta[1]!, newMode: meta[2]!, oldId: meta[3]!, newId: meta[4]!, status, path });
  }
  return records;
}

/** Parses `git ls-tree -r -z` output. */
export function parseLsTree(text: string): TreeEntry[] {
  return fields(text).map((field) => {
    const match = LS_TREE.exec(field);
    if (match === null) throw new Error(`unexpected ls-tree entry ${JSON.stringify(field)}`);
    return { mode: match[1]!, id: match[3]!, path: field.slice(match[0].length) };
  });
}

/** Parses `git ls-files -s -z` output, keeping stage-0 entries only. */
export function parseLsFiles(text: string): TreeEntry[] {
  return fields(text).flatMap((field) => {
    const match = LS_FILES.exec(field);
    if (match === null) throw new Error(`unexpected ls-files entry ${JSON.stringify(field)}`);
    return match[3] === "0" ? [{ mode: match[1]!, id: match[2]!, path: field.slice(match[0].length) }] : [];
  });
}

/** True when either side of a raw diff record is a submodule. */
export function touchesGitlink(record: RawDiffRecord): boolean {
  return record.oldMode === GITLINK_MODE || record.newMode === GITLINK_MODE;
}
