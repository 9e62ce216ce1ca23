// The one walk of a parsed line (`walkCommands`), and the one order every consumer numbers simple
// commands in: line order, a `bash -c` script right after its command. The passes that interpret the
// line as they go (the workspace walk of analyze-parsed.ts, the streams of output-route.ts, the
// exit simulation) follow statements themselves: each statement changes their state.
import type { CommandNode, ParsedLine, Pipeline, SimpleCommand, Statement } from "./types.js";

/** Where a command node stands in the list that holds it. */
export interface NodePlace {
  statements: readonly Statement[];
  statementIndex: number;
  statement: Statement;
  pipelineIndex: number;
  pipeline: Pipeline;
  stageIndex: number;
}

/** Returned by a visitor's `enter` to not go inside a node. */
export const SKIP: unique symbol = Symbol("skip");

/** What a walk does at each command node. */
export interface CommandVisitor<C> {
  /**
   * Called for each node in line order with the context its parent handed down; returns the context
   * for what is inside it (a simple command's `bash -c` script, a compound's body), or {@link SKIP}.
   */
  enter(node: CommandNode, context: C, place: NodePlace): C | typeof SKIP;
  /** Called after what is inside the node (or right after `enter`). */
  leave?(node: CommandNode, place: NodePlace): void;
}

/** Walks every command node under `statements` in line order: a simple command's nested script right after it, a compound's body inside it. */
export function walkCommands<C>(statements: readonly Statement[], context: C, visitor: CommandVisitor<C>): void {
  for (let s = 0; s < statements.length; s++) {
    const statement = statements[s]!;
    const pipelines = statement.list.pipelines;
    for (let p = 0; p < pipelines.length; p++) {
      const pipeline = pipelines[p]!;
      for (let c = 0; c < pipeline.commands.length; c++) {
        const node = pipeline.commands[c]!;
        const place: NodePlace = { statements, statementIndex: s, statement, pipelineIndex: p, pipeline, stageIndex: c };
        const inner = visitor.enter(node, context, place);
        if (inner !== SKIP) {
          if (node.type !== "simple") walkCommands(node.body, inner, visitor);
          else if (node.nested !== undefined) walkCommands(node.nested.statements, inner, visitor);
        }
        visitor.leave?.(node, place);
      }
    }
  }
}

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
  walkCommands(statements, null, {
    enter(node) {
      if (node.type === "simple") visit(node);
      return null;
    },
  });
}

/** True when some simple command under `statements` satisfies `test`. */
export function someCommand(statements: readonly Statement[], test: (command: SimpleCommand) => boolean): boolean {
  let found = false;
  visitStatements(statements, (command) => {
    found ||= test(command);
  });
  return found;
}
