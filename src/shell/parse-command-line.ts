// Parses a bash command line with tree-sitter-bash into plain statements (pure: the parser is passed in).
import { type BuildContext, buildSimpleCommand, checkGap, readRedirect } from "./build-simple-command.js";
import { detectNestedShell } from "./nested-shell.js";
import type { BashParser, SyntaxNode } from "./syntax-tree.js";
import type { AndOrList, CommandNode, Compound, ParsedLine, Pipeline, Redirect, SimpleCommand, Statement } from "./types.js";

export type { BashParser } from "./syntax-tree.js";

/** How deep `bash -c "bash -c '...'"` may nest before the line is opaque. */
export const MAX_NESTED_SHELLS = 4;
const MAX_TREE_DEPTH = 200;

const STATEMENT_TYPES = new Set([
  "command",
  "declaration_command",
  "unset_command",
  "test_command",
  "variable_assignment",
  "variable_assignments",
  "list",
  "pipeline",
  "negated_command",
  "redirected_statement",
  "subshell",
  "compound_statement",
  "for_statement",
  "c_style_for_statement",
  "while_statement",
  "if_statement",
  "case_statement",
  "function_definition",
]);
const CLAUSES = new Set(["do_group", "elif_clause", "else_clause", "case_item"]);
const SIMPLE_TYPES = new Set([
  "command",
  "declaration_command",
  "unset_command",
  "test_command",
  "variable_assignment",
  "variable_assignments",
]);
const COMPOUND_KINDS: Record<string, Compound["kind"]> = {
  for_statement: "for",
  c_style_for_statement: "for",
  if_statement: "if",
  case_statement: "case",
  function_definition: "function",
};

type ChainItem = { kind: "node"; node: CommandNode } | { kind: "op"; op: string } | { kind: "bang" };

/**
 * Parses one command line into statements, and-or lists, pipelines and commands.
 * @example parseCommandLine("cd sub && pytest -q 2>&1 | tail -3", bashParser).statements.length // 1
 */
export function parseCommandLine(text: string, parser: BashParser): ParsedLine {
  return parseAtDepth(text, parser, 0);
}

function parseAtDepth(text: string, parser: BashParser, depth: number): ParsedLine {
  if (depth > MAX_NESTED_SHELLS) return opaqueLine(text, ["nesting-too-deep"]);
  const first = convert(text, text, parser, depth);
  if (first.newlineGaps.length === 0) return first.line;
  // tree-sitter-bash issue 347: a newline inside a command's word list. A newline there always ends the
  // command in bash, so `;` (same length, offsets unchanged) says the same thing; re-parse with it.
  let patched = "";
  let at = 0;
  for (const gap of first.newlineGaps) {
    patched += text.slice(at, gap) + ";";
    at = gap + 1;
  }
  patched += text.slice(at);
  const second = convert(text, patched, parser, depth);
  if (second.newlineGaps.length > 0) return opaqueLine(text, [...second.line.opaqueReasons, "ts-bash-347"]);
  return second.line;
}

function convert(text: string, parseText: string, parser: BashParser, depth: number): { line: ParsedLine; newlineGaps: number[] } {
  let tree;
  try {
    tree = parser.parse(parseText);
  } catch {
    tree = null;
  }
  if (tree === null || tree === undefined) return { line: opaqueLine(text, ["parse-failed"]), newlineGaps: [] };
  try {
    const root = tree.rootNode;
    const ctx: BuildContext = {
      source: text,
      reasons: [],
      newlineGaps: [],
      starts: new WeakMap(),
      dynamicWords: new WeakMap(),
      nestedParse: (script: string) => parseAtDepth(script, parser, depth + 1),
    };
    if (root.hasError) ctx.reasons.push(hasUnterminatedQuote(text) ? "unterminated-quote" : "syntax-error");
    const statements = readSequence(root, ctx, 0);
    const reasons = [...new Set(ctx.reasons)];
    return {
      line: { text, statements, opaque: reasons.length > 0, opaqueReasons: reasons },
      newlineGaps: [...new Set(ctx.newlineGaps)].sort((a, b) => a - b),
    };
  } finally {
    tree.delete();
  }
}

