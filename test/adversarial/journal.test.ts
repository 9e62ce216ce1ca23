// Red team, the journal (issue 21, item 4): records survive a restart through `journal` and
// `BashEvidence.fromJournal`. The journal must lie where the agent cannot write (outside the
// workspace and the sandbox's /tmp: refused otherwise), and whoever edits it without the seal's key
// (forged lines, a replayed state, a cut tail, a torn end) gets nothing back that the ledger had cleared.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { BashEvidence } from "../../src/observation/bash-evidence.js";
import {
  agentView,
  type AttackProject,
  expectNoFalsePass,
  expectVerifiedCurrent,
  nativeBash,
  PYTEST_BREAK,
  PYTEST_RUN,
  pytestProject,
  sandboxedTools,
  useAttackHarness,
} from "./harness.js";

useAttackHarness();

// Beside the workspace and the scratch dir (the sandbox's /tmp), which the agent's commands can write.
const journalOf = (p: AttackProject): string => join(p.scratch, "..", "evidence.jsonl");
const restart = (p: AttackProject, journal: string) => agentView(p, BashEvidence.fromJournal(journal, nativeBash(p), { workspace: p.dir }));

describe("positive control: a restart restores the verified run", () => {
  it("fromJournal after an honest run", async () => {
    const p = pytestProject();
    const journal = journalOf(p);
    const first = await sandboxedTools(p, { journal });
    await first.bash(PYTEST_RUN);
    await first.close();
    await expectVerifiedCurrent(p, restart(p, journal).evidence, "test_mod.py");
  });
});

describe("where the agent could write it, the journal is refused", () => {
  it.each([
    ["inside the workspace", (p: AttackProject) => join(p.dir, ".evidence.jsonl"), /inside the workspace/],
    ["in the sandbox's /tmp (the bash tool's temp dir)", (p: AttackProject) => join(p.scratch, "evidence.jsonl"), /sandbox can write/],
  ])("%s", async (_name, where, message) => {
    const p = pytestProject();
    await expect(sandboxedTools(p, { journal: where(p) })).rejects.toThrow(message);
  });
});

// What an agent that could reach its journal would do, done here from the host (it has no key).
const lines = (journal: string): string[] => readFileSync(journal, "utf8").trimEnd().split("\n");
const isVerifiedLine = (line: string): boolean => /"type":"verified","verified":\[\{/.test(line);

describe("edits without the key, then a restart", () => {
  it.each([
    [
      "the last line that verified the target appended again, and a torn end",
      (journal: string) => appendFileSync(journal, `${lines(journal).filter(isVerifiedLine).at(-1)}\n{"type":`),
    ],
    [
      "cut back to just after that line (the invalidations gone), and a torn end",
      (journal: string) => {
        const all = lines(journal);
        const last = all.findLastIndex(isVerifiedLine);
        writeFileSync(journal, `${all.slice(0, last + 1).join("\n")}\n{"type":`);
      },
    ],
    [
      "cut back cleanly at a line boundary",
      (journal: string) => {
        const all = lines(journal);
        writeFileSync(journal, `${all.slice(0, all.findLastIndex(isVerifiedLine) + 1).join("\n")}\n`);
      },
    ],
    [
      "an unsigned line that verifies the target",
      (journal: string) =>
        appendFileSync(journal, `${JSON.stringify({ type: "verified", verified: [{ family: "python", key: "test_mod.py" }] })}\n`),
    ],
  ])("%s", async (_name, edit) => {
    const p = pytestProject();
    const journal = journalOf(p);
    const first = await sandboxedTools(p, { journal });
    await first.bash(PYTEST_RUN);
    await first.bash(PYTEST_BREAK);
    await first.close();
    edit(journal);
    await expectNoFalsePass(p, restart(p, journal).evidence);
  });

  it("a torn last line (a crash mid-write): the restart distrusts what came before, and says why", async () => {
    const p = pytestProject();
    const journal = journalOf(p);
    const first = await sandboxedTools(p, { journal });
    await first.bash(PYTEST_RUN);
    await first.close();
    appendFileSync(journal, lines(journal).at(-1)!.slice(0, 40));
    const second = BashEvidence.fromJournal(journal, nativeBash(p), { workspace: p.dir });
    expect([second.verifiedTargets, second.restoreWarnings.length > 0]).toEqual([[], true]);
    await second.close();
  });
});
