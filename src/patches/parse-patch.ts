// The streaming patch scanner: one pass over the text, one state per line, hunk bodies counted by
// their headers' ranges (so a removed line `-- x`, shown as `--- x`, is never read as a header) and
// read by their first character only, without copying them.
import { type BlockFacts, createBlockFacts, finishBlock } from "./block-facts.js";
import { decodeGitCPath } from "./c-path.js";
import { pathTokenOf } from "./header.js";
import { parseHunkHeader } from "./hunk-header.js";
import type { FilePatch, PatchHunk } from "./types.js";

type ScanMode = "outside" | "header" | "hunk" | "after-hunk" | "binary";

/** An incremental parser: feed text in chunks of any size, collect each file as it completes. */
export interface PatchParser {
  /** Consumes a chunk and returns the files completed by it. */
  write(chunk: string): FilePatch[];
  /** Ends the input and returns the remaining files. */
  end(): FilePatch[];
}

/**
 * Creates a streaming parser; `parsePatch(text)` equals the concatenation of `write(chunk)` over
 * any split of `text` followed by `end()`.
 */
export function createPatchParser(): PatchParser {
  return new Scanner();
}

/**
 * Parses a Git diff into one {@link FilePatch} per file block, in order. Never throws; text that
 * is not part of a file block (mail headers, diffstat, trailing signature) is skipped.
 * @example parsePatch(text).map((f) => [f.status, f.oldPath, f.newPath])
 */
export function parsePatch(patch: string): FilePatch[] {
  const scanner = new Scanner();
  const files = scanner.write(patch);
  for (const file of scanner.end()) files.push(file);
  return files;
}

class Scanner implements PatchParser {
  private mode: ScanMode = "outside";
  private facts: BlockFacts | undefined;
  private pending = "";
  private done: FilePatch[] = [];
  // The hunk being counted.
  private remainingOld = 0;
  private remainingNew = 0;
  private parentRemaining: number[] = [];
  private added = 0;
  private removed = 0;

  write(chunk: string): FilePatch[] {
    let at = 0;
    if (this.pending !== "") {
      const newline = chunk.indexOf("\n");
      if (newline < 0) {
        this.pending += chunk;
        return this.take();
      }
      const line = this.pending + chunk.slice(0, newline);
      this.pending = "";
      this.line(line, 0, line.length);
      at = newline + 1;
    }
    const length = chunk.length;
    while (at < length) {
      const newline = chunk.indexOf("\n", at);
      if (newline < 0) {
        this.pending = chunk.slice(at);
        break;
      }
      this.line(chunk, at, newline);
      at = newline + 1;
    }
    return this.take();
  }

  end(): FilePatch[] {
    if (this.pending !== "") {
      const line = this.pending;
      this.pending = "";
      this.line(line, 0, line.length);
    }
    this.closeBlock();
    return this.take();
  }

  private take(): FilePatch[] {
    const files = this.done;
    this.done = [];
    return files;
  }

  // One line: text[start, end) without its LF.
  private line(text: string, start: number, end: number): void {
    const first = text.charCodeAt(start);
    if (this.mode === "hunk") {
      if (this.combinedParents() === 0) {
        if (first === 0x20 || (start === end && this.remainingOld > 0 && this.remainingNew > 0)) {
          this.remainingOld -= 1;
          this.remainingNew -= 1;
        } else if (first === 0x2d) {
          this.remainingOld -= 1;
          this.removed += 1;
        } else if (first === 0x2b) {
          this.remainingNew -= 1;
          this.added += 1;
        } else if (first !== 0x5c) return this.afterHunk(text, start, end);
        if (this.remainingOld <= 0 && this.remainingNew <= 0) this.closeHunk();
        return;
      }
      if (this.combinedLine(text, start, end)) return;
      return this.afterHunk(text, start, end);
    }
    if (first === 0x64 && this.startsBlock(text, start, end)) return;
    switch (this.mode) {
      case "outside":
      case "binary":
        return;
      case "header":
        return this.headerLine(text.slice(start, end));
      case "after-hunk":
        return this.afterHunk(text, start, end);
      default: {
        const never: never = this.mode;
        return never;
      }
    }
  }

