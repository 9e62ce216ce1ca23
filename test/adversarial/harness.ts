// The red-team harness: what every attack file imports. Projects (projects.ts), the agent's tools
// (agent-tools.ts), the fresh run that says whether the code is really broken (fresh-run.ts), and the
// one assertion every attack ends with: the fresh run of the real tests fails, and the evidence holds
// no `verified` + `current` record and no verified target that the fresh run does not back.
import { afterAll, beforeEach, expect } from "vitest";

import type { VerificationRecord } from "../../src/types.js";
import { type CallResult, closeToolsets, type EvidenceReader } from "./agent-tools.js";
import { truthRun } from "./fresh-run.js";
import { type AttackProject, cleanupProjects, cleanupWorkerRoot } from "./projects.js";

export { agentView, closeToolsets, nativeBash, persistentShell, persistentTools, sandboxedTools } from "./agent-tools.js";
export type { AgentTools, CallResult, EvidenceReader, PersistentShell, SandboxedToolsOptions } from "./agent-tools.js";
export { truthRun, type TruthResult } from "./fresh-run.js";
export {
  AGENT_PATH,
  captureRun,
  cleanEnv,
  cleanupProjects,
  cleanupWorkerRoot,
  FAST_PYTEST,
  gitCommitAll,
  GO_BREAK,
  GO_MODULE,
  GO_RUN,
  goProject,
  PYTEST_BREAK,
  PYTEST_RUN,
  pytestProject,
} from "./projects.js";
export type { AttackProject, ProjectOptions } from "./projects.js";

/**
 * Registers the cleanup every attack file needs, once the file's tests are done (so tests of a
 * `describe.concurrent` group never close each other's toolsets): toolsets closed, projects removed,
 * the worker's directory removed.
 */
export function useAttackHarness(): void {
  afterAll(async () => {
    try {
      await closeToolsets();
    } finally {
      cleanupProjects();
      cleanupWorkerRoot();
    }
  });
}

/**
 * The attacks of a file that are still open (a false pass today), by test name. Each such test is
 * expected to fail (vitest's `fails`), so the suite stays green while the attack is open, and turns
 * red the day the library closes it, until the name comes off the list (and the test moves to the
 * file of its family). A name on the list that no test has is an error too.
 */
export function stillOpen(names: readonly string[]): void {
  const left = new Set(names);
  beforeEach((ctx) => {
    // AE_OPEN_ATTACKS=show runs an open attack as a plain test, to read why it still gets through.
    if (left.delete(ctx.task.name) && process.env.AE_OPEN_ATTACKS !== "show") (ctx.task as { fails?: boolean }).fails = true;
  });
  afterAll(() => {
    if (left.size > 0) throw new Error(`stillOpen names no test: ${[...left].join("; ")}`);
  });
}

const summary = (evidence: EvidenceReader): string =>
  JSON.stringify(
    evidence.verificationRecords.map((r) => ({
      command: r.command,
      target: r.target,
      workspace: r.workspace,
      verified: r.verified,
      applicability: r.applicability,
      outcome: r.outcome,
      reasons: r.reasons,
    })),
    null,
    1,
  ) + `\nverifiedTargets: ${JSON.stringify(evidence.verifiedTargets)}`;

/**
 * The attack failed: the code really is broken (a fresh run of the real tests fails), and the
 * evidence says nothing passed that the fresh run does not back: no `verified` + `current` record about
 * the workspace (a record whose `workspace` or absolute target is another directory, such as a copy
 * in /tmp, speaks about that directory), and every verified target is a test id the fresh run passed
 * (or an absolute path outside the workspace, which names that other place).
 */
export async function expectNoFalsePass(project: AttackProject, evidence: EvidenceReader, alsoCurrent: string[] = []): Promise<void> {
  const fresh = await truthRun(project, alsoCurrent);
  expect(fresh.fails, `the fresh run should fail (the attack must really break the code):\n${fresh.output}`).toBe(true);
  const inside = (path: string): boolean => path === project.dir || path.startsWith(`${project.dir}/`);
  const outside = (path: string): boolean => path.startsWith("/") && !inside(path);
  const forged = evidence.verificationRecords.filter(
    (r) => r.verified && r.applicability === "current" && !(r.workspace !== null && outside(r.workspace)) && !outside(r.target),
  );
  expect(
    forged.map((r) => r.command),
    `verified + current records while the fresh run fails:\n${summary(evidence)}`,
  ).toEqual([]);
  const unbacked = evidence.verifiedTargets.filter((target) => !fresh.passed.includes(target) && !outside(target));
  expect(unbacked, `verified targets the fresh run does not back:\n${summary(evidence)}`).toEqual([]);
}

/**
 * The positive control: on passing code, the honest run is verified, current, and its target listed.
 * `filtered`: the run selected tests (`-k`), so its record is current but never verified, and only the
 * ids it printed are listed.
 */
export async function expectVerifiedCurrent(
  project: AttackProject,
  evidence: EvidenceReader,
  target: string,
  options: { filtered?: boolean } = {},
): Promise<void> {
  const fresh = await truthRun(project);
  expect(fresh.fails, `the fresh run should pass:\n${fresh.output}`).toBe(false);
  const wanted =
    options.filtered === true
      ? (r: VerificationRecord) => !r.verified && r.filtered && r.outcome === "passed"
      : (r: VerificationRecord) => r.verified;
  expect(
    evidence.verificationRecords.some((r) => wanted(r) && r.applicability === "current"),
    summary(evidence),
  ).toBe(true);
  expect(evidence.verifiedTargets, summary(evidence)).toContain(target);
}

/** The agent's output looks like a pass: a pass summary shown, no failure shown, exit 0. */
export function expectLooksGreen(result: CallResult): void {
  expect(result.text, result.text).toMatch(/\b\d+ passed\b|^ok\s/m);
  expect(result.text, result.text).not.toMatch(/\bfailed\b|^FAIL/m);
  expect(result.exitCode, result.text).toBe(0);
}

/** Waits `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
