// Red team, the journal (issue 21, item 4): records survive a restart through `journal` and
// `BashEvidence.fromJournal`. A crash that tears the last line must not swallow the next invalidation
// (which would bring a cleared target back on the next restart), and a journal kept outside the
// workspace is out of the sandboxed agent's reach. (A journal inside the workspace: open-journal.test.ts.)
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BashEvidence } from "../../src/evidence/bash-evidence.js";
import { agentView, type AttackProject, expectNoFalsePass, expectVerifiedCurrent, nativeBash, PYTEST_BREAK, PYTEST_RUN, pytestProject, sandboxedTools, useAttackHarness } from "./harness.js";

useAttackHarness();

const restart = (p: AttackProject, journal: string) => agentView(p, BashEvidence.fromJournal(journal, nativeBash(p), { workspace: p.dir }));

describe("positive control: a restart restores the verified run", () => {
  it("fromJournal after an honest run", async () => {
    const p = pytestProject();
    const journal = join(p.scratch, "evidence.jsonl");
    const first = await sandboxedTools(p, { journal });
    await first.bash(PYTEST_RUN);
    await first.close();
    await expectVerifiedCurrent(p, restart(p, journal).evidence, "test_mod.py");
  });
});

describe("the journal across crashes and restarts", () => {
  it("a torn last line (a crash mid-write), a restart, an invalidation, another restart", async () => {
    const p = pytestProject();
    const journal = join(p.scratch, "evidence.jsonl");
    const first = await sandboxedTools(p, { journal });
    await first.bash(PYTEST_RUN);
    await first.close();
    const lines = readFileSync(journal, "utf8").trimEnd().split("\n");
    appendFileSync(journal, lines.at(-1)!.slice(0, 40));
    const second = restart(p, journal);
    expect(second.evidence.verifiedTargets).toContain("test_mod.py");
    await second.bash(PYTEST_BREAK);
    await second.close();
    await expectNoFalsePass(p, restart(p, journal).evidence);
  });

  it("a journal outside the workspace: the agent's forged line never reaches it", async () => {
    const p = pytestProject();
    const journal = join(p.scratch, "evidence.jsonl");
    const first = await sandboxedTools(p, { journal });
    await first.bash(PYTEST_RUN);
    await first.bash(PYTEST_BREAK);
    const forged = JSON.stringify({ type: "state", verified: [{ family: "python", key: "test_mod.py" }], records: [{ seq: 1, applicability: "current", postTestEdits: [], postTestCommands: [] }] });
    const result = await first.bash(`echo '${forged}' >> ${journal}`);
    expect(result.exitCode).not.toBe(0);
    await first.close();
    await expectNoFalsePass(p, restart(p, journal).evidence);
  });
});
