// Where a runner's results go: into the line's output unchanged (maybe through line filters such as
// `tail` or `grep`), into a file that a later command of the line prints, through a command that can
// rewrite text (`sed`, `awk`, `python -c`), or nowhere the output shows (`> /dev/null`, `> log`).
// Only the first two let the captured output stand for what the runner printed. Pure.
import { numberSimpleCommands } from "./flatten.js";
import type { CommandNode, ParsedLine, Redirect, SimpleCommand, Statement } from "./types.js";
import { basename } from "./wrappers.js";

/**
 * `direct`: the results reach the output unchanged, or through commands that keep every line of the
 * part they show (`tail -n`, `head -n`, `tee`, `cat`). `from-file`: written to a file that a later
 * command of the line prints that way (`pytest > log 2>&1; tail -5 log`). `filtered`: a line filter
 * (`grep`, `grep -v`) stands between them: lines are whole but any of them may be missing, so only a
 * count summary can prove a pass and no id proves that its test passed. `transformed`: a command that
 * can rewrite text stands between the runner and the output. `hidden`: the results go to `/dev/null`
 * or to a file the line never prints.
 */
export type OutputRoute = "direct" | "from-file" | "filtered" | "transformed" | "hidden";

/**
 * A `tail -n N` / `head -n N` between the runner and the output (in the pipe, or as the command that
 * prints its file): it shows at most `lines` lines of what the runner printed. `lines` is null when the
 * part shown is not known to reach either end (`tail -n +3`, `head -n -2`, two windows of different
 * sides). An output with fewer lines than `lines` is the whole output.
 */
export interface OutputWindow {
  lines: number | null;
}

/** The routes of each simple command's stdout and stderr, and the window of those that pass one. */
export interface OutputRoutes {
  stdout: Map<number, OutputRoute>;
  stderr: Map<number, OutputRoute>;
  stdoutWindow: Map<number, OutputWindow>;
  stderrWindow: Map<number, OutputWindow>;
}

type Sink = { kind: "out" } | { kind: "null" } | { kind: "file"; path: string } | { kind: "pipe"; stages: readonly CommandNode[]; after: Streams };

interface Streams {
  out: Sink;
  err: Sink;
}

interface Resolved {
  route: "direct" | "filtered" | "transformed" | "hidden";
  /** Static paths the text was also written to (`> log`, `tee log`). */
  files: string[];
  /** A tail/head window between the text and the output. */
  window?: OutputWindow;
}

const OUT: Sink = { kind: "out" };

/**
 * The route of each simple command's stdout and stderr, by the command's index in line order (the
 * numbering of {@link numberSimpleCommands}).
 */
export function routeOutputs(parsed: ParsedLine, order: Map<SimpleCommand, number> = numberSimpleCommands(parsed)): OutputRoutes {
  const found = new Map<number, { out: Resolved; err: Resolved }>();
  walkStatements(parsed.statements, { out: OUT, err: OUT }, order, found);
  // The commands that print one file to the output, found only when some text went into a file.
  type Reader = { index: number; file: string; filters: boolean; window: OutputWindow | undefined };
  let readers: Reader[] | null = null;
  const findReaders = (): Reader[] => {
    const list: Reader[] = [];
    for (const [command, index] of order) {
      const file = printedFile(command);
      const out = found.get(index)?.out;
      if (file !== null && out !== undefined && (out.route === "direct" || out.route === "filtered")) {
        list.push({ index, file, filters: out.route === "filtered" || dropsLines(command), window: combineWindows(windowOf(command), out.window) });
      }
    }
    return list;
  };
  const decide = (index: number, resolved: Resolved): { route: OutputRoute; window: OutputWindow | undefined } => {
    if (resolved.route !== "hidden") return { route: resolved.route, window: resolved.window };
    if (resolved.files.length === 0) return { route: "hidden", window: undefined };
    readers ??= findReaders();
    const reading = readers.filter((reader) => reader.index > index && resolved.files.includes(reader.file));
    if (reading.length === 0) return { route: "hidden", window: undefined };
    if (reading.every((reader) => reader.filters)) return { route: "filtered", window: undefined };
    // The text shows whole when any one reader prints it whole.
    const whole = reading.some((reader) => !reader.filters && reader.window === undefined);
    const windows = reading.filter((reader) => !reader.filters).map((reader) => reader.window);
    return { route: "from-file", window: whole ? undefined : windows.reduce((a, b) => ({ lines: a === undefined || b === undefined || a.lines === null || b.lines === null ? null : Math.max(a.lines, b.lines) })) };
  };
  const routes: OutputRoutes = { stdout: new Map(), stderr: new Map(), stdoutWindow: new Map(), stderrWindow: new Map() };
  for (const [index, streams] of found) {
    const out = decide(index, streams.out);
    const err = decide(index, streams.err);
    routes.stdout.set(index, out.route);
    routes.stderr.set(index, err.route);
    if (out.window !== undefined) routes.stdoutWindow.set(index, out.window);
    if (err.window !== undefined) routes.stderrWindow.set(index, err.window);
  }
  return routes;
}

