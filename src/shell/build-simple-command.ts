// Builds one SimpleCommand (words, assignments, redirects) from a tree-sitter command-like node.
import type { SyntaxNode } from "./syntax-tree.js";
import type { ParsedLine, Redirect, SimpleCommand } from "./types.js";
import { readWord, type WordValue } from "./words.js";

/** State shared while one line's tree is converted. */
export interface BuildContext {
  /** The original line (offsets are the same in the parsed text). */
  source: string;
  /** Opaque reasons found so far. */
  reasons: string[];
  /** Offsets of newlines found inside a command's word list (tree-sitter-bash issue 347). */
  newlineGaps: number[];
  /** Start offset of each built node, so redirects attached later can extend its text. */
  starts: WeakMap<object, number>;
  /** Word indexes holding expansions or substitutions, per command. */
  dynamicWords: WeakMap<SimpleCommand, Set<number>>;
  /** Parses a `bash -c` script one nesting level deeper. */
  nestedParse: (script: string) => ParsedLine;
}

const RESERVED = new Set([
  "then",
  "fi",
  "do",
  "done",
  "esac",
  "elif",
  "else",
  "{",
  "}",
  "if",
  "for",
  "while",
  "until",
  "case",
  "function",
  "select",
]);
const REDIRECTS = new Set(["file_redirect", "herestring_redirect", "heredoc_redirect"]);

/** Builds a simple command from command, declaration, unset, test and assignment nodes. */
export function buildSimpleCommand(node: SyntaxNode, ctx: BuildContext): SimpleCommand {
  const command: SimpleCommand = {
    type: "simple",
    text: ctx.source.slice(node.startIndex, node.endIndex),
    assignments: [],
    words: [],
    redirects: [],
    hasSubstitution: false,
    hasExpansion: false,
  };
  ctx.starts.set(command, node.startIndex);
  const dynamic = new Set<number>();
  ctx.dynamicWords.set(command, dynamic);
  const addWord = (word: WordValue): void => {
    if (word.hasSubstitution || word.hasExpansion) dynamic.add(command.words.length);
    command.words.push(word.value);
    command.hasSubstitution ||= word.hasSubstitution;
    command.hasExpansion ||= word.hasExpansion;
  };
  switch (node.type) {
    case "command":
      readCommandChildren(node, ctx, command, addWord);
      break;
    case "declaration_command":
    case "unset_command":
      for (const child of node.children) {
        if (child === null) continue;
        if (!child.isNamed) {
          if (command.words.length === 0) command.words.push(child.type);
        } else if (child.type === "variable_assignment") {
          const assignment = readAssignment(child, ctx, command);
          addWord({ value: `${assignment.name}=${assignment.value}`, hasSubstitution: false, hasExpansion: false });
        } else if (REDIRECTS.has(child.type)) command.redirects.push(readRedirect(child, ctx).redirect);
        else addWord(readWord(child, ctx.source));
      }
      break;
    case "test_command": {
      const first = node.child(0);
      const last = node.child(node.childCount - 1);
      const open = first?.type ?? "[";
      const inner = ctx.source.slice(first?.endIndex ?? node.startIndex, last?.startIndex ?? node.endIndex).trim();
      command.words.push(open, inner, last?.type ?? "]");
      for (const child of node.namedChildren) if (child !== null) markDynamic(child, command);
      break;
    }
    case "variable_assignment":
      command.assignments.push(readAssignment(node, ctx, command));
      break;
    case "variable_assignments":
      for (const child of node.namedChildren)
        if (child !== null && child.type === "variable_assignment") command.assignments.push(readAssignment(child, ctx, command));
      break;
  }
  return command;
}

