// A candidate controls its worktree, the `.git` file included. Capture runs git on the host, so it
// must not follow a `.git` file the candidate pointed at a git directory it made (whose config names
// a filter that would run on the host), neither for the worktree nor for a submodule.
import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, expect, it } from "vitest";

import { type CandidateWorkspace, createCandidateWorkspace } from "../../src/candidates/workspace.js";
import { createRepo, git, removeAll, tempDir } from "./git-fixture.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function candidate(): Promise<{ ws: CandidateWorkspace; marker: string }> {
  const repo = await createRepo("attack", { "a.txt": "one\n" });
  const host = await tempDir("attack-host");
  const ws = await createCandidateWorkspace(repo, { label: "evil" });
  cleanups.push(
    () => removeAll(repo),
    () => rm(host, { recursive: true, force: true }),
    () => ws.dispose(),
  );
  return { ws, marker: join(host, "owned") };
}

// The agent's move: a git directory of its own inside the worktree, configured to run a command.
async function plantFakeGitDir(dir: string, marker: string): Promise<string> {
  const fake = join(dir, "fake-git");
  await git(dir, "init", "-q", "--bare", fake);
  await git(fake, "config", "filter.evil.clean", `sh -c 'touch ${marker}; cat'`);
  await git(fake, "config", "core.fsmonitor", `touch ${marker}; false`);
  await writeFile(join(dir, ".gitattributes"), "* filter=evil\n");
  return fake;
}

it("a worktree .git file pointed at the candidate's own git directory runs nothing on the host", async () => {
  const { ws, marker } = await candidate();
  const fake = await plantFakeGitDir(ws.root, marker);
  await writeFile(join(ws.root, "a.txt"), "two\n");
  await writeFile(join(ws.root, ".git"), `gitdir: ${fake}\n`);
  const patch = await ws.capture().catch((error: unknown) => String(error));
  expect(existsSync(marker)).toBe(false);
  expect(patch).toContain("+two");
});

it("an embedded repository whose .git points at the candidate's own git directory runs nothing on the host", async () => {
  const { ws, marker } = await candidate();
  const module = join(ws.root, "vendor");
  await mkdir(module);
  await writeFile(join(module, "b.txt"), "module\n");
  const fake = await plantFakeGitDir(module, marker);
  await writeFile(join(module, ".git"), `gitdir: ${fake}\n`);
  await ws.capture().catch((error: unknown) => String(error));
  expect(existsSync(marker)).toBe(false);
});
