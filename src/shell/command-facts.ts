// What the shell analysis knows about the programs a line runs around its test runs: one row per
// program, one field per fact, and every pass reads the row (where a run's output goes:
// output-route.ts; whether a program can fail and hide the runner's status: exit-simulation.ts;
// whether it changes a file: read-only.ts and command-effect.ts). A program without a row has none of
// these facts: its output is transformed, it can fail, and whether it writes is read-only.ts's and
// command-effect.ts's argument rules to say. Pure.

/** How a program's output relates to the text it reads, when it prints whole lines of it. */
export type LineOutput =
  /** Every line it reads, unchanged (`tee`, `cat`, a pager). */
  | "all"
  /** A window of N lines at one end (`tail -n N`, `head -n N`). */
  | "window"
  /** The lines whose text matches (`grep`): which are missing depends on their text. */
  | "filter";

/** The facts of one program. */
export interface ProgramFacts {
  /** It prints whole lines of what it reads (see `keepsLines` for the options that keep that true). */
  readonly output?: LineOutput;
  /** The options (words starting with `-`) under which the output is still whole lines. */
  readonly keepsLinesWith?: (options: readonly string[]) => boolean;
  /** Reading a pipe, with no redirect or substitution of its own, it exits 0. */
  readonly neverFailsInPipe?: boolean;
  /** With no redirect or substitution of its own, it exits 0 wherever it runs (`true`, `echo`, `export`). */
  readonly neverFails?: boolean;
  /** It changes no file, whatever its arguments. */
  readonly readOnly?: boolean;
  /** Its file operands are files it writes (`tee`): see {@link writtenOperands}. */
  readonly writesOperands?: boolean;
}

// `tail`/`head`: line counts only; `-c N` / `--bytes` cut inside a line.
const lineCountsOnly = (options: readonly string[]): boolean =>
  options.every((o) => /^-(?:\d+|n\d*|q|v|f|F)$/.test(o) || /^--(?:lines(?:=\S+)?|quiet|silent|verbose|follow(?:=\S+)?)$/.test(o));
// grep: `-o` prints parts of lines, `-c`/`-l`/`-L` print counts and names, `-n`/`-b`/`-H` prefix lines.
const wholeMatchingLines = (options: readonly string[]): boolean =>
  options.every(
    (o) =>
      !/^-[^-]*[oclLnbHZz]/.test(o) &&
      !/^--(?:only-matching|count|files-with(?:out)?-match(?:es)?|line-number|byte-offset|with-filename|null|label)/.test(o),
  );
// cat: `-n`, `-b`, `-v`, `-A`, `-e`, `-t`, `-E`, `-T`, `-s` change or drop what is printed.
const unbufferedOnly = (options: readonly string[]): boolean => options.every((o) => o === "-u");
const anyOptions = (): boolean => true;

const WINDOW: ProgramFacts = { output: "window", keepsLinesWith: lineCountsOnly, neverFailsInPipe: true, readOnly: true };
const GREP: ProgramFacts = { output: "filter", keepsLinesWith: wholeMatchingLines, readOnly: true };
const PAGER: ProgramFacts = { output: "all", keepsLinesWith: anyOptions, neverFailsInPipe: true };
// Text filters that print something else than their input's lines, and cannot fail reading a pipe.
const TEXT_FILTER: ProgramFacts = { neverFailsInPipe: true, readOnly: true };
// Shell builtins and printers that always exit 0 and change no file.
const QUIET: ProgramFacts = { neverFails: true, readOnly: true };

/** The rows, by program name (the basename PATH finds). */
export const PROGRAM_FACTS: Readonly<Record<string, ProgramFacts>> = {
  tail: WINDOW,
  head: WINDOW,
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  tee: { output: "all", keepsLinesWith: anyOptions, neverFailsInPipe: true, writesOperands: true },
  less: PAGER,
  more: PAGER,
  cat: { output: "all", keepsLinesWith: unbufferedOnly, neverFailsInPipe: true, readOnly: true },
  wc: TEXT_FILTER,
  cut: TEXT_FILTER,
  tr: TEXT_FILTER,
  nl: TEXT_FILTER,
  column: TEXT_FILTER,
  fold: TEXT_FILTER,
  fmt: TEXT_FILTER,
  // Whether sort (`-o FILE`) and uniq (a second operand) write is read-only.ts's argument rule.
  sort: { neverFailsInPipe: true },
  uniq: { neverFailsInPipe: true },
  true: QUIET,
  ":": QUIET,
  echo: QUIET,
  export: QUIET,
  local: QUIET,
  declare: QUIET,
  typeset: QUIET,
  readonly: QUIET,
  alias: QUIET,
  unalias: QUIET,
  shopt: QUIET,
  unset: QUIET,
  // `printf -v NAME` assigns (read-only.ts's argument rule); it still never fails.
  printf: { neverFails: true },
};

/** The row of a program by its name, or undefined. */
export function factsOf(name: string): ProgramFacts | undefined {
  return Object.hasOwn(PROGRAM_FACTS, name) ? PROGRAM_FACTS[name] : undefined;
}

/** The programs whose row says they change no file whatever their arguments. */
export const ALWAYS_READ_ONLY_FACTS: readonly string[] = Object.keys(PROGRAM_FACTS).filter(
  (name) => PROGRAM_FACTS[name]!.readOnly === true,
);

/** An option word: starts with `-`, and is not `-` alone (which names stdin or stdout as an operand). */
export const isOption = (a: string): boolean => a.startsWith("-") && a !== "-";

/** The operands among `args`: the words that are not options, and every word after `--`. */
export const operands = (args: readonly string[]): string[] => {
  const dash = args.indexOf("--");
  return dash === -1 ? args.filter((a) => !isOption(a)) : [...args.slice(0, dash).filter((a) => !isOption(a)), ...args.slice(dash + 1)];
};

/**
 * The files a program writes as its operands (`tee a.log b.log`: both), as written; empty for a
 * program whose row does not say so. Devices among them are the caller's to tell apart.
 */
export function writtenOperands(name: string, args: readonly string[]): string[] {
  return factsOf(name)?.writesOperands === true ? operands(args) : [];
}
