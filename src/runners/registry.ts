// The runners a caller works with: the built-ins and any of its own, looked up by kind. Immutable:
// each caller passes its own set (AnalyzeOptions, judge, BashEvidence, evidenceTools), never a
// process-wide one another caller could change.
import { EvidenceError } from "../errors.js";
import { cargoRunner } from "./cargo.js";
import { RUNNER_SPEC_VERSION, type RunnerDefinition, type TargetFamily } from "./definition.js";
import { djangoRunner } from "./django.js";
import { goTestRunner } from "./go.js";
import { jestRunner } from "./jest.js";
import { mochaRunner } from "./mocha.js";
import { nodeTestRunner } from "./node-test.js";
import { pytestRunner } from "./pytest.js";
import { exactFamily } from "./target-families.js";
import { unittestRunner } from "./unittest.js";
import { vitestRunner } from "./vitest.js";

/** The runners agent-evidence ships, in the order they are asked. */
export const BUILTIN_RUNNERS: readonly RunnerDefinition[] = Object.freeze([
  pytestRunner,
  goTestRunner,
  djangoRunner,
  unittestRunner,
  nodeTestRunner,
  vitestRunner,
  jestRunner,
  mochaRunner,
  cargoRunner,
]);

/** A set of runner definitions, asked in order (your own before the built-ins). */
export interface RunnerRegistry {
  readonly runners: readonly RunnerDefinition[];
  /** The definition of `kind`, or undefined. */
  get(kind: string): RunnerDefinition | undefined;
  /** The target family of `kind`'s runs: its definition's, else one that knows only equality. */
  familyOf(kind: string): TargetFamily;
}

/**
 * A registry of `runners` (checked: spec version, a unique non-empty kind, the functions present)
 * before the built-ins; one of yours with a built-in's kind replaces it. `{ builtins: false }`: yours only.
 * @example createRunnerRegistry([phpunitRunner]).get("phpunit")
 */
export function createRunnerRegistry(runners: readonly RunnerDefinition[] = [], options: { builtins?: boolean } = {}): RunnerRegistry {
  const list: unknown = runners;
  if (!Array.isArray(list))
    throw new EvidenceError("E_INVALID_OPTION", `createRunnerRegistry needs an array of runner definitions; got ${typeof list}.`);
  const seen = new Set<string>();
  for (const runner of runners) {
    checkDefinition(runner);
    if (seen.has(runner.kind))
      throw new EvidenceError(
        "E_INVALID_OPTION",
        `two runner definitions have the kind ${JSON.stringify(runner.kind)}; kinds must be unique.`,
      );
    seen.add(runner.kind);
  }
  const builtins = options.builtins === false ? [] : BUILTIN_RUNNERS.filter((runner) => !seen.has(runner.kind));
  const all = Object.freeze([...runners, ...builtins]);
  // Verified targets are kept by family name: one name, one rule.
  const families = new Map<string, TargetFamily>();
  for (const runner of all) {
    const known = families.get(runner.family.name);
    if (known !== undefined && known !== runner.family)
      throw new EvidenceError(
        "E_INVALID_OPTION",
        `runner ${JSON.stringify(runner.kind)} brings another target family named ${JSON.stringify(runner.family.name)}; reuse the one of that name or choose another name.`,
      );
    families.set(runner.family.name, runner.family);
  }
  const byKind = new Map(all.map((runner) => [runner.kind, runner]));
  return {
    runners: all,
    get: (kind) => byKind.get(kind),
    familyOf: (kind) => byKind.get(kind)?.family ?? exactFamily(kind),
  };
}

/** The registry of the built-ins alone: the default everywhere. */
export const builtinRunners: RunnerRegistry = createRunnerRegistry();

const FUNCTIONS = ["recognize", "readArguments", "createParser", "covers"] as const;

function checkDefinition(given: RunnerDefinition): void {
  const value: unknown = given;
  if (typeof value !== "object" || value === null)
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `a runner definition must be an object; got ${String(value === null ? "null" : typeof value)}.`,
    );
  const runner = given;
  const name = typeof runner.kind === "string" ? JSON.stringify(runner.kind) : "a runner definition";
  const version: unknown = (value as { specVersion?: unknown }).specVersion;
  if (version !== RUNNER_SPEC_VERSION)
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `${name} has specVersion ${String(JSON.stringify(version))}; this version of agent-evidence reads ${String(RUNNER_SPEC_VERSION)}.`,
    );
  if (typeof runner.kind !== "string" || runner.kind === "")
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `a runner definition's kind must be a non-empty string; got ${JSON.stringify(runner.kind)}.`,
    );
  for (const key of FUNCTIONS)
    if (typeof runner[key] !== "function") throw new EvidenceError("E_INVALID_OPTION", `runner ${name} needs a function ${key}.`);
  if (runner.resultStream !== "stdout" && runner.resultStream !== "stderr")
    throw new EvidenceError("E_INVALID_OPTION", `runner ${name}: resultStream must be "stdout" or "stderr".`);
  if (
    typeof runner.family !== "object" ||
    runner.family === null ||
    typeof runner.family.name !== "string" ||
    typeof runner.family.place !== "function" ||
    typeof runner.family.covers !== "function"
  ) {
    throw new EvidenceError("E_INVALID_OPTION", `runner ${name} needs a family with a name, place and covers.`);
  }
  const split = runner.split as { by?: unknown } | undefined;
  if (split === undefined || (split.by !== "summary" && split.by !== "verdict-line" && split.by !== "unit"))
    throw new EvidenceError("E_INVALID_OPTION", `runner ${name}: split.by must be "summary", "verdict-line" or "unit".`);
}
