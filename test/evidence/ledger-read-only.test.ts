// The live ledger keeps evidence across calls that change no source (issue 15, item 2): in
// conservative mode, `ls`, `cat f`, `echo done` after a passing run are not recorded at all; what the
// effect table says cannot touch sources (git, checkers, a write to a log or a doc) is measured with a
// snapshot and keeps the record current when nothing a test reads changed; anything else invalidates.
import { execFileSync } from "node:child_process";
import { chmodSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { BashEvidence } from "../../src/observation/bash-evidence.js";
import { gitInit, makeProject, PYTEST_FILES, realBash, type TempProject } from "./ledger-helpers.js";

const projects: TempProject[] = [];
afterEach(() => {
  for (const made of projects.splice(0)) made.cleanup();
});

async function passed(
  options: { git?: boolean; invalidation?: "conservative" | "snapshot"; setup?: (dir: string) => void } = {},
): Promise<{ bash: BashEvidence; p: TempProject }> {
  const p = makeProject(PYTEST_FILES);
  projects.push(p);
  if (options.git === true) {
    gitInit(p.dir);
    execFileSync("git", ["config", "user.name", "t"], { cwd: p.dir });
    execFileSync("git", ["config", "user.email", "t@t"], { cwd: p.dir });
    execFileSync("git", ["config", "commit.gpgsign", "false"], { cwd: p.dir });
  }
  options.setup?.(p.dir);
  const bash = new BashEvidence(realBash(p), { workspace: p.dir, invalidation: options.invalidation ?? "conservative" });
  await bash.execute({ command: "python -m pytest -rA t.py" });
  expect(bash.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
  return { bash, p };
}

describe("conservative mode, a per-call shell", () => {
  it("reads after the run keep the record current", async () => {
    const { bash } = await passed();
    for (const command of [
      "ls",
      "cat t.py",
      "echo done",
      "pwd && head -2 t.py | wc -l",
      "grep -n def t.py",
      "sed -n 1,3p t.py",
      "cat t.py > /dev/null 2>&1",
    ])
      await bash.execute({ command });
    expect(bash.verificationRecords.map((r) => [r.applicability, r.postTestCommands])).toEqual([["current", []]]);
    expect(bash.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
    await bash.close();
  });

  it.each([
    ["an edit", "sed -i 's/1/2/' module.py"],
    ["a read-only name that writes through an option", "sort -uo module.py module.py"],
    ["a group redirected into a source", "{ cat module.py; } > module.py.new && mv module.py.new module.py"],
    ["a command of unknown effect", "make"],
    ["a write through a link named like a log", "ln -s module.py notes.log && echo 'VALUE = 2' > notes.log"],
  ])("%s invalidates", async (_name, command) => {
    const { bash } = await passed();
    await bash.execute({ command });
    expect(bash.verificationRecords.map((r) => r.applicability)).toEqual(["unknown"]);
    expect(bash.verifiedTargets).toEqual([]);
    await bash.close();
  });

  it.each([
    ["a log", "echo done > notes.log"],
    ["tee into a log", "echo done | tee -a notes.log"],
    ["a doc", "echo '# notes' > NOTES.md"],
  ])("a write to %s (measured: nothing a test reads changed) keeps the record current", async (_name, command) => {
    const { bash } = await passed();
    await bash.execute({ command });
    expect(bash.verificationRecords.map((r) => r.applicability)).toEqual(["current"]);
    await bash.close();
  });

  it.each(["conservative", "snapshot"] as const)(
    "%s mode: the issue's sequence keeps the record current, then sed -i on a source makes it unknown",
    async (invalidation) => {
      const { bash } = await passed({ git: true, invalidation });
      for (const command of [
        "git status",
        "git diff",
        "ls",
        "cat t.py",
        "echo done",
        "python3 -m py_compile module.py",
        "git add -A && git commit -q -m x",
        "git log --oneline | head -3",
        "git checkout -q -b feature",
      ]) {
        await bash.execute({ command });
        expect([command, bash.verificationRecords.map((r) => r.applicability)]).toEqual([command, ["current"]]);
      }
      expect(bash.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
      await bash.execute({ command: "sed -i 's/1/2/' module.py" });
      expect(bash.verificationRecords.map((r) => r.applicability)).toEqual(["unknown"]);
      expect(bash.verifiedTargets).toEqual([]);
      await bash.close();
    },
  );

  it("git whose repository config runs a program that edits a source invalidates (core.fsmonitor)", async () => {
    const { bash } = await passed({
      git: true,
      setup: (dir) => {
        writeFileSync(join(dir, "monitor.sh"), "#!/bin/sh\necho 'VALUE = 2' > module.py\nexit 1\n");
        chmodSync(join(dir, "monitor.sh"), 0o755);
        execFileSync("git", ["config", "core.fsmonitor", join(dir, "monitor.sh")], { cwd: dir });
      },
    });
    await bash.execute({ command: "git status" });
    expect(bash.verificationRecords.map((r) => r.applicability)).toEqual(["unknown"]);
    expect(bash.verifiedTargets).toEqual([]);
    await bash.close();
  });

  it("a commit whose hook rewrites a source invalidates", async () => {
    const { bash } = await passed({
      git: true,
      setup: (dir) => {
        writeFileSync(join(dir, ".git", "hooks", "post-commit"), "#!/bin/sh\necho 'VALUE = 2' > module.py\n");
        chmodSync(join(dir, ".git", "hooks", "post-commit"), 0o755);
      },
    });
    await bash.execute({ command: "git commit -q --allow-empty -m x" });
    expect(bash.verificationRecords.map((r) => r.applicability)).toEqual(["unknown"]);
    await bash.close();
  });

  it("a doc that is a link into the sources: writing it invalidates", async () => {
    const { bash } = await passed({ setup: (dir) => symlinkSync("module.py", join(dir, "README.md")) });
    await bash.execute({ command: "echo 'VALUE = 2' > README.md" });
    expect(bash.verificationRecords.map((r) => r.applicability)).toEqual(["unknown"]);
    await bash.close();
  });

  it("a persistent shell: a read is measured, and keeps the record current when it changed nothing", async () => {
    // Redefined readers in a real persistent shell: test/adversarial/persistent-shell.test.ts.
    const p = makeProject(PYTEST_FILES);
    projects.push(p);
    const bash = new BashEvidence(realBash(p), { workspace: p.dir, shell: "persistent" });
    await bash.execute({ command: "python -m pytest -rA t.py" });
    await bash.execute({ command: "cat t.py" });
    expect(bash.verificationRecords.map((r) => r.applicability)).toEqual(["current"]);
    await bash.close();
  });
});