function walkStatements(statements: readonly Statement[], streams: Streams, order: Map<SimpleCommand, number>, found: Map<number, { out: Resolved; err: Resolved }>): void {
  for (const statement of statements) {
    for (const pipeline of statement.list.pipelines) {
      pipeline.commands.forEach((node, i) => {
        const last = i === pipeline.commands.length - 1;
        const pipe: Sink = last ? streams.out : { kind: "pipe", stages: pipeline.commands.slice(i + 1), after: streams };
        const mine: Streams = { out: pipe, err: !last && pipeline.operators[i] === "|&" ? pipe : streams.err };
        walkNode(node, mine, order, found);
      });
    }
  }
}

function walkNode(node: CommandNode, streams: Streams, order: Map<SimpleCommand, number>, found: Map<number, { out: Resolved; err: Resolved }>): void {
  const own = applyRedirects(streams, node.redirects);
  if (node.type === "simple") {
    const index = order.get(node);
    if (index !== undefined) found.set(index, { out: resolve(own.out), err: resolve(own.err) });
    if (node.nested !== undefined) walkStatements(node.nested.statements, own, order, found);
    return;
  }
  walkStatements(node.body, own, order, found);
}

/** Applies `> f`, `2>&1`, `&> f`, ... in order, as bash does. */
function applyRedirects(streams: Streams, redirects: readonly Redirect[]): Streams {
  let { out, err } = streams;
  for (const redirect of redirects) {
    const { op, target } = redirect;
    if (op.startsWith("<")) continue;
    const fd = redirect.fd ?? 1;
    if (op === ">&" && /^\d+$/.test(target)) {
      const source = target === "1" ? out : target === "2" ? err : { kind: "null" as const };
      if (fd === 1) out = source;
      else if (fd === 2) err = source;
      continue;
    }
    const sink: Sink = target === "/dev/null" || target === "-" ? { kind: "null" } : { kind: "file", path: target };
    if (op === "&>" || op === "&>>" || (op === ">&" && redirect.fd === null)) {
      out = sink;
      err = sink;
    } else if (fd === 1) out = sink;
    else if (fd === 2) err = sink;
  }
  return { out, err };
}

function resolve(sink: Sink): Resolved {
  switch (sink.kind) {
    case "out":
      return { route: "direct", files: [] };
    case "null":
      return { route: "hidden", files: [] };
    case "file":
      return { route: "hidden", files: isStatic(sink.path) ? [sink.path] : [] };
    case "pipe": {
      const [stage, ...rest] = sink.stages;
      if (stage === undefined || stage.type !== "simple" || !keepsLines(stage)) return { route: "transformed", files: [] };
      const next: Sink = rest.length === 0 ? sink.after.out : { kind: "pipe", stages: rest, after: sink.after };
      const resolved = resolve(applyRedirects({ out: next, err: sink.after.err }, stage.redirects).out);
      const teed = basename(stage.words[0] ?? "") === "tee" ? stage.words.slice(1).filter((w) => !w.startsWith("-") && isStatic(w)) : [];
      // A file tee wrote holds every line, whatever the later stages drop from the output.
      const route = resolved.route === "direct" && dropsLines(stage) ? "filtered" : resolved.route;
      const window = combineWindows(windowOf(stage), resolved.window);
      return { route, files: [...resolved.files, ...teed], ...(window === undefined ? {} : { window }) };
    }
    default: {
      const never: never = sink;
      throw new Error(`unhandled sink ${JSON.stringify(never)}`);
    }
  }
}

