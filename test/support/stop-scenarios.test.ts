// The Stop hook scenario recordings (test/fixtures/hooks/stop-scenarios/). With
// RECORD_STOP_SCENARIOS=1 this records them anew; otherwise it checks that the stored runs are still
// what pytest prints on the project: the same exit status and summary line for every run.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { pytestSummary, type RecordedRun, recordScenario, runScenario, STOP_SCENARIOS, STOP_SCENARIOS_DIR } from "./stop-scenarios.js";

const recording = process.env.RECORD_STOP_SCENARIOS === "1";

describe.each(STOP_SCENARIOS.map((scenario) => [scenario.name, scenario] as const))("stop scenario %s", (_name, scenario) => {
  if (recording) {
    it("records", () => {
      recordScenario(scenario);
      expect(existsSync(join(STOP_SCENARIOS_DIR, scenario.name, "runs.json"))).toBe(true);
    });
    return;
  }
  it("the stored runs are what pytest prints on the project today", () => {
    const stored = JSON.parse(readFileSync(join(STOP_SCENARIOS_DIR, scenario.name, "runs.json"), "utf8")) as RecordedRun[];
    const shape = (runs: readonly RecordedRun[]) =>
      runs.map((r) => ({ step: r.step, command: r.command, exitCode: r.exitCode, summary: pytestSummary(r.stdout) }));
    expect(shape(runScenario(scenario))).toEqual(shape(stored));
  });
});
