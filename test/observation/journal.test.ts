// The journal: replay, torn lines, and a kill -9 of the process mid-run (through the built dist/).
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { BashEvidence } from "../../src/observation/bash-evidence.js";
import { FAST_PYTEST, makeProject, observedBash, PYTEST_FILES, realBash, type TempProject } from "../evidence/ledger-helpers.js";
import { TOOLCHAIN_PATHS } from "../support/toolchain.js";
import { survivors, uniqueSleep } from "../tools/helpers.js";

const DIST = join(import.meta.dirname, "..", "..", "dist", "index.js");
const projects: TempProject[] = [];
afterEach(() => {
  for (const made of projects.splice(0)) made.cleanup();
});
const FILES = { ...PYTEST_FILES, "u.py": "def test_u():\n    assert True\n" };

describe("journal", () => {
  it("fromJournal restores records and verified targets, and keeps appending", async () => {
    const p = makeProject(FILES);
    projects.push(p);
    const journal = join(p.scratch, "ledger.jsonl");
    const bash = observedBash(p, {}, { journal });
    await bash.execute({ command: "python -m pytest -rA u.py" });
    await bash.execute({ command: "python -m pytest -rA t.py && perl -pi -e 's/1/2/' module.py" });
    await bash.close();
    const restored = BashEvidence.fromJournal(journal, realBash(p), { workspace: p.dir });
    expect(restored.verificationRecords).toEqual(bash.verificationRecords);
    expect(restored.verifiedTargets).toEqual(bash.verifiedTargets);
    await restored.execute({ command: "python -m pytest -rA u.py" });
    await restored.close();
    expect(
      BashEvidence.fromJournal(journal, realBash(p), { workspace: p.dir }).verificationRecords.map((r) => [
        r.seq,
        r.target,
        r.applicability,
      ]),
    ).toEqual([
      [1, "u.py", "unknown"],
      [2, "t.py", "unknown"],
      [3, "u.py", "current"],
    ]);
  });

  it("survives a kill -9 of the process mid-run: every completed record is restored", async () => {
    expect(existsSync(DIST), "build dist/ first: npx tsc -p tsconfig.build.json").toBe(true);
    const p = makeProject(FILES);
    projects.push(p);
    // Outside the workspace and outside the sandbox's /tmp (the scratch dir), which the agent can write.
    const journal = join(p.scratch, "..", "ledger.jsonl");
    const sleep = uniqueSleep();
    const script = join(p.scratch, "agent.mjs");
    writeFileSync(
      script,
      `import { evidenceTools } from ${JSON.stringify(DIST)};
const { tools } = evidenceTools(["bash"], { cwd: ${JSON.stringify(p.dir)}, headless: true, journal: ${JSON.stringify(journal)}, limits: { bash: { tempDir: ${JSON.stringify(p.scratch)}, env: ${JSON.stringify(FAST_PYTEST)}, readablePaths: ${JSON.stringify(TOOLCHAIN_PATHS)} } } });
const [bash] = tools;
await bash.execute({ command: "python -m pytest -rA u.py" });
await bash.execute({ command: "python -m pytest -rA t.py" });
process.stdout.write("READY\\n");
await bash.execute({ command: "python -m pytest -rA t.py && sleep ${sleep}", timeoutMs: 600000 });
`,
    );
    const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("READY")) resolve();
      });
      child.on("exit", (code) => reject(new Error(`child exited early with ${code}`)));
    });
    // Let the third call start (its begin transition is journaled), then kill without warning.
    for (let i = 0; i < 100 && survivors(sleep).length === 0; i += 1) await new Promise((r) => setTimeout(r, 100));
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    for (let i = 0; i < 50 && survivors(sleep).length > 0; i += 1) await new Promise((r) => setTimeout(r, 100));
    expect(survivors(sleep)).toEqual([]);
    const restored = BashEvidence.fromJournal(journal, realBash(p), { workspace: p.dir });
    await restored.close();
    expect(restored.verificationRecords.map((r) => [r.seq, r.target, r.verified, r.applicability])).toEqual([
      [1, "u.py", true, "current"],
      [2, "t.py", true, "current"],
    ]);
    // The interrupted rerun of t.py had already cleared t.py before it ran.
    expect(restored.verifiedTargets).toEqual(["u.py", "u.py::test_u"]);
    expect(readFileSync(journal, "utf8").trim().split("\n").length).toBeGreaterThan(3);
  }, 120_000);
});
