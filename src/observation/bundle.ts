// Evidence bundles: the records, the per-test view and the log of every recorded run, copied into one
// directory with a manifest of SHA-256 hashes, so the evidence outlives the process that made it and
// a later check (`verifyEvidenceBundle`, `agent-evidence verify-bundle`) can tell whether any file
// changed since. The hashes prove integrity against the manifest, not who wrote it: keep the bundle
// (or the manifest's own hash, which export returns) where the agent's tools cannot write.
import { createHash } from "node:crypto";
import { constants, readdirSync } from "node:fs";
import { copyFile, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { z } from "zod/v4";

import { EvidenceError } from "../errors.js";
import type { TestView } from "../evidence/test-view.js";
import { hashRegularFile, NamedFileError, readRegularFile } from "../io/named-files.js";
import type { VerificationRecord } from "../types.js";
import type { MissingRunLog, RunLog } from "./run-logs.js";

/** The manifest's format name and version. */
export const BUNDLE_FORMAT = "agent-evidence-bundle";
export const BUNDLE_VERSION = 1;
/** The largest manifest read: 16 MiB. */
export const MAX_MANIFEST_BYTES = 16 << 20;
/** The largest records.json read when a bundle is checked: 256 MiB. */
const MAX_RECORDS_BYTES = 256 << 20;

// A path inside the bundle: one or two plain segments, no dot segments, nothing absolute.
const bundlePath = z.string().regex(/^(?!\.)[A-Za-z0-9._-]+(?:\/(?!\.)[A-Za-z0-9._-]+)?$/);
const fileEntry = z
  .object({ path: bundlePath, sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.number().int().nonnegative() })
  .strict();
const seqs = z.array(z.number().int().positive());

/** The manifest of a bundle (manifest.json). */
export const bundleManifestSchema = z
  .object({
    format: z.literal(BUNDLE_FORMAT),
    version: z.literal(BUNDLE_VERSION),
    createdAt: z.string(),
    workspace: z.string().nullable(),
    /** Every file of the bundle but the manifest, with its hash. */
    files: z.array(fileEntry),
    /** Which records each kept log proves. */
    logs: z.array(z.object({ records: seqs, path: bundlePath }).strict()),
    /** Runs whose log the bundle does not hold, and why. */
    missingLogs: z.array(z.object({ records: seqs, reason: z.string() }).strict()),
  })
  .strict();

export type EvidenceBundleManifest = z.infer<typeof bundleManifestSchema>;

/** What goes into a bundle. */
export interface EvidenceBundleContent {
  workspace: string | null;
  records: readonly VerificationRecord[];
  tests: TestView;
  logs: readonly RunLog[];
  missing: readonly MissingRunLog[];
  /** More files the caller adds (plain names, e.g. `patch.diff`), hashed like the rest. */
  extra?: Readonly<Record<string, string>>;
}

/** An exported bundle: where it is, its manifest, and the manifest's own hash (keep it to pin the bundle). */
export interface EvidenceBundle {
  dir: string;
  manifest: EvidenceBundleManifest;
  manifestSha256: string;
}

const RESERVED = new Set(["manifest.json", "records.json", "tests.json", "logs"]);

/**
 * Writes a bundle into `dir` (created if missing; it must be empty). A kept log that no longer hashes
 * as it did when the run was recorded is not copied: it is listed in `missingLogs` with the reason.
 * @example const { manifestSha256 } = await exportEvidenceBundle("/evidence/a", content);
 */
export async function exportEvidenceBundle(dir: string, content: EvidenceBundleContent): Promise<EvidenceBundle> {
  if (typeof dir !== "string" || dir === "")
    throw new EvidenceError("E_INVALID_OPTION", `exportBundle needs a directory path; got ${JSON.stringify(dir)}.`);
  for (const name of Object.keys(content.extra ?? {})) {
    if (RESERVED.has(name) || !bundlePath.safeParse(name).success || name.includes("/"))
      throw new EvidenceError(
        "E_INVALID_OPTION",
        `exportBundle: extra file name ${JSON.stringify(name)} is reserved or not a plain file name.`,
      );
  }
  try {
    await mkdir(dir, { recursive: true });
    if ((await readdir(dir)).length > 0)
      throw new EvidenceError("E_INVALID_OPTION", `exportBundle: ${dir} is not empty; export into a new or empty directory.`);
    await mkdir(join(dir, "logs"));
  } catch (error) {
    if (error instanceof EvidenceError) throw error;
    throw new EvidenceError("E_IO", `exportBundle: cannot use ${dir} (${error instanceof Error ? error.message : String(error)}).`, {
      cause: error,
    });
  }
  const files: EvidenceBundleManifest["files"] = [];
  const logs: EvidenceBundleManifest["logs"] = [];
  const missingLogs: EvidenceBundleManifest["missingLogs"] = content.missing.map((m) => ({ records: [...m.records], reason: m.reason }));
  const put = async (path: string, text: string): Promise<void> => {
    const bytes = Buffer.from(text, "utf8");
    await writeFile(join(dir, path), bytes, { flag: "wx", mode: 0o600 });
    files.push({ path, sha256: sha256(bytes), bytes: bytes.length });
  };
  for (const log of content.logs) {
    const path = `logs/run-${log.records[0]}.log`;
    const reason = await copyLog(log, join(dir, path));
    if (reason === null) {
      files.push({ path, sha256: log.sha256, bytes: log.bytes });
      logs.push({ records: [...log.records], path });
    } else {
      missingLogs.push({ records: [...log.records], reason });
    }
  }
  await put("records.json", JSON.stringify(content.records, null, 2) + "\n");
  await put("tests.json", JSON.stringify(content.tests, null, 2) + "\n");
  for (const [name, text] of Object.entries(content.extra ?? {})) await put(name, text);
  const manifest: EvidenceBundleManifest = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    createdAt: new Date().toISOString(),
    workspace: content.workspace,
    files,
    logs,
    missingLogs,
  };
  const text = JSON.stringify(manifest, null, 2) + "\n";
  await writeFile(join(dir, "manifest.json"), text, { flag: "wx", mode: 0o600 });
  return { dir, manifest, manifestSha256: sha256(Buffer.from(text, "utf8")) };
}

