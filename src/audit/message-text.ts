// Turns an assistant message into plain sentences: code and quotations are masked out (a claim
// inside them is not the agent's own claim), offsets into the original message are kept.

/** One sentence of a message, with its span in the original text. */
export interface MessageSentence {
  /** The sentence as written, trimmed. */
  text: string;
  /** The sentence with code, quotations and markdown markers masked (same length as `text`). */
  masked: string;
  /** Offset of `text` in the message. */
  start: number;
  /** True when the sentence ends with a question mark. */
  question: boolean;
  /** Inline code spans in the sentence: offset within `text` -> the code's content. */
  code: Map<number, string>;
}

/** The character that stands for an inline code span in masked text (Unicode private use). */
export const CODE_MARK = "\uE000";

const FENCE = /^[ \t]*(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^[ \t]*\1[^\n]*$|(?![\s\S]))/gm;
const INLINE_CODE = /(`+)([^`\n]|[^`\n][\s\S]*?[^`\n])\1(?!`)/g;
const QUOTED = /"[^"\n]{1,200}"|\u201c[^\u201d\n]{1,200}\u201d/g;
const BLOCKQUOTE = /^[ \t]*>[^\n]*$/gm;
const MARKDOWN = /\*\*|__|^[ \t]*(?:[-*+]|\d+[.)])[ \t]+|^[ \t]*#+[ \t]+/gm;
const SENTENCE_END = /[.!?;]+(?=[\s)"'\u201d]|$)|\n/g;

function blank(match: string): string {
  return match.replace(/[^\n]/g, " ");
}

/** Masks code blocks, quotations, block quotes and markdown markers; inline code becomes {@link CODE_MARK}s. */
function maskMessage(message: string): { masked: string; code: Map<number, string> } {
  const code = new Map<number, string>();
  let masked = message.replace(FENCE, blank).replace(BLOCKQUOTE, blank);
  masked = masked.replace(INLINE_CODE, (match: string, _ticks: string, content: string, offset: number) => {
    code.set(offset, content.trim());
    return CODE_MARK.repeat(match.length);
  });
  masked = masked.replace(QUOTED, blank).replace(MARKDOWN, blank);
  return { masked, code };
}

/** Splits a message into sentences (at `.`, `!`, `?`, `;` before a space, and at line breaks). */
export function splitMessageSentences(message: string): MessageSentence[] {
  const { masked, code } = maskMessage(message);
  // Code spans in offset order; sentences come in order too, so one cursor walks both.
  const spans = [...code].sort((a, b) => a[0] - b[0]);
  let cursor = 0;
  const sentences: MessageSentence[] = [];
  let from = 0;
  const push = (end: number, terminator: string): void => {
    const raw = masked.slice(from, end);
    const lead = raw.length - raw.trimStart().length;
    const body = raw.trim();
    if (body.length > 0) {
      const start = from + lead;
      const sentenceCode = new Map<number, string>();
      while (cursor < spans.length && spans[cursor]![0] < start) cursor += 1;
      for (let at = cursor; at < spans.length && spans[at]![0] < start + body.length; at += 1) sentenceCode.set(spans[at]![0] - start, spans[at]![1]);
      sentences.push({ text: message.slice(start, start + body.length), masked: body, start, question: terminator.includes("?"), code: sentenceCode });
    }
  };
  for (const match of masked.matchAll(SENTENCE_END)) {
    push(match.index, match[0]);
    from = match.index + match[0].length;
  }
  push(masked.length, "");
  return sentences;
}
