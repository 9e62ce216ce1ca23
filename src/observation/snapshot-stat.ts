// What the snapshots read of a file's stat: lstat fingerprints (inode, mode, size, mtime and ctime in
// ns; a change of content always moves ctime, which no unprivileged process can set back), and the
// nanosecond comparison of an index entry with its file.
import { lstat } from "node:fs/promises";
import { join } from "node:path";

import type { GitIndexEntry } from "./git-index.js";

/** More ignored files than this and a snapshot gives up (the effect is then unknown: fail closed). */
export const MAX_IGNORED_FILES = 100_000;

/** A path's lstat fingerprint `ino:mode:size:mtimeNs:ctimeNs`. */
export function fingerprintOf(info: { ino: bigint; mode: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint }): string {
  return `${info.ino}:${info.mode}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/** lstat fingerprints, a bounded number at a time; a file gone between the listing and the lstat is left out. */
export async function fingerprints(workspace: string, paths: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < paths.length; i += 256) {
    await Promise.all(
      paths.slice(i, i + 256).map(async (path) => {
        const info = await lstat(join(workspace, path), { bigint: true }).catch(() => null);
        if (info !== null) out.set(path, fingerprintOf(info));
      }),
    );
  }
  return out;
}

/**
 * Entries (of `only`, or all) whose recorded stat is not the file's own, to the nanosecond (the index
 * keeps 32 bits of seconds and the size modulo 2^32, as git writes them).
 */
export async function staleEntries(workspace: string, index: Map<string, GitIndexEntry>, only: Set<string> | null): Promise<string[]> {
  const stale: string[] = [];
  const entries =
    only === null
      ? [...index]
      : [...only].flatMap((path) => {
          const entry = index.get(path);
          return entry === undefined ? [] : [[path, entry] as const];
        });
  const spell = (ns: bigint): string => `${(ns / 1_000_000_000n) % 4_294_967_296n}:${ns % 1_000_000_000n}`;
  for (let i = 0; i < entries.length; i += 256) {
    await Promise.all(
      entries.slice(i, i + 256).map(async ([path, entry]) => {
        const info = await lstat(join(workspace, path), { bigint: true }).catch(() => null);
        if (info === null) return;
        if (spell(info.ctimeNs) !== entry.ctime || spell(info.mtimeNs) !== entry.mtime || String(info.size % 4_294_967_296n) !== entry.size)
          stale.push(path);
      }),
    );
  }
  return stale;
}

/** mtime (seconds, nanoseconds) and size from an lstat fingerprint `ino:mode:size:mtimeNs:ctimeNs`. */
export function statOfFingerprint(fingerprint: string): string {
  const [, , size = "", mtimeNs = "0"] = fingerprint.split(":");
  const ns = BigInt(mtimeNs);
  return `${ns / 1_000_000_000n}:${ns % 1_000_000_000n}:${size}`;
}

/** Keys whose values differ, or that only one of the maps has. */
export function differingKeys(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths: string[] = [];
  for (const [path, value] of before) if (after.get(path) !== value) paths.push(path);
  for (const path of after.keys()) if (!before.has(path)) paths.push(path);
  return paths;
}
