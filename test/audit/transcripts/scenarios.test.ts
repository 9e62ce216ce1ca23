import { beforeAll, describe, expect, it } from "vitest";

import { auditTranscript } from "../../../src/audit/audit-transcript.js";
import { detectClaims } from "../../../src/audit/claims.js";
import { readTranscript } from "../../../src/audit/transcripts/read-transcript.js";
import type { TranscriptEvent } from "../../../src/audit/transcripts/types.js";
import { captureRealRuns, type RealRuns } from "./real-runs.js";
import { toJsonl } from "./records.js";
import { buildScenarios, type Scenario, type ScenarioStep, toClaudeRecords, toCodexRecords } from "./scenarios.js";

let runs: RealRuns;
let scenarios: Scenario[];
beforeAll(() => {
  runs = captureRealRuns();
  scenarios = buildScenarios(runs);
});

// What the readers must hand to session analysis: each step as a normalised event, in order.
function expectedSteps(steps: readonly ScenarioStep[], client: "claude-code" | "codex"): unknown[] {
  return steps.flatMap((step): unknown[] => {
    switch (step.kind) {
      case "run": {
        const output =
          client === "claude-code" && step.run.exitCode === 0
            ? step.run.stdout
            : [step.run.stdout, step.run.stderr].filter(Boolean).join(client === "codex" ? "" : "\n");
        return [{ type: "shell", command: step.run.command, exitCode: step.run.exitCode, output, completed: true, outputTruncated: false }];
      }
      case "edit":
        return [{ type: "edit", paths: [client === "codex" ? step.path : `/w/${step.path}`], failed: false }];
      case "say":
        return [{ type: "assistant-message", text: step.text }];
      case "tool":
        return step.edit === null ? [] : [{ type: "edit", paths: step.edit, failed: false }];
      case "user":
        return [];
      default: {
        const unreachable: never = step;
        return unreachable;
      }
    }
  });
}

function summarise(events: readonly TranscriptEvent[]): unknown[] {
  return events
    .map((event) => {
      switch (event.type) {
        case "shell":
          return {
            type: "shell",
            command: event.command,
            exitCode: event.exitCode,
            output: event.output,
            completed: event.completed,
            outputTruncated: event.outputTruncated,
          };
        case "edit":
          return { type: "edit", paths: event.paths, failed: event.failed };
        case "assistant-message":
          return { type: "assistant-message", text: event.text };
        case "user-message":
          return null;
        default: {
          const unreachable: never = event;
          return unreachable;
        }
      }
    })
    .filter((summary) => summary !== null);
}

describe("audit scenarios built from real pytest runs", () => {
  it("the real runs have the outcomes the scenarios rely on", () => {
    expect({
      failingSuite: [runs.failingSuite.exitCode, /1 failed, 1 passed/.test(runs.failingSuite.stdout)],
      failingTail: [runs.failingTail.exitCode, /1 failed, 1 passed/.test(runs.failingTail.stdout)],
      passingSuite: [runs.passingSuite.exitCode, /2 passed/.test(runs.passingSuite.stdout)],
      filteredPass: [runs.filteredPass.exitCode, /1 passed, 1 deselected/.test(runs.filteredPass.stdout)],
      collectedNothing: [runs.collectedNothing.exitCode, /2 deselected/.test(runs.collectedNothing.stdout)],
      stashBaseline: [/Saved working directory/.test(runs.stashBaseline.stdout), /1 failed, 1 passed/.test(runs.stashBaseline.stdout)],
    }).toEqual({
      failingSuite: [1, true],
      failingTail: [0, true],
      passingSuite: [0, true],
      filteredPass: [0, true],
      collectedNothing: [5, true],
      stashBaseline: [true, true],
    });
  });

  it.each(["claude-code", "codex"] as const)("%s: every scenario reads back as its steps, with its final message and claims", (client) => {
    for (const scenario of scenarios) {
      const records = client === "claude-code" ? toClaudeRecords(scenario.steps) : toCodexRecords(scenario.steps, runs.dir);
      const result = readTranscript(toJsonl(records));
      const finalText = scenario.steps.flatMap((step) => (step.kind === "say" ? [step.text] : [])).at(-1);
      expect({
        name: scenario.name,
        format: result.format,
        problems: result.problems,
        events: summarise(result.events),
        finalMessage: result.finalMessage,
      }).toEqual({
        name: scenario.name,
        format: client,
        problems: [],
        events: expectedSteps(scenario.steps, client),
        finalMessage: finalText,
      });
      expect({ name: scenario.name, kinds: detectClaims(result.finalMessage ?? "").map((claim) => claim.kind) }).toEqual({
        name: scenario.name,
        kinds: scenario.claimKinds,
      });
    }
  });
});

describe("audit scenarios: labels and last runs", () => {
  it.each(["claude-code", "codex"] as const)("%s: each scenario's final claim gets the scenario's label", (client) => {
    const actual = scenarios.map((scenario) => {
      const records = client === "claude-code" ? toClaudeRecords(scenario.steps) : toCodexRecords(scenario.steps, runs.dir);
      const audit = auditTranscript(toJsonl(records));
      return { name: scenario.name, labels: audit.claims.map((claim) => claim.label) };
    });
    expect(actual).toEqual(scenarios.map((scenario) => ({ name: scenario.name, labels: [scenario.label] })));
  });

  it.each(["claude-code", "codex"] as const)("%s: the last run's outcome and staleness", (client) => {
    const actual = scenarios.map((scenario) => {
      const records = client === "claude-code" ? toClaudeRecords(scenario.steps) : toCodexRecords(scenario.steps, runs.dir);
      const { lastRun, runs: audited } = auditTranscript(toJsonl(records));
      return {
        name: scenario.name,
        last: lastRun && { outcome: lastRun.outcome, stale: lastRun.stale },
        baselines: audited.filter((run) => run.baseline).length,
      };
    });
    expect(actual).toEqual([
      { name: "a failing run then 'all tests pass'", last: { outcome: "failed", stale: false }, baselines: 0 },
      { name: "| tail with a failing summary", last: { outcome: "failed", stale: false }, baselines: 0 },
      { name: "a pass then an edit then a claim", last: { outcome: "passed", stale: true }, baselines: 0 },
      { name: "a stash baseline", last: null, baselines: 1 },
      { name: "a filtered run and a whole-suite claim", last: { outcome: "passed", stale: false }, baselines: 0 },
      { name: "a run that collected nothing", last: { outcome: "unknown", stale: false }, baselines: 0 },
      { name: "an honest disclosure", last: { outcome: "failed", stale: false }, baselines: 0 },
      { name: "a backed claim", last: { outcome: "passed", stale: false }, baselines: 0 },
      { name: "a pass then an MCP write_file then a claim", last: { outcome: "passed", stale: true }, baselines: 0 },
      { name: "a pass then an MCP replace_text then a claim", last: { outcome: "passed", stale: true }, baselines: 0 },
      { name: "a pass then a tool of unknown effect then a claim", last: { outcome: "passed", stale: true }, baselines: 0 },
      { name: "a pass then read-only tools then a claim", last: { outcome: "passed", stale: false }, baselines: 0 },
    ]);
  });
});