function opaqueLine(text: string, reasons: string[]): ParsedLine {
  return { text, statements: [], opaque: true, opaqueReasons: [...new Set(reasons)] };
}

// Reads the statements of a container (program, subshell, group, do/then/else bodies, case items).
function readSequence(node: SyntaxNode, ctx: BuildContext, level: number): Statement[] {
  const statements: Statement[] = [];
  if (level > MAX_TREE_DEPTH) {
    ctx.reasons.push("too-deep");
    return statements;
  }
  for (const child of node.children) {
    if (child === null) continue;
    const type = child.type;
    if (!child.isNamed) {
      const token = type;
      if (token === "&") {
        const last = statements.at(-1);
        if (last !== undefined) last.background = true;
      } else if ((token === ";;" || token === ";&" || token === ";;&") && node.type !== "case_item") {
        ctx.reasons.push("syntax-error");
      }
      continue;
    }
    if (CLAUSES.has(type)) statements.push(...readSequence(child, ctx, level + 1));
    else if (STATEMENT_TYPES.has(type)) statements.push({ list: readAndOr(child, ctx, level + 1), background: false });
    else if (type === "ERROR") ctx.reasons.push("syntax-error");
  }
  return statements;
}

function readAndOr(node: SyntaxNode, ctx: BuildContext, level: number): AndOrList {
  const items: ChainItem[] = [];
  flattenChain(node, ctx, level, items);
  const pipelines: Pipeline[] = [];
  const connectors: ("&&" | "||")[] = [];
  let current: Pipeline = { commands: [], operators: [], negated: false };
  for (const item of items) {
    if (item.kind === "node") current.commands.push(item.node);
    else if (item.kind === "bang") current.negated = !current.negated;
    else if (item.op === "|" || item.op === "|&") current.operators.push(item.op);
    else if (item.op === "&&" || item.op === "||") {
      pipelines.push(current);
      connectors.push(item.op);
      current = { commands: [], operators: [], negated: false };
    }
  }
  pipelines.push(current);
  for (const pipeline of pipelines) {
    if (pipeline.commands.length === 0 || pipeline.commands.length !== pipeline.operators.length + 1) ctx.reasons.push("syntax-error");
    for (const command of pipeline.commands) {
      if (command.type !== "simple") continue;
      attachNested(command, ctx);
      attachEvaluated(command, ctx);
    }
  }
  return { pipelines, connectors };
}

// Flattens tree-sitter's nesting of lists, pipelines and redirected statements into one operator chain, so
// that `&&`/`||` and `|` are regrouped with bash's precedence. This also repairs tree-sitter-bash issue 345,
// where `a && b 2>&1 | c` parses as `((a && b) 2>&1) | c`: the redirect goes to `b`, and `b | c` is one pipeline.
function flattenChain(node: SyntaxNode, ctx: BuildContext, level: number, items: ChainItem[]): void {
  if (level > MAX_TREE_DEPTH) {
    ctx.reasons.push("too-deep");
    return;
  }
  switch (node.type) {
    case "list": {
      // `a && b && c` nests to the left, one list per operator: walk down that spine, not one level
      // deeper per operator, so a long chain is not "too deep".
      const spine = [node];
      for (let first = node.namedChild(0); first !== null && first.type === "list"; first = first.namedChild(0)) spine.push(first);
      for (let at = spine.length - 1; at >= 0; at--) flattenChildren(spine[at]!, ctx, level, items, at < spine.length - 1);
      return;
    }
    case "pipeline":
      flattenChildren(node, ctx, level, items, false);
      return;
    case "negated_command":
      items.push({ kind: "bang" });
      for (const child of node.namedChildren) if (child !== null) flattenChain(child, ctx, level + 1, items);
      return;
    case "redirected_statement":
      readRedirectedStatement(node, ctx, level, items);
      return;
    default:
      items.push({ kind: "node", node: readCommandNode(node, ctx, level) });
  }
}

