// A test-runner invocation where the walk of a line finds one: the runner recognised, its arguments
// read, the directory it runs in, and why the runner may not be the real one (a redefined name, a
// PATH entry in front, a program planted in a script's node_modules/.bin).
import { posix } from "node:path";

import { plantedPrograms } from "./package-scripts.js";
import { recognizeRunner, type RunnerMatch } from "./recognize-runner.js";
import { invocationIdentityRisk, NOT_FOUND_HANDLER, pythonPathFirst } from "./runner-identity.js";
import type { Shadowing } from "./shadowing.js";
import type { SimpleCommand, TestInvocation } from "./types.js";
import type { Scope, Walk } from "./walk-state.js";
import { type DirectoryState, resolveDirectory } from "./workspace.js";

// Why the runner may not be the real one (a redefined name, a PATH prepend, runner-identity.ts), or null.
function identityProblem(command: SimpleCommand, match: RunnerMatch, shadowing: Shadowing, pathPrepend: boolean): string | null {
  if (match.risks.length > 0) return match.risks[0]!;
  const redefined = match.programs.find((program) => shadowing.names.has(program));
  if (redefined !== undefined) return `${redefined} is redefined in the line`;
  // bash calls this function for any name PATH does not find: it can stand in for a missing runner.
  if (shadowing.names.has(NOT_FOUND_HANDLER)) return `${NOT_FOUND_HANDLER} is defined in the line`;
  if (shadowing.pathPrepend || pathPrepend) return "PATH gets a new entry in front";
  const interpreter = match.definition.identityScope;
  const risk = shadowing.risks.find((r) => r.scope === "any" || r.scope === interpreter);
  if (risk !== undefined) return risk.reason;
  return (
    invocationIdentityRisk(command, match.runnerWords, match.args, match.env, interpreter) ??
    match.definition.identityRisk?.(match.args) ??
    null
  );
}

// A script's PATH starts with its package's node_modules/.bin: a program there that no installed package put there.
function plantedBin(match: RunnerMatch, walk: Walk): string | null {
  for (const at of walk.runStack) {
    const run = walk.packageRuns[at]!;
    const manifest = run.directory === null ? undefined : walk.scripts?.[run.directory];
    const planted = plantedPrograms(manifest, match.programs);
    if (planted.length > 0) return `node_modules/.bin/${planted[0]!} comes first on the script's PATH and is no installed package's`;
  }
  return null;
}

/** The test-runner invocation a simple command is, where the walk stands; null when it runs no runner. */
export function recognizeInvocation(
  command: SimpleCommand,
  index: number,
  state: DirectoryState,
  scope: Scope,
  walk: Walk,
): TestInvocation | null {
  const match = recognizeRunner(command.words, state.cwd === null ? null : posix.basename(state.cwd), walk.runners);
  if (match === null) return null;
  const parsed = match.definition.readArguments(match.args, match.syntax);
  let workspace = state.cwd;
  for (const dir of [...match.directories, ...parsed.directories]) workspace = resolveDirectory(workspace, dir);
  const pathPrepend = command.assignments.some((a) => a.name === "PATH") || match.env.some((a) => a.name === "PATH");
  const shadowedBy = identityProblem(command, match, walk.shadowing, pathPrepend) ?? plantedBin(match, walk);
  return {
    kind: match.kind,
    runner: renderWords(match.runnerWords),
    args: match.args,
    targets: parsed.targets,
    filtered: parsed.filtered,
    selection: parsed.selection,
    runsTests: parsed.runsTests,
    shadowed: shadowedBy !== null,
    shadowedBy,
    programs: [...match.programs],
    pathLookup: match.pathLookup,
    output: "direct",
    window: null,
    workspace,
    reportFiles: parsed.reportFiles,
    pathFirst: pythonPathFirst(match.runnerWords, workspace),
    json: parsed.json,
    verbose: parsed.verbose,
    repeated: scope.repeated,
    afterStash: walk.stashed,
    commandIndex: index,
    text: command.text,
    ...scriptOf(walk),
  };
}

// The script run an invocation runs in (the innermost), with a program its node_modules/.bin may stand in for.
function scriptOf(walk: Walk): Pick<TestInvocation, "script"> {
  const at = walk.runStack.at(-1);
  if (at === undefined) return {};
  const run = walk.packageRuns[at]!;
  return { script: { manager: run.manager, name: run.script, run: at } };
}

/** Joins words back into a command text, quoting only words that need it. */
export function renderWords(words: readonly string[]): string {
  return words.map((word) => (/^[A-Za-z0-9_\-./:=@%+,]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(" ");
}
