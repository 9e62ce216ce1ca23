// `@@ -a,b +c,d @@ section` and the combined form `@@@ -a,b -c,d +e,f @@@`, read without regexes.

/** The parsed ranges of a hunk header: one old range per parent, then the new range. */
export interface HunkHeader {
  /** Old ranges, one per parent (one for an ordinary diff). */
  readonly oldRanges: { start: number; lines: number }[];
  /** The new range. */
  readonly newStart: number;
  /** Lines in the new range. */
  readonly newLines: number;
  /** Text after the closing marker, without the separating space. */
  readonly section: string;
}

/** Parses a hunk header line (no line ending); undefined when it is not one. */
export function parseHunkHeader(line: string): HunkHeader | undefined {
  let at = 0;
  while (line.charCodeAt(at) === 0x40) at += 1;
  const parents = at - 1;
  if (parents < 1 || line.charCodeAt(at) !== 0x20) return undefined;
  at += 1;
  const oldRanges: { start: number; lines: number }[] = [];
  let newStart = -1;
  let newLines = 0;
  for (let k = 0; k <= parents; k++) {
    const sign = line.charCodeAt(at);
    if (sign !== (k < parents ? 0x2d : 0x2b)) return undefined;
    const range = readRange(line, at + 1);
    if (range === undefined) return undefined;
    if (k < parents) oldRanges.push({ start: range.start, lines: range.lines });
    else {
      newStart = range.start;
      newLines = range.lines;
    }
    at = range.end;
    if (line.charCodeAt(at) !== 0x20) return undefined;
    at += 1;
  }
  for (let k = 0; k <= parents; k++) if (line.charCodeAt(at + k) !== 0x40) return undefined;
  at += parents + 1;
  const section = line.charCodeAt(at) === 0x20 ? line.slice(at + 1) : line.slice(at);
  return { oldRanges, newStart, newLines, section };
}

// `start[,lines]`; a missing count means 1, as in GNU diff and Git.
function readRange(line: string, from: number): { start: number; lines: number; end: number } | undefined {
  const first = readNumber(line, from);
  if (first === undefined) return undefined;
  if (line.charCodeAt(first.end) !== 0x2c) return { start: first.value, lines: 1, end: first.end };
  const second = readNumber(line, first.end + 1);
  if (second === undefined) return undefined;
  return { start: first.value, lines: second.value, end: second.end };
}

function readNumber(line: string, from: number): { value: number; end: number } | undefined {
  let at = from;
  let value = 0;
  while (at < line.length) {
    const digit = line.charCodeAt(at) - 0x30;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
    at += 1;
  }
  return at === from || at - from > 15 ? undefined : { value, end: at };
}
