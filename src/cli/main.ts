#!/usr/bin/env node
import { runCli } from "./program.js";

try {
  process.exitCode = await runCli(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`agent-evidence: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 70;
}