// Copies a kept log and checks the copy against the hash taken when the run was recorded; null when
// it matches, else why it is not in the bundle.
async function copyLog(log: RunLog, to: string): Promise<string | null> {
  try {
    await copyFile(log.path, to, constants.COPYFILE_EXCL);
    if (hashRegularFile(to) === log.sha256) return null;
    await rm(to, { force: true });
    return "the kept log changed after the run was recorded (its SHA-256 differs); not exported";
  } catch (error) {
    await rm(to, { force: true }).catch(() => undefined);
    return `the kept log could not be copied (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** The result of {@link verifyEvidenceBundle}. */
export interface VerifyBundleResult {
  ok: boolean;
  problems: string[];
  manifest: EvidenceBundleManifest | null;
}

/**
 * Re-hashes every file a bundle's manifest names and lists what no longer matches: a file changed,
 * missing or not a regular file, a file the manifest does not list, a record without a log entry.
 * @example verifyEvidenceBundle("/evidence/a") // { ok: false, problems: ["changed: logs/run-1.log"], manifest }
 */
export function verifyEvidenceBundle(dir: string): VerifyBundleResult {
  let manifest: EvidenceBundleManifest;
  try {
    manifest = bundleManifestSchema.parse(
      JSON.parse(
        readRegularFile(join(dir, "manifest.json"), { cap: MAX_MANIFEST_BYTES, name: join(dir, "manifest.json") }).toString("utf8"),
      ),
    );
  } catch (error) {
    if (error instanceof NamedFileError) return { ok: false, problems: [error.message], manifest: null };
    return {
      ok: false,
      problems: [`manifest does not parse: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`],
      manifest: null,
    };
  }
  const problems: string[] = [];
  const listed = new Set(manifest.files.map((f) => f.path));
  const bad = new Set<string>();
  for (const file of manifest.files) {
    const problem = checkFile(join(dir, file.path), file.sha256);
    if (problem !== null) {
      bad.add(file.path);
      problems.push(`${problem}: ${file.path}`);
    }
  }
  for (const path of filesOnDisk(dir)) if (!listed.has(path)) problems.push(`not in the manifest: ${path}`);
  for (const log of manifest.logs) if (!listed.has(log.path)) problems.push(`log not hashed: ${log.path}`);
  if (!listed.has("records.json")) problems.push("records.json is not in the manifest");
  else if (!bad.has("records.json")) {
    const seqs = recordSeqs(join(dir, "records.json"));
    const covered = new Set([...manifest.logs, ...manifest.missingLogs].flatMap((entry) => entry.records));
    if (seqs === null) problems.push("records.json does not parse as a list of records");
    else for (const seq of seqs) if (!covered.has(seq)) problems.push(`record ${seq} has no log entry`);
  }
  return { ok: problems.length === 0, problems, manifest };
}

// The bundle's files as bundle paths: the top level and logs/ (a bundle holds nothing deeper).
function filesOnDisk(dir: string): string[] {
  const found: string[] = [];
  const walk = (sub: string): void => {
    let entries;
    try {
      entries = readdirSync(join(dir, sub), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = sub === "" ? entry.name : `${sub}/${entry.name}`;
      if (path === "manifest.json") continue;
      if (entry.isDirectory() && sub === "" && entry.name === "logs") walk("logs");
      else found.push(path);
    }
  };
  walk("");
  return found.sort();
}

// What is wrong with a listed file, or null when it hashes as listed.
function checkFile(path: string, expected: string): string | null {
  try {
    return hashRegularFile(path) === expected ? null : "changed";
  } catch (error) {
    const code = error instanceof NamedFileError ? error.code : "EIO";
    return code === "ENOENT" ? "missing" : `unreadable (${code})`;
  }
}

function recordSeqs(path: string): number[] | null {
  try {
    const records = JSON.parse(readRegularFile(path, { cap: MAX_RECORDS_BYTES }).toString("utf8")) as unknown;
    if (!Array.isArray(records)) return null;
    const seqs = records.map((r) => (typeof r === "object" && r !== null ? (r as { seq?: unknown }).seq : undefined));
    return seqs.every((seq): seq is number => typeof seq === "number") ? seqs : null;
  } catch {
    return null;
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
