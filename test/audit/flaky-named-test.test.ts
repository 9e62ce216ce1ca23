// A named-test claim after a flaky pass (issue 15, item 5): the test failed, was rerun on the same code
// and passed; "test_flaky passes now." is not backed by the rerun. Real pytest runs of a test that fails
// on its first run and passes on its second (its memory is a marker outside the project).
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { auditEvents } from "../../src/audit/audit-transcript.js";
import { decideStop } from "../../src/audit/hooks/stop-decision.js";
import type { TranscriptEvent } from "../../src/audit/transcripts/types.js";
import { tempDirPath } from "../support/temp-dir.js";

const COMMAND = "python3 -m pytest -q -p no:cacheprovider tests/test_flaky.py";
let dir: string;
const outputs: { output: string; exitCode: number }[] = [];
beforeAll(() => {
  dir = tempDirPath("flaky-");
  mkdirSync(join(dir, "tests"));
  const marker = join(dir, "..", `${dir.split("/").pop()}.seen`);
  writeFileSync(
    join(dir, "tests", "test_flaky.py"),
    `import os\n\n\ndef test_flaky():\n    seen = os.path.exists(${JSON.stringify(marker)})\n    open(${JSON.stringify(marker)}, "w").close()\n    assert seen\n`,
  );
  for (let i = 0; i < 2; i += 1) {
    const run = spawnSync("bash", ["-c", COMMAND], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1", PYTHONDONTWRITEBYTECODE: "1" },
    });
    outputs.push({ output: run.stdout + run.stderr, exitCode: run.status ?? -1 });
  }
  rmSync(marker, { force: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let line = 0;
const shell = (i: number): TranscriptEvent => ({
  type: "shell",
  id: null,
  command: COMMAND,
  output: outputs[i]!.output,
  exitCode: outputs[i]!.exitCode,
  cwd: dir,
  interrupted: false,
  timedOut: false,
  outputTruncated: false,
  persistedOutputPath: null,
  completed: true,
  sidechain: false,
  timestamp: null,
  line: (line += 1),
});
const say = (text: string): TranscriptEvent => ({ type: "assistant-message", text, sidechain: false, timestamp: null, line: (line += 1) });
const edit = (): TranscriptEvent => ({
  type: "edit",
  id: null,
  tool: "Edit",
  paths: [join(dir, "tests", "test_flaky.py")],
  failed: false,
  sidechain: false,
  timestamp: null,
  line: (line += 1),
});
const CLAIM = "test_flaky passes now.";

describe("a named test that failed, then passed on the same code", () => {
  it("the real runs failed, then passed", () => {
    expect(outputs.map((o) => [o.exitCode, /1 failed/.test(o.output), /1 passed/.test(o.output)])).toEqual([
      [1, true, false],
      [0, false, true],
    ]);
  });

  it("is contradicted, and the Stop hook blocks with the failing run", () => {
    const audit = auditEvents([shell(0), shell(1), say(CLAIM)], CLAIM);
    expect(audit.claims.map((c) => [c.label, c.reason])).toEqual([["contradicted", "failed-on-same-tree"]]);
    expect(decideStop(audit)).toMatch(/failed it on the same code, before the run that passed/);
  });

  it("with an edit between the two runs, the pass backs the claim", () => {
    const audit = auditEvents([shell(0), edit(), shell(1), say(CLAIM)], CLAIM);
    expect(audit.claims.map((c) => [c.label, c.reason])).toEqual([["backed", "current-passing-run"]]);
    expect(decideStop(audit)).toBeNull();
  });
});
