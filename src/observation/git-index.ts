// Git's index file read in place (pure: bytes in, entries out), so a snapshot learns each entry's
// stat data without a `git ls-files --debug` process and its text. Versions 2, 3 and 4 (prefix-
// compressed paths); a split index (`link`) or a sparse one (directory entries) is not read here:
// null, and the caller asks git instead.

/** One index entry's stat data, spelled as `git ls-files --debug` prints it. */
export interface GitIndexEntry {
  /** `seconds:nanoseconds` (the index keeps 32 bits of seconds). */
  ctime: string;
  mtime: string;
  /** The size modulo 2^32, in decimal. */
  size: string;
  /** The seconds of `ctime`, as a number. */
  ctimeSeconds: number;
  /**
   * What a tree written from the index holds for the path: the octal mode and object id
   * (`100644 <id>`), or null for an entry no tree holds (intent to add, a conflict stage).
   */
  blob?: string | null;
}

/** What {@link parseGitIndex} reads: every entry by path (the last stage wins), and the file's trailing checksum. */
export interface GitIndexListing {
  entries: Map<string, GitIndexEntry>;
  checksum: string;
}

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;

/**
 * Parses an index file. `hashBytes` is 20 for SHA-1 repositories, 32 for SHA-256. Only entries under
 * `prefix` (a work-tree-relative directory, "" for all) are kept, with the prefix taken off, as
 * `git ls-files -- .` run in that directory lists them. Null when the file is not one this reads.
 * @example parseGitIndex(readFileSync(".git/index"), 20, "")?.entries.get("mod.py")?.size // "10"
 */
export function parseGitIndex(bytes: Uint8Array, hashBytes: 20 | 32, prefix: string): GitIndexListing | null {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length < 12 + hashBytes || view.toString("latin1", 0, 4) !== "DIRC") return null;
  const version = view.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = view.readUInt32BE(8);
  const end = view.length - hashBytes;
  const fixed = 40 + hashBytes + 2;
  const under = prefix === "" ? "" : `${prefix}/`;
  const entries = new Map<string, GitIndexEntry>();
  let offset = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i += 1) {
    if (offset + fixed > end) return null;
    const start = offset;
    const mode = view.readUInt32BE(offset + 24);
    if ((mode & S_IFMT) === S_IFDIR) return null; // a sparse directory entry
    const flags = view.readUInt16BE(offset + 40 + hashBytes);
    offset += fixed;
    let intentToAdd = false;
    if ((flags & 0x4000) !== 0) {
      if (version < 3 || offset + 2 > end) return null;
      intentToAdd = (view.readUInt16BE(offset) & 0x2000) !== 0;
      offset += 2;
    }
    const stage = (flags >> 12) & 3;
    let path: Buffer;
    if (version === 4) {
      const strip = readVarint(view, offset, end);
      if (strip === null || strip.value > previous.length) return null;
      offset = strip.next;
      const nul = view.indexOf(0, offset);
      if (nul < 0 || nul >= end) return null;
      path = Buffer.concat([previous.subarray(0, previous.length - strip.value), view.subarray(offset, nul)]);
      offset = nul + 1;
    } else {
      const nul = view.indexOf(0, offset);
      if (nul < 0 || nul >= end) return null;
      path = view.subarray(offset, nul);
      // Padded with 1 to 8 NULs to a multiple of 8 bytes from the entry's start (git's ondisk_ce_size).
      offset = start + ((nul - start + 8) & ~7);
    }
    previous = path;
    const name = path.toString("utf8");
    if (under !== "" && !name.startsWith(under)) continue;
    entries.set(under === "" ? name : name.slice(under.length), {
      ctime: `${view.readUInt32BE(start)}:${view.readUInt32BE(start + 4)}`,
      mtime: `${view.readUInt32BE(start + 8)}:${view.readUInt32BE(start + 12)}`,
      size: String(view.readUInt32BE(start + 36)),
      ctimeSeconds: view.readUInt32BE(start),
      blob: intentToAdd || stage !== 0 ? null : `${mode.toString(8)} ${view.toString("hex", start + 40, start + 40 + hashBytes)}`,
    });
  }
  if (offset > end) return null;
  // The extensions: a split index keeps its entries in another file.
  while (offset + 8 <= end) {
    const signature = view.toString("latin1", offset, offset + 4);
    const size = view.readUInt32BE(offset + 4);
    if (signature === "link" || signature === "sdir") return null;
    offset += 8 + size;
  }
  if (offset !== end) return null;
  return { entries, checksum: view.toString("hex", end) };
}

// Git's offset varint (read-cache.c `decode_varint`): each further byte adds one before shifting.
function readVarint(view: Buffer, offset: number, end: number): { value: number; next: number } | null {
  if (offset >= end) return null;
  let byte = view[offset]!;
  let value = byte & 127;
  let next = offset + 1;
  while ((byte & 128) !== 0) {
    if (next >= end || value > 0xffffff) return null;
    byte = view[next]!;
    next += 1;
    value = ((value + 1) << 7) + (byte & 127);
  }
  return { value, next };
}
