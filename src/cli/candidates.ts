// `agent-evidence candidates rank`: ranks existing candidate worktrees for pipelines not written in
// TypeScript. JSON on stdout, a one-line summary on stderr; exit 0 when one candidate is ranked first
// alone and green, 1 when none is green, 2 when the first place is tied or not green.
import { statSync } from "node:fs";

import type { Command } from "commander";

import type { RankedWorktree } from "../candidates/rank-worktrees.js";
import { EvidenceError } from "../errors.js";

/** Registers `agent-evidence candidates rank`. */
export function registerCandidatesCommand(program: Command): void {
  const candidates = program.command("candidates").description("rank candidate worktrees by their evidence");
  candidates
    .command("rank")
    .description(
      "run one verify command in each worktree (and once on --base), then rank by per-test results against the base; without --verify, rank runCandidate's worktrees on their evidence bundles",
    )
    .argument("<worktree...>", "the candidates' worktrees")
    .option("--verify <command>", "the command every worktree is verified with (without it: the bundles runCandidate wrote)")
    .option("--base <ref>", "the revision the candidates started from: verified once, and what patches are measured against")
    .option("--timeout <ms>", "the verify command's timeout per worktree", (value: string) => {
      if (!/^\d+$/.test(value) || Number(value) < 1)
        throw new EvidenceError("E_USAGE", `candidates rank: --timeout must be a positive number of ms; got ${JSON.stringify(value)}`);
      return Number(value);
    })
    .action(async (worktrees: string[], options: { verify?: string; base?: string; timeout?: number }) => {
      if (options.verify !== undefined && options.verify.trim() === "")
        throw new EvidenceError("E_USAGE", "candidates rank: --verify needs a command");
      if (options.verify === undefined && (options.base !== undefined || options.timeout !== undefined)) {
        throw new EvidenceError(
          "E_USAGE",
          "candidates rank: --base and --timeout need --verify (without it nothing is run: the worktrees' bundles are ranked as they are)",
        );
      }
      for (const worktree of worktrees)
        if (!isDirectory(worktree)) throw new EvidenceError("E_USAGE", `candidates rank: ${worktree} is not a directory`);
      let ranked;
      if (options.verify === undefined) {
        const { rankBundledWorktrees } = await import("../candidates/rank-bundles.js");
        try {
          ranked = await rankBundledWorktrees(worktrees);
        } catch (error) {
          const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
          throw new EvidenceError("E_USAGE", `candidates rank: ${why}`);
        }
      } else {
        ranked = await verifyAndRank(worktrees, { ...options, verify: options.verify });
      }
      const json = {
        candidates: ranked.map((c) => ({
          worktree: c.worktree,
          rank: c.rank,
          status: c.status,
          failToPass: c.tests.failToPass,
          passToPass: c.tests.passToPass,
          passToFail: c.tests.passToFail,
          failToFail: c.tests.failToFail,
          candidateOnly: c.tests.candidateOnly,
          baseOnly: c.tests.baseOnly,
          reasons: c.reasons,
        })),
      };
      process.stdout.write(`${JSON.stringify(json)}\n`);
      process.stderr.write(
        `candidates rank: ${ranked.map((c) => `${c.rank}. ${c.worktree} (${c.status}, ${c.tests.passToFail.length} regression(s), ${c.tests.failToPass.length} fixed)`).join("; ")}\n`,
      );
      const first = ranked.filter((c) => c.rank === 1);
      process.exitCode = !ranked.some((c) => c.status === "green") ? 1 : first.length === 1 && first[0]!.status === "green" ? 0 : 2;
    });
}

// rankWorktrees with a fresh sandboxed, observed bash tool per worktree; its failures are usage errors.
async function verifyAndRank(worktrees: string[], options: { verify: string; base?: string; timeout?: number }): Promise<RankedWorktree[]> {
  const { rankWorktrees } = await import("../candidates/rank-worktrees.js");
  const { evidenceTools } = await import("../observation/evidence-tools.js");
  try {
    return await rankWorktrees({
      worktrees,
      verify: { command: options.verify, ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout }) },
      ...(options.base === undefined ? {} : { base: options.base }),
      createToolset: (dir) => evidenceTools(["bash"], { cwd: dir }),
    });
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new EvidenceError("E_USAGE", `candidates rank: ${why}`);
  }
}

// A directory we may stat (a FIFO or a device is only stat'ed, never opened).
function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
