// Clipping markers that tool hosts insert when they cut output. pytest's own
// "...Full output truncated (N lines hidden)" inside a failure report is not clipping.
const HOST_MARKERS: RegExp[] = [
  /\[(?:output )?truncated\]/i,
  /\.\.\. ?\(truncated\)/i,
  /\.\.\. \[\d[\d,]* (?:characters|chars|bytes|lines) truncated\] \.\.\./i,
  /\[\d[\d,]* (?:characters|chars|bytes|lines) (?:truncated|omitted|elided)\]/i,
  /max(?:imum)? output length/i,
  /<truncated \d+ (?:lines|bytes|characters)>/i,
  /output (?:was |has been )?(?:truncated|clipped)/i,
];
// Every host marker above contains one of these words: a cheap test on a whole chunk.
const MARKER_WORD = /truncat|output length|omitted|elided|clipped/i;
const PYTEST_OWN = /\.\.\.Full output truncated \(\d+ lines? hidden\)/;

/** True when one line holds a clipping marker that a tool host inserted. */
export function isClippingMarkerLine(line: string): boolean {
  if (PYTEST_OWN.test(line)) return false;
  return HOST_MARKERS.some((re) => re.test(line));
}

/** Scans text line by line for host clipping markers; feed chunks, then read `clipped`. */
export function createClippingScanner(): { push(chunk: string): void; end(): void; readonly clipped: boolean; readonly endsWithNewline: boolean; readonly sawAny: boolean } {
  let carry = "";
  let clipped = false;
  let last = "";
  let sawAny = false;
  const scan = (line: string): void => {
    if (!clipped && isClippingMarkerLine(line)) clipped = true;
  };
  return {
    push(chunk: string): void {
      if (chunk.length === 0) return;
      sawAny = true;
      last = chunk;
      const text = carry + chunk;
      // Most chunks hold no marker word at all: skip splitting them into lines (no garbage per line).
      if (clipped || !MARKER_WORD.test(text)) {
        const cut = text.lastIndexOf("\n");
        carry = cut === -1 ? text.slice(-4096) : text.slice(cut + 1).slice(-4096);
        return;
      }
      const lines = text.split("\n");
      carry = lines.pop() ?? "";
      // Keep memory flat: an endless line is scanned in windows.
      if (carry.length > 1 << 20) {
        scan(carry);
        carry = carry.slice(-4096);
      }
      for (const line of lines) scan(line);
    },
    end(): void {
      if (carry !== "") scan(carry);
      carry = "";
    },
    get clipped(): boolean {
      return clipped;
    },
    get endsWithNewline(): boolean {
      return last.endsWith("\n");
    },
    get sawAny(): boolean {
      return sawAny;
    },
  };
}
