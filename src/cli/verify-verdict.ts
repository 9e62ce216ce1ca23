// `agent-evidence verify-verdict`: does a verdict still match the files on disk?
import type { Command } from "commander";

/** Registers `agent-evidence verify-verdict`. */
export function registerVerifyVerdictCommand(program: Command): void {
  program
    .command("verify-verdict")
    .description("re-hash the log and report a verdict names; exit 0 when they still match, 1 when not")
    .argument("<verdict>", "path to verdict.json")
    .action(async (path: string) => {
      const { verifyVerdictFile } = await import("../verdict/verify.js");
      const result = verifyVerdictFile(path);
      process.stdout.write(JSON.stringify({ ok: result.ok, problems: result.problems, status: result.verdict?.status ?? null }) + "\n");
      process.exitCode = result.ok ? 0 : 1;
    });
}
