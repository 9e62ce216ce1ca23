// `agent-evidence hook claude-stop | codex-stop | claude-post-tool-use | install | uninstall`.
import { fileURLToPath } from "node:url";

import { type Command, Option } from "commander";

import type { InstallHooksResult } from "../audit/hooks/install.js";
import type { HookRunResult } from "../audit/hooks/post-tool-use.js";
import type { HookClient } from "../audit/hooks/stop.js";
import { EvidenceError } from "../errors.js";
import { NamedFileError } from "../io/named-files.js";
import { readBoundedStdin } from "./bounded-input.js";

/** The largest hook payload read from stdin (a PostToolUse payload carries the tool's output): 16 MiB. */
export const MAX_HOOK_STDIN_BYTES = 16 << 20;

// Over the cap (null) the hooks allow (Stop) or record nothing (post-tool-use), exit 0, and say why
// on stderr: a hook must never trap an agent.
async function readStdin(): Promise<string | null> {
  try {
    return (await readBoundedStdin(MAX_HOOK_STDIN_BYTES, "the hook's stdin")).toString("utf8");
  } catch (error) {
    if (error instanceof NamedFileError && error.code === "EFBIG") return null;
    throw error;
  }
}

const overCap = `stdin is larger than ${MAX_HOOK_STDIN_BYTES >> 20} MiB; not read`;

function emit(result: HookRunResult): void {
  if (result.stdout !== "") process.stdout.write(result.stdout);
  if (result.stderr !== "") process.stderr.write(result.stderr);
  process.exitCode = result.exitCode;
}

// A dry run prints the settings as pure JSON on stdout (the file and what would change go to stderr).
function reportSettingsChange(result: InstallHooksResult, dryRun: boolean, done: string, already: string): void {
  if (dryRun) {
    process.stderr.write(`agent-evidence: ${result.path} (dry run, ${result.changed ? "would change" : "no change"})\n`);
    process.stdout.write(result.after);
  } else if (!result.changed) {
    process.stdout.write(`${result.path}: hooks ${already}, nothing changed\n`);
  } else {
    process.stdout.write(`${result.path}: hooks ${done}${result.backup === null ? "" : ` (backup: ${result.backup})`}\n`);
  }
}

/** Registers `agent-evidence hook ...`. */
export function registerHookCommand(program: Command): void {
  const hook = program.command("hook").description("Stop / PostToolUse hooks for Claude Code and Codex, and their installer.");
  for (const client of ["claude", "codex"] as const satisfies readonly HookClient[]) {
    hook
      .command(`${client}-stop`)
      .description(
        `${client === "claude" ? "Claude Code" : "Codex"} Stop hook: reads the hook JSON on stdin; blocks a stop that hides a failing or stale test run.`,
      )
      .option("--strict", "also block (once) on a pass claim that no test run backs")
      .action(async (options: { strict?: boolean }) => {
        const { runStopHook } = await import("../audit/hooks/stop.js");
        const stdin = await readStdin();
        emit(
          stdin === null
            ? {
                stdout: client === "codex" ? "{}\n" : "",
                stderr: `agent-evidence hook ${client}-stop: ${overCap}, allowing the stop\n`,
                exitCode: 0,
              }
            : runStopHook(client, stdin, { strict: options.strict === true }),
        );
      });
  }
  hook
    .command("claude-post-tool-use")
    .description("Claude Code PostToolUse / PostToolUseFailure hook: records Bash results and edits for the Stop hook.")
    .action(async () => {
      const { runPostToolUseHook } = await import("../audit/hooks/post-tool-use.js");
      const stdin = await readStdin();
      emit(
        stdin === null
          ? { stdout: "", stderr: `agent-evidence hook claude-post-tool-use: nothing recorded: ${overCap}\n`, exitCode: 0 }
          : runPostToolUseHook(stdin),
      );
    });
  hook
    .command("install")
    .description("Add the hooks to the client's settings (merged; the old file is kept as a backup).")
    .addOption(new Option("--client <client>", "claude or codex").choices(["claude", "codex"]).makeOptionMandatory())
    .option("--project <dir>", "install into this project's settings instead of the user's")
    .option("--dry-run", "print the new settings (JSON on stdout) without writing them")
    .option("--strict", "install the Stop hook with --strict (also block once on a pass claim no run backs)")
    .option(
      "--command <words>",
      "how the hooks call agent-evidence (default: agent-evidence when PATH finds this copy, else this copy's absolute path)",
    )
    .action(async (options: { client: HookClient; project?: string; dryRun?: boolean; strict?: boolean; command?: string }) => {
      const { hookExecutable, installHooks } = await import("../audit/hooks/install.js");
      const executable =
        options.command === undefined ? hookExecutable(fileURLToPath(new URL("./main.js", import.meta.url)), process.env.PATH) : null;
      let result;
      try {
        result = installHooks({
          client: options.client,
          ...(options.project === undefined ? {} : { project: options.project }),
          dryRun: options.dryRun === true,
          strict: options.strict === true,
          executable: options.command ?? executable!.command,
        });
      } catch (error) {
        process.stderr.write(`agent-evidence: hook install: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exitCode = 1;
        return;
      }
      if (executable?.kind === "absolute") {
        const why =
          executable.reason === "other-copy-on-path"
            ? `the agent-evidence on PATH (${executable.found}) is another copy`
            : "agent-evidence is not on PATH";
        process.stderr.write(
          `agent-evidence: hook install: ${why}; the hooks call ${executable.command} (move it, and they fail: reinstall, or pass --command)\n`,
        );
      }
      reportSettingsChange(result, options.dryRun === true, "installed", "already installed");
    });
  hook
    .command("uninstall")
    .description("Remove agent-evidence's hooks from the client's settings (other hooks kept; the old file is kept as a backup).")
    .addOption(new Option("--client <client>", "claude or codex").choices(["claude", "codex"]).makeOptionMandatory())
    .option("--project <dir>", "remove them from this project's settings instead of the user's")
    .option("--dry-run", "print the new settings (JSON on stdout) without writing them")
    .action(async (options: { client: HookClient; project?: string; dryRun?: boolean }) => {
      const { uninstallHooks } = await import("../audit/hooks/install.js");
      let result;
      try {
        result = uninstallHooks({
          client: options.client,
          ...(options.project === undefined ? {} : { project: options.project }),
          dryRun: options.dryRun === true,
        });
      } catch (error) {
        process.stderr.write(`agent-evidence: hook uninstall: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exitCode = 1;
        return;
      }
      reportSettingsChange(result, options.dryRun === true, "removed", "not installed");
    });
  hook.action(() => {
    throw new EvidenceError("E_USAGE", "hook: name a subcommand: claude-stop, codex-stop, claude-post-tool-use, install or uninstall");
  });
}
