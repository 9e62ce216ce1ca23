// What a transcript's non-shell tool call can change: nothing, the files it names, or anything. One
// rule for every reader (Claude Code, Codex) and the PostToolUse hook, so that a write by any tool (an
// MCP file server's `write_file`, a `replace_text`, a client's own edit tool) stales earlier runs.
// Pure: a tool's name and input in, its effect out.

/** What a tool call can change. */
export type ToolEffect =
  /** Reads, searches, plans: no file changes. */
  | { kind: "none" }
  /** Writes these paths (none named: it may have written anything). */
  | { kind: "edit"; paths: string[] };

// The clients' own tools that change no file. Claude Code: reading, searching, planning, asking,
// background-shell plumbing (the shell's own call is the edit, if any). Codex: plans, images, search.
const READ_ONLY_TOOLS = new Set([
  "Read",
  "Grep",
  "Glob",
  "LS",
  "NotebookRead",
  "WebFetch",
  "WebSearch",
  "TodoWrite",
  "TodoRead",
  "TaskCreate",
  "TaskUpdate",
  "TaskList",
  "TaskGet",
  "BashOutput",
  "TaskOutput",
  "KillShell",
  "KillBash",
  "TaskStop",
  "ExitPlanMode",
  "EnterPlanMode",
  "AskUserQuestion",
  "Skill",
  "SlashCommand",
  "ListMcpResourcesTool",
  "ReadMcpResourceTool",
  "ToolSearch",
  "update_plan",
  "view_image",
  "web_search",
  "web_search_preview",
  "list_mcp_resources",
  "list_mcp_resource_templates",
  "read_mcp_resource",
]);

// Claude Code's own edit tools, and where each names its file.
const CLIENT_EDIT_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);

// Subagents whose tool set cannot edit (Claude Code's Explore and Plan agents have no edit tools).
const READ_ONLY_SUBAGENTS = new Set(["Explore", "Plan", "statusline-setup", "claude-code-guide"]);

// Words in a tool's name that say it writes the files it names; that say it runs something (which
// can write anything); and that say it only reads.
const WRITE_WORDS = new Set([
  "write",
  "edit",
  "replace",
  "create",
  "patch",
  "move",
  "rename",
  "delete",
  "remove",
  "rm",
  "insert",
  "append",
  "save",
  "update",
  "put",
  "mkdir",
  "upload",
  "apply",
  "set",
  "modify",
  "overwrite",
  "copy",
  "touch",
  "truncate",
  "format",
  "fix",
  "refactor",
  "commit",
  "checkout",
  "revert",
  "reset",
  "restore",
  "stash",
  "merge",
  "rebase",
  "pull",
  "clone",
  "install",
]);
const RUN_WORDS = new Set([
  "run",
  "exec",
  "execute",
  "eval",
  "shell",
  "bash",
  "command",
  "terminal",
  "script",
  "spawn",
  "process",
  "stdin",
]);
const READ_WORDS = new Set([
  "read",
  "get",
  "list",
  "search",
  "find",
  "fetch",
  "query",
  "view",
  "show",
  "describe",
  "stat",
  "grep",
  "glob",
  "ls",
  "tree",
  "info",
  "status",
  "diff",
  "log",
  "lookup",
  "inspect",
  "open",
  "browse",
  "browser",
  "navigate",
  "click",
  "hover",
  "scroll",
  "screenshot",
  "snapshot",
  "count",
  "check",
  "validate",
  "lint",
  "think",
  "resolve",
  "docs",
  "help",
]);

// Input keys that name the file a call acts on, and keys that carry what it writes.
const PATH_KEYS = [
  "path",
  "file_path",
  "filePath",
  "filepath",
  "file",
  "filename",
  "notebook_path",
  "target",
  "destination",
  "dest",
  "source",
  "src",
  "to",
  "from",
  "new_path",
  "old_path",
  "newPath",
  "oldPath",
];
const CONTENT_KEYS = [
  "content",
  "contents",
  "text",
  "new_string",
  "newString",
  "new_source",
  "data",
  "body",
  "edits",
  "patch",
  "diff",
  "replacement",
  "new_text",
  "newText",
];

/** Claude Code's own edit tools (Edit, Write, MultiEdit, NotebookEdit): a failed call of one changed nothing. */
export function isClientEditTool(name: string): boolean {
  return CLIENT_EDIT_TOOLS.has(name);
}

/** The words of a tool name: `mcp__fs__write_file` -> mcp, fs, write, file; `replaceText` -> replace, text. */
export function toolNameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
}

/**
 * The effect of a non-shell tool call. The clients' own read-only tools change nothing; a name that
 * says it runs something may have changed anything; a name with a write word, or an input with a
 * path and content, writes its paths; a name with only read words changes nothing; any other tool
 * may have changed anything (an edit with no paths).
 * @example toolCallEffect("mcp__fs__write_file", { path: "src/a.py", content: "x" }) // { kind: "edit", paths: ["src/a.py"] }
 */
export function toolCallEffect(name: string, input: Readonly<Record<string, unknown>>): ToolEffect {
  if (READ_ONLY_TOOLS.has(name)) return { kind: "none" };
  if (CLIENT_EDIT_TOOLS.has(name)) {
    const path = input.file_path ?? input.notebook_path;
    return { kind: "edit", paths: typeof path === "string" ? [path] : [] };
  }
  if (name === "Task" || name === "Agent") {
    const type = input.subagent_type;
    return typeof type === "string" && READ_ONLY_SUBAGENTS.has(type) ? { kind: "none" } : { kind: "edit", paths: [] };
  }
  // Codex's write_stdin with nothing to send only polls a running command (whose line was judged).
  if (name === "write_stdin" && (input.chars === undefined || input.chars === "")) return { kind: "none" };
  const paths = namedPaths(input);
  const words = toolNameWords(name);
  if (words.some((word) => RUN_WORDS.has(word))) return { kind: "edit", paths: [] };
  const writes = words.some((word) => WRITE_WORDS.has(word)) || (paths.length > 0 && CONTENT_KEYS.some((key) => input[key] !== undefined));
  if (writes) return { kind: "edit", paths };
  if (words.some((word) => READ_WORDS.has(word))) return { kind: "none" };
  return { kind: "edit", paths: [] };
}

function namedPaths(input: Readonly<Record<string, unknown>>): string[] {
  const paths: string[] = [];
  for (const key of PATH_KEYS) {
    const value = input[key];
    if (typeof value === "string" && value !== "") paths.push(value);
  }
  const listed = input.paths ?? input.files;
  if (Array.isArray(listed)) for (const value of listed) if (typeof value === "string" && value !== "") paths.push(value);
  return [...new Set(paths)];
}
