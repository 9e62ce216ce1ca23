// Finds what in a line could make a runner's name mean something else: functions, aliases, a PATH prepend
// (also inside a static `eval`), and what of that stays defined in the shell after the line.
import { visitStatements, walkCommands } from "./flatten.js";
import { redirectsOutput, shellRedirect } from "./output-route.js";
import { commandIdentityRisks, type IdentityRisk } from "./runner-identity.js";
import type { CommandNode, ParsedLine, SimpleCommand, Statement } from "./types.js";
import { basename, stripWrappers } from "./wrappers.js";

/** Names redefined in the line, and whether PATH gets a new entry in front. */
export interface Shadowing {
  names: Set<string>;
  pathPrepend: boolean;
  /** What else in the line can change what a runner is (`source`, `eval "$X"`, `PYTHONPATH=`...): see runner-identity.ts. */
  risks: IdentityRisk[];
}

/** Collects every function and alias name and PATH change in the line (nested scripts included). */
export function findShadowing(parsed: ParsedLine): Shadowing {
  const result: Shadowing = { names: new Set(), pathPrepend: false, risks: [] };
  collectFunctions(parsed.statements, result.names);
  visitWithEvaluated(parsed.statements, (command) => {
    for (const assignment of command.assignments) if (assignment.name === "PATH" && prepends(assignment.value)) result.pathPrepend = true;
    const name = command.words[0];
    if (name === "alias") {
      for (const word of command.words.slice(1)) if (word.includes("=")) result.names.add(word.slice(0, word.indexOf("=")));
    }
    if (name === "export" || name === "declare" || name === "readonly" || name === "typeset" || name === "local") {
      for (const word of command.words.slice(1)) if (word.startsWith("PATH=") && prepends(word.slice(5))) result.pathPrepend = true;
    }
    for (const pair of stripWrappers(command.words).env) if (pair.name === "PATH" && prepends(pair.value)) result.pathPrepend = true;
    result.risks.push(...commandIdentityRisks(command));
  });
  return result;
}

// `PATH=$PATH:more` only appends; anything else puts something in front of the real runners.
function prepends(value: string): boolean {
  return !/^(\$PATH|\$\{PATH\})(:|$)/.test(value);
}

function collectFunctions(statements: readonly Statement[], names: Set<string>): void {
  walkCommands(statements, null, {
    enter(node) {
      // What a static `eval` runs is defined in the same shell.
      if (node.type === "simple" && node.evaluated !== undefined) collectFunctions(node.evaluated.statements, names);
      if (node.type === "compound" && node.kind === "function" && node.name !== undefined) names.add(node.name);
      return null;
    },
  });
}

// visitStatements, plus the text of each static `eval` (what it runs is defined in the same shell).
function visitWithEvaluated(statements: readonly Statement[], visit: (command: SimpleCommand) => void): void {
  visitStatements(statements, (command) => {
    visit(command);
    if (command.evaluated !== undefined) visitWithEvaluated(command.evaluated.statements, visit);
  });
}

/**
 * What a line leaves defined in the shell that runs it, for shells that live on between lines (a
 * persistent bash tool): function and alias names, the ones it removes (`unset -f`, `unalias`), and
 * the directories it puts in front of PATH. Definitions inside `( ... )`, a pipeline of several
 * commands, a background list or `bash -c` die with their subshell and are left out.
 */
export interface SessionEffects {
  /** Functions defined (`f() { ...; }`, `function f`), static `eval` text included, in line order. */
  functions: string[];
  /** Aliases defined (`alias NAME=...`). */
  aliases: string[];
  /** Names removed afterwards: `unset -f NAME`, `unset NAME` (a function when no variable has the name). */
  unsetFunctions: string[];
  /** Aliases removed: `unalias NAME`; `unalias -a` removes them all. */
  unsetAliases: string[];
  unaliasAll: boolean;
  /** PATH entries put before the old PATH by `PATH=...` or `export PATH=...` standing alone, as written. */
  pathEntries: string[];
  /** What else stays changed in the shell: a sourced script, `hash -p`, `export PYTHONPATH=...` (runner-identity.ts). */
  risks: IdentityRisk[];
  /** A bare `exec` sent the shell's stdout or stderr elsewhere (`exec > >(sed ...)`, `exec > log`), as written. */
  outputRedirect: string | null;
}

