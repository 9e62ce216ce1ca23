// The live ledger keeps evidence across calls that change no file (issue 15, item 2 in part): in a
// per-call shell, in conservative mode, `ls`, `cat f`, `echo done` after a passing run leave it current;
// git (whose repository config can run programs) and anything that writes still invalidate.
import { afterEach, describe, expect, it } from "vitest";
import { BashEvidence } from "../../src/evidence/bash-evidence.js";
import { makeProject, PYTEST_FILES, realBash, type TempProject } from "./ledger-helpers.js";

const projects: TempProject[] = [];
afterEach(() => {
  for (const made of projects.splice(0)) made.cleanup();
});

async function passed(): Promise<{ bash: BashEvidence; p: TempProject }> {
  const p = makeProject(PYTEST_FILES);
  projects.push(p);
  const bash = new BashEvidence(realBash(p), { workspace: p.dir });
  await bash.execute({ command: "python -m pytest -rA t.py" });
  expect(bash.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
  return { bash, p };
}

describe("conservative mode, a per-call shell", () => {
  it("reads after the run keep the record current", async () => {
    const { bash } = await passed();
    for (const command of ["ls", "cat t.py", "echo done", "pwd && head -2 t.py | wc -l", "grep -n def t.py", "sed -n 1,3p t.py", "cat t.py > /dev/null 2>&1"]) await bash.execute({ command });
    expect(bash.verificationRecords.map((r) => [r.applicability, r.postTestCommands])).toEqual([["current", []]]);
    expect(bash.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
    await bash.close();
  });

  it.each([
    ["an edit", "sed -i 's/1/2/' module.py"],
    ["git, whose config can run a program", "git status"],
    ["a read-only name that writes through an option", "sort -uo module.py module.py"],
    ["a group redirected into a source", "{ cat module.py; } > module.py.new && mv module.py.new module.py"],
    ["a command of unknown effect", "make"],
    ["a quiet log name (it may be a link to a source)", "echo done > notes.log"],
    ["tee into a file", "echo done | tee notes.log"],
    ["a group redirected into a log", "{ echo done; } >> notes.log"],
  ])("%s invalidates", async (_name, command) => {
    const { bash } = await passed();
    await bash.execute({ command });
    expect(bash.verificationRecords.map((r) => r.applicability)).toEqual(["unknown"]);
    expect(bash.verifiedTargets).toEqual([]);
    await bash.close();
  });

  it("a persistent shell still invalidates on a read (an earlier call may have redefined cat)", async () => {
    const p = makeProject(PYTEST_FILES);
    projects.push(p);
    const bash = new BashEvidence(realBash(p), { workspace: p.dir, shell: "persistent" });
    await bash.execute({ command: "python -m pytest -rA t.py" });
    await bash.execute({ command: "cat t.py" });
    expect(bash.verificationRecords.map((r) => r.applicability)).toEqual(["unknown"]);
    await bash.close();
  });
});
