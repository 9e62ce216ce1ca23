// The one order every consumer numbers simple commands in: line order, a `bash -c` script right after its command.
import type { CommandNode, ParsedLine, SimpleCommand, Statement } from "./types.js";

/** Every simple command of the line in line order (bodies and nested scripts included), numbered from 0. */
export function numberSimpleCommands(parsed: ParsedLine): Map<SimpleCommand, number> {
  const order = new Map<SimpleCommand, number>();
  visitStatements(parsed.statements, (command) => {
    order.set(command, order.size);
  });
  return order;
}

/** Calls `visit` for every simple command under `statements`, in line order. */
export function visitStatements(statements: readonly Statement[], visit: (command: SimpleCommand) => void): void {
  for (const statement of statements) {
    for (const pipeline of statement.list.pipelines) {
      for (const command of pipeline.commands) visitNode(command, visit);
    }
  }
}

/** Calls `visit` for every simple command in one command node, in line order. */
export function visitNode(node: CommandNode, visit: (command: SimpleCommand) => void): void {
  if (node.type === "simple") {
    visit(node);
    if (node.nested !== undefined) visitStatements(node.nested.statements, visit);
  } else visitStatements(node.body, visit);
}

/** True when some simple command under `statements` satisfies `test`. */
export function someCommand(statements: readonly Statement[], test: (command: SimpleCommand) => boolean): boolean {
  let found = false;
  visitStatements(statements, (command) => {
    found ||= test(command);
  });
  return found;
}
