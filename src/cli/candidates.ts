// `agent-evidence candidates rank`: ranks existing candidate worktrees for pipelines not written in
// TypeScript. JSON on stdout, a one-line summary on stderr; exit 0 when one candidate is ranked first
// alone and green, 1 when none is green, 2 when the first place is tied or not green.
import { statSync } from "node:fs";
import type { Command } from "commander";
import { UsageError } from "./program.js";

/** Registers `agent-evidence candidates rank`. */
export function registerCandidatesCommand(program: Command): void {
  const candidates = program.command("candidates").description("rank candidate worktrees by their evidence");
  candidates
    .command("rank")
    .description("run one verify command in each worktree (and once on --base), then rank by per-test results against the base")
    .argument("<worktree...>", "the candidates' worktrees")
    .option("--verify <command>", "the command every worktree is verified with (required)")
    .option("--base <ref>", "the revision the candidates started from: verified once, and what patches are measured against")
    .option("--timeout <ms>", "the verify command's timeout per worktree", (value: string) => {
      if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`candidates rank: --timeout must be a positive number of ms; got ${JSON.stringify(value)}`);
      return Number(value);
    })
    .action(async (worktrees: string[], options: { verify?: string; base?: string; timeout?: number }) => {
      if (options.verify === undefined || options.verify.trim() === "") {
        throw new UsageError("candidates rank: --verify is required (ranking on evidence the worktrees already hold is not supported yet)");
      }
      for (const worktree of worktrees) if (!isDirectory(worktree)) throw new UsageError(`candidates rank: ${worktree} is not a directory`);
      const { rankWorktrees } = await import("../candidates/rank-worktrees.js");
      const { evidenceTools } = await import("../tools/evidence-tools.js");
      let ranked;
      try {
        ranked = await rankWorktrees({
          worktrees,
          verify: { command: options.verify, ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout }) },
          ...(options.base === undefined ? {} : { base: options.base }),
          createToolset: (dir) => evidenceTools(["bash"], { cwd: dir }),
        });
      } catch (error) {
        const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
        throw new UsageError(`candidates rank: ${why}`);
      }
      const json = {
        candidates: ranked.map((c) => ({ worktree: c.worktree, rank: c.rank, status: c.status, failToPass: c.tests.failToPass, passToPass: c.tests.passToPass, passToFail: c.tests.passToFail, failToFail: c.tests.failToFail, reasons: c.reasons })),
      };
      process.stdout.write(`${JSON.stringify(json)}\n`);
      process.stderr.write(`candidates rank: ${ranked.map((c) => `${c.rank}. ${c.worktree} (${c.status}, ${c.tests.passToFail.length} regression(s), ${c.tests.failToPass.length} fixed)`).join("; ")}\n`);
      const first = ranked.filter((c) => c.rank === 1);
      process.exitCode = !ranked.some((c) => c.status === "green") ? 1 : first.length === 1 && first[0]!.status === "green" ? 0 : 2;
    });
}

// A directory we may stat (a FIFO or a device is only stat'ed, never opened).
function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
