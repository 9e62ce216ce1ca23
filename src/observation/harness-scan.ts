// Reads the workspace's harness (harness.ts) into a digest: one walk of the tree for the candidate
// names, then a read of each candidate whose lstat changed since the last scan (a link is read every
// time: what it points at can change under it). The same walk lists the links that leave the
// workspace for a place the agent can write (escapingLink). Version control, dependency and
// virtualenv directories and runner by-products are not walked: runners do not collect tests there.
import { createHash } from "node:crypto";
import { lstat, readdir, readFile, readlink, realpath, stat } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";

import { isRunnerByproduct } from "../evidence/byproducts.js";
import { harnessContent, type HarnessDigest, isHarnessCandidate, markWorkspaceScan, type WorkspaceScan } from "../evidence/harness.js";
import type { CommandAnalysis } from "../shell/types.js";

/** More directory entries than this and a scan gives up (the harness is then unknown: fail closed). */
export const MAX_SCANNED_ENTRIES = 500_000;

// A harness file bigger than this is fingerprinted by its lstat instead of its content.
const MAX_READ_BYTES = 16 * 1024 * 1024;

const SKIPPED_DIRECTORIES = new Set([".git", ".hg", ".svn", "node_modules", ".venv", "venv", ".tox", ".nox"]);

// Places any process may write, and home directories (the sandbox's are private to the agent).
const WRITABLE_ELSEWHERE = /^(?:\/tmp|\/var\/tmp|\/dev\/shm|\/run\/shm|\/run\/user|\/root|\/home)(?:\/|$)/;

/**
 * Does a link at `path` (inside `root`) whose text is `target` leave the workspace for a place the
 * agent can write? A scratch place or a home directory, or a target that does not exist here (a
 * link into the sandbox's private /tmp dangles on the host) does; a toolchain path that exists
 * (`/usr/bin/python3`) does not.
 */
export async function escapingLink(root: string, path: string, target: string): Promise<boolean> {
  const absolute = resolve(dirname(join(root, path)), target);
  const inside = (p: string): boolean => p === root || p.startsWith(root.endsWith("/") ? root : `${root}/`);
  const real = await realpath(absolute).catch(() => null);
  if (real === null) return !inside(absolute);
  return !inside(real) && WRITABLE_ELSEWHERE.test(real);
}

/** Scans one workspace again and again, reading only what changed. */
export class HarnessScanner {
  readonly #root: string;
  readonly #cache = new Map<string, { fingerprint: string; digest: string | null }>();

  constructor(root: string) {
    this.#root = root;
  }

  /** The harness and the escaping links as they are now; rejects when the tree cannot be walked or is too big. */
  async scan(): Promise<WorkspaceScan> {
    const candidates: string[] = [];
    const links: string[] = [];
    await this.#walk(this.#root, candidates, links, { entries: 0 });
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
    const escaping: string[] = [];
    for (const link of links) {
      const target = await readlink(join(this.#root, link)).catch(() => null);
      if (target !== null && (await escapingLink(this.#root, link, target))) escaping.push(link);
    }
    return { harness: digest, escapingLinks: escaping.sort() };
  }

  /**
   * Scans, then marks the line's runs whose harness differs from `baseline` (the session's), all of
   * them when the tree or the baseline could not be read, and all while a link leaves the workspace.
   */
  async mark(analysis: CommandAnalysis, baseline: HarnessDigest | null): Promise<void> {
    markWorkspaceScan(analysis, baseline, await this.scan().catch(() => null));
  }

  async #walk(dir: string, out: string[], links: string[], count: { entries: number }): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    count.entries += entries.length;
    if (count.entries > MAX_SCANNED_ENTRIES) throw new Error(`more than ${MAX_SCANNED_ENTRIES} entries in the workspace`);
    const subdirectories: string[] = [];
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const rel = relative(this.#root, path);
      if (isRunnerByproduct(rel)) continue;
      if (entry.isSymbolicLink()) links.push(rel);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) subdirectories.push(path);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && isHarnessCandidate(entry.name)) out.push(rel);
    }
    for (const sub of subdirectories) await this.#walk(sub, out, links, count);
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
