// `agent-evidence verify-bundle`: does an evidence bundle still hash as its manifest says?
import type { Command } from "commander";

/** Registers `agent-evidence verify-bundle`. */
export function registerVerifyBundleCommand(program: Command): void {
  program
    .command("verify-bundle")
    .description("re-hash every file an evidence bundle's manifest lists; exit 0 when all still match, 1 when not")
    .argument("<dir>", "the bundle directory (exportBundle's, or the .evidence beside a runCandidate worktree)")
    .action(async (dir: string) => {
      const { verifyEvidenceBundle } = await import("../observation/bundle.js");
      const result = verifyEvidenceBundle(dir);
      process.stdout.write(JSON.stringify({ ok: result.ok, problems: result.problems }) + "\n");
      process.exitCode = result.ok ? 0 : 1;
    });
}
