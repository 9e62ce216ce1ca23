#!/usr/bin/env node
import { EXIT_INTERNAL } from "./exit-codes.js";
import { runCli } from "./program.js";

// An error nothing caught (a stream's "error" event, a rejected promise) ends the run with one line
// and EX_SOFTWARE, never with node's stack trace.
const internalError = (error: unknown): void => {
  process.stderr.write(`agent-evidence: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(EXIT_INTERNAL);
};
process.on("uncaughtException", internalError);
process.on("unhandledRejection", internalError);

try {
  process.exitCode = await runCli(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`agent-evidence: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = EXIT_INTERNAL;
}
