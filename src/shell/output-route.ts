// Where a runner's results go: into the line's output unchanged (maybe through line filters such as
// `tail` or `grep`), into a file that a later command of the line prints, through a command that can
// rewrite text (`sed`, `awk`, `python -c`), or nowhere the output shows (`> /dev/null`, `> log`).
// Only the first two let the captured output stand for what the runner printed. Pure.
import { factsOf, isOption, writtenOperands } from "./command-facts.js";
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

/** A pipe into `stage`, whose own stdout goes to `next`: made once per stage and resolved once. */
type Sink =
  | { kind: "out" }
  | { kind: "null" }
  | { kind: "file"; path: string }
  | { kind: "process" }
  | { kind: "pipe"; stage: CommandNode; next: Sink; after: Streams };

interface Streams {
  out: Sink;
  err: Sink;
}

interface Resolved {
  route: "direct" | "filtered" | "transformed" | "hidden";
  /** Static paths the text was also written to (`> log`, `tee log`). */
  files: string[];
  /** Written to more files than {@link MAX_ROUTE_FILES}: `files` is empty and no reader counts. */
  tooManyFiles?: true;
  /** A tail/head window between the text and the output. */
  window?: OutputWindow;
}

const OUT: Sink = { kind: "out" };
/**
 * Files one route follows (`tee a | tee b | ...`): text teed into more files than this counts as
 * printed by none of them (a hidden route stays `hidden`), so the lists stay short.
 */
const MAX_ROUTE_FILES = 64;

/**
 * The route of each simple command's stdout and stderr, by the command's index in line order (the
 * numbering of {@link numberSimpleCommands}).
 */
