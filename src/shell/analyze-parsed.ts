// Walks a parsed line: every simple command in line order, its read-only class, and each test-runner
// invocation with the directory it runs in.
import { builtinRunners, type RunnerRegistry } from "../runners/registry.js";
import { checkScriptRuns } from "./check-script-runs.js";
import { type CommandEffect, commandEffect } from "./command-effect.js";
import { numberSimpleCommands, someCommand } from "./flatten.js";
import { routeOutputs } from "./output-route.js";
import { type PackageScriptRun, type PackageScripts, readScriptRun } from "./package-scripts.js";
import { isHarmlessRedirect, isReadOnlyCommand } from "./read-only.js";
import { recognizeInvocation } from "./recognize-invocation.js";
import { findShadowing } from "./shadowing.js";
import type { AnalyzedCommand, AndOrList, CommandAnalysis, CommandNode, ParsedLine, SimpleCommand, Statement } from "./types.js";
import type { Scope, Walk } from "./walk-state.js";
import { applyDirectoryCommand, type DirectoryState, isDirectoryCommand, normalizeStart } from "./workspace.js";
import { basename, stripWrappers } from "./wrappers.js";

export { renderWords } from "./recognize-invocation.js";

/** Options for analysing a command line. */
export interface AnalyzeOptions {
  /**
   * The directory the line starts in (default "."); workspaces are joined onto it with POSIX rules.
   * `null`: not known (only an absolute `cd` in the line makes a workspace known).
   */
  cwd?: string | null;
  /** The runners to recognise (default: the built-ins). */
  runners?: RunnerRegistry;
  /**
   * What package.json says where the line's script runs (`npm test`) start: data the caller read
   * (src/observation/package-scripts.ts). Without it a script run proves nothing (`script-not-resolved`).
   */
  packageScripts?: PackageScripts;
}

/**
 * Analyses a parsed line (pure).
 * @example analyzeParsed(parseCommandLine("cd pkg && pytest -q", bashParser), { cwd: "/repo" }).invocations[0].workspace // "/repo/pkg"
 */
