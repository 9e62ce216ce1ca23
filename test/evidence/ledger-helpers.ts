// Shared helpers for the ledger tests: throwaway projects with real test suites and real bash tools.
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

import { BashEvidence, type BashEvidenceOptions } from "../../src/observation/bash-evidence.js";
import { type BashToolOptions, createBashTool } from "../../src/tools/bash.js";
import { tempDirPath } from "../support/temp-dir.js";

/** A fresh project directory (realpath) holding `files`, plus a private temp dir for tool logs. */
export interface TempProject {
  dir: string;
  /** A directory outside the project for the bash tool's logs and for journals. */
  scratch: string;
  write(path: string, text: string): void;
  cleanup(): void;
}

/** Creates a project from a map of relative paths to contents. */
export function makeProject(files: Record<string, string>, prefix = "ae-ledger-"): TempProject {
  const root = tempDirPath(prefix);
  const dir = join(root, "ws");
  const scratch = join(root, "scratch");
  mkdirSync(dir);
  mkdirSync(scratch);
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  for (const [path, text] of Object.entries(files)) write(path, text);
  return { dir, scratch, write, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Copies a fixture project from test/fixtures into a fresh project. */
export function copyFixture(name: string): TempProject {
  const project = makeProject({});
  cpSync(join(import.meta.dirname, "..", "fixtures", name), project.dir, { recursive: true });
  return project;
}

/** Makes the project a git repository with one commit. */
export { gitInit } from "../support/git.js";

/** Skips third-party pytest plugins: the machine has many, and loading them dominates each run. */
export const FAST_PYTEST: Record<string, string> = { PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1" };

/** The real bash tool in `project`, logs kept in its scratch dir. */
export function realBash(project: TempProject, options: Partial<BashToolOptions> = {}): ReturnType<typeof createBashTool> {
  return createBashTool({ cwd: project.dir, headless: false, tempDir: project.scratch, env: FAST_PYTEST, ...options });
}

/** The real bash tool wrapped in BashEvidence. */
export function observedBash(
  project: TempProject,
  toolOptions: Partial<BashToolOptions> = {},
  evidenceOptions: Partial<BashEvidenceOptions> = {},
): BashEvidence {
  return new BashEvidence(realBash(project, toolOptions), { workspace: project.dir, ...evidenceOptions });
}

/** A pytest project: `t.py` passes (fails with FAIL=1, sleeps with SLOW=N, prints a lot with BIG=1). */
export const PYTEST_FILES: Record<string, string> = {
  "module.py": "VALUE = 1\n",
  "t.py": [
    "import os, sys, time",
    "from module import VALUE",
    "",
    "def test_a():",
    "    if os.environ.get('BIG'):",
    "        sys.stdout.write('x' * 20000 + '\\n')",
    "    time.sleep(float(os.environ.get('SLOW', '0')))",
    "    assert VALUE == 1 and not os.environ.get('FAIL')",
    "",
  ].join("\n"),
  "conftest.py": "import sys, os\nsys.path.insert(0, os.path.dirname(__file__))\n",
};
