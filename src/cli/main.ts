#!/usr/bin/env node
import { setFlagsFromString } from "node:v8";
import { EXIT_INTERNAL } from "./exit-codes.js";

// A CLI call is short and parses a few command lines: V8's optimising tier for the bash grammar's
// WebAssembly (TurboFan, compiled in the background while the call runs) cost about two thirds of a
// Stop hook's CPU (1.5 s user against 0.45 s, 110 MB against 72 MB). Liftoff alone compiles it in a
// fraction of that. Set before the grammar is imported: program.js is loaded after this line.
setFlagsFromString("--liftoff-only");
const { runCli } = await import("./program.js");

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