/** Reads {@link SessionEffects} from a parsed line (pure). */
export function findSessionEffects(parsed: ParsedLine): SessionEffects {
  const effects: SessionEffects = {
    functions: [],
    aliases: [],
    unsetFunctions: [],
    unsetAliases: [],
    unaliasAll: false,
    pathEntries: [],
    risks: [],
    outputRedirect: null,
  };
  collectSessionEffects(parsed.statements, effects);
  for (const statement of parsed.statements) {
    const redirect = shellRedirect(statement)?.find(redirectsOutput);
    if (redirect !== undefined) effects.outputRedirect ??= `exec ${redirect.fd ?? ""}${redirect.op}${redirect.target}`;
  }
  return effects;
}

function collectSessionEffects(statements: readonly Statement[], effects: SessionEffects): void {
  for (const statement of statements) {
    if (statement.background) continue;
    for (const pipeline of statement.list.pipelines) {
      if (pipeline.commands.length !== 1) continue;
      sessionEffectsOf(pipeline.commands[0]!, effects);
    }
  }
}

function sessionEffectsOf(node: CommandNode, effects: SessionEffects): void {
  switch (node.type) {
    case "subshell":
      return;
    case "group":
      collectSessionEffects(node.body, effects);
      return;
    case "compound":
      if (node.kind === "function") {
        if (node.name !== undefined) effects.functions.push(node.name);
        return;
      }
      collectSessionEffects(node.body, effects);
      return;
    case "simple":
      simpleSessionEffects(node, effects);
      return;
    default: {
      const never: never = node;
      throw new Error(`unhandled node ${JSON.stringify(never)}`);
    }
  }
}

function simpleSessionEffects(command: SimpleCommand, effects: SessionEffects): void {
  const [name, ...args] = command.words;
  effects.risks.push(...commandIdentityRisks(command));
  // `PATH=...` standing alone changes the shell's PATH; `PATH=... cmd` only the command's.
  if (name === undefined) {
    for (const assignment of command.assignments)
      if (assignment.name === "PATH") effects.pathEntries.push(...newPathEntries(assignment.value));
    return;
  }
  if (command.evaluated !== undefined) collectSessionEffects(command.evaluated.statements, effects);
  if (name === "alias") {
    for (const word of args) if (word.includes("=")) effects.aliases.push(word.slice(0, word.indexOf("=")));
  } else if (name === "unalias") {
    for (const word of args) {
      if (word === "-a") effects.unaliasAll = true;
      else if (!word.startsWith("-")) effects.unsetAliases.push(word);
    }
  } else if (name === "unset") {
    // `unset -v NAME` removes only variables; `unset -f NAME` and plain `unset NAME` can remove a function.
    if (!args.includes("-v")) for (const word of args) if (!word.startsWith("-")) effects.unsetFunctions.push(word);
  } else if (name === "export" || name === "declare" || name === "typeset" || name === "readonly") {
    for (const word of args) if (word.startsWith("PATH=")) effects.pathEntries.push(...newPathEntries(word.slice(5)));
  }
}

// The entries a PATH value puts before the old PATH (all of them when it does not keep the old PATH).
function newPathEntries(value: string): string[] {
  const entries = value.split(":");
  const old = entries.findIndex((entry) => entry === "$PATH" || entry === "${PATH}");
  return (old === -1 ? entries : entries.slice(0, old)).filter((entry) => entry !== "");
}

/** Programs that start something which outlives the line (`setsid -f`, `nohup`, `at`, a coprocess). */
const DETACHING = new Set(["setsid", "nohup", "disown", "coproc", "at", "batch", "daemonize", "start-stop-daemon", "systemd-run"]);

/**
 * Does the line leave a job running after it returns: a statement sent to the background (`cmd &`,
 * also inside a subshell or `bash -c`), or a program that detaches one? In a shell that outlives the
 * line, such a job can change files after a later run was recorded. Opaque lines count as yes.
 */
export function startsBackgroundJob(parsed: ParsedLine): boolean {
  return parsed.opaque || parsed.statements.some(statementStartsJob);
}

function statementStartsJob(statement: Statement): boolean {
  return statement.background || statement.list.pipelines.some((pipeline) => pipeline.commands.some(nodeStartsJob));
}

function nodeStartsJob(node: CommandNode): boolean {
  if (node.type !== "simple") return node.body.some(statementStartsJob);
  if (node.words.some((word, i) => i <= 2 && DETACHING.has(basename(word)))) return true;
  return node.nested !== undefined && startsBackgroundJob(node.nested);
}

/** `wait` with no operand: every background job of the shell has ended once the line completed. */
export function waitsForAllJobs(parsed: ParsedLine): boolean {
  return parsed.statements.some(
    (s) =>
      !s.background &&
      s.list.pipelines.some((p) => p.commands.some((c) => c.type === "simple" && c.words.length === 1 && c.words[0] === "wait")),
  );
}
