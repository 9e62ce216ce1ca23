// `agent-evidence run`: a fail-closed test verdict for CI or an agent's test tool.
import { statSync } from "node:fs";

import type { Command } from "commander";
import { quote } from "shell-quote";

import { EvidenceError } from "../errors.js";

interface RunFlags {
  cmd?: string;
  junit?: string;
  log?: string;
  out?: string;
  verdict?: string;
  cwd?: string;
  timeout?: string;
  instrument: boolean;
}

/** Registers `agent-evidence run`. */
export function registerRunCommand(program: Command): void {
  program
    .command("run")
    .description("run a test suite, keep the complete log, and write a fail-closed verdict.json")
    .usage('[options] -- COMMAND...  |  run --cmd "COMMAND STRING" [options]')
    .option("--cmd <command>", "the command line as one string")
    .option("--junit <file>", "JUnit XML report to read (default: report.xml when the run wrote it)")
    .option(
      "--out <dir>",
      "directory for verdict.json, suite.log and the JUnit report run adds (default: a new directory under $XDG_STATE_HOME/agent-evidence/runs, named on stderr)",
    )
    .option("--log <file>", "where to keep the complete output (default: suite.log in --out)")
    .option("--verdict <file>", "where to write the verdict (default: verdict.json in --out)")
    .option("--cwd <dir>", "directory to run in")
    .option("--timeout <seconds>", "kill the whole process group after this many seconds")
    .option("--no-instrument", "do not add --junitxml to a pytest command")
    .argument("[command...]", "the command and its arguments (after --)")
    .action(async (words: string[], flags: RunFlags) => {
      if (flags.cmd !== undefined && words.length > 0)
        throw new EvidenceError("E_USAGE", "give the command either with --cmd or after --, not both");
      const command = flags.cmd ?? (words.length > 0 ? quote(words) : undefined);
      if (command === undefined || command.trim() === "")
        throw new EvidenceError("E_USAGE", "missing command: agent-evidence run [options] -- COMMAND...");
      let timeoutSeconds: number | undefined;
      if (flags.timeout !== undefined) {
        timeoutSeconds = Number(flags.timeout);
        if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
          throw new EvidenceError("E_USAGE", `--timeout must be a positive number of seconds, got ${JSON.stringify(flags.timeout)}`);
      }
      if (flags.cwd !== undefined && !isDirectory(flags.cwd)) throw new EvidenceError("E_USAGE", `--cwd ${flags.cwd} is not a directory`);
      // Loaded when the command runs: the CLI starts without every command's modules (memory, hook latency).
      const [{ runVerdict }, { verdictExitCode }, { shellExitCode }] = await Promise.all([
        import("../verdict/run-verdict.js"),
        import("../verdict/schema.js"),
        import("../process/process-group.js"),
      ]);
      // SIGINT, SIGTERM and SIGHUP stop the suite's group and leave an `incomplete` verdict; the exit
      // status is then the signal's (128 + N), as a shell reports a killed command.
      const controller = new AbortController();
      let caught: NodeJS.Signals | null = null;
      const onSignal = (signal: NodeJS.Signals): void => {
        caught ??= signal;
        controller.abort();
      };
      const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
      for (const signal of signals) process.on(signal, onSignal);
      const verdict = await runVerdict({
        command,
        cwd: flags.cwd,
        junit: flags.junit,
        outDir: flags.out,
        log: flags.log,
        out: flags.verdict,
        // Named on stderr before the suite's output, once the paths are known to be writable.
        onArtefacts: ({ log, verdict }) => process.stderr.write(`agent-evidence run: verdict ${verdict}, log ${log}\n`),
        timeoutSeconds,
        instrument: flags.instrument,
        // The suite's output goes to stderr: stdout holds only the one JSON line.
        echoBytes: (chunk) => process.stderr.write(chunk),
        progress: process.stderr,
        signal: controller.signal,
      }).finally(() => {
        for (const signal of signals) process.off(signal, onSignal);
      });
      process.stdout.write(JSON.stringify(verdict) + "\n");
      process.exitCode = caught === null ? verdictExitCode(verdict) : shellExitCode(null, caught);
    });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