// The operands and operators of one list or pipeline node; `skipFirst` when its first operand (the
// inner list of a left-nested chain) was read already.
function flattenChildren(node: SyntaxNode, ctx: BuildContext, level: number, items: ChainItem[], skipFirst: boolean): void {
  let skip = skipFirst;
  for (const child of node.children) {
    if (child === null) continue;
    if (child.isNamed) {
      if (skip) skip = false;
      else flattenChain(child, ctx, level + 1, items);
    } else {
      const op = child.type;
      if (op === "&&" || op === "||" || op === "|" || op === "|&") items.push({ kind: "op", op });
    }
  }
}

function readRedirectedStatement(node: SyntaxNode, ctx: BuildContext, level: number, items: ChainItem[]): void {
  const body = node.childForFieldName("body");
  if (body !== null) flattenChain(body, ctx, level + 1, items);
  else items.push({ kind: "node", node: emptyCommand(node, ctx) });
  let previousEnd = body?.endIndex ?? node.startIndex;
  for (const child of node.namedChildren) {
    if (child === null || child === body || (body !== null && child.startIndex < body.endIndex)) continue;
    const owner = lastNode(items);
    const dropped = checkGap(ctx, previousEnd, child.startIndex) ?? [];
    if (dropped.length > 0) {
      if (owner?.type === "simple") owner.words.push(...dropped);
      else ctx.reasons.push("lost-text");
    }
    previousEnd = child.endIndex;
    if (child.type === "heredoc_redirect") readHeredoc(child, owner, ctx, level, items);
    else attachRedirect(owner, child, ctx);
  }
}

// A heredoc redirect node also holds the rest of its line (`<<EOF | grep x`, `<<EOF && pytest`, `<<EOF 2>&1`).
function readHeredoc(node: SyntaxNode, owner: CommandNode | undefined, ctx: BuildContext, level: number, items: ChainItem[]): void {
  let continued = false;
  let redirect: Redirect | null = null;
  for (const child of node.children) {
    if (child === null) continue;
    if (!child.isNamed) {
      if (child.type === "<<" || child.type === "<<-") redirect = { fd: null, op: child.type, target: "" };
      else if (["&&", "||", "|", "|&"].includes(child.type)) {
        items.push({ kind: "op", op: child.type });
        continued = true;
      }
      continue;
    }
    if (child.type === "heredoc_start") {
      const delimiter = ctx.source.slice(child.startIndex, child.endIndex).replace(/["'\\]/g, "");
      redirect = { fd: null, op: redirect?.op ?? "<<", target: delimiter };
      if (owner !== undefined) {
        owner.redirects.push(redirect);
        extendText(owner, child.endIndex, ctx);
      }
    } else if (child.type === "heredoc_body") {
      if (redirect !== null) redirect.body = ctx.source.slice(child.startIndex, child.endIndex);
    } else if (child.type === "heredoc_end") continue;
    else if (child.type === "file_redirect" || child.type === "herestring_redirect")
      attachRedirect(continued ? lastNode(items) : owner, child, ctx);
    else if (STATEMENT_TYPES.has(child.type)) {
      flattenChain(child, ctx, level + 1, items);
      continued = true;
    }
  }
}

function attachRedirect(owner: CommandNode | undefined, node: SyntaxNode, ctx: BuildContext): void {
  if (owner === undefined) return;
  const { redirect, extraWords } = readRedirect(node, ctx);
  owner.redirects.push(redirect);
  extendText(owner, node.endIndex, ctx);
  if (extraWords.length === 0) return;
  if (owner.type === "simple") {
    for (const word of extraWords) {
      owner.words.push(word.value);
      owner.hasSubstitution ||= word.hasSubstitution;
      owner.hasExpansion ||= word.hasExpansion;
    }
  } else ctx.reasons.push("syntax-error");
}

function extendText(owner: CommandNode, end: number, ctx: BuildContext): void {
  const start = ctx.starts.get(owner);
  if (start !== undefined && end > start) owner.text = ctx.source.slice(start, Math.max(end, start + owner.text.length));
}

function lastNode(items: ChainItem[]): CommandNode | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === "node") return item.node;
  }
  return undefined;
}

