// Signals in the output that no runner parser reads: the tool host's clipping and timeout notes,
// `git stash` messages, a runner that never started, and `echo` markers. Found by one alternation of
// their needles (plain substrings) run over whole blocks of lines, not a regex per line; only a line
// holding a needle is read further. Irregexp scans a block at about 1 GB/s here, which one indexOf
// pass per needle (5x slower), a multi-needle shift table in JavaScript (1.5x slower) or the needles
// factored into a trie (the same) did not beat.
import { stripAnsi } from "../observers/lines.js";
import type { StartError } from "../runners/definition.js";
import type { CommandAnalysis } from "../shell/types.js";
import { CLIPPING_NEEDLES, containsClippingNote, isClippingNoteLine } from "./clipping.js";

const HOST_TIMEOUT_RE = /^(?:Error: )?Command timed out after \d/;
// The runner never started: the shell or the interpreter could not find it (each runner adds its own, e.g. `No module named pytest`).
const START_ERRORS: readonly StartError[] = [
  { needle: "command not found", pattern: /^(?:\S+: )?(?:line \d+: )?\S+: command not found$/ },
  { needle: "can't open file", pattern: /: can't open file '[^']*': \[Errno \d+\]/ },
  { needle: "No such file or directory", pattern: /^(?:\S+: )?(?:line \d+: )?\S+: No such file or directory$/ },
  { needle: "No such file or directory", pattern: /^(?:\S+: )?(?:line \d+: )?cd: .*: No such file or directory$/ },
];
const STASH_NOTHING = "No local changes to save";
/** A line's own texts (markers, status echoes) are searched as needles only while they are few and short. */
const MAX_OWN_NEEDLES = 32;
const MAX_OWN_NEEDLE_LENGTH = 256;
const STASH_ERROR_RES = [
  /^error: pathspec '.*' did not match/,
  /^fatal: /,
  /^error: /,
  /^Cannot save the current (?:index|worktree) state/,
  /^You do not have the initial commit yet/,
];

/** What the scanner found that concerns the whole line. */
export interface LineSignals {
  /** A clipping note of the tool host. */
  clipped: boolean;
  /** `git stash` said `No local changes to save` before the first stashed run finished. */
  stashSavedNothing: boolean;
  /** `git stash` failed (a pathspec error, `fatal:`) before the first stashed run finished. */
  stashFailed: boolean;
  /** Echo-marker texts seen as whole lines. */
  markersSeen: Set<string>;
  /** Lines that match a status echo's pattern (`EXIT=1` for `echo EXIT=$?`), at most 16. */
  statusLines: string[];
}

/** What the scanner found inside one run's share of the output. */
export interface RunSignals {
  /** A line saying the runner could not start (`command not found`, `No module named pytest`), or null. */
  startError: string | null;
  /** The tool host's timeout note. */
  hostTimeout: boolean;
}

/** Scans complete lines for the signals above. */
export interface SignalScanner {
  readonly line: LineSignals;
  /** Signals of run `index` (created on first use). */
  run(index: number): RunSignals;
  /** Scans a block of complete lines (one or many, `\n`-separated) that belongs to run `runIndex`. */
  scan(block: string, runIndex: number): void;
  /** Scans the complete lines `text.slice(start, end)` (`end` at a `\n` or the end of `text`) without copying them. */
  scanRange(text: string, start: number, end: number, runIndex: number): void;
  /**
   * Checks text whose line ends are not known (a piece of a line too long to hold, a line no run reads)
   * for the line-level signal that needs no line: a clipping note. Nothing else is read from it.
   */
  scanWindow(text: string): void;
  /** Stops reading stash messages (the first stashed run has its summary). */
  closeStashWindow(): void;
}

/** The texts `echo`/`printf` commands of the line may print: the markers exit attribution looks for. */
export function collectMarkerTexts(analysis: CommandAnalysis): string[] {
  const texts = new Set<string>();
  for (const command of analysis.commands) {
    const [name, ...args] = command.words;
    if (name === "echo") {
      const start = args.findIndex((a) => !/^-[neE]+$/.test(a));
      const text = start < 0 ? "" : args.slice(start).join(" ").trim();
      if (/[A-Za-z0-9]/.test(text)) texts.add(text);
    } else if (name === "printf" && args.length >= 1) {
      const text = args[0]!.replace(/(\\n)+$/, "").trim();
      if (/[A-Za-z0-9]/.test(text)) texts.add(text);
    }
  }
  return [...texts];
}

/** Creates a scanner; `watchStash` when a run of the line follows `git stash`; `startErrors`: the runners' own. */
export function createSignalScanner(options: {
  markerTexts: readonly string[];
  watchStash: boolean;
  statusPatterns?: readonly { needle: string; pattern: RegExp }[];
  startErrors?: readonly StartError[];
}): SignalScanner {
  const startErrors = [...START_ERRORS, ...(options.startErrors ?? [])];
  const line: LineSignals = { clipped: false, stashSavedNothing: false, stashFailed: false, markersSeen: new Set(), statusLines: [] };
  const runs = new Map<number, RunSignals>();
  let stashOpen = options.watchStash;
  const runSignals = (index: number): RunSignals => {
    let found = runs.get(index);
    if (found === undefined) runs.set(index, (found = { startError: null, hostTimeout: false }));
    return found;
  };

  // Each needle is searched in the whole block; a hit hands its full line to the check.
  const needles: { text: string; check: (text: string, runIndex: number) => void }[] = [
    // The one clipping rule (clipping.ts): each of its needles hands its line to the note table.
    ...CLIPPING_NEEDLES.map((needle) => ({
      text: needle,
      check: (text: string) => {
        if (!line.clipped && isClippingNoteLine(text)) line.clipped = true;
      },
    })),
    {
      text: "timed out after",
      check: (text, runIndex) => {
        if (HOST_TIMEOUT_RE.test(text)) runSignals(runIndex).hostTimeout = true;
      },
    },
    ...[...new Set(startErrors.map((error) => error.needle))].map((needle) => ({
      text: needle,
      check: (text: string, runIndex: number) => {
        const signals = runSignals(runIndex);
        if (signals.startError === null && startErrors.some((error) => error.pattern.test(text))) signals.startError = text;
      },
    })),
  ];
  // The line's own texts (echo markers, status echoes) are whole-line checks; few short ones are
  // needles too, many or long ones are checked on every line instead (one alternation of thousands of
  // needles, or of a 100 KB one, is slow or too large for the regex engine).
  const own = createOwnLineCheck(options.markerTexts, options.statusPatterns ?? [], line);
  const ownAsNeedles =
    own !== null && own.needles.length <= MAX_OWN_NEEDLES && own.needles.every((needle) => needle.length <= MAX_OWN_NEEDLE_LENGTH);
  const stashNeedles = [STASH_NOTHING, "error: ", "fatal: ", "Cannot save the current", "You do not have the initial commit"];

  const lineAround = (block: string, at: number, from: number, to: number): { text: string; end: number } => {
    const start = Math.max(from, block.lastIndexOf("\n", at) + 1);
    const newline = block.indexOf("\n", at);
    const end = newline === -1 || newline > to ? to : newline;
    return { text: stripAnsi(block.slice(start, end)).replace(/\r$/, ""), end };
  };

  const checkStash = (text: string): void => {
    if (text.trim() === STASH_NOTHING) line.stashSavedNothing = true;
    else if (STASH_ERROR_RES.some((re) => re.test(text))) line.stashFailed = true;
  };

  // One alternation regex per needle set: a single pass over a block, however many needles there are.
  // Every check of a needle text runs (an echo marker may spell a host's note: both are read).
  const byText = new Map<string, ((text: string, runIndex: number) => void)[]>();
  for (const needle of needles) byText.set(needle.text, [...(byText.get(needle.text) ?? []), needle.check]);
  const needleTexts = new Set([...byText.keys(), ...(ownAsNeedles ? own.needles : [])]);
  const needleRe = alternation([...needleTexts]);
  const stashRe = alternation(stashNeedles);

  const eachHit = (block: string, from: number, to: number, re: RegExp, onLine: (text: string, hit: string) => void): void => {
    re.lastIndex = from;
    for (let match = re.exec(block); match !== null && match.index + match[0].length <= to; match = re.exec(block)) {
      const found = lineAround(block, match.index, from, to);
      onLine(found.text, match[0]);
      re.lastIndex = Math.max(found.end, match.index + 1);
    }
  };

  const eachLine = (block: string, from: number, to: number, onLine: (text: string) => void): void => {
    for (let start = from; start < to;) {
      const newline = block.indexOf("\n", start);
      const end = newline === -1 || newline > to ? to : newline;
      onLine(stripAnsi(block.slice(start, end)).replace(/\r$/, ""));
      start = end + 1;
    }
  };

  const scanRange = (text: string, from: number, to: number, runIndex: number): void => {
    // A line may hold several needles: check it against every needle it contains.
    eachHit(text, from, to, needleRe, (line) => {
      for (const [needle, checks] of byText) if (line.includes(needle)) for (const check of checks) check(line, runIndex);
      if (ownAsNeedles) own.check(line);
    });
    if (own !== null && !ownAsNeedles) eachLine(text, from, to, own.check);
    if (stashOpen) eachHit(text, from, to, stashRe, (line) => checkStash(line));
  };

  return {
    line,
    run: runSignals,
    scan(block: string, runIndex: number): void {
      scanRange(block, 0, block.length, runIndex);
    },
    scanRange,
    scanWindow(text: string): void {
      if (!line.clipped && containsClippingNote(stripAnsi(text))) line.clipped = true;
    },
    closeStashWindow(): void {
      stashOpen = false;
    },
  };
}

/**
 * The whole-line checks of a line's own texts: an echo marker is seen when a line is its text, a status
 * echo (`echo EXIT=$?`) when a line is its literal prefix, 1 to 3 digits and the rest. Null when there are none.
 */
function createOwnLineCheck(
  markerTexts: readonly string[],
  statusPatterns: readonly { needle: string; pattern: RegExp }[],
  line: LineSignals,
): { needles: string[]; check: (text: string) => void } | null {
  if (markerTexts.length === 0 && statusPatterns.length === 0) return null;
  const markers = new Set(markerTexts);
  // Status patterns by their prefix (each pattern once): a line is looked up by each of its prefixes that a digit follows.
  const byNeedle = new Map<string, RegExp[]>();
  const sources = new Set<string>();
  for (const { needle, pattern } of statusPatterns) {
    if (sources.has(pattern.source)) continue;
    sources.add(pattern.source);
    byNeedle.set(needle, [...(byNeedle.get(needle) ?? []), pattern]);
  }
  return {
    needles: [...markers, ...byNeedle.keys()],
    check: (text) => {
      const trimmed = text.trim();
      if (markers.has(trimmed)) line.markersSeen.add(trimmed);
      if (byNeedle.size === 0 || line.statusLines.length >= 16) return;
      for (let at = 1; at < trimmed.length; at++) {
        const code = trimmed.charCodeAt(at);
        if (code < 48 || code > 57) continue;
        const patterns = byNeedle.get(trimmed.slice(0, at));
        if (patterns !== undefined && patterns.some((pattern) => pattern.test(trimmed))) {
          line.statusLines.push(trimmed);
          return;
        }
      }
    },
  };
}

// Most judged lines share their needle sets (the fixed notes, a few echo markers): the escaped source
// is built once (V8 reuses the compiled pattern of an equal source). Each scanner gets its own RegExp,
// so lastIndex is never shared.
const ALTERNATIONS = new Map<string, string>();
const MAX_ALTERNATIONS = 256;

function alternation(texts: readonly string[]): RegExp {
  const key = texts.join("\u0000");
  let source = ALTERNATIONS.get(key);
  if (source === undefined) {
    source = texts.map(escapeRegExp).join("|");
    if (ALTERNATIONS.size >= MAX_ALTERNATIONS) ALTERNATIONS.clear();
    ALTERNATIONS.set(key, source);
  }
  return new RegExp(source, "g");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
