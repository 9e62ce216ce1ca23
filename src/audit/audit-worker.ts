// Worker thread of `agent-evidence audit`: audits the files it is sent, one message per file.
import { parentPort } from "node:worker_threads";

import { auditFile, readTranscriptFile } from "./audit-pool.js";

/** A request to a worker: audit these files. */
export interface AuditWorkerRequest {
  id: number;
  paths: string[];
}

parentPort?.on("message", (request: AuditWorkerRequest) => {
  parentPort?.postMessage({ id: request.id, results: request.paths.map((path) => auditFile(path, readTranscriptFile)) });
});
