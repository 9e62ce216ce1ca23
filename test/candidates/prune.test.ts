// pruneCandidates after a crash, and runCandidates' concurrency (issue 16, item 8): a process running a
// candidate is killed with SIGKILL mid-run (through the built dist/); the worktree it left is removed,
// and nothing else of the repository: not a worktree of someone else, not one in a lookalike
// directory without the marker, not the source's files or index.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { pruneCandidates } from "../../src/candidates/prune.js";
import { runCandidates } from "../../src/candidates/run-candidate.js";
import { tempDirPath } from "../support/temp-dir.js";
import { createRepo, fingerprint, git, removeAll, worktreePaths } from "./git-fixture.js";
import { createPytestToolset } from "./pytest-toolset.js";

const DIST = resolve(import.meta.dirname, "../../dist/entries/candidates.js");
let repo: string;
const others: string[] = [];
beforeAll(async () => {
  repo = await createRepo("prune", { "calc.py": "def add(a, b):\n    return a - b\n", "notes.txt": "keep\n" });
});
afterAll(async () => {
  await removeAll(repo, ...others);
});

// A child that starts a candidate whose agent writes a file and then waits; it prints the worktree root.
function crashingCandidate(source: string): Promise<{ root: string; kill: () => void; exited: Promise<void> }> {
  const script = `
    const { runCandidate } = await import(${JSON.stringify(DIST)});
    const { writeFileSync } = await import("node:fs");
    const createToolset = () => ({ tools: {}, evidence: { verificationRecords: [], verifiedTargets: [] } });
    await runCandidate({ repo: ${JSON.stringify(source)}, label: "crash", createToolset, agent: async (_tools, ws) => {
      writeFileSync(ws.path + "/calc.py", "def add(a, b):\\n    return a + b\\n");
      console.log("READY " + ws.root);
      await new Promise(() => {});
    } });`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((done) => child.on("exit", () => done()));
  return new Promise((resolveReady, reject) => {
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const match = /READY (\S+)/.exec(text);
      if (match !== null) resolveReady({ root: match[1]!, kill: () => child.kill("SIGKILL"), exited });
    });
    child.on("exit", (code) => reject(new Error(`the candidate process exited (${code}) before it was ready: ${text}`)));
  });
}

describe("pruneCandidates", () => {
  it("after a SIGKILL mid-run: removes the candidate's worktree, and nothing else", async () => {
    expect(existsSync(DIST), "build dist/ first: npx tsc -p tsconfig.build.json").toBe(true);
    // Someone else's worktree, and one in a directory named like ours but without our marker.
    const foreign = tempDirPath("someone-else-");
    const lookalike = tempDirPath("agent-evidence-candidate-lookalike-");
    others.push(foreign, lookalike);
    await git(repo, "worktree", "add", "--quiet", "--detach", join(foreign, "wt"), "HEAD");
    await git(repo, "worktree", "add", "--quiet", "--detach", join(lookalike, "wt"), "HEAD");
    const before = await fingerprint(repo);
    const crash = await crashingCandidate(repo);
    crash.kill();
    await crash.exited;
    expect(existsSync(crash.root)).toBe(true);
    expect(await worktreePaths(repo)).toContain(crash.root);

    expect(await pruneCandidates(repo)).toEqual({ removed: [crash.root] });
    expect([existsSync(crash.root), existsSync(dirname(crash.root))]).toEqual([false, false]);
    expect((await worktreePaths(repo)).sort()).toEqual([repo, join(foreign, "wt"), join(lookalike, "wt")].sort());
    expect(await fingerprint(repo)).toEqual(before);
    expect(await pruneCandidates(repo)).toEqual({ removed: [] });
  });
});

describe("runCandidates", () => {
  it("runs at most `concurrency` agents at a time, settles every one, keeps the order", async () => {
    let running = 0;
    let most = 0;
    // Each agent holds on until a second one runs beside it (or 30 s pass), so the limit is reached
    // however long the worktrees take to make on a loaded machine; a fixed 150 ms was not always enough.
    let pairUp: () => void = () => undefined;
    const paired = new Promise<void>((done) => (pairUp = done));
    const agent = (fail: boolean) => async (): Promise<void> => {
      running += 1;
      most = Math.max(most, running);
      if (running >= 2) pairUp();
      await Promise.race([paired, new Promise((done) => setTimeout(done, 30_000))]);
      await new Promise((done) => setTimeout(done, 150));
      running -= 1;
      if (fail) throw new Error("this candidate gives up");
    };
    const list = ["a", "b", "c"].map((label) => ({ repo, label, agent: agent(label === "b"), createToolset: createPytestToolset }));
    const settled = await runCandidates(list, { concurrency: 2 });
    expect([settled.map((s) => s.status), most]).toEqual([["fulfilled", "rejected", "fulfilled"], 2]);
    const kept = settled.flatMap((s) =>
      s.status === "fulfilled" ? [s.value.workspace] : [(s.reason as { workspace: { dispose(): Promise<void> } }).workspace],
    );
    await Promise.all(kept.map((ws) => ws.dispose()));
    expect(await worktreePaths(repo)).not.toContain(expect.stringContaining("agent-evidence-candidate-a-"));
    await expect(runCandidates(list, { concurrency: 0 })).rejects.toThrow(/positive integer/);
  });
});
