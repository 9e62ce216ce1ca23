// The agent can write `.git/config`, `.gitattributes` and hooks in the workspace (its bash can); the
// host-side tools must never run what that configuration names. Each attack plants a command that
// would create a marker file on the host, then calls the tool the way an agent would.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import type { Tool } from "../../src/host/tool.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { createApplyPatchTool } from "../../src/tools/apply-patch.js";
import { createGitDiffTool } from "../../src/tools/git-diff.js";
import { createGrepTool } from "../../src/tools/grep.js";
import { git as fixtureGit } from "../support/git.js";
import { makeTempDir } from "../support/temp-dir.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function repo(): { dir: string; marker: string; git: (...args: string[]) => void } {
  const ws = makeTempDir("ae-git-attack-");
  const host = makeTempDir("ae-git-attack-host-");
  cleanups.push(ws.cleanup, host.cleanup);
  const git = (...args: string[]): void => void fixtureGit(ws.dir, ...args);
  writeFileSync(join(ws.dir, "a.txt"), "one\n");
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "init");
  return { dir: ws.dir, marker: join(host.dir, "owned"), git };
}

// What an agent writes into the repository; `marker` is a host path the command would create.
const ATTACKS: [string, (dir: string, marker: string, git: (...args: string[]) => void) => void][] = [
  ["core.fsmonitor", (_dir, marker, git) => git("config", "core.fsmonitor", `touch ${marker}; false`)],
  [
    "a clean/smudge filter named by .gitattributes",
    (dir, marker, git) => {
      writeFileSync(join(dir, ".gitattributes"), "* filter=evil\n");
      git("config", "filter.evil.clean", `sh -c 'touch ${marker}; cat'`);
      git("config", "filter.evil.smudge", `sh -c 'touch ${marker}; cat'`);
      git("config", "filter.evil.process", `sh -c 'touch ${marker}'`);
    },
  ],
  [
    "core.hooksPath with every hook",
    (dir, marker, git) => {
      mkdirSync(join(dir, "hooks"));
      for (const hook of ["post-index-change", "pre-commit", "post-checkout", "reference-transaction", "pre-auto-gc"])
        writeFileSync(join(dir, "hooks", hook), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
      git("config", "core.hooksPath", join(dir, "hooks"));
    },
  ],
  [
    "a hook in .git/hooks",
    (dir, marker) => writeFileSync(join(dir, ".git", "hooks", "post-index-change"), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 }),
  ],
  ["core.pager", (_dir, marker, git) => git("config", "core.pager", `touch ${marker}; cat`)],
  ["diff.external", (_dir, marker, git) => git("config", "diff.external", `sh -c 'touch ${marker}'`)],
  [
    "a textconv diff driver",
    (dir, marker, git) => {
      writeFileSync(join(dir, ".gitattributes"), "* diff=evil\n");
      git("config", "diff.evil.textconv", `sh -c 'touch ${marker}; cat "$1"' --`);
      git("config", "diff.evil.command", `sh -c 'touch ${marker}'`);
    },
  ],
  [
    "core.sshCommand and core.askPass",
    (_dir, marker, git) => {
      git("config", "core.sshCommand", `touch ${marker}`);
      git("config", "core.askPass", `touch ${marker}`);
    },
  ],
  [
    "include.path pointing outside the workspace",
    (dir, marker, git) => {
      const included = join(dir, "..", `${dir.split("/").pop() ?? "x"}-included.cfg`);
      writeFileSync(included, `[core]\n\tfsmonitor = touch ${marker}; false\n[filter "evil"]\n\tclean = sh -c 'touch ${marker}; cat'\n`);
      cleanups.push(() => execFileSync("rm", ["-f", included]));
      writeFileSync(join(dir, ".gitattributes"), "* filter=evil\n");
      git("config", "include.path", included);
    },
  ],
  [
    "core.worktree pointing elsewhere",
    (_dir, marker, git) => {
      git("config", "core.worktree", "/");
      git("config", "core.fsmonitor", `touch ${marker}; false`);
    },
  ],
];

async function call(tool: Tool<never, unknown>, input: Record<string, unknown>): Promise<{ text: string; isError?: boolean }> {
  return (tool as unknown as Tool<Record<string, unknown>, unknown>).execute(input);
}

describe.each(ATTACKS)("git configuration attack: %s", (_name, plant) => {
  it("git_diff runs none of it and still shows the change", async () => {
    const { dir, marker, git } = repo();
    plant(dir, marker, git);
    writeFileSync(join(dir, "a.txt"), "two\n");
    const result = await createGitDiffTool({ cwd: dir }).execute({});
    expect(existsSync(marker)).toBe(false);
    expect(result.text).toContain("+two");
  });

  it("apply_patch runs none of it and applies the patch", async () => {
    const { dir, marker, git } = repo();
    plant(dir, marker, git);
    const patch = "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+patched\n";
    const result = await createApplyPatchTool({ cwd: dir }).execute({ patch });
    expect(existsSync(marker)).toBe(false);
    expect(result.text).toBe("Applied the patch: changed a.txt.");
  });

  it("grep's git grep engine runs none of it and still finds the line", async () => {
    const { dir, marker, git } = repo();
    plant(dir, marker, git);
    writeFileSync(join(dir, "b.txt"), "needle\n");
    const result = await createGrepTool({ cwd: dir, engines: ["git-grep"] }).execute({ pattern: "needle" });
    expect(existsSync(marker)).toBe(false);
    expect(result.data?.status === "ok" ? result.data.matches.map((m) => m.path) : result.text).toEqual(["b.txt"]);
  });

  it("snapshot mode runs none of it", async () => {
    const { dir, marker, git } = repo();
    plant(dir, marker, git);
    const { tools, evidence } = evidenceTools(["bash"], { cwd: dir, sandbox: false, invalidation: "snapshot" });
    try {
      const [bash] = tools;
      if (bash === undefined) throw new Error("no bash tool");
      await call(bash, { command: "echo changed > a.txt && echo new > b.txt" });
      expect(existsSync(marker)).toBe(false);
    } finally {
      await evidence.close();
    }
  });
});

describe("a .git file that points the tools at a git directory the agent made", () => {
  it("git_diff reads HEAD through it but runs nothing it configures", async () => {
    const { dir, marker, git } = repo();
    git("config", "core.fsmonitor", `touch ${marker}; false`);
    execFileSync("mv", [join(dir, ".git"), join(dir, "real-git")]);
    writeFileSync(join(dir, ".git"), "gitdir: real-git\n");
    writeFileSync(join(dir, "a.txt"), "three\n");
    const result = await createGitDiffTool({ cwd: dir }).execute({});
    expect(existsSync(marker)).toBe(false);
    expect(result.text).toContain("+three");
  });
});
