// The data parsePatch returns: one FilePatch per file block of a Git diff.

/** What happened to a file, as Git's `--name-status` letters A, D, M, R, C, M (mode only), T. */
export type FilePatchStatus = "added" | "deleted" | "modified" | "renamed" | "copied" | "mode-changed" | "type-changed";

/** One hunk: its ranges and how many lines it adds and removes. */
export interface PatchHunk {
  /** First line of the old range (1-based; 0 for an empty range). */
  readonly oldStart: number;
  /** Number of old lines the hunk covers. */
  readonly oldLines: number;
  /** First line of the new range. */
  readonly newStart: number;
  /** Number of new lines the hunk covers. */
  readonly newLines: number;
  /** Lines added (`+`). In a combined diff: lines with a `+` in any parent column. */
  readonly added: number;
  /** Lines removed (`-`). In a combined diff: lines with a `-` in any parent column. */
  readonly removed: number;
  /** The text after the closing `@@` (Git's function context), without the leading space. */
  readonly section: string;
  /** Combined diffs only: the old range of every parent, in order (the first is oldStart/oldLines). */
  readonly parentRanges?: readonly { readonly start: number; readonly lines: number }[];
}

/** One file of a patch. Paths are decoded names without side prefixes; `""` means absent. */
export interface FilePatch {
  /** The old name (`""` for an addition). */
  readonly oldPath: string;
  /** The new name (`""` for a deletion). */
  readonly newPath: string;
  /** What happened to the file. */
  readonly status: FilePatchStatus;
  /** True for `Binary files ... differ` and `GIT binary patch` blocks. */
  readonly binary: boolean;
  /** `similarity index` percentage of a rename or copy, else null. */
  readonly similarity: number | null;
  /** `dissimilarity index` percentage of a rewrite (`-B`), else null. */
  readonly dissimilarity: number | null;
  /** Old mode (`100644`, `100755`, `120000`, `160000`), or null when absent or not stated. */
  readonly oldMode: string | null;
  /** New mode, or null when absent or not stated. */
  readonly newMode: string | null;
  /** Abbreviated (or full) old object id from the `index` line, else null. */
  readonly oldId: string | null;
  /** New object id from the `index` line, else null. */
  readonly newId: string | null;
  /** True when either side is a gitlink (mode 160000): a submodule commit change. */
  readonly submodule: boolean;
  /** True when the block's paths could not be told apart for certain (custom prefixes, no hints). */
  readonly ambiguous: boolean;
  /** True for `diff --cc` / `diff --combined` blocks (merge diffs). */
  readonly combined: boolean;
  /** Hunks in order. */
  readonly hunks: readonly PatchHunk[];
}
