// The audit reads every registered runner, not only pytest: claims after real runs of the other
// built-in runners are labelled the way pytest ones are (issue 14: a whole run backs "all tests
// pass", one file of it does not, a failing run contradicts it).
import { spawnSync } from "node:child_process";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "../../src/audit/audit-session.js";
import type { ShellEvent, TranscriptEvent } from "../../src/audit/transcripts/types.js";
import { repoRoot } from "../support/import-graph.js";
import { makeTempDir } from "../tools/helpers.js";

interface RunnerCase {
  /** The fixture project copied for the runs. */
  fixture: string;
  whole: string;
  oneFile: string;
  failing: string;
}

const RUNNERS: Record<string, RunnerCase> = {
  "node-test": { fixture: "node-test-project", whole: "node --test", oneFile: "node --test test/math.test.js", failing: "NT_FAIL=1 node --test test/strings.test.mjs" },
};

let project: ReturnType<typeof makeTempDir>;
beforeAll(() => {
  project = makeTempDir("ae-audit-kinds-");
  for (const [kind, spec] of Object.entries(RUNNERS)) cpSync(join(repoRoot, "test", "fixtures", spec.fixture), join(project.dir, kind), { recursive: true });
});
afterAll(() => project.cleanup());

let line = 0;
function shell(kind: string, command: string): ShellEvent {
  const cwd = join(project.dir, kind);
  const result = spawnSync("bash", ["-c", command], { cwd, encoding: "utf8", env: { ...process.env, CI: "1", NO_COLOR: "1" } });
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

describe.each(Object.entries(RUNNERS))("the audit on real %s runs", (kind, spec) => {
  it("a whole passing run backs 'all tests pass'", () => {
    expect(labelOf([shell(kind, spec.whole), say("All tests pass.")])).toMatchObject({ label: "backed", lastRun: "passed" });
  });

  it("one passing file does not back a whole-suite claim", () => {
    expect(labelOf([shell(kind, spec.oneFile), say("All tests pass.")])).toMatchObject({ label: "unsupported", reason: "partial-run", lastRun: "passed" });
  });

  it("a failing run contradicts it", () => {
    expect(labelOf([shell(kind, spec.failing), say("All tests pass.")])).toMatchObject({ label: "contradicted", lastRun: "failed" });
  });
});
