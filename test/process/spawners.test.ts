// One process-group runner and one git runner (issue 19, part 4): src/ is read as text, and each
// way of starting, signalling or configuring a process is found in the one file that owns it.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { repoRoot, valueImports } from "../support/import-graph.js";

const GROUPS = "src/process/process-group.ts";
const GIT = "src/tools/host-git.ts";

// Every file of src/ that may start a process, and why it is not the group runner or the git runner.
const STARTS_PROCESSES: Record<string, string> = {
  [GROUPS]: "the one process-group runner",
  [GIT]: "the one git runner",
  "src/tools/host-git-runner.ts": "the helper that runs the git runner's invocations from a small process",
  "src/tools/load-execa.ts": "loads execa on first use",
  "src/tools/grep-engines.ts": "ripgrep, one search",
  "src/tools/sandbox.ts": "the bubblewrap probe, one trivial sandbox",
};

function sources(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

const files = sources("src").map((file) => ({ file, text: readFileSync(join(repoRoot, file), "utf8") }));
const holding = (pattern: RegExp): string[] => files.filter(({ text }) => pattern.test(text)).map(({ file }) => file);

describe("one process runner, one git runner", () => {
  it("only the listed files import child_process, execa or its loader", () => {
    const starters = files
      .filter(({ text }) => valueImports(text).some((spec) => /^(?:node:)?child_process$|^execa(?:\/|$)|\/load-execa\.js$/.test(spec)))
      .map(({ file }) => file);
    expect(starters.sort()).toEqual(Object.keys(STARTS_PROCESSES).sort());
  });

  it("only the group runner starts a process group or signals one", () => {
    expect(holding(/\bdetached:\s*true\b|process\.kill\(\s*-/)).toEqual([GROUPS]);
  });

  it("only the group runner maps a signal to an exit status", () => {
    expect(holding(/constants\.signals|\b128\s*\+\s*[a-z(]/)).toEqual([GROUPS]);
  });

  it("only the git runner names git as a program to start", () => {
    expect(holding(/\b(?:execa|spawn|spawnSync|execFile|execFileSync|execSync|fork)\(\s*["'`]git["'`]|\bfile:\s*["'`]git["'`]/)).toEqual([
      GIT,
    ]);
  });

  it("only the git runner sets git's configuration environment", () => {
    expect(
      holding(
        /GIT_CONFIG_(?:NOSYSTEM|GLOBAL|SYSTEM|COUNT|PARAMETERS)|GIT_(?:AUTHOR|COMMITTER)_(?:NAME|EMAIL)|GIT_OPTIONAL_LOCKS|GIT_LITERAL_PATHSPECS/,
      ),
    ).toEqual([GIT]);
  });
});
