// Decides whether a simple command only reads or filters (changes no file). Anything unknown is not read-only.
import type { Redirect, SimpleCommand } from "./types.js";
import { basename } from "./wrappers.js";

const ALWAYS = new Set([
  "tail", "head", "grep", "egrep", "fgrep", "rg", "ag", "ack", "wc", "cat", "less", "more", "echo", "printf", "true", "false", ":",
  "cd", "pushd", "popd", "dirs", "set", "shopt", "export", "unset", "alias", "unalias", "readonly", "local", "declare", "typeset",
  "exit", "return", "wait", "sleep", "pwd", "ls", "ll", "tree", "which", "type", "whereis", "hash", "du", "df", "stat",
  "file", "diff", "cmp", "comm", "cut", "tr", "nl", "column", "fold", "paste", "rev", "tac", "expand", "unexpand", "fmt", "od",
  "xxd", "hexdump", "strings", "basename", "dirname", "realpath", "readlink", "date", "whoami", "id", "uname", "hostname",
  "printenv", "test", "[", "[[", "((", "md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "jq", "history", "ps", "nproc",
  "free", "uptime", "seq", "yes", "env",
]);
const GIT_READ = new Set([
  "status", "diff", "log", "show", "rev-parse", "ls-files", "ls-tree", "blame", "grep", "describe", "shortlog", "cat-file",
  "rev-list", "reflog", "whatchanged", "show-ref", "merge-base", "name-rev", "count-objects", "var", "help", "version",
]);
const GO_READ = new Set(["vet", "list", "version", "doc", "help"]);
const LOG_FILE = /\.(log|out)$/;
const QUIET_PLACES = /^\/dev\/(null|stdout|stderr|tty)$|^\/tmp\//;
const isQuietTarget = (path: string): boolean => QUIET_PLACES.test(path) || isLogFileName(path);

/** A log file by its name (`*.log`, `*.out`): no runner loads one, so writing it changes nothing a test reads. */
export function isLogFileName(path: string): boolean {
  return LOG_FILE.test(path);
}

/** True when the command writes no file: only reads, filters or changes shell state. */
export function isReadOnlyCommand(command: SimpleCommand, nameIndex: number): boolean {
  if (command.hasSubstitution) return false;
  if (!command.redirects.every(isHarmlessRedirect)) return false;
  if (command.words.length === 0) return true;
  if (command.nested !== undefined) return !command.nested.opaque;
  const args = command.words.slice(nameIndex + 1);
  const name = basename(command.words[nameIndex] ?? "");
  switch (name) {
    case "tee":
      return args.filter((a) => !a.startsWith("-")).every(isQuietTarget);
    case "sed":
      return !args.some((a) => a === "-i" || a.startsWith("-i") || a.startsWith("--in-place") || /^-[a-zA-Z]*i/.test(a));
    case "sort":
      return !args.some((a) => a === "-o" || a.startsWith("-o") || a.startsWith("--output"));
    case "uniq":
      return args.filter((a) => !a.startsWith("-")).length <= 1;
    case "find":
      return !args.some((a) => ["-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"].includes(a));
    case "git":
      return isReadOnlyGit(args);
    case "go":
      return GO_READ.has(args[0] ?? "") || (args[0] === "env" && !args.includes("-w") && !args.includes("-u"));
    case "command":
      return args[0] === "-v" || args[0] === "-V";
    case "env":
      return args.every((a) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(a) || a.startsWith("-"));
    default:
      return ALWAYS.has(name);
  }
}

function isHarmlessRedirect(redirect: Redirect): boolean {
  if ((redirect.op === ">&" || redirect.op === "<&") && /^(\d+-?|-)$/.test(redirect.target)) return true;
  return !redirect.op.includes(">") || isQuietTarget(redirect.target);
}

function isReadOnlyGit(args: readonly string[]): boolean {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) i += ["-C", "-c", "--git-dir", "--work-tree", "--namespace"].includes(args[i]!) ? 2 : 1;
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === undefined) return true;
  if (GIT_READ.has(sub)) return true;
  if (sub === "branch" || sub === "tag" || sub === "remote") return rest.every((a) => a.startsWith("-") && !["-d", "-D", "-m", "-M", "-c", "-C", "--delete", "--move", "--copy", "-f", "--force", "--set-upstream-to", "-u"].includes(a));
  if (sub === "stash") return rest[0] === "list" || rest[0] === "show";
  if (sub === "config") return rest.some((a) => a === "--get" || a === "--list" || a === "-l" || a === "--get-all");
  return false;
}
