import { Command, CommanderError } from "commander";
import { createRequire } from "node:module";
import { commands } from "./commands.js";

/** Exit status for usage errors, everywhere in the CLI (BSD sysexits EX_USAGE). */
export const EXIT_USAGE = 64;

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
  return program;
}

// Every command (and subcommand) throws instead of exiting, so runCli can map usage errors to 64.
function applyUsageExit(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) applyUsageExit(sub);
}

/** Runs the CLI with `argv` (without node and script) and returns the exit status. */
export async function runCli(argv: readonly string[]): Promise<number> {
  const program = createProgram();
  try {
    await program.parseAsync([...argv], { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help") return 0;
      process.stderr.write(`agent-evidence: ${error.message.replace(/^error: /, "")}\n`);
      // Our own errors carry their status (65: input over a cap); commander's are usage errors.
      return error.code.startsWith("agent-evidence.") ? error.exitCode : EXIT_USAGE;
    }
    throw error;
  }
}

/** A usage error raised by a subcommand's own validation: exits 64 with one line. */
export class UsageError extends CommanderError {
  constructor(message: string) {
    super(EXIT_USAGE, "agent-evidence.usage", message);
  }
}
