// Finds what in a line could make a runner's name mean something else: functions, aliases, a PATH prepend.
import { visitStatements } from "./flatten.js";
import type { ParsedLine, Statement } from "./types.js";
import { stripWrappers } from "./wrappers.js";

/** Names redefined in the line, and whether PATH gets a new entry in front. */
export interface Shadowing {
  names: Set<string>;
  pathPrepend: boolean;
}

/** Collects every function and alias name and PATH change in the line (nested scripts included). */
export function findShadowing(parsed: ParsedLine): Shadowing {
  const result: Shadowing = { names: new Set(), pathPrepend: false };
  collectFunctions(parsed.statements, result.names);
  visitStatements(parsed.statements, (command) => {
    for (const assignment of command.assignments) if (assignment.name === "PATH" && prepends(assignment.value)) result.pathPrepend = true;
    const name = command.words[0];
    if (name === "alias") {
      for (const word of command.words.slice(1)) if (word.includes("=")) result.names.add(word.slice(0, word.indexOf("=")));
    }
    if (name === "export" || name === "declare" || name === "readonly" || name === "typeset" || name === "local") {
      for (const word of command.words.slice(1)) if (word.startsWith("PATH=") && prepends(word.slice(5))) result.pathPrepend = true;
    }
    for (const pair of stripWrappers(command.words).env) if (pair.name === "PATH" && prepends(pair.value)) result.pathPrepend = true;
  });
  return result;
}

// `PATH=$PATH:more` only appends; anything else puts something in front of the real runners.
function prepends(value: string): boolean {
  return !/^(\$PATH|\$\{PATH\})(:|$)/.test(value);
}

function collectFunctions(statements: readonly Statement[], names: Set<string>): void {
  for (const statement of statements) {
    for (const pipeline of statement.list.pipelines) {
      for (const node of pipeline.commands) {
        if (node.type === "simple") {
          if (node.nested !== undefined) collectFunctions(node.nested.statements, names);
          continue;
        }
        if (node.type === "compound" && node.kind === "function" && node.name !== undefined) names.add(node.name);
        collectFunctions(node.body, names);
      }
    }
  }
}
