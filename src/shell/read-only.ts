// Decides whether a simple command only reads or filters (changes no file). Anything unknown is not read-only.
import { ALWAYS_READ_ONLY_FACTS, writtenOperands } from "./command-facts.js";
import { walkCommands } from "./flatten.js";
import type { CommandAnalysis, Redirect, SimpleCommand } from "./types.js";
import { basename } from "./wrappers.js";

// Read-only whatever their arguments: the rows of command-facts.ts that say so, and these.
const ALWAYS = new Set([
  ...ALWAYS_READ_ONLY_FACTS,
  "rg",
  "ag",
  "ack",
  "printf",
  "false",
  "cd",
  "pushd",
  "popd",
  "dirs",
  "set",
  "exit",
  "return",
  "wait",
  "sleep",
  "pwd",
  "ls",
  "ll",
  "tree",
  "which",
  "type",
  "whereis",
  "hash",
  "du",
  "df",
  "stat",
  "file",
  "diff",
  "cmp",
  "comm",
  "paste",
  "rev",
  "tac",
  "expand",
  "unexpand",
  "od",
  "xxd",
  "hexdump",
  "strings",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "date",
  "whoami",
  "id",
  "uname",
  "hostname",
  "printenv",
  "test",
  "[",
  "[[",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "cksum",
  "jq",
  "history",
  "ps",
  "nproc",
  "free",
  "uptime",
  "seq",
  "yes",
  "env",
]);
const GIT_READ = new Set([
  "status",
  "diff",
  "log",
  "show",
  "rev-parse",
  "ls-files",
  "ls-tree",
  "blame",
  "grep",
  "describe",
  "shortlog",
  "cat-file",
  "rev-list",
  "reflog",
  "whatchanged",
  "show-ref",
  "merge-base",
  "name-rev",
  "count-objects",
  "var",
  "help",
  "version",
]);
// Not `go list` or `go build`: they run `git status` to stamp the build, and with it the repository's hooks.
const GO_READ = new Set(["vet", "version", "doc", "help"]);
/** The git subcommands that only read (given no option that writes or runs): the effect table's read-only git rows. */
export const READ_ONLY_GIT_SUBCOMMANDS: readonly string[] = [...GIT_READ];
/** The go subcommands that only read (given no `-toolexec` or `-vettool`; `go list` too with `-buildvcs=false`). */
export const READ_ONLY_GO_SUBCOMMANDS: readonly string[] = [...GO_READ];
const LOG_FILE = /\.log$/;
const DEVICES = /^\/dev\/(null|stdout|stderr|tty)$/;
/** `/dev/null`, `/dev/stdout`, `/dev/stderr`, `/dev/tty`: a write there changes no file. */
export const isDevice = (path: string): boolean => DEVICES.test(path);
// `>&1`, `2>&1`, `>&-`: a dup of stdin, stdout or stderr, or a close. A dup to fd 3 or above writes
// wherever `exec 3>>mod.py` opened it.
export const isStdioDup = (target: string): boolean => /^([012]-?|-)$/.test(target);
// A target is a literal path: an expansion, a `..` segment or a `~` could put it anywhere (`/tmp/../$PWD/mod.py`).
const LITERAL_PATH = /^[^$`~*?[{}]*$/;
/** A path as written names one file: no expansion, glob or `~`. */
export const isLiteralPath = (path: string): boolean => path !== "" && LITERAL_PATH.test(path);
const isQuietTarget = (path: string): boolean =>
  DEVICES.test(path) || (LITERAL_PATH.test(path) && !path.split("/").includes("..") && (path.startsWith("/tmp/") || isLogFileName(path)));
// A code substitution spelled in a word, quoted or not: bash runs it in an array subscript (`printf -v
// 'a[$(cmd)]'`), a here-string, or wherever the word is expanded again.
const SUBSTITUTION = /\$\(|`/;
/** The word spells a code substitution (`$(...)` or backticks), quoted or not. */
export const spellsSubstitution = (word: string): boolean => SUBSTITUTION.test(word);
// Assignments before a read-only command that cannot make it run anything (LESSOPEN, PAGER, GIT_* can).
const SAFE_ASSIGNMENT = /^(LC_[A-Z]+|LANG|LANGUAGE|TZ|COLUMNS|LINES|TERM|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE)$/;
/** An assignment before a command that cannot make it run a program. */
export const isSafeAssignment = (name: string): boolean => SAFE_ASSIGNMENT.test(name);

/** A program given by a path into the system's own directories (`/usr/bin/git`), which no agent writes as a user would. */
export function isSystemProgram(word: string): boolean {
  return /^\/(?:usr\/)?(?:local\/)?s?bin\/[^/]+$/.test(word);
}

/** A log file by its name (`*.log`): no runner loads one, so writing it changes nothing a test reads. (`*.out` can be a golden file.) */
export function isLogFileName(path: string): boolean {
  return LOG_FILE.test(path);
}

/** True when the command writes no file: only reads, filters or changes shell state. */
export function isReadOnlyCommand(command: SimpleCommand, nameIndex: number): boolean {
  if (command.hasSubstitution) return false;
  if (!command.redirects.every(isHarmlessRedirect)) return false;
  if (command.words.some((word) => SUBSTITUTION.test(word)) || command.redirects.some((r) => SUBSTITUTION.test(r.target))) return false;
  if (command.assignments.some((a) => SUBSTITUTION.test(a.value))) return false;
  // `X=1` alone sets a shell variable; before a command, only names that cannot make it run a program.
  if (command.words.length === 0) return true;
  if (!command.assignments.every((a) => SAFE_ASSIGNMENT.test(a.name))) return false;
  if (command.nested !== undefined) return !command.nested.opaque;
  const args = command.words.slice(nameIndex + 1);
  const word = command.words[nameIndex] ?? "";
  // `./ls`, `/tmp/cat`: a file someone wrote, whatever its name. Only a name PATH finds, or the system's own.
  if (word.includes("/") && !isSystemProgram(word)) return false;
  const name = basename(word);
  const rule = Object.hasOwn(CONDITIONAL, name) ? CONDITIONAL[name] : undefined;
  return rule !== undefined ? rule(args) : ALWAYS.has(name);
}

// Programs that are read-only only with some arguments: the rule reads them.
const CONDITIONAL: Record<string, (args: readonly string[]) => boolean> = {
  tee: (args) => writtenOperands("tee", args).every(isQuietTarget),
  sed: (args) => isReadOnlySed(args),
  sort: (args) => !args.some((a) => /^-[a-zA-Z]*o/.test(a) || a.startsWith("--output")),
  // `xxd -r` writes its second file operand.
  xxd: (args) =>
    !args.some((a) => a === "-r" || a === "-revert" || /^-[a-z]*r/.test(a)) ||
    args.filter((a) => !a.startsWith("-") || a === "-").length < 2,
  printf: (args) => !args.some((a) => a === "-v" || a.startsWith("-v")),
  history: (args) => args.every((a) => /^\d+$/.test(a)),
  // `rg --pre CMD` runs CMD on every file it searches.
  rg: (args) => !args.some((a) => a === "--pre" || a.startsWith("--pre=") || a.startsWith("--pre-glob")),
  tree: (args) => !args.some((a) => a === "-o" || /^-[a-zA-Z]*o/.test(a)),
  // `file -C` compiles a magic file next to its -m argument.
  file: (args) => !args.some((a) => a === "-C" || a === "--compile" || /^-[a-zA-Z]*C/.test(a)),
  uniq: (args) => args.filter((a) => !a.startsWith("-")).length <= 1,
  find: (args) =>
    !args.some((a) => ["-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"].includes(a)),
  git: (args) => isReadOnlyGit(args),
  go: (args) => {
    if (args.some((a) => a.startsWith("-vettool") || a.startsWith("--vettool") || a.startsWith("-toolexec") || a.startsWith("--toolexec")))
      return false;
    return (
      GO_READ.has(args[0] ?? "") ||
      (args[0] === "list" && args.some(isNoBuildVcs)) ||
      (args[0] === "env" && !args.includes("-w") && !args.includes("-u"))
    );
  },
  command: (args) => args[0] === "-v" || args[0] === "-V",
  // `env -S'...'` (--split-string) runs the command its string holds.
  env: (args) =>
    args.every(
      (a) =>
        (/^[A-Za-z_][A-Za-z0-9_]*=/.test(a) && !SUBSTITUTION.test(a)) || (a.startsWith("-") && !/^-[a-zA-Z]*S|^--split-string/.test(a)),
    ),
};

/** `-C DIR`, `--git-dir`, `--work-tree`: a git option that points git at another repository or work tree. */
export const isOtherRepository = (arg: string): boolean =>
  ["-C", "--git-dir", "--work-tree"].includes(arg) || /^--(?:git-dir|work-tree)=/.test(arg);

/** go's `-buildvcs=false`: go runs no `git status` to stamp what it builds or lists. */
export const isNoBuildVcs = (arg: string): boolean => /^--?buildvcs=(?:false|f|0)$/i.test(arg);

/** Every program that can be read-only: always, or with the arguments its rule reads (the effect table's `none` rows). */
export const READ_ONLY_PROGRAMS: readonly string[] = [...ALWAYS, ...Object.keys(CONDITIONAL)];

/**
 * A line that changes no file, whatever ran it before: every command read-only (in a pipeline or a
 * background job too), none a test run, no `git` (the repository's config, which the agent's
 * commands can write, makes any git command run a program: `core.fsmonitor` for status,
 * `diff.external` for diff), and nothing written to a file at all, not even a quiet log (a
 * `notes.log` can be a link to a source): only to a device, a dup of stdout or stderr, or a pipe.
 * @example changesNoFile(analyzeCommand("ls && cat mod.py")) // true
 */
export function changesNoFile(analysis: CommandAnalysis): boolean {
  if (analysis.opaque || analysis.commands.length === 0) return false;
  if (
    !analysis.commands.every(
      (c) => c.readOnly && c.invocation === undefined && c.name !== "git" && writtenOperands(c.name, c.words.slice(1)).every(isDevice),
    )
  )
    return false;
  let writes = false;
  walkCommands(analysis.parsed.statements, null, {
    enter(node) {
      writes ||= node.redirects.some((r) => r.op.includes(">") && !(r.op === ">&" ? isStdioDup(r.target) : DEVICES.test(r.target)));
      return null;
    },
  });
  return !writes;
}

/** True when a redirect writes no file a test could read: input, a dup to stdout or stderr, /dev/null, a literal log or /tmp path. */
export function isHarmlessRedirect(redirect: Redirect): boolean {
  if (redirect.op === ">&" || redirect.op === "<&") return isStdioDup(redirect.target);
  return !redirect.op.includes(">") || isQuietTarget(redirect.target);
}

// sed is read-only when nothing edits in place and every script only prints, deletes from the
// output, quits or substitutes without the `w` (write) and `e` (execute) flags: `sed -n 'w f'`,
// `s/a/b/w f` and `1e cmd` write or run. A script from a file (`-f`) is not known.
const SED_ADDRESS = String.raw`(?:\d+|\$|/(?:[^/\\]|\\.)*/)(?:,(?:\d+|\$|/(?:[^/\\]|\\.)*/))?`;
const SED_SIMPLE = new RegExp(String.raw`^\s*(?:${SED_ADDRESS})?\s*!?\s*[pdqQ=nNgGhHxlz]?\s*$`);
const SED_SUBSTITUTE = new RegExp(String.raw`^\s*(?:${SED_ADDRESS})?\s*s(.)(?:(?!\1)[^\\]|\\.)*\1(?:(?!\1)[^\\]|\\.)*\1[gIimM0-9p]*\s*$`);
// `a text`, `i text`, `c text`: text into the output (or, with -i, into the file being edited).
const SED_TEXT = new RegExp(String.raw`^\s*(?:${SED_ADDRESS})?\s*[aic]\\?\s.*$`);
const isReadOnlySedScript = (script: string): boolean =>
  script.split(/[;\n]/).every((part) => SED_SIMPLE.test(part) || SED_SUBSTITUTE.test(part));

/** A sed script that neither writes a file of its own (`w`) nor runs a command (`e`): prints, deletes, substitutes, adds text. */
export function isPlainSedScript(script: string): boolean {
  return script.split(/[;\n]/).every((part) => SED_SIMPLE.test(part) || SED_SUBSTITUTE.test(part) || SED_TEXT.test(part));
}

/** sed's arguments: whether it edits in place, whether a script is not in the words (`-f`, a bare `-e`), its scripts and its file operands. */
export function readSedArguments(args: readonly string[]): { inPlace: boolean; scriptFile: boolean; scripts: string[]; files: string[] } {
  const scripts: string[] = [];
  const files: string[] = [];
  let inPlace = false;
  let scriptFile = false;
  let positional = false;
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i]!;
    if (a === "-s" || a === "--separate") continue;
    if (a === "-i" || a.startsWith("--in-place") || /^-[a-zA-Z]*i/.test(a)) inPlace = true;
    else if (a === "-f" || a.startsWith("--file") || /^-[a-zA-Z]*f/.test(a)) scriptFile = true;
    else if (a === "-e" || a === "--expression") {
      // `-e` as the last word: sed has no script and exits with an error; nothing is known to be plain.
      if (args[i + 1] === undefined) scriptFile = true;
      else scripts.push(args[i + 1]!);
      i += 1;
    } else if (a.startsWith("--expression=")) scripts.push(a.slice("--expression=".length));
    else if (/^-e./.test(a)) scripts.push(a.slice(2));
    else if (a.startsWith("-") && a !== "-") continue;
    else if (!positional && scripts.length === 0) {
      positional = true;
      scripts.push(a);
    } else files.push(a);
  }
  return { inPlace, scriptFile, scripts, files };
}

function isReadOnlySed(args: readonly string[]): boolean {
  const sed = readSedArguments(args);
  return !sed.inPlace && !sed.scriptFile && sed.scripts.length > 0 && sed.scripts.every(isReadOnlySedScript);
}

function isReadOnlyGit(args: readonly string[]): boolean {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) {
    // `-c core.fsmonitor=CMD`, `--config-env`, `--exec-path=DIR`: settings that make any command run a program.
    if (args[i] === "-c" || args[i]!.startsWith("--config-env") || args[i]!.startsWith("--exec-path=")) return false;
    // `git -C ../other status` runs that repository's hooks (its `core.fsmonitor`), which no audit of this one sees written.
    if (isOtherRepository(args[i]!)) return false;
    i += args[i] === "--namespace" ? 2 : 1;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === undefined) return true;
  // An output file (`diff --output=f`), a pager that runs a command (`grep -O'cmd'`), an external diff.
  if (
    rest.some(
      (a) =>
        a.startsWith("--output") ||
        a === "-O" ||
        a.startsWith("-O") ||
        a.startsWith("--open-files-in-pager") ||
        a === "--ext-diff" ||
        a.startsWith("--exec"),
    )
  )
    return false;
  if (GIT_READ.has(sub)) return true;
  if (sub === "branch" || sub === "tag" || sub === "remote")
    return rest.every(
      (a) =>
        a.startsWith("-") &&
        !["-d", "-D", "-m", "-M", "-c", "-C", "--delete", "--move", "--copy", "-f", "--force", "--set-upstream-to", "-u"].includes(a),
    );
  if (sub === "stash") return rest[0] === "list" || rest[0] === "show";
  if (sub === "config") return rest.some((a) => a === "--get" || a === "--list" || a === "-l" || a === "--get-all");
  return false;
}
