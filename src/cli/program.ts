import { createRequire } from "node:module";

import { Command, CommanderError } from "commander";

import { isEvidenceError } from "../errors.js";
import { NamedFileError } from "../io/named-files.js";
import { commands } from "./commands.js";
import { CLI_EXITS, type CliCommand, EXIT_USAGE, exitStatusHelp, fileErrorExitStatus } from "./exit-codes.js";

const require = createRequire(import.meta.url);
const { version } = require("../../package.json") as { version: string };

/** Builds the root `agent-evidence` program with every registered subcommand. */
export function createProgram(): Command {
  const program = new Command("agent-evidence")
    .description("Honest test evidence for coding agents.")
    .version(version, "-V, --version")
    .showSuggestionAfterError(false)
    .configureOutput({ outputError: () => undefined });
  for (const register of commands) register(program);
  applyUsageExit(program);
  addExitStatusHelp(program);
  return program;
}

// Every command's --help ends with its exit statuses (src/cli/exit-codes.ts, the one table of them).
function addExitStatusHelp(command: Command): void {
  const name = command.parent === null ? "(no command)" : commandName(command);
  if (name in CLI_EXITS) command.addHelpText("after", exitStatusHelp(name as CliCommand));
  for (const sub of command.commands) addExitStatusHelp(sub);
}

// The running command's name as the exit tables spell it ("hook install"), for error lines.
function commandName(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at !== null && at.parent !== null; at = at.parent) names.unshift(at.name());
  return names.join(" ");
}

// Every command (and subcommand) throws instead of exiting, so runCli can map usage errors to 64.
function applyUsageExit(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) applyUsageExit(sub);
}

/** Runs the CLI with `argv` (without node and script) and returns the exit status. */
export async function runCli(argv: readonly string[]): Promise<number> {
  const program = createProgram();
  let running = "";
  program.hook("preAction", (_root, action) => {
    running = commandName(action);
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    // A named file (or stdin) that was not read or written: one line, and its status from the exit table.
    if (error instanceof NamedFileError) {
      process.stderr.write(`agent-evidence: ${running === "" ? "" : `${running}: `}${error.message}\n`);
      return fileErrorExitStatus(error);
    }
    // A subcommand's own usage error (an EvidenceError `E_USAGE`) and commander's: one line, 64.
    const usage = isEvidenceError(error, "E_USAGE") || error instanceof CommanderError;
    if (
      error instanceof CommanderError &&
      (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help")
    )
      return 0;
    if (usage) {
      process.stderr.write(`agent-evidence: ${(error as Error).message.replace(/^error: /, "")}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
}
