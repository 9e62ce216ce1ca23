// Audits many transcripts across cores with worker threads (in-process when one job is asked for,
// or when running from TypeScript sources, where a worker cannot load the module).
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

import { readRegularFile } from "../io/named-files.js";
import { isPlainFileOnDisk } from "../io/plain-file.js";
import { auditEvents, type SessionAudit } from "./audit-transcript.js";
import { mergeSubagentTranscripts } from "./subagent-files.js";
import { readTranscript } from "./transcripts/read-transcript.js";

/** One file's result: its audit, or why it could not be read. */
export type AuditFileResult = { kind: "audit"; audit: SessionAudit } | { kind: "error"; path: string; error: string };

/** Options of {@link auditFiles}. */
export interface AuditFilesOptions {
  /** Worker threads to use (default: the number of cores). 1 audits in this thread. */
  jobs?: number;
  /** Called with each result in input order. */
  onResult: (result: AuditFileResult, index: number) => void;
  /** Use worker threads even for one job (to measure a single worker). */
  useWorkers?: boolean;
  /** Called after each file with the number done. */
  onProgress?: (done: number, total: number) => void;
}

/** The largest transcript `audit` reads: 48 MiB; a larger one is a read error (`EFBIG`). */
export const MAX_AUDIT_TRANSCRIPT_BYTES = 48 << 20;

/**
 * Reads a transcript for the audit: a regular file of at most {@link MAX_AUDIT_TRANSCRIPT_BYTES}
 * (a FIFO, a device or a larger file throws an error with a `code`: `ENOTREGULAR`, `EFBIG`, ...).
 */
export function readTranscriptFile(path: string): string {
  return readRegularFile(path, { cap: MAX_AUDIT_TRANSCRIPT_BYTES }).toString("utf8");
}

/** Reads and audits one file, with a Claude Code session's subagent files beside it; a read error is a result, not an exception. */
export function auditFile(path: string, read: (path: string, encoding: "utf8") => string): AuditFileResult {
  let text: string;
  try {
    text = read(path, "utf8");
  } catch (error) {
    return { kind: "error", path, error: error instanceof Error && "code" in error ? String(error.code) : String(error) };
  }
  const session = mergeSubagentTranscripts(readTranscript(text), path);
  return {
    kind: "audit",
    audit: auditEvents(session.events, session.finalMessage, {
      path,
      format: session.format,
      problems: session.problems,
      isPlainFile: isPlainFileOnDisk,
    }),
  };
}

const BATCH = 8;

function workerUrl(): URL | null {
  const url = new URL(import.meta.url);
  return url.pathname.endsWith(".js") ? new URL("./audit-worker.js", url) : null;
}

/**
 * Audits `paths` with up to `jobs` worker threads, reporting results in input order.
 * @example await auditFiles(files, { jobs: 2, onResult: (r) => console.log(JSON.stringify(r)) })
 */
export async function auditFiles(paths: readonly string[], options: AuditFilesOptions): Promise<void> {
  const total = paths.length;
  const results = new Array<AuditFileResult | undefined>(total);
  let flushed = 0;
  let done = 0;
  const accept = (index: number, result: AuditFileResult): void => {
    results[index] = result;
    done += 1;
    options.onProgress?.(done, total);
    while (flushed < total && results[flushed] !== undefined) {
      options.onResult(results[flushed]!, flushed);
      results[flushed] = undefined;
      flushed += 1;
    }
  };
  const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), Math.ceil(total / BATCH)));
  const url = workerUrl();
  if ((jobs === 1 && options.useWorkers !== true) || url === null) {
    paths.forEach((path, index) => accept(index, auditFile(path, readTranscriptFile)));
    return;
  }
  let next = 0;
  await Promise.all(
    Array.from(
      { length: jobs },
      () =>
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(url);
          const send = (): void => {
            if (next >= total) {
              void worker.terminate().then(() => resolve());
              return;
            }
            const start = next;
            next = Math.min(total, next + BATCH);
            worker.postMessage({ id: start, paths: paths.slice(start, next) });
          };
          worker.on("message", (message: { id: number; results: AuditFileResult[] }) => {
            message.results.forEach((result, k) => accept(message.id + k, result));
            send();
          });
          worker.on("error", reject);
          send();
        }),
    ),
  );
}