// Commands that pass whole lines through unchanged (or drop some): what they print is what came in.
function keepsLines(command: SimpleCommand): boolean {
  if (command.assignments.length > 0 && command.words.length === 0) return false;
  const [first, ...args] = command.words;
  const name = basename(first ?? "");
  const options = args.filter((a) => a.startsWith("-") && a !== "-");
  switch (name) {
    case "tail":
    case "head":
      // Line counts only: `-c N` / `--bytes` cut inside a line.
      return options.every((o) => /^-(?:\d+|n\d*|q|v|f|F)$/.test(o) || /^--(?:lines(?:=\S+)?|quiet|silent|verbose|follow(?:=\S+)?)$/.test(o));
    case "grep":
    case "egrep":
    case "fgrep":
      // `-o` prints parts of lines, `-c`/`-l`/`-L` print counts and names, `-n`/`-b`/`-H` prefix lines.
      return options.every((o) => !/^-[^-]*[oclLnbHZz]/.test(o) && !/^--(?:only-matching|count|files-with(?:out)?-match(?:es)?|line-number|byte-offset|with-filename|null|label)/.test(o));
    case "tee":
    case "less":
    case "more":
      return true;
    case "cat":
      // `-n`, `-b`, `-v`, `-A`, `-e`, `-t`, `-E`, `-T`, `-s` change or drop what is printed.
      return options.every((o) => o === "-u");
    default:
      return false;
  }
}

// `tail`/`head` with a line count: the window they show (default 10 lines); undefined for other commands.
function windowOf(command: SimpleCommand): OutputWindow | undefined {
  const [first, ...args] = command.words;
  const name = basename(first ?? "");
  if (name !== "tail" && name !== "head") return undefined;
  let count = "10";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-n" || arg === "--lines") count = args[(i += 1)] ?? "";
    else if (arg.startsWith("--lines=")) count = arg.slice("--lines=".length);
    else if (/^-n./.test(arg)) count = arg.slice(2);
    else if (/^-\d+$/.test(arg)) count = arg.slice(1);
    else if (arg === "-f" || arg === "-F" || arg.startsWith("--follow")) return { lines: null };
  }
  // `tail -n +K` starts at line K and `head -n -K` stops K lines early: neither shows both ends.
  return /^\d+$/.test(count) ? { lines: Number(count) } : { lines: null };
}

// Two windows in a row (`tail -5 | head -2`): the output is whole only if it fits both.
function combineWindows(a: OutputWindow | undefined, b: OutputWindow | undefined): OutputWindow | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return { lines: a.lines === null || b.lines === null ? null : Math.min(a.lines, b.lines) };
}

// Line filters: every line they print is whole, but which lines are missing depends on their text.
function dropsLines(command: SimpleCommand): boolean {
  const name = basename(command.words[0] ?? "");
  return name === "grep" || name === "egrep" || name === "fgrep";
}

// `cat F`, `tail [-n N] F`, `head F`, `grep PATTERN F`, `less F`: the one file a reader prints, or null.
function printedFile(command: SimpleCommand): string | null {
  if (!keepsLines(command)) return null;
  const [first, ...args] = command.words;
  const name = basename(first ?? "");
  if (name === "tee") return null;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-n" && (name === "tail" || name === "head")) i += 1;
    else if (!arg.startsWith("-") || arg === "-") operands.push(arg);
  }
  // grep's first operand is its pattern; with -e or -f the pattern is an option's value: not read here.
  const grep = name === "grep" || name === "egrep" || name === "fgrep";
  if (grep && args.some((a) => a === "-e" || a === "-f" || a.startsWith("--regexp") || a.startsWith("--file"))) return null;
  const files = grep ? operands.slice(1) : operands;
  return files.length === 1 && isStatic(files[0]!) ? files[0]! : null;
}

function isStatic(word: string): boolean {
  return word !== "" && !/[$`*?[]/.test(word);
}