  private startsBlock(text: string, start: number, end: number): boolean {
    let kind: "git" | "combined";
    let restAt: number;
    if (text.startsWith("diff --git ", start)) [kind, restAt] = ["git", start + 11];
    else if (text.startsWith("diff --cc ", start)) [kind, restAt] = ["combined", start + 10];
    else if (text.startsWith("diff --combined ", start)) [kind, restAt] = ["combined", start + 16];
    else return false;
    this.closeBlock();
    const lineEnd = text.charCodeAt(end - 1) === 0x0d && end > restAt ? end - 1 : end;
    this.facts = createBlockFacts(kind, text.slice(restAt, lineEnd));
    this.mode = "header";
    return true;
  }

  private closeBlock(): void {
    if (this.mode === "hunk") this.closeHunk();
    if (this.facts !== undefined) this.done.push(finishBlock(this.facts));
    this.facts = undefined;
    this.mode = "outside";
  }

  private afterHunk(text: string, start: number, end: number): void {
    if (this.mode === "hunk") this.closeHunk();
    if (text.charCodeAt(start) === 0x64 && this.startsBlock(text, start, end)) return;
    if (text.charCodeAt(start) === 0x40) this.openHunk(text.slice(start, end));
  }

  private headerLine(raw: string): void {
    const facts = this.facts!;
    const line = raw.charCodeAt(raw.length - 1) === 0x0d ? raw.slice(0, -1) : raw;
    switch (line.charCodeAt(0)) {
      case 0x40: // @
        this.openHunk(line);
        return;
      case 0x2d: // -
        if (line.startsWith("--- ")) facts.minus = pathTokenOf(line.slice(4));
        return;
      case 0x2b: // +
        if (line.startsWith("+++ ")) facts.plus = pathTokenOf(line.slice(4));
        return;
      default:
        readExtendedHeader(facts, line, this);
    }
  }

  /** Marks the rest of the block as binary data (after `GIT binary patch`). */
  skipBinary(): void {
    this.mode = "binary";
  }

  private openHunk(line: string): void {
    const header = parseHunkHeader(line);
    if (header === undefined) return;
    const [firstRange] = header.oldRanges;
    this.remainingOld = firstRange!.lines;
    this.remainingNew = header.newLines;
    this.parentRemaining = header.oldRanges.length > 1 ? header.oldRanges.map((range) => range.lines) : [];
    this.added = 0;
    this.removed = 0;
    const hunk: PatchHunk = {
      oldStart: firstRange!.start,
      oldLines: firstRange!.lines,
      newStart: header.newStart,
      newLines: header.newLines,
      added: 0,
      removed: 0,
      section: header.section,
      ...(header.oldRanges.length > 1 ? { parentRanges: header.oldRanges } : {}),
    };
    this.facts!.hunks.push(hunk);
    this.mode = "hunk";
    if (this.remainingOld <= 0 && this.remainingNew <= 0 && this.parentRemaining.every((n) => n <= 0)) this.closeHunk();
  }

  private closeHunk(): void {
    const hunks = this.facts!.hunks;
    const last = hunks[hunks.length - 1]!;
    hunks[hunks.length - 1] = { ...last, added: this.added, removed: this.removed };
    this.mode = "after-hunk";
  }

  private combinedParents(): number {
    return this.parentRemaining.length;
  }