export function analyzeParsed(parsed: ParsedLine, options: AnalyzeOptions = {}): CommandAnalysis {
  const runners = options.runners ?? builtinRunners;
  const walk: Walk = {
    runners,
    order: numberSimpleCommands(parsed),
    shadowing: findShadowing(parsed),
    commands: [],
    stashed: false,
    opaque: parsed.opaque,
    writingRedirects: 0,
    substitutes: /\$\(|`/.test(parsed.text),
    late: 0,
    outlives: 0,
    scripts: options.packageScripts,
    packageRuns: [],
    runStack: [],
    inside: new Map(),
  };
  const state: DirectoryState = { cwd: options.cwd === null ? null : normalizeStart(options.cwd), stack: null };
  walkStatements(parsed.statements, state, { repeated: false }, walk);
  const commands = walk.commands.filter((command) => command !== undefined);
  if (parsed.opaque && commands.length === 0)
    commands.push({
      index: 0,
      text: parsed.text,
      name: "",
      words: [],
      readOnly: false,
      effect: { kind: "unknown", reason: "the line cannot be read" },
    });
  const invocations = commands.flatMap((command) => (command.invocation === undefined ? [] : [command.invocation]));
  if (walk.packageRuns.length > 0) checkScriptRuns(walk, commands, invocations);
  if (invocations.length > 0) {
    // Each runner prints its results on its own stream (unittest and Django on stderr).
    const routes = routeOutputs(parsed, walk.order);
    for (const command of commands) {
      const invocation = command.invocation;
      if (invocation === undefined) continue;
      const onStderr = runners.get(invocation.kind)?.resultStream === "stderr";
      invocation.output = (onStderr ? routes.stderr : routes.stdout).get(command.index) ?? "direct";
      const window = (onStderr ? routes.stderrWindow : routes.stdoutWindow).get(command.index);
      if (window !== undefined) invocation.window = window;
    }
  }
  return {
    line: parsed.text,
    parsed,
    opaque: parsed.opaque,
    commands,
    invocations,
    endCwd: parsed.opaque ? null : state.cwd,
    ...(walk.packageRuns.length > 0 ? { packageRuns: walk.packageRuns } : {}),
  };
}

function copyState(state: DirectoryState): DirectoryState {
  return { cwd: state.cwd, stack: state.stack };
}

function walkStatements(statements: readonly Statement[], state: DirectoryState, scope: Scope, walk: Walk): void {
  for (const statement of statements) {
    // A background list runs in a subshell: its `cd` does not move the rest of the line.
    const late = statement.background ? 1 : 0;
    walk.late += late;
    walk.outlives += late;
    try {
      walkList(statement.list, statement.background ? copyState(state) : state, scope, walk);
    } finally {
      walk.late -= late;
      walk.outlives -= late;
    }
  }
}

// `cd a && x` runs x in a; after the list, only a leading chain of `cd ... &&` moves the line for sure.
function walkList(list: AndOrList, state: DirectoryState, scope: Scope, walk: Walk): void {
  let current = copyState(state);
  let moved = false;
  let leading = true;
  let after: DirectoryState | null | undefined;
  list.pipelines.forEach((pipeline, i) => {
    const connector = i > 0 ? list.connectors[i - 1] : undefined;
    if (connector === "||" && moved) current = { cwd: null, stack: current.stack };
    if (connector !== undefined && connector !== "&&") leading = false;
    const run = copyState(current);
    let changed = false;
    if (pipeline.commands.length === 1) changed = walkNode(pipeline.commands[0]!, run, scope, walk);
    else {
      // The stages of a pipeline run at once: an earlier stage can write after a later one started.
      walk.late += 1;
      try {
        for (const command of pipeline.commands) walkNode(command, copyState(current), scope, walk);
      } finally {
        walk.late -= 1;
      }
    }
    if (changed) {
      moved = true;
      current = run;
      after = leading ? copyState(run) : null;
    } else leading = false;
  });
  if (after === undefined) return;
  state.cwd = after === null ? null : after.cwd;
  state.stack = after === null ? null : after.stack;
}

// Returns true when the node changed the directory of the shell it runs in. A subshell, group or
// compound whose output goes into a file makes every command in it a writer.
function walkNode(node: CommandNode, state: DirectoryState, scope: Scope, walk: Walk): boolean {
  const writes = node.type !== "simple" && !node.redirects.every(isHarmlessRedirect);
  if (writes) walk.writingRedirects += 1;
  try {
    return walkNodeBody(node, state, scope, walk);
  } finally {
    if (writes) walk.writingRedirects -= 1;
  }
}

function walkNodeBody(node: CommandNode, state: DirectoryState, scope: Scope, walk: Walk): boolean {
  const before = state.cwd;
  switch (node.type) {
    case "simple":
      analyzeSimple(node, state, scope, walk);
      return isDirectoryCommand(node);
    case "subshell":
      walkStatements(node.body, copyState(state), scope, walk);
      return false;
    case "group":
      walkStatements(node.body, state, scope, walk);
      return state.cwd !== before || someCommand(node.body, isDirectoryCommand);
    case "compound": {
      const inner =
        node.kind === "for" || node.kind === "while" || node.kind === "until" || node.kind === "function" ? { repeated: true } : scope;
      walkStatements(node.body, copyState(state), inner, walk);
      if (!someCommand(node.body, isDirectoryCommand)) return false;
      state.cwd = null;
      return true;
    }
    default: {
      const never: never = node;
      throw new Error(`unknown command node ${JSON.stringify(never)}`);
    }
  }
}

function analyzeSimple(command: SimpleCommand, state: DirectoryState, scope: Scope, walk: Walk): void {
  const index = walk.order.get(command) ?? walk.commands.length;
  const stripped = stripWrappers(command.words);
  const nameIndex = stripped.start < command.words.length ? stripped.start : 0;
  const entry: AnalyzedCommand = {
    index,
    text: command.text,
    name: command.words.length === 0 ? "" : basename(command.words[nameIndex]!),
    words: command.words,
    readOnly:
      !walk.opaque &&
      walk.writingRedirects === 0 &&
      !(walk.substitutes && hasUnquotedHeredoc(command)) &&
      isReadOnlyCommand(command, nameIndex),
    effect: contextEffect(command, nameIndex, walk),
  };
  for (const run of walk.runStack) walk.inside.get(run)?.add(index);
  let scriptRun: PackageScriptRun | null = null;
  if (!walk.opaque) {
    const invocation = recognizeInvocation(command, index, state, scope, walk);
    if (invocation !== null) {
      entry.invocation = invocation;
      entry.readOnly = false;
      entry.effect = { kind: "unknown", reason: "runs tests" };
    } else if (stripped.ok) scriptRun = readScriptRun(command.words.slice(stripped.start), state.cwd, index, walk.scripts);
    // `npm_config_script_shell=./sh npm test`: npm reads its configuration from the environment too.
    const config = [...command.assignments, ...stripped.env].find((a) => /^npm_config_/i.test(a.name));
    if (scriptRun !== null && scriptRun.problem === null && config !== undefined) {
      scriptRun.problem = "script-config";
      scriptRun.detail = config.name;
    }
  }
  if (walk.late > 0 || entry.name === "trap" || /[<>]\(/.test(command.text)) entry.runsLate = true;
  // bash waits for every stage of a pipeline, not for a job, a trap or a process substitution.
  if (walk.outlives > 0 || entry.name === "trap" || /[<>]\(/.test(command.text)) entry.outlivesLine = true;
  walk.commands[index] = entry;
  trackStash(command, walk);
  if (isDirectoryCommand(command)) applyDirectoryCommand(command, state);
  if (scriptRun !== null) walkScriptRun(command, scriptRun, scope, walk);
  else if (command.nested !== undefined) walkStatements(command.nested.statements, copyState(state), scope, walk);
}

// A script run: its script (expanded into the command's nested line) runs in the package's directory.
function walkScriptRun(command: SimpleCommand, run: PackageScriptRun, scope: Scope, walk: Walk): void {
  const at = walk.packageRuns.push(run) - 1;
  walk.inside.set(at, new Set());
  if (command.nested === undefined || run.nestedText === null) return;
  if (command.script !== run.nestedText) {
    run.problem = "script-changed";
    run.detail = "the script expanded into the line is not the one package.json now holds";
    return;
  }
  run.expanded = true;
  walk.runStack.push(at);
  try {
    walkStatements(command.nested.statements, { cwd: run.packageDir, stack: null }, scope, walk);
  } finally {
    walk.runStack.pop();
  }
}

// A command's effect where it stands: inside an unreadable line, a compound whose output goes to a
// file (`{ ...; } > mod.py`), or with an unquoted heredoc that may expand a substitution, anything.
function contextEffect(command: SimpleCommand, nameIndex: number, walk: Walk): CommandEffect {
  if (walk.opaque) return { kind: "unknown", reason: "the line cannot be read" };
  if (walk.writingRedirects > 0) return { kind: "unknown", reason: "inside a compound whose output goes to a file" };
  if (walk.substitutes && hasUnquotedHeredoc(command)) return { kind: "unknown", reason: "an unquoted heredoc may run a substitution" };
  return commandEffect(command, nameIndex);
}

// `cat <<EOF` expands its body (`$(cmd)` runs); `<<'EOF'` and `<<"EOF"` do not.
function hasUnquotedHeredoc(command: SimpleCommand): boolean {
  return command.redirects.some((r) => (r.op === "<<" || r.op === "<<-") && !new RegExp(`<<-?\\s*(['"]|\\\\)`).test(command.text));
}

// `git stash` / `git stash push|save ...` hides the change until `git stash pop|apply`.
function trackStash(command: SimpleCommand, walk: Walk): void {
  const words = stripWrappers(command.words);
  const rest = command.words.slice(words.start);
  if (basename(rest[0] ?? "") !== "git") return;
  let i = 1;
  while (i < rest.length && rest[i]!.startsWith("-")) i += ["-C", "-c", "--git-dir", "--work-tree"].includes(rest[i]!) ? 2 : 1;
  if (rest[i] !== "stash") return;
  const sub = rest[i + 1];
  if (sub === undefined || sub === "push" || sub === "save" || sub.startsWith("-")) walk.stashed = true;
  else if (sub === "pop" || sub === "apply") walk.stashed = false;
}
