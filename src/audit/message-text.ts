// Turns an assistant message into plain sentences: code and quotations are masked out (a claim
// inside them is not the agent's own claim), offsets into the original message are kept.

/** One sentence of a message, with its span in the original text. */
export interface MessageSentence {
  /** The sentence as written, trimmed. */
  text: string;
  /** The sentence with code, quotations and markdown markers masked (same length as `text`). */
  masked: string;
  /** `masked` lowercased, made once for every detector that reads it. */
  lower: string;
  /** Offset of `text` in the message. */
  start: number;
  /** True when the sentence ends with a question mark. */
  question: boolean;
  /** Inline code spans in the sentence: offset within `text` -> the code's content. */
  code: Map<number, string>;
  /** The checkbox of the sentence's line: `open` for `- [ ]` (a task to do), `done` for `- [x]`. */
  task: "open" | "done" | null;
  /**
   * The line that introduces the sentence's block when it ends with a colon ("Acceptance criteria:",
   * "完了条件："), masked; null when there is none or a blank line came between.
   */
  lead: string | null;
}

/** The character that stands for an inline code span in masked text (Unicode private use). */
export const CODE_MARK = "\uE000";

const FENCE = /^[ \t]*(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^[ \t]*\1[^\n]*$|(?![\s\S]))/gm;
const INLINE_CODE = /(`+)([^`\n]|[^`\n][\s\S]*?[^`\n])\1(?!`)/g;
// Straight, curly, German („…“), French and Spanish («…») and CJK (「…」, 『…』) quotations.
const QUOTED =
  /"[^"\n]{1,200}"|\u201e[^\u201c\u201d\n]{1,200}[\u201c\u201d]|\u201c[^\u201d\n]{1,200}\u201d|\u00ab[^\u00bb\n]{1,200}\u00bb|\u300c[^\u300d\n]{1,200}\u300d|\u300e[^\u300f\n]{1,200}\u300f/g;
const BLOCKQUOTE = /^[ \t]*>[^\n]*$/gm;
const MARKDOWN = /\*\*|__|^[ \t]*(?:[-*+]|\d+[.)])[ \t]+|^[ \t]*#+[ \t]+/gm;
// A task list checkbox at the start of a line (after any list marker): `[ ]`, `☐`, `□` are open.
const CHECKBOX = /^([ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+)?)(\[[ xX]\]|[\u2610\u25a1\u2611\u2612])/gm;
// CJK full stops, exclamation and question marks and semicolons end a sentence with no space after.
const SENTENCE_END = /[.!?;]+(?=[\s)"'\u201d]|$)|[\u3002\uff01\uff1f\uff1b]+|\n/g;
const LEAD = /[:\uff1a][ \t]*$/;

function blank(match: string): string {
  return match.replace(/[^\n]/g, " ");
}

/** Masks code blocks, quotations, block quotes, checkboxes and markdown markers; inline code becomes {@link CODE_MARK}s. */
function maskMessage(message: string): { masked: string; code: Map<number, string>; tasks: Map<number, "open" | "done"> } {
  const code = new Map<number, string>();
  const tasks = new Map<number, "open" | "done">();
  let masked = message.replace(FENCE, blank).replace(BLOCKQUOTE, blank);
  masked = masked.replace(INLINE_CODE, (match: string, _ticks: string, content: string, offset: number) => {
    code.set(offset, content.trim());
    return CODE_MARK.repeat(match.length);
  });
  masked = masked.replace(CHECKBOX, (_match: string, marker: string, box: string, offset: number) => {
    tasks.set(offset, /^(?:\[ \]|\u2610|\u25a1)$/.test(box) ? "open" : "done");
    return marker + blank(box);
  });
  masked = masked.replace(QUOTED, blank).replace(MARKDOWN, blank);
  return { masked, code, tasks };
}

interface LineInfo {
  start: number;
  task: "open" | "done" | null;
  lead: string | null;
}

// Each line's checkbox and the colon-ended line that introduces its block (until a blank line).
function describeLines(masked: string, tasks: Map<number, "open" | "done">): LineInfo[] {
  const lines: LineInfo[] = [];
  let lead: string | null = null;
  let start = 0;
  for (const line of masked.split("\n")) {
    const body = line.trim();
    if (body.length === 0) lead = null;
    lines.push({ start, task: tasks.get(start) ?? null, lead });
    if (body.length > 0 && LEAD.test(body)) lead = body;
    start += line.length + 1;
  }
  return lines;
}

/** Splits a message into sentences (at `.`, `!`, `?`, `;` before a space, at `。！？；`, and at line breaks). */
export function splitMessageSentences(message: string): MessageSentence[] {
  const { masked, code, tasks } = maskMessage(message);
  const lines = describeLines(masked, tasks);
  // Code spans and lines in offset order; sentences come in order too, so cursors walk them.
  const spans = [...code].sort((a, b) => a[0] - b[0]);
  let cursor = 0;
  let lineAt = 0;
  const sentences: MessageSentence[] = [];
  let from = 0;
  const push = (end: number, terminator: string): void => {
    const raw = masked.slice(from, end);
    const indent = raw.length - raw.trimStart().length;
    const body = raw.trim();
    if (body.length > 0) {
      const start = from + indent;
      const sentenceCode = new Map<number, string>();
      while (cursor < spans.length && spans[cursor]![0] < start) cursor += 1;
      for (let at = cursor; at < spans.length && spans[at]![0] < start + body.length; at += 1)
        sentenceCode.set(spans[at]![0] - start, spans[at]![1]);
      while (lineAt + 1 < lines.length && lines[lineAt + 1]!.start <= start) lineAt += 1;
      const line = lines[lineAt]!;
      const question = terminator.includes("?") || terminator.includes("\uff1f");
      sentences.push({
        text: message.slice(start, start + body.length),
        masked: body,
        lower: body.toLowerCase(),
        start,
        question,
        code: sentenceCode,
        task: line.task,
        lead: line.lead,
      });
    }
  };
  for (const match of masked.matchAll(SENTENCE_END)) {
    push(match.index, match[0]);
    from = match.index + match[0].length;
  }
  push(masked.length, "");
  return sentences;
}

/** A clause of a sentence: its text, and where it starts in the text it was cut from. */
export interface Clause {
  text: string;
  offset: number;
}

/** Cuts `text` at every match of `pattern` (a global RegExp); the matches themselves are dropped. */
export function splitClauses(text: string, pattern: RegExp): Clause[] {
  const clauses: Clause[] = [];
  let from = 0;
  for (const match of text.matchAll(pattern)) {
    clauses.push({ text: text.slice(from, match.index), offset: from });
    from = match.index + match[0].length;
  }
  clauses.push({ text: text.slice(from), offset: from });
  return clauses;
}
