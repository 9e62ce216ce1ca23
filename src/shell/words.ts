// Turns one tree-sitter word node into its unquoted text, the way bash would before expansion.
import type { SyntaxNode } from "./syntax-tree.js";

/** A word as the shell would see it after quote removal (expansions kept as written). */
export interface WordValue {
  value: string;
  hasSubstitution: boolean;
  hasExpansion: boolean;
}

const SUBSTITUTIONS = new Set(["command_substitution", "process_substitution"]);
const EXPANSIONS = new Set(["simple_expansion", "expansion", "arithmetic_expansion", "brace_expression", "extglob_pattern"]);
const ANSI_C: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** Reads a word-like node (word, string, raw_string, concatenation, expansion, ...) from `source`. */
export function readWord(node: SyntaxNode, source: string): WordValue {
  const out: WordValue = { value: "", hasSubstitution: false, hasExpansion: false };
  appendWord(node, source, out);
  return out;
}

function appendWord(node: SyntaxNode, source: string, out: WordValue): void {
  const raw = source.slice(node.startIndex, node.endIndex);
  const type = node.type;
  switch (type) {
    case "word":
      out.value += unescapeBare(raw);
      if (/^~/.test(raw) || /(^|[^\\])[*?[]/.test(raw)) out.hasExpansion = true;
      return;
    case "number":
      out.value += raw;
      return;
    case "raw_string":
      out.value += raw.slice(1, -1);
      return;
    case "ansi_c_string":
      out.value += unescapeAnsiC(raw.slice(2, -1));
      return;
    case "string":
    case "translated_string":
      appendDoubleQuoted(node, source, out);
      return;
    case "concatenation": {
      let at = node.startIndex;
      for (const child of node.children) {
        if (child === null) continue;
        if (child.startIndex > at) out.value += unescapeBare(source.slice(at, child.startIndex));
        appendWord(child, source, out);
        at = child.endIndex;
      }
      if (at < node.endIndex) out.value += unescapeBare(source.slice(at, node.endIndex));
      return;
    }
    default:
      out.value += raw;
      markExpansions(node, out);
  }
}

// Inside "...": expansions keep their text, the rest loses the quotes and `\$ \` \" \\ \newline` escapes.
function appendDoubleQuoted(node: SyntaxNode, source: string, out: WordValue): void {
  const open = source.indexOf('"', node.startIndex);
  let at = open < 0 || open >= node.endIndex ? node.startIndex : open + 1;
  const end = source[node.endIndex - 1] === '"' && node.endIndex - 1 >= at ? node.endIndex - 1 : node.endIndex;
  for (const child of node.namedChildren) {
    if (child === null || child.type === "string_content") continue;
    const start = child.startIndex;
    const stop = child.endIndex;
    if (start > at) out.value += unescapeDouble(source.slice(at, start));
    out.value += source.slice(start, stop);
    markExpansions(child, out);
    at = Math.max(at, stop);
  }
  if (end > at) out.value += unescapeDouble(source.slice(at, end));
}

// With a stack of its own: `$((1+(1+(...))))` and `${a:-${b:-...}}` nest as deep as the agent likes.
function markExpansions(root: SyntaxNode, out: WordValue): void {
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const type = node.type;
    if (SUBSTITUTIONS.has(type)) {
      out.hasSubstitution = true;
      continue;
    }
    if (EXPANSIONS.has(type)) out.hasExpansion = true;
    for (const child of node.namedChildren) if (child !== null) stack.push(child);
  }
}

/** Removes bash's unquoted backslash escapes (`a\ b` -> `a b`, `\<newline>` -> nothing). */
export function unescapeBare(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(/\\(\n|[\s\S])?/g, (_m, ch: string | undefined) => (ch === undefined || ch === "\n" ? "" : ch));
}

function unescapeDouble(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(/\\([$`"\\\n])/g, (_m, ch: string) => (ch === "\n" ? "" : ch));
}

function unescapeAnsiC(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|[\s\S])/g, (_m, esc: string) => {
    const head = esc[0]!;
    if (head === "x" || head === "u" || head === "U") return safeCodePoint(parseInt(esc.slice(1), 16));
    if (/[0-7]/.test(head)) return safeCodePoint(parseInt(esc, 8));
    if (head === "c" && esc.length === 2) return String.fromCharCode(esc.charCodeAt(1) & 0x1f);
    return ANSI_C[esc] ?? `\\${esc}`;
  });
}

function safeCodePoint(code: number): string {
  return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
}