function readCommandChildren(node: SyntaxNode, ctx: BuildContext, command: SimpleCommand, addWord: (word: WordValue) => void): void {
  let previousEnd = -1;
  for (const child of node.namedChildren) {
    if (child === null) continue;
    if (previousEnd >= 0 && (checkGap(ctx, previousEnd, child.startIndex)?.length ?? 0) > 0) ctx.reasons.push("lost-text");
    previousEnd = child.endIndex;
    const type = child.type;
    if (type === "variable_assignment") command.assignments.push(readAssignment(child, ctx, command));
    else if (REDIRECTS.has(type)) {
      const { redirect, extraWords } = readRedirect(child, ctx);
      command.redirects.push(redirect);
      for (const word of extraWords) addWord(word);
    } else if (type === "command_name") {
      const inner = child.namedChild(0);
      const word = readWord(inner ?? child, ctx.source);
      const unquoted = inner !== null && inner.type === "word";
      if (unquoted && RESERVED.has(word.value)) ctx.reasons.push("syntax-error");
      addWord(word);
    } else addWord(readWord(child, ctx.source));
  }
}

function readAssignment(node: SyntaxNode, ctx: BuildContext, command: SimpleCommand): { name: string; value: string } {
  const name = node.childForFieldName("name");
  const value = node.childForFieldName("value");
  const word = value === null ? { value: "", hasSubstitution: false, hasExpansion: false } : readWord(value, ctx.source);
  command.hasSubstitution ||= word.hasSubstitution;
  command.hasExpansion ||= word.hasExpansion;
  return { name: name === null ? "" : ctx.source.slice(name.startIndex, name.endIndex), value: word.value };
}

/** Reads a redirect; words tree-sitter wrongly hung on a file redirect (`> out a b`) come back as arguments. */
export function readRedirect(node: SyntaxNode, ctx: BuildContext): { redirect: Redirect; extraWords: WordValue[] } {
  const redirect: Redirect = { fd: null, op: "", target: "" };
  const extraWords: WordValue[] = [];
  let haveTarget = false;
  let previousEnd = -1;
  for (const child of node.children) {
    if (child === null) continue;
    if (!child.isNamed) {
      if (redirect.op === "") redirect.op = child.type;
      continue;
    }
    if (child.type === "file_descriptor") {
      redirect.fd = Number.parseInt(ctx.source.slice(child.startIndex, child.endIndex), 10);
      continue;
    }
    if (child.type === "heredoc_start") {
      redirect.target = ctx.source.slice(child.startIndex, child.endIndex).replace(/["'\\]/g, "");
      haveTarget = true;
      continue;
    }
    if (child.type === "heredoc_body") {
      redirect.body = ctx.source.slice(child.startIndex, child.endIndex);
      continue;
    }
    if (child.type === "heredoc_end") continue;
    if (previousEnd >= 0 && (checkGap(ctx, previousEnd, child.startIndex)?.length ?? 0) > 0) ctx.reasons.push("lost-text");
    previousEnd = child.endIndex;
    const word = readWord(child, ctx.source);
    if (!haveTarget) {
      redirect.target = word.value;
      haveTarget = true;
    } else extraWords.push(word);
  }
  if (node.type === "herestring_redirect" && redirect.op === "") redirect.op = "<<<";
  return { redirect, extraWords };
}

// With a stack of its own: `(( ((((...)))) ))` nests as deep as the agent likes.
function markDynamic(root: SyntaxNode, command: SimpleCommand): void {
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.type === "command_substitution" || node.type === "process_substitution") command.hasSubstitution = true;
    else if (node.type === "simple_expansion" || node.type === "expansion") command.hasExpansion = true;
    for (const child of node.namedChildren) if (child !== null) stack.push(child);
  }
}

/**
 * Checks the text between two parts of one command. Records the first unescaped newline there
 * (tree-sitter-bash issue 347) and returns plain words the grammar dropped (it loses the `-` of
 * `python - <<EOF`); null when the gap holds anything else, which makes the line opaque.
 */
export function checkGap(ctx: BuildContext, from: number, to: number): string[] | null {
  if (to <= from) return [];
  const gap = ctx.source.slice(from, to);
  for (let i = 0; i < gap.length; i++) {
    if (gap[i] === "\n" && gap[i - 1] !== "\\") {
      ctx.newlineGaps.push(from + i);
      break;
    }
  }
  const text = gap.replace(/\\\n/g, " ").trim();
  if (text === "") return [];
  if (/^[^\s'"`$\\;&|<>(){}#]+(\s+[^\s'"`$\\;&|<>(){}#]+)*$/.test(text)) return text.split(/\s+/);
  ctx.reasons.push("lost-text");
  return null;
}
