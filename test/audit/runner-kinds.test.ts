// The audit reads every registered runner, not only pytest: claims after real runs of the other
// built-in runners are labelled the way pytest ones are (issue 14: a whole run backs "all tests
// pass", one file of it does not, a failing run contradicts it).
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { auditEvents } from "../../src/audit/audit-transcript.js";
import type { ShellEvent, TranscriptEvent } from "../../src/audit/transcripts/types.js";
import { repoRoot } from "../support/import-graph.js";
import { tempDirPath } from "../support/temp-dir.js";

interface RunnerCase {
  /** The fixture project copied for the runs. */
  fixture: string;
  whole: string;
  oneFile: string;
  failing: string;
}

const RUNNERS: Record<string, RunnerCase> = {
  "node-test": {
    fixture: "node-test-project",
    whole: "node --test",
    oneFile: "node --test test/math.test.js",
    failing: "NT_FAIL=1 node --test test/strings.test.mjs",
  },
  vitest: {
    fixture: "vitest-project",
    whole: "npx vitest run",
    oneFile: "npx vitest run math",
    failing: "VT_FAIL=1 npx vitest run test/strings.test.ts",
  },
  jest: {
    fixture: "jest-project",
    whole: "npx jest",
    oneFile: "npx jest test/math.test.js",
    failing: "JF_FAIL=1 npx jest test/strings.test.js",
  },
  mocha: { fixture: "mocha-project", whole: "npx mocha", oneFile: "npx mocha --grep adds", failing: "MO_FAIL=1 npx mocha" },
  cargo: { fixture: "cargo-project", whole: "cargo test", oneFile: "cargo test --lib", failing: "AE_FAIL=1 cargo test --lib --tests" },
};

// The copies live inside the repository (gitignored), so the JavaScript runners and their configs
// resolve the repository's node_modules, as in a project that installed them.
let project: { dir: string; cleanup: () => void };
beforeAll(() => {
  const parent = join(repoRoot, "test", ".captured");
  mkdirSync(parent, { recursive: true });
  const dir = tempDirPath("audit-kinds-", { parent: parent });
  project = { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  for (const [kind, spec] of Object.entries(RUNNERS))
    cpSync(join(repoRoot, "test", "fixtures", spec.fixture), join(project.dir, kind), { recursive: true });
});
afterAll(() => project.cleanup());

let line = 0;
function shell(kind: string, command: string): ShellEvent {
  const cwd = join(project.dir, kind);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CI: "1",
    NO_COLOR: "1",
    CARGO_TERM_COLOR: "never",
    CARGO_TARGET_DIR: join(project.dir, "cargo-target"),
  };
  // Not under a coding agent's variables: vitest would pick its agent reporter.
  delete env.CLAUDECODE;
  // One stream in the order it was written, as an agent's shell tool shows it (cargo's headers go to stderr).
  const result = spawnSync("bash", ["-c", `exec 2>&1\n${command}`], { cwd, encoding: "utf8", env });
  return {
    type: "shell",
    id: null,
    command,
    output: `${result.stdout}${result.stderr}`,
    exitCode: result.status ?? -1,
    cwd,
    interrupted: false,
    timedOut: false,
    outputTruncated: false,
    persistedOutputPath: null,
    completed: true,
    sidechain: false,
    timestamp: null,
    line: (line += 1),
  };
}
const say = (text: string): TranscriptEvent => ({ type: "assistant-message", text, sidechain: false, timestamp: null, line: (line += 1) });

function labelOf(events: TranscriptEvent[]): { label: string | undefined; reason: string | undefined; lastRun: string | null } {
  const message = events.at(-1);
  const audit = auditEvents(events, message?.type === "assistant-message" ? message.text : null);
  return { label: audit.claims[0]?.label, reason: audit.claims[0]?.reason, lastRun: audit.lastRun?.outcome ?? null };
}

describe.each(Object.entries(RUNNERS))("the audit on real %s runs", { timeout: 180_000 }, (kind, spec) => {
  it("a whole passing run backs 'all tests pass'", () => {
    expect(labelOf([shell(kind, spec.whole), say("All tests pass.")])).toMatchObject({ label: "backed", lastRun: "passed" });
  });

  it("one passing file does not back a whole-suite claim", () => {
    expect(labelOf([shell(kind, spec.oneFile), say("All tests pass.")])).toMatchObject({
      label: "unsupported",
      reason: "partial-run",
      lastRun: "passed",
    });
  });

  it("a failing run contradicts it", () => {
    expect(labelOf([shell(kind, spec.failing), say("All tests pass.")])).toMatchObject({ label: "contradicted", lastRun: "failed" });
  });
});
