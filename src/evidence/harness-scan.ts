// Reads the workspace's harness (harness.ts) into a digest: one walk of the tree for the candidate
// names, then a read of each candidate whose lstat changed since the last scan (a link is read every
// time: what it points at can change under it). Version control, dependency and virtualenv
// directories and runner by-products are not walked: runners do not collect tests there.
import { createHash } from "node:crypto";
import { lstat, readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { isRunnerByproduct } from "./byproducts.js";
import { harnessContent, isHarnessCandidate, type HarnessDigest } from "./harness.js";

/** More directory entries than this and a scan gives up (the harness is then unknown: fail closed). */
export const MAX_SCANNED_ENTRIES = 500_000;

// A harness file bigger than this is fingerprinted by its lstat instead of its content.
const MAX_READ_BYTES = 16 * 1024 * 1024;

const SKIPPED_DIRECTORIES = new Set([".git", ".hg", ".svn", "node_modules", ".venv", "venv", ".tox", ".nox"]);

/** Scans one workspace again and again, reading only what changed. */
export class HarnessScanner {
  readonly #root: string;
  readonly #cache = new Map<string, { fingerprint: string; digest: string | null }>();

  constructor(root: string) {
    this.#root = root;
  }

  /** The harness as it is now; rejects when the tree cannot be walked or is too big. */
  async scan(): Promise<HarnessDigest> {
    const candidates: string[] = [];
    await this.#walk(this.#root, candidates, { entries: 0 });
    const digest: HarnessDigest = {};
    const seen = new Set<string>();
    for (let i = 0; i < candidates.length; i += 64) {
      const results = await Promise.all(candidates.slice(i, i + 64).map(async (path) => [path, await this.#digestOf(path)] as const));
      for (const [path, value] of results) {
        seen.add(path);
        if (value !== null) digest[path] = value;
      }
    }
    for (const path of this.#cache.keys()) if (!seen.has(path)) this.#cache.delete(path);
    return digest;
  }

  async #walk(dir: string, out: string[], count: { entries: number }): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    count.entries += entries.length;
    if (count.entries > MAX_SCANNED_ENTRIES) throw new Error(`more than ${MAX_SCANNED_ENTRIES} entries in the workspace`);
    const subdirectories: string[] = [];
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const rel = relative(this.#root, path);
      if (isRunnerByproduct(rel)) continue;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) subdirectories.push(path);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && isHarnessCandidate(entry.name)) out.push(rel);
    }
    for (const sub of subdirectories) await this.#walk(sub, out, count);
  }

  async #digestOf(path: string): Promise<string | null> {
    const absolute = join(this.#root, path);
    const info = await lstat(absolute, { bigint: true }).catch(() => null);
    if (info === null) return null;
    const fingerprint = `${info.ino}:${info.mode}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
    const cached = this.#cache.get(path);
    if (cached !== undefined && cached.fingerprint === fingerprint && !info.isSymbolicLink()) return cached.digest;
    const digest = await readDigest(path, absolute, fingerprint);
    this.#cache.set(path, { fingerprint, digest });
    return digest;
  }
}

async function readDigest(path: string, absolute: string, fingerprint: string): Promise<string | null> {
  const target = await stat(absolute).catch(() => null);
  // A link to nothing (or to a directory) is not read; a link's text still counts through its lstat.
  if (target === null || !target.isFile()) return null;
  if (target.size > MAX_READ_BYTES) return `${/\.go$|go\.(?:mod|work)$/.test(path) ? "go" : "python"}:big:${fingerprint}`;
  const text = await readFile(absolute, "utf8").catch(() => null);
  if (text === null) return null;
  const part = harnessContent(path, text);
  return part === null ? null : `${part.family}:${createHash("sha256").update(part.content).digest("hex")}`;
}