  // A combined-diff body line: one column per parent, `+`/`-`/space each.
  private combinedLine(text: string, start: number, end: number): boolean {
    const parents = this.parentRemaining.length;
    if (text.charCodeAt(start) === 0x5c) return true;
    if (end - start < parents && start !== end) return false;
    let plus = false;
    let minus = false;
    for (let k = 0; k < parents; k++) {
      const code = start === end ? 0x20 : text.charCodeAt(start + k);
      if (code === 0x2b) plus = true;
      else if (code === 0x2d) minus = true;
      else if (code !== 0x20) return false;
    }
    for (let k = 0; k < parents; k++) {
      const code = start === end ? 0x20 : text.charCodeAt(start + k);
      if (code !== 0x2b) this.parentRemaining[k]! -= 1;
    }
    if (!minus) this.remainingNew -= 1;
    if (plus) this.added += 1;
    if (minus) this.removed += 1;
    if (this.remainingNew <= 0 && this.parentRemaining.every((n) => n <= 0)) this.closeHunk();
    return true;
  }
}

// Git's extended header lines (diff.c, apply.c), including the combined `mode a,b..c` forms.
function readExtendedHeader(facts: BlockFacts, line: string, scanner: Scanner): void {
  const space = line.indexOf(" ");
  const keyword = space < 0 ? line : line.slice(0, space);
  switch (keyword) {
    case "index":
      return readIndexLine(facts, line.slice(6));
    case "old":
      if (line.startsWith("old mode ")) facts.oldMode = firstMode(line.slice(9));
      return;
    case "new":
      if (line.startsWith("new mode ")) facts.newMode = line.slice(9);
      else if (line.startsWith("new file mode ")) facts.newFileMode = line.slice(14);
      return;
    case "mode": {
      // Combined: `mode <parent modes>..<result mode>`.
      const dots = line.indexOf("..");
      if (dots > 5) [facts.oldMode, facts.newMode] = [firstMode(line.slice(5, dots)), line.slice(dots + 2)];
      return;
    }
    case "deleted":
      if (line.startsWith("deleted file mode ")) facts.deletedFileMode = firstMode(line.slice(18));
      return;
    case "rename":
      if (line.startsWith("rename from ")) facts.renameFrom = decodeGitCPath(line.slice(12));
      else if (line.startsWith("rename to ")) facts.renameTo = decodeGitCPath(line.slice(10));
      else if (line.startsWith("rename old ")) facts.renameFrom = decodeGitCPath(line.slice(11));
      else if (line.startsWith("rename new ")) facts.renameTo = decodeGitCPath(line.slice(11));
      return;
    case "copy":
      if (line.startsWith("copy from ")) facts.copyFrom = decodeGitCPath(line.slice(10));
      else if (line.startsWith("copy to ")) facts.copyTo = decodeGitCPath(line.slice(8));
      return;
    case "similarity":
      if (line.startsWith("similarity index ")) facts.similarity = percent(line.slice(17));
      return;
    case "dissimilarity":
      if (line.startsWith("dissimilarity index ")) facts.dissimilarity = percent(line.slice(20));
      return;
    case "Binary":
      if (line.startsWith("Binary files ") && line.endsWith(" differ")) {
        facts.binary = true;
        facts.binaryFromNull = line.startsWith("Binary files /dev/null and ");
        facts.binaryToNull = line.endsWith(" and /dev/null differ");
      }
      return;
    case "GIT":
      if (line === "GIT binary patch") {
        facts.binary = true;
        scanner.skipBinary();
      }
      return;
    default:
      return;
  }
}

function readIndexLine(facts: BlockFacts, rest: string): void {
  const dots = rest.indexOf("..");
  if (dots < 0) return;
  const space = rest.indexOf(" ", dots);
  facts.oldId = rest.slice(0, dots).split(",")[0];
  facts.newId = space < 0 ? rest.slice(dots + 2) : rest.slice(dots + 2, space);
  if (space >= 0) facts.indexMode = rest.slice(space + 1);
}

function firstMode(modes: string): string {
  const comma = modes.indexOf(",");
  return comma < 0 ? modes : modes.slice(0, comma);
}

function percent(value: string): number | null {
  const number = Number.parseInt(value, 10);
  return Number.isFinite(number) ? number : null;
}