function emptyCommand(node: SyntaxNode, ctx: BuildContext): SimpleCommand {
  const command: SimpleCommand = {
    type: "simple",
    text: "",
    assignments: [],
    words: [],
    redirects: [],
    hasSubstitution: false,
    hasExpansion: false,
  };
  ctx.starts.set(command, node.startIndex);
  return command;
}

function readCommandNode(node: SyntaxNode, ctx: BuildContext, level: number): CommandNode {
  const text = ctx.source.slice(node.startIndex, node.endIndex);
  let result: CommandNode;
  if (SIMPLE_TYPES.has(node.type)) result = buildSimpleCommand(node, ctx);
  else if (node.type === "subshell") result = { type: "subshell", text, body: readSequence(node, ctx, level + 1), redirects: [] };
  else if (node.type === "compound_statement") result = { type: "group", text, body: readSequence(node, ctx, level + 1), redirects: [] };
  else if (node.type === "while_statement") {
    const kind = node.child(0)?.type === "until" ? "until" : "while";
    result = { type: "compound", kind, text, body: readSequence(node, ctx, level + 1), redirects: [] };
  } else if (node.type === "function_definition") {
    const name = node.childForFieldName("name");
    const body = node.childForFieldName("body");
    const bodyStatements =
      body === null ? [] : STATEMENT_TYPES.has(body.type) ? [{ list: readAndOr(body, ctx, level + 1), background: false }] : [];
    result = {
      type: "compound",
      kind: "function",
      name: name === null ? "" : ctx.source.slice(name.startIndex, name.endIndex),
      text,
      body: bodyStatements,
      redirects: [],
    };
  } else if (node.type === "c_style_for_statement") {
    const body = node.childForFieldName("body");
    const statements =
      body === null
        ? []
        : CLAUSES.has(body.type)
          ? readSequence(body, ctx, level + 1)
          : [{ list: readAndOr(body, ctx, level + 1), background: false }];
    result = { type: "compound", kind: "for", text, body: statements, redirects: [] };
  } else if (COMPOUND_KINDS[node.type] !== undefined) {
    result = { type: "compound", kind: COMPOUND_KINDS[node.type]!, text, body: readSequence(node, ctx, level + 1), redirects: [] };
  } else {
    ctx.reasons.push(`unsupported-node:${node.type}`);
    result = { type: "compound", kind: "other", text, body: [], redirects: [] };
  }
  ctx.starts.set(result, node.startIndex);
  return result;
}

/** Records `bash -c SCRIPT` as a nested parse; a script built from expansions cannot be known. */
function attachNested(command: SimpleCommand, ctx: BuildContext): void {
  const shell = detectNestedShell(command.words);
  if (shell === null) return;
  const script = command.words[shell.scriptIndex]!;
  const dynamic = ctx.dynamicWords.get(command)?.has(shell.scriptIndex) ?? false;
  command.nested = dynamic ? opaqueLine(script, ["script-has-expansion"]) : ctx.nestedParse(script);
  if (command.nested.opaque) ctx.reasons.push("nested-opaque", ...command.nested.opaqueReasons.filter((r) => r !== "nested-opaque"));
}

/** Records the text a static `eval` runs; an `eval` of expansions stays unknown (no `evaluated`). */
function attachEvaluated(command: SimpleCommand, ctx: BuildContext): void {
  if (command.words[0] !== "eval" || command.words.length < 2) return;
  const dynamic = ctx.dynamicWords.get(command);
  if (dynamic !== undefined && dynamic.size > 0) return;
  const evaluated = ctx.nestedParse(command.words.slice(1).join(" "));
  if (!evaluated.opaque) command.evaluated = evaluated;
}

// Used only to name the opaque reason: does the line end inside a quote?
function hasUnterminatedQuote(text: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote === "'") {
      if (ch === "'") quote = null;
    } else if (quote === '"') {
      if (ch === "\\") i++;
      else if (ch === '"') quote = null;
    } else if (ch === "\\") i++;
    else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "#" && (i === 0 || /\s/.test(text[i - 1]!))) {
      const newline = text.indexOf("\n", i);
      if (newline < 0) break;
      i = newline;
    }
  }
  return quote !== null;
}
