// A command line of plain words (`pytest -q tests/test_a.py`, `go test ./...`) parsed without the
// grammar: the tree tree-sitter-bash gives it is always the same shape (program > command >
// command_name > word, then one word or number per argument), so it is built here, node for node, and a short
// CLI call that judges such a line never loads the 1.7 MB grammar (about 30 ms and 12 MB).
// Anything else (a quote, `$`, an operator, a redirect, a glob, an assignment, a keyword) returns
// null and the grammar parses it. test/shell/plain-words.test.ts compares every member the analysis
// reads with the grammar's own tree, over the accepted lines and a generated mix.
import type { SyntaxNode, SyntaxTree } from "./syntax-tree.js";

// Characters tree-sitter-bash reads as part of a bare word and bash gives no meaning. A command
// name takes fewer: there `+`, `:`, `,`, `=`, `@`, `%` can start an assignment or an expansion.
const PLAIN_WORD = /^[A-Za-z0-9_./:+,=-]+$/;
const PLAIN_NAME = /^[A-Za-z0-9_./-]+$/;
// A word the grammar reads as a number node (`4`, `-1`, `0x10`), not a word.
const NUMBER = /^-?(?:0x)?[0-9]+$/;
// First words the grammar parses as something other than a command name (keywords, declarations).
const NOT_A_COMMAND_NAME = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "case",
  "esac",
  "for",
  "select",
  "while",
  "until",
  "do",
  "done",
  "in",
  "function",
  "time",
  "coproc",
  "declare",
  "typeset",
  "export",
  "readonly",
  "local",
  "unset",
  "unsetenv",
  // A lone `-` before an assignment is dropped from the tree (`- 1=2` is read as `1=2`).
  "-",
]);

class PlainNode implements SyntaxNode {
  readonly isNamed = true;
  readonly hasError = false;
  constructor(
    readonly type: string,
    readonly startIndex: number,
    readonly endIndex: number,
    readonly children: readonly SyntaxNode[] = [],
    private readonly fields: Readonly<Record<string, SyntaxNode>> = {},
  ) {}
  get childCount(): number {
    return this.children.length;
  }
  get namedChildren(): readonly SyntaxNode[] {
    return this.children;
  }
  child(index: number): SyntaxNode | null {
    return this.children[index] ?? null;
  }
  namedChild(index: number): SyntaxNode | null {
    return this.children[index] ?? null;
  }
  childForFieldName(fieldName: string): SyntaxNode | null {
    return Object.hasOwn(this.fields, fieldName) ? this.fields[fieldName]! : null;
  }
}

/**
 * The syntax tree of a line of plain words separated by spaces or tabs, the same tree as
 * tree-sitter-bash's; null for any other line (the grammar parses those).
 * @example parsePlainWords("pytest -q")?.rootNode.child(0)?.type // "command"
 */
export function parsePlainWords(text: string): SyntaxTree | null {
  const words: SyntaxNode[] = [];
  // Every run of characters other than spaces and tabs is a word, and each must be plain.
  const pattern = /[^ \t]+/g;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const word = match[0];
    // `==` and `=~` after a command name are operators to the grammar; `=x` is declined with them.
    if (!PLAIN_WORD.test(word) || word.startsWith("=")) return null;
    if (words.length === 0 && (!PLAIN_NAME.test(word) || NOT_A_COMMAND_NAME.has(word))) return null;
    words.push(new PlainNode(NUMBER.test(word) ? "number" : "word", match.index, match.index + word.length));
  }
  if (words.length === 0) return null;
  const first = words[0]!;
  const last = words.at(-1)!;
  const name = new PlainNode("command_name", first.startIndex, first.endIndex, [first]);
  const fields: Record<string, SyntaxNode> = { name };
  if (words.length > 1) fields.argument = words[1]!;
  const command = new PlainNode("command", first.startIndex, last.endIndex, [name, ...words.slice(1)], fields);
  // The program starts at its first word and ends at the end of the text (trailing blanks included).
  const program = new PlainNode("program", first.startIndex, text.length, [command]);
  return { rootNode: program, delete: () => undefined };
}
