// `agent-evidence triage [FILE]`: the pytest log marker extractor on a file or stdin.
import type { Command } from "commander";

import { readRegularFile } from "../io/named-files.js";
import { readBoundedStdin } from "./bounded-input.js";

/** Registers `agent-evidence triage [FILE]`. */
export function registerTriageCommand(program: Command): void {
  program
    .command("triage")
    .description("Print FAILED / E / AssertionError lines of a pytest log as JSON (triage, not a verdict; zero matches prove nothing).")
    .argument("[file]", "pytest log to read (default: stdin)")
    .action(async (file: string | undefined) => {
      const log = (
        file === undefined ? await readBoundedStdin(MAX_TRIAGE_BYTES) : readRegularFile(file, { cap: MAX_TRIAGE_BYTES })
      ).toString("utf8");
      const { triagePytestLog } = await import("../audit/triage-pytest-log.js");
      const { failed, errors, assertions, failureCount } = triagePytestLog(log);
      process.stdout.write(`${JSON.stringify({ failed, errors, assertions, failureCount })}\n`);
    });
}

/** The largest log `triage` reads (stdin or file): 48 MiB; more exits 65. */
export const MAX_TRIAGE_BYTES = 48 << 20;
