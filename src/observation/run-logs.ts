// The output every recorded test run was judged on, kept as a file with its SHA-256, for as long as
// the evidence lives (the bash tool keeps only its last calls' logs, in a temporary directory). The
// hash is taken from the bytes as written, before anyone else could touch the file: a bundle copies
// the file and checks it against that hash (bundle.ts).
import { createHash } from "node:crypto";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { EvidenceError } from "../errors.js";
import { trackTempDir } from "../tools/process-registry.js";

/** One kept log: the records it proves, where it is and what it hashed to when written. */
export interface RunLog {
  /** The `seq` of every record the run made (one run line can make several). */
  records: number[];
  /** The file's absolute path. */
  path: string;
  sha256: string;
  bytes: number;
}

/** A run whose log is not kept, and why. */
export interface MissingRunLog {
  records: number[];
  reason: string;
}

/** The logs of one evidence, in record order. */
export class RunLogStore {
  readonly #given: string | undefined;
  #dir: string | undefined;
  readonly #logs: RunLog[] = [];
  readonly #missing: MissingRunLog[] = [];

  /** `dir`: the caller's directory (kept after close); without it, a private temporary one (removed on close and at exit). */
  constructor(dir: string | undefined) {
    if (dir !== undefined && (typeof dir !== "string" || dir === ""))
      throw new EvidenceError("E_INVALID_OPTION", `BashEvidence option "logsDir" must be a directory path; got ${JSON.stringify(dir)}.`);
    this.#given = dir;
  }

  /** Keeps `output` as the log of the records `seqs`. Never throws: a log that could not be written is listed as missing. */
  async keep(seqs: number[], output: string): Promise<void> {
    if (seqs.length === 0) return;
    const bytes = Buffer.from(output, "utf8");
    try {
      const path = join(this.#directory(), `run-${seqs[0]}.log`);
      await writeFile(path, bytes, { flag: "wx", mode: 0o600 });
      this.#logs.push({ records: [...seqs], path, sha256: createHash("sha256").update(bytes).digest("hex"), bytes: bytes.length });
    } catch (error) {
      this.#missing.push({
        records: [...seqs],
        reason: `the log could not be written (${error instanceof Error ? error.message : String(error)})`,
      });
    }
  }

  /** Records whose run this store never saw (restored from a journal). */
  notSeen(seqs: number[], reason: string): void {
    if (seqs.length > 0) this.#missing.push({ records: [...seqs], reason });
  }

  get logs(): RunLog[] {
    return this.#logs.map((log) => ({ ...log, records: [...log.records] }));
  }

  get missing(): MissingRunLog[] {
    return this.#missing.map((entry) => ({ ...entry, records: [...entry.records] }));
  }

  /** Removes the private directory (a caller's `logsDir` stays, with its logs). */
  close(): void {
    if (this.#given === undefined && this.#dir !== undefined) rmSync(this.#dir, { recursive: true, force: true, maxRetries: 3 });
  }

  #directory(): string {
    if (this.#dir !== undefined) return this.#dir;
    if (this.#given !== undefined) {
      this.#dir = realpathSync(this.#given);
      return this.#dir;
    }
    const dir = mkdtempSync(join(tmpdir(), "agent-evidence-logs-"));
    trackTempDir(dir);
    this.#dir = dir;
    return dir;
  }
}
