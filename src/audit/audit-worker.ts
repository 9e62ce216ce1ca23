// Worker thread of `agent-evidence audit`: audits the files it is sent, one message per file.
import { readFileSync } from "node:fs";
import { parentPort } from "node:worker_threads";
import { auditFile } from "./audit-pool.js";

/** A request to a worker: audit these files. */
export interface AuditWorkerRequest {
  id: number;
  paths: string[];
}

parentPort?.on("message", (request: AuditWorkerRequest) => {
  parentPort?.postMessage({ id: request.id, results: request.paths.map((path) => auditFile(path, readFileSync)) });
});