export function routeOutputs(parsed: ParsedLine, order: Map<SimpleCommand, number> = numberSimpleCommands(parsed)): OutputRoutes {
  const found = new Map<number, { out: Resolved; err: Resolved }>();
  walkStatements(parsed.statements, { out: OUT, err: OUT }, { order, found, resolved: new Map() });
  let readers: ReaderIndex | null = null;
  const decide = (index: number, resolved: Resolved): { route: OutputRoute; window: OutputWindow | undefined } => {
    if (resolved.route !== "hidden") return { route: resolved.route, window: resolved.window };
    if (resolved.files.length === 0) return { route: "hidden", window: undefined };
    // The commands that print one file to the output, found only when some text went into a file.
    readers ??= indexReaders(order, found);
    const reading = readers.after(index, resolved.files);
    if (reading === null) return { route: "hidden", window: undefined };
    if (reading.allFilter) return { route: "filtered", window: undefined };
    // The text shows whole when any one reader prints it whole; else through the widest window.
    return { route: "from-file", window: reading.whole ? undefined : { lines: reading.window } };
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

interface Walk {
  order: Map<SimpleCommand, number>;
  found: Map<number, { out: Resolved; err: Resolved }>;
  /** Pipe sinks already resolved. */
  resolved: Map<Sink, Resolved>;
}

/** What the readers of some files, after some command, add up to. */
interface Reading {
  /** Every reader filters lines (`grep`). */
  allFilter: boolean;
  /** Some reader that does not filter prints the file whole. */
  whole: boolean;
  /** Otherwise the widest window of the readers that do not filter (null: one of them shows a part of unknown size). */
  window: number | null;
}

interface ReaderIndex {
  /** The readers of any of `files` that come after command `index`, or null when there is none. */
  after(index: number, files: readonly string[]): Reading | null;
}

// Per file, its readers in line order and what the readers from each one to the last add up to:
// a query is a binary search per file, however many writers and readers the line has.
function indexReaders(order: Map<SimpleCommand, number>, found: Map<number, { out: Resolved; err: Resolved }>): ReaderIndex {
  const byFile = new Map<string, { indexes: number[]; tails: Reading[] }>();
  for (const [command, index] of order) {
    const file = printedFile(command);
    const out = found.get(index)?.out;
    if (file === null || out === undefined || (out.route !== "direct" && out.route !== "filtered")) continue;
    const filters = out.route === "filtered" || dropsLines(command);
    const window = combineWindows(windowOf(command), out.window);
    let entry = byFile.get(file);
    if (entry === undefined) byFile.set(file, (entry = { indexes: [], tails: [] }));
    entry.indexes.push(index);
    entry.tails.push({
      allFilter: filters,
      whole: !filters && window === undefined,
      window: filters || window === undefined ? -1 : window.lines,
    });
  }
  for (const { tails } of byFile.values()) {
    for (let k = tails.length - 2; k >= 0; k--) tails[k] = combineReadings(tails[k]!, tails[k + 1]!);
  }
  return {
    after(index, files) {
      let reading: Reading | null = null;
      for (const file of new Set(files)) {
        const entry = byFile.get(file);
        if (entry === undefined) continue;
        let low = 0;
        let high = entry.indexes.length;
        while (low < high) {
          const mid = (low + high) >>> 1;
          if (entry.indexes[mid]! > index) high = mid;
          else low = mid + 1;
        }
        if (low < entry.indexes.length) reading = reading === null ? entry.tails[low]! : combineReadings(reading, entry.tails[low]!);
      }
      return reading;
    },
  };
}

// `window` -1 stands for "no reader that does not filter yet".
function combineReadings(a: Reading, b: Reading): Reading {
  const window =
    a.window === -1 ? b.window : b.window === -1 ? a.window : a.window === null || b.window === null ? null : Math.max(a.window, b.window);
  return { allFilter: a.allFilter && b.allFilter, whole: a.whole || b.whole, window };
}

function walkStatements(statements: readonly Statement[], initial: Streams, walk: Walk): void {
  let streams = initial;
  for (const statement of statements) {
    // `exec > >(filter)`, `exec > log`: every later command of this shell writes there.
    const redirected = shellRedirect(statement);
    if (redirected !== null) streams = applyRedirects(streams, redirected);
    for (const pipeline of statement.list.pipelines) {
      const stages = pipeline.commands;
      // The sink of stage i's stdout is the pipe into stage i + 1. Resolved from the last stage back,
      // each in one step from the next one's result: linear in the stages, with no deep recursion.
      const pipes: Sink[] = [];
      pipes[stages.length - 1] = streams.out;
      for (let i = stages.length - 2; i >= 0; i--) {
        pipes[i] = { kind: "pipe", stage: stages[i + 1]!, next: pipes[i + 1]!, after: streams };
        resolve(pipes[i]!, walk.resolved);
      }
      stages.forEach((node, i) => {
        const last = i === stages.length - 1;
        const mine: Streams = { out: pipes[i]!, err: !last && pipeline.operators[i] === "|&" ? pipes[i]! : streams.err };
        walkNode(node, mine, walk);
      });
    }
  }
}

function walkNode(node: CommandNode, streams: Streams, walk: Walk): void {
  const own = applyRedirects(streams, node.redirects);
  if (node.type === "simple") {
    const index = walk.order.get(node);
    if (index !== undefined) walk.found.set(index, { out: resolve(own.out, walk.resolved), err: resolve(own.err, walk.resolved) });
    if (node.nested !== undefined) walkStatements(node.nested.statements, own, walk);
    return;
  }
  walkStatements(node.body, own, walk);
}

/**
 * The redirects of the bare `exec`s in a statement that run in this shell (`exec > >(sed ...)`,
 * `exec 2> log`, also inside `{ ...; }`, `if`, loops; not in a subshell, a pipeline or the
 * background): they change the shell's own streams from there on. Null when there is none.
 */
export function shellRedirect(statement: Statement): readonly Redirect[] | null {
  const found: Redirect[] = [];
  collectExecRedirects(statement, found);
  return found.length === 0 ? null : found;
}

function collectExecRedirects(statement: Statement, found: Redirect[]): void {
  if (statement.background) return;
  for (const pipeline of statement.list.pipelines) {
    if (pipeline.commands.length !== 1) continue;
    const node = pipeline.commands[0]!;
    if (node.type === "simple") {
      if (node.words.length === 1 && node.words[0] === "exec") found.push(...node.redirects);
    } else if (node.type === "group" || (node.type === "compound" && node.kind !== "function")) {
      for (const inner of node.body) collectExecRedirects(inner, found);
    }
  }
}

/**
 * Does a redirect send stdout or stderr anywhere but the other of the two (`2>&1` and `1>&2` keep
 * the output whole)? Input redirects and other descriptors (`3>&1`) do not.
 */
export function redirectsOutput(redirect: Redirect): boolean {
  if (redirect.op.startsWith("<")) return false;
  if (redirect.op === "&>" || redirect.op === "&>>" || (redirect.op === ">&" && redirect.fd === null && !/^\d+$/.test(redirect.target)))
    return true;
  const fd = redirect.fd ?? 1;
  if (fd !== 1 && fd !== 2) return false;
  return !(redirect.op === ">&" && (redirect.target === "1" || redirect.target === "2"));
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
    // `> >(cmd)`: a process substitution, a command that can rewrite every line.
    const sink: Sink =
      target === "/dev/null" || target === "-"
        ? { kind: "null" }
        : target.startsWith(">(")
          ? { kind: "process" }
          : { kind: "file", path: target };
    if (op === "&>" || op === "&>>" || (op === ">&" && redirect.fd === null)) {
      out = sink;
      err = sink;
    } else if (fd === 1) out = sink;
    else if (fd === 2) err = sink;
  }
  return { out, err };
}

function resolve(sink: Sink, resolved: Map<Sink, Resolved>): Resolved {
  if (sink.kind !== "pipe") return resolveEnd(sink);
  let result = resolved.get(sink);
  if (result === undefined) resolved.set(sink, (result = resolvePipe(sink, resolved)));
  return result;
}

function resolveEnd(sink: Exclude<Sink, { kind: "pipe" }>): Resolved {
  switch (sink.kind) {
    case "out":
      return { route: "direct", files: [] };
    case "null":
      return { route: "hidden", files: [] };
    case "file":
      return { route: "hidden", files: isStatic(sink.path) ? [sink.path] : [] };
    case "process":
      return { route: "transformed", files: [] };
    default: {
      const never: never = sink;
      throw new Error(`unhandled sink ${JSON.stringify(never)}`);
    }
  }
}

// A pipe into a stage: what the stage passes on, and where its own stdout goes from there.
function resolvePipe(sink: Extract<Sink, { kind: "pipe" }>, resolvedSinks: Map<Sink, Resolved>): Resolved {
  const stage = sink.stage;
  if (stage.type !== "simple" || !keepsLines(stage)) return { route: "transformed", files: [] };
  const resolved = resolve(applyRedirects({ out: sink.next, err: sink.after.err }, stage.redirects).out, resolvedSinks);
  const teed = writtenOperands(basename(stage.words[0] ?? ""), stage.words.slice(1)).filter(isStatic);
  // A file tee wrote holds every line, whatever the later stages drop from the output.
  const route = resolved.route === "direct" && dropsLines(stage) ? "filtered" : resolved.route;
  const window = combineWindows(windowOf(stage), resolved.window);
  const files = teed.length === 0 ? resolved.files : [...resolved.files, ...teed];
  if (resolved.tooManyFiles === true || files.length > MAX_ROUTE_FILES)
    return { route, files: [], tooManyFiles: true, ...(window === undefined ? {} : { window }) };
  return { route, files, ...(window === undefined ? {} : { window }) };
}

// Commands that pass whole lines through unchanged (or drop some): what they print is what came in.
function keepsLines(command: SimpleCommand): boolean {
  if (command.assignments.length > 0 && command.words.length === 0) return false;
  const [first, ...args] = command.words;
  const facts = factsOf(basename(first ?? ""));
  return facts?.output !== undefined && facts.keepsLinesWith !== undefined && facts.keepsLinesWith(args.filter(isOption));
}

// `tail`/`head` with a line count: the window they show (default 10 lines); undefined for other commands.
function windowOf(command: SimpleCommand): OutputWindow | undefined {
  const [first, ...args] = command.words;
  if (factsOf(basename(first ?? ""))?.output !== "window") return undefined;
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
  return factsOf(basename(command.words[0] ?? ""))?.output === "filter";
}

// `cat F`, `tail [-n N] F`, `head F`, `grep PATTERN F`, `less F`: the one file a reader prints, or null.
function printedFile(command: SimpleCommand): string | null {
  if (!keepsLines(command)) return null;
  const [first, ...args] = command.words;
  const facts = factsOf(basename(first ?? ""));
  if (facts?.writesOperands === true) return null;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-n" && facts?.output === "window") i += 1;
    else if (!arg.startsWith("-") || arg === "-") operands.push(arg);
  }
  // grep's first operand is its pattern; with -e or -f the pattern is an option's value: not read here.
  const grep = facts?.output === "filter";
  if (grep && args.some((a) => a === "-e" || a === "-f" || a.startsWith("--regexp") || a.startsWith("--file"))) return null;
  const files = grep ? operands.slice(1) : operands;
  return files.length === 1 && isStatic(files[0]!) ? files[0]! : null;
}

function isStatic(word: string): boolean {
  return word !== "" && !/[$`*?[]/.test(word);
}
