#!/usr/bin/env node
import { EXIT_INTERNAL, outputWriteExitStatus } from "./exit-codes.js";
import { runCli } from "./program.js";

// An error nothing caught (a stream's "error" event, a rejected promise) ends the run with one line
// and EX_SOFTWARE, never with node's stack trace. A failed write to stdout or stderr is EX_IOERR
// instead (the answer did not reach its reader; not a bug), said on stderr unless the reader closed
// the pipe on purpose (`agent-evidence --help | head -1`).
const fail = (error: unknown): number => {
  const message = error instanceof Error ? error.message : String(error);
  const outputStatus = outputWriteExitStatus(error);
  if (outputStatus === null) process.stderr.write(`agent-evidence: internal error: ${message}\n`);
  else if ((error as NodeJS.ErrnoException).code !== "EPIPE") process.stderr.write(`agent-evidence: cannot write the output: ${message}\n`);
  return outputStatus ?? EXIT_INTERNAL;
};
const uncaught = (error: unknown): void => {
  process.exit(fail(error));
};
process.on("uncaughtException", uncaught);
process.on("unhandledRejection", uncaught);

try {
  process.exitCode = await runCli(process.argv.slice(2));
} catch (error) {
  process.exitCode = fail(error);
}
