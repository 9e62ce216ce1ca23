// A small real toolset for runCandidate tests (evidenceTools is wired in later): it runs real pytest
// in the candidate's worktree and keeps a minimal ledger with the VerificationRecord shape.
import { execFile, execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

import type { CandidateToolset } from "../../src/candidates/run-candidate.js";
import type { VerificationRecord } from "../../src/types.js";

/** The two tools a test agent gets. */
export interface PytestTools {
  /** Writes a file in the worktree; every earlier record stops applying. */
  writeFile(path: string, content: string): Promise<void>;
  /** Runs `python3 -m pytest -q <target>` in the worktree and records the result. */
  runPytest(target: string): Promise<{ exitCode: number; output: string }>;
}

const SUMMARY = /^=* ?(?:(\d+) failed, )?(\d+) passed(?:, [^=]*)? in [\d.]+s ?=*$/m;

// The pyenv shim is a shell script; resolving the interpreter once saves seconds on a loaded machine.
const PYTHON = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

function run(cwd: string, args: string[]): Promise<{ exitCode: number; output: string }> {
  return new Promise((resolve) => {
    execFile(PYTHON, args, { cwd, env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
      resolve({ exitCode: code, output: stdout + stderr });
    });
  });
}

/** A fresh toolset bound to `workspaceDir`, with its own records. */
export function createPytestToolset(workspaceDir: string): CandidateToolset<PytestTools> {
  const records: VerificationRecord[] = [];
  const verified = new Set<string>();
  const tools: PytestTools = {
    async writeFile(path, content) {
      await mkdir(dirname(join(workspaceDir, path)), { recursive: true });
      await writeFile(join(workspaceDir, path), content);
      for (const record of records) {
        record.applicability = "unknown";
        record.postTestEdits.push(path);
      }
      verified.clear();
    },
    async runPytest(target) {
      const command = `python3 -m pytest -q -p no:cacheprovider ${target}`;
      const result = await run(workspaceDir, ["-m", "pytest", "-q", "-p", "no:cacheprovider", target]);
      const summary = SUMMARY.exec(result.output);
      const passed = summary !== null && summary[1] === undefined && Number(summary[2]) > 0 && result.exitCode === 0;
      records.push({
        seq: records.length + 1,
        target,
        runner: "python3 -m pytest",
        command,
        workspace: workspaceDir,
        exitCode: result.exitCode,
        timedOut: false,
        verified: passed,
        applicability: "current",
        postTestEdits: [],
        postTestCommands: [],
        outcome: passed ? "passed" : result.exitCode === 0 ? "unknown" : "failed",
        passed: [],
        failed: [],
        reasons: passed ? [] : ["no-pass-proof"],
        truncated: false,
        filtered: false,
        baseline: false,
      });
      if (passed) verified.add(target);
      else verified.delete(target);
      return result;
    },
  };
  return {
    tools,
    evidence: {
      get verificationRecords() {
        return records;
      },
      get verifiedTargets() {
        return [...verified];
      },
    },
  };
}
